from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "training"
    verbose_name = "Entraînement"

    def ready(self):
        from training import messages  # noqa: F401 - registers the room's sentences

    def warm_up(self) -> None:
        """A web process about to serve (``manage.py serve``, each gunicorn worker; server.warmup) sends
        training's searches to a low-priority worker process of its own (started at the first)."""
        from django.conf import settings

        from training import worker

        if settings.TRAINING_WORKER:
            worker.start()
