"""Thin tasks: ids in, one service call.  Without a broker they run in-process."""

from celery import shared_task

from results import services


@shared_task(acks_late=True)
def printout_build_task(printout_id: int) -> None:
    services.printout_build(printout_id=printout_id)
