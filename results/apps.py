from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = "Résultats"

    def ready(self):
        from results import messages, tasks  # noqa: F401 - the room's sentences and tasks, registered
