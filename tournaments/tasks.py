"""Thin tasks: ids in, one service call (pretix's habit).  Without a broker they run in-process."""

from celery import shared_task
from kombu.exceptions import OperationalError

from tournaments import result_services, services

#: What queuing a task raises when the broker cannot be reached: kombu's wrapping of the connection
#: error, or the socket's own error when it escapes before kombu wraps it.
BROKER_DOWN = (OperationalError, OSError)


@shared_task(acks_late=True)
def round_compute_top_task(round_id: int) -> None:
    services.round_compute_top(round_id=round_id)


@shared_task(acks_late=True)
def round_close_task(round_id: int) -> None:
    services.round_close_if_due(round_id=round_id)


@shared_task(acks_late=True)
def printout_build_task(printout_id: int) -> None:
    result_services.printout_build(printout_id=printout_id)
