from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournois"

    def ready(self):
        from tournaments import memo
        from tournaments.models import Game, Player, Round, SubmissionChange, Tournament

        # What the phones' polls remember is forgotten when these change (tournaments/memo.py).
        memo.connect(Round, Game, Tournament, Player, SubmissionChange)
