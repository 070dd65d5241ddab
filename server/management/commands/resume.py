"""``manage.py resume PATH``: the evening continued on this laptop from a copy: PATH is a
copy (``arbiter-<time>.sqlite3``) or the folder holding them (the newest complete one is taken).
Then ``manage.py serve`` (or ``python3 run.py``) serves it; ``serve --resume PATH`` does both."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from server.language import interface_language
from server.restore import resume_evening
from server.writes import ServiceError


def resume_or_refuse(path: str, *, replace: bool, write, media: Path | None = None) -> None:
    """The copy resumed (with the media files of ``media``, default beside the copy), what happened
    written with ``write`` (and what a room has to tell, such as a word list the copy came without);
    a refusal as a CommandError in French then English (nothing changed)."""
    told = []
    try:
        copy, aside = resume_evening(Path(path), replace=replace, media=media, told=told)
    except ServiceError as error:
        raise CommandError(f"{error.message.text('fr')}\n{error.message.text('en')}") from error
    write(_("Soirée reprise depuis %(path)s.") % {"path": copy})
    if aside is not None:
        write(_("L'ancienne base de ce portable est gardée sous %(path)s.") % {"path": aside})
    for message in told:
        write(message.text(interface_language()))
    write(
        _(
            "Un coup qui était en cours se ferme avec les bulletins reçus ; l'arbitre peut encore "
            "l'annuler et retirer (« Annuler le coup »)."
        )
    )


class Command(BaseCommand):
    help = "Continue an evening on this laptop from a copy (a file, or the folder of the copies)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="arbiter-<time>.sqlite3, or the folder holding the copies")
        parser.add_argument("--replace", action="store_true", help="replace this laptop's evening")

    def handle(self, *args, path: str, replace: bool, **options):
        resume_or_refuse(path, replace=replace, write=self.stdout.write)
