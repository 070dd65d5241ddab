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

    def resumed(self) -> list:
        """``server.restore``, after an evening is resumed from a copy: a path the copy names as the
        other laptop's (a row written before paths were kept relative) kept as rows keep it
        (``lexicons.files``); the messages naming the lists that are not here (the copy came
        without its ``media/``): the club sends each again."""
        from django.db import transaction

        from engine.messages import Message
        from lexicons.files import lexicon_file, path_stored
        from lexicons.models import LexiconList

        missing = []
        with transaction.atomic():
            for row in LexiconList.objects.order_by("pk"):
                stored = path_stored(row.path, row.sha256)
                if stored != row.path:
                    row.path = stored
                    row.save(update_fields=["path"])
                if not lexicon_file(row.path).is_file():
                    missing.append(Message("lexicon_missing", {"name": row.name, "sha256": row.sha256[:12]}))
        return missing
