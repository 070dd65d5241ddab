# The printouts and merges come here from the ``tournaments`` app, their tables ``tournaments_printout`` and
# ``tournaments_mergedresults`` kept: Django's state only, the database is not touched (server/moves.py).

from django.conf import settings
from django.db import migrations

from server.moves import moved_model

MADE = "tournaments.migrations.0002_results"


class Migration(migrations.Migration):
    initial = True
    dependencies = [("tournaments", "0002_results"), migrations.swappable_dependency(settings.AUTH_USER_MODEL)]
    operations = [
        moved_model(MADE, "MergedResults", "tournaments_mergedresults"),
        moved_model(MADE, "Printout", "tournaments_printout"),
    ]
