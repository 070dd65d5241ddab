from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "training"
    verbose_name = "Entraînement"

    def ready(self):
        from training import messages  # noqa: F401 - registers the room's sentences
