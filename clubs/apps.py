from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = "Clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from clubs import messages  # noqa: F401 - registers the room's sentences
