from django.apps import AppConfig


class SimultaneousConfig(AppConfig):
    name = "simultaneous"
    verbose_name = "Simultanés"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_save

        from server import memo
        from simultaneous import messages  # noqa: F401 - registers the room's sentences
        from simultaneous.models import Registration, Upload
        from simultaneous.secrecy import held_games
        from simultaneous.services import lead_moved
        from tournaments import disclosure
        from tournaments.models import Game, Round

        # Every reader of a game asks ``tournaments.disclosure`` what of it may leave: the centres'
        # games are the events'.
        disclosure.holder(held_games)

        # A centre registered or withdrawn, a file kept or withdrawn: this process's public page
        # (``reads.event_standing_recent``) shows it at once.
        memo.connect(Registration, Upload)

        # The lead centre's game is played on the live room's screens: its placed tops and its end
        # reach the other centres from here.
        post_save.connect(lead_moved, sender=Round, dispatch_uid="simultaneous-lead-round")
        post_save.connect(lead_moved, sender=Game, dispatch_uid="simultaneous-lead-game")
