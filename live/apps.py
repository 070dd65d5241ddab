from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Salle"

    def ready(self):
        # The room's changes pushed to its phones (broadcast), its task registered, a removed
        # player's link forgotten by the room (room).
        from live import broadcast, room, tasks  # noqa: F401
