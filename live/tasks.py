"""Thin tasks: ids in, one call (pretix's habit).  Without a broker they run in-process.  The
broadcast queues them by name (``server.writes.task``)."""

from celery import shared_task

from live import broadcast


@shared_task(ignore_result=True)
def room_broadcast_task(tournament_id: int, key: str, at: float) -> None:
    """A room's new state, and its results at a close, pushed to its phones (``broadcast``)."""
    broadcast.publish_now(tournament_id, key, at)
