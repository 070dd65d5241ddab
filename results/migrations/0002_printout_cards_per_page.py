# How many score cards a printout cuts from one sheet, and the evening printout.
# A column added to ``tournaments_printout`` (existing rows: 1 card per page); the kind's new choice
# is Django's state only.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="printout",
            name="cards_per_page",
            field=models.PositiveSmallIntegerField(
                choices=[
                    (1, "1 fiche par page (A4)"),
                    (2, "2 fiches par page (A5)"),
                    (4, "4 fiches par page (A6)"),
                ],
                default=1,
            ),
        ),
        migrations.AlterField(
            model_name="printout",
            name="kind",
            field=models.CharField(
                choices=[
                    ("bundle", "tout : classement, feuille de partie, fiches"),
                    ("ranking", "classement"),
                    ("game", "feuille de partie"),
                    ("cards", "fiches des joueurs"),
                    ("tournament", "classement général"),
                    ("evening", "toute la soirée : classement général, puis chaque partie"),
                ],
                max_length=12,
            ),
        ),
    ]
