"""Writes behind the results: printouts built by a task that reports its progress, and merged results
of a prepared game played in several clubs (§5)."""

from __future__ import annotations

import threading

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from clubs.access import home_club
from results import merges, reading, sheets
from results.models import MergedResults, Printout
from server.writes import ServiceError, task
from tournaments import standings
from tournaments.models import Game, Tournament

#: The task that builds a printout (``results.tasks``).
PRINTOUT_TASK = "results.tasks.printout_build_task"

#: Progress is written at most this often (in items), so a 300-card build does not write 300 times.
PROGRESS_EVERY = 4


def printout_request(
    *,
    tournament: Tournament,
    kind: str,
    game: Game | None = None,
    cards_per_page: int = Printout.CardsPerPage.ONE,
) -> Printout:
    """Ask for a PDF; it is built by a worker when a broker is set, else in a thread of this process,
    so the arbiter's page can follow the progress either way.  ``cards_per_page`` (1, 2 or 4) is kept
    only by the printouts that hold score cards."""
    if kind not in Printout.TOURNAMENT_KINDS and game is None:
        raise ServiceError("printout_needs_game")
    if kind not in Printout.CARD_KINDS:
        cards_per_page = Printout.CardsPerPage.ONE
    printout = Printout.objects.create(
        tournament=tournament, game=game, kind=kind, cards_per_page=Printout.CardsPerPage(cards_per_page),
        made_on=standings.printed_key(tournament.pk),
    )  # fmt: skip
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        # After the commit, so the worker finds the row.
        transaction.on_commit(lambda: task(PRINTOUT_TASK).delay(printout.pk))
    elif settings.PRINTOUTS_IN_THREAD:
        transaction.on_commit(lambda: _start_thread(printout.pk))
    else:
        printout = printout_build(printout_id=printout.pk)
    return printout


def _start_thread(printout_id: int) -> None:
    threading.Thread(target=_build_in_thread, args=(printout_id,), daemon=True).start()


def _build_in_thread(printout_id: int) -> None:
    try:
        printout_build(printout_id=printout_id)
    finally:
        close_old_connections()


def printout_build(*, printout_id: int) -> Printout:
    """Gather the data, lay the pages out, store the PDF; a failure is kept with its message so the
    page says so instead of waiting for ever."""
    printout = Printout.objects.select_related("tournament__lexicon", "game").get(pk=printout_id)
    if printout.status == Printout.Status.DONE:
        return printout
    Printout.objects.filter(pk=printout_id).update(status=Printout.Status.RUNNING)
    try:
        filename, _mimetype, data = sheets.build(printout, progress=_progress(printout_id))
    except Exception as error:
        Printout.objects.filter(pk=printout_id).update(
            status=Printout.Status.FAILED, error=str(error)[:300], finished_at=timezone.now()
        )
        raise
    done = {"status": Printout.Status.DONE, "filename": filename, "pdf": data, "finished_at": timezone.now()}
    Printout.objects.filter(pk=printout_id).update(**done)
    for field, value in done.items():  # what was just stored: no need to read the PDF back
        setattr(printout, field, value)
    return printout


def _progress(printout_id: int):
    def report(done: int, total: int) -> None:
        if done == total or done % PROGRESS_EVERY == 0:
            Printout.objects.filter(pk=printout_id).update(done=done, total=total)

    return report


def merge_create(*, files: list[tuple[str, bytes]], created_by, owner=None) -> MergedResults:
    """Keep the clubs' results files once they are known to be the same game (same tops everywhere,
    §5); refused with the reason otherwise."""
    merges.results_merge(files)  # a MergeError (a ServiceError) says which file and why
    kept = [{"name": reading.file_name(name), "data": data.decode("utf-8")} for name, data in files]
    owner = owner or home_club(created_by)
    return MergedResults.objects.create(created_by=created_by, owner=owner, files=kept)
