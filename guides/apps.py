from django.apps import AppConfig


class GuidesConfig(AppConfig):
    name = "guides"
    default_auto_field = "django.db.models.BigAutoField"
