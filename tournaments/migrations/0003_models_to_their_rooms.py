# The word lists go to the ``lexicons`` app, the printouts and merges to the ``results`` app, their
# tables kept as they are: Django's state only, nothing in the database changes (a laptop that
# upgrades keeps every tournament; tests/tournaments/test_migrations.py migrates such a database).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0002_results"),
        ("lexicons", "0001_initial"),
        ("results", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="tournament",
                    name="lexicon",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to="lexicons.lexiconlist", verbose_name="dictionnaire"),
                ),
                migrations.DeleteModel(name="LexiconList"),
                migrations.DeleteModel(name="Printout"),
                migrations.DeleteModel(name="MergedResults"),
            ],
            database_operations=[],
        ),
    ]
