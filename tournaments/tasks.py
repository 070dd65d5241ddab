"""Thin tasks: ids in, one service call (pretix's habit).  Without a broker they run in-process.  The
services queue them by name (``server.writes.task``)."""

from celery import shared_task

from tournaments.services import rounds, tops


@shared_task(acks_late=True)
def round_compute_top_task(round_id: int) -> None:
    tops.round_compute_top(round_id=round_id)


@shared_task(acks_late=True)
def round_close_task(round_id: int) -> None:
    rounds.round_close_if_due(round_id=round_id)
