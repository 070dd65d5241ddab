# After 0005 filled them: a correction always names its round and player.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_changes_by_round'),
    ]

    operations = [
        migrations.AlterField(
            model_name='submissionchange',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player'),
        ),
        migrations.AlterField(
            model_name='submissionchange',
            name='round',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='tournaments.round'),
        ),
    ]
