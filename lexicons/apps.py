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

    def resumed(self) -> None:
        """``server.restore``, after an evening is resumed from a copy made on another laptop: the
        lists' rows named that laptop's files.  The shipped list is this installation's file; an
        uploaded list is its copy put back under MEDIA_ROOT (named by its sha256)."""
        from pathlib import Path

        from django.conf import settings

        from engine.lexicon import DEFAULT_PATH
        from lexicons.models import LexiconList

        for row in LexiconList.objects.all():
            if Path(row.path).is_file():
                continue
            if Path(row.path).name == DEFAULT_PATH.name:
                row.path = str(DEFAULT_PATH)
            else:
                uploaded = Path(settings.MEDIA_ROOT) / "lexicons" / f"{row.sha256}.txt"
                if not uploaded.is_file():
                    continue
                row.path = str(uploaded)
            row.save(update_fields=["path"])
