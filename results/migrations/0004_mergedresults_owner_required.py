"""The owner required, in a migration of its own: PostgreSQL does not alter a table whose rows the
same transaction just updated."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("results", "0003_mergedresults_owner")]

    operations = [
        migrations.AlterField(
            model_name='mergedresults',
            name='owner',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.club'),
        ),
    ]
