# The word lists' model comes here from the ``tournaments`` app, its table ``tournaments_lexiconlist`` kept:
# Django's state only, the database is not touched (server/moves.py).

from django.db import migrations

from server.moves import moved_model


class Migration(migrations.Migration):
    initial = True
    dependencies = [("tournaments", "0002_results")]
    operations = [moved_model("tournaments.migrations.0001_initial", "LexiconList", "tournaments_lexiconlist")]
