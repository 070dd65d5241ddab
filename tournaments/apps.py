from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournois"

    def ready(self):
        from server import memo

        # The room's sentences and tasks registered, the room's players' mark moved on their changes.
        from tournaments import marks, messages, tasks  # noqa: F401
        from tournaments.models import Game, Player, Round, SubmissionChange, Tournament

        # What the phones' polls remember is forgotten when these change (server/memo.py).
        memo.connect(Round, Game, Tournament, Player, SubmissionChange)

    def warm_up(self) -> None:
        """``server.warmup``, before the first request: rounds left running past their deadline while
        the server was stopped are closed (their slips graded), instead of showing "running"."""
        from tournaments.services import rounds_close_overdue

        rounds_close_overdue()
