from django.apps import AppConfig


class LexiconsConfig(AppConfig):
    name = "lexicons"
    verbose_name = "Dictionnaires"

    def ready(self):
        from lexicons import messages  # noqa: F401 - registers the room's sentences

    def warm_up(self) -> None:
        """``server.warmup``: the shipped list and the search loaded before the first rack."""
        from lexicons.loaded import warm_up

        warm_up()
