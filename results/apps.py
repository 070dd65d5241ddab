from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = "Résultats"

    def ready(self):
        from results import messages, tasks  # noqa: F401 - the room's sentences and tasks, registered

    def chores(self):
        """Every 30 s in the laptop's server (``server.background``): the waiting results files."""
        from results.outbox import outbox_send_due

        outbox_send_due()
