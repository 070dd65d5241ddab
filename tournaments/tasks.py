"""Thin tasks: ids in, one service call (pretix's habit).  Without a broker they run in-process."""

from celery import shared_task
from celery.signals import worker_process_init
from kombu.exceptions import OperationalError

from tournaments import result_services, services

#: What queuing a task raises when the broker cannot be reached: kombu's wrapping of the connection
#: error, or the socket's own error when it escapes before kombu wraps it.
BROKER_DOWN = (OperationalError, OSError)


@worker_process_init.connect
def _warm_up(**_kwargs) -> None:
    """Each worker process loads the word list and the search before its first top."""
    from tournaments.lexicons import warm_up

    warm_up()


@shared_task(acks_late=True)
def round_compute_top_task(round_id: int) -> None:
    services.round_compute_top(round_id=round_id)


@shared_task(acks_late=True)
def round_close_task(round_id: int) -> None:
    services.round_close_if_due(round_id=round_id)


@shared_task(acks_late=True)
def printout_build_task(printout_id: int) -> None:
    result_services.printout_build(printout_id=printout_id)
