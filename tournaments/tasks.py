"""Thin tasks: ids in, one service call (pretix's habit).  Without a broker they run in-process.  The
services queue them by name (``server.writes.task``)."""

from celery import shared_task

from tournaments.models import Round
from tournaments.services import rounds, tops


@shared_task(acks_late=True)
def round_compute_top_task(round_id: int) -> None:
    tops.round_compute_top(round_id=round_id)


#: A close that must wait for slips still queued tries again this often, this many times at most
#: (``server.arrival.MAX_WAIT_SECONDS``); any screen's request past the deadline closes it as well.
CLOSE_RETRY_SECONDS, CLOSE_RETRIES = 0.25, 120


@shared_task(bind=True, acks_late=True, max_retries=CLOSE_RETRIES)
def round_close_task(self, round_id: int) -> None:
    if (
        rounds.round_close_if_due(round_id=round_id).status == Round.Status.RUNNING
        and not self.request.is_eager
    ):
        raise self.retry(countdown=CLOSE_RETRY_SECONDS)
