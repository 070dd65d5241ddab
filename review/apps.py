from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Revue"

    def ready(self):
        from review import messages  # noqa: F401 - registers the room's sentences
