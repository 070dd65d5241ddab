"""Each merge belongs to a club; those made before clubs existed go to the first club."""

import django.db.models.deletion
from django.db import migrations, models


def _to_first_club(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    rows = apps.get_model("results", "mergedresults").objects.filter(owner__isnull=True)
    if rows.exists():
        club = Club.objects.order_by("id").first() or Club.objects.create(name="Mon club")
        rows.update(owner=club)


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_first_club'),
        ('results', '0002_printout_cards_per_page'),
    ]

    operations = [
        migrations.AddField(
            model_name='mergedresults',
            name='owner',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.club'),
        ),
        migrations.RunPython(_to_first_club, migrations.RunPython.noop),
    ]
