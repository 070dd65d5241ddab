"""What every room's writes go through: refusals with a reason in every language, the write queue
before SQLite's lock, and background tasks queued by name.

Zulip's habit: every write is a named function of a room's ``services``; each raises
``ServiceError`` when the rules or the state refuse it, and the view shows ``error.message`` in the
interface's language.
"""

from __future__ import annotations

import contextlib
import threading

from celery import current_app
from django.db import connection, transaction
from kombu.exceptions import OperationalError

from engine.messages import Message, languages
from server.language import interface_language


class ServiceError(Exception):
    """A request the rules or the state refuse; ``message`` says why (French, English)."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))

    def text(self) -> str:
        """The reason in the interface's language."""
        return self.message.text(interface_language())

    @classmethod
    def because(cls, code: str, reason: Message) -> ServiceError:
        """A refusal whose reason is an engine message, kept in every language."""
        return cls(code, **{f"reason_{lang}": reason.text(lang) for lang in languages()})


#: On SQLite one transaction writes at a time, and a connection that finds the database locked sleeps
#: in steps of up to 100 ms before it tries again: in the last seconds of a round, a slip would wait far
#: longer than the write it waits for (measured: docs/developer/benchmarks.md).  The web process's threads
#: therefore queue here and take the lock the moment it is free.  Reentrant: a service may call
#: another inside its transaction.  Other processes (a management command) still meet SQLite's wait.
_SQLITE_WRITER = threading.RLock()
#: After this long the thread stops queueing and lets SQLite's own timeout decide.
_WRITER_WAIT_SECONDS = 20


@contextlib.contextmanager
def writing():
    """A write transaction (``transaction.atomic``), queued behind this process's other writers on
    SQLite."""
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    queued = _SQLITE_WRITER.acquire(timeout=_WRITER_WAIT_SECONDS)
    try:
        with transaction.atomic():
            yield
    finally:
        if queued:
            _SQLITE_WRITER.release()


#: What queuing a task raises when the broker cannot be reached: kombu's wrapping of the connection
#: error, or the socket's own error when it escapes before kombu wraps it.
BROKER_DOWN = (OperationalError, OSError)


def task(name: str):
    """The Celery task registered as ``name``.  Services queue their room's tasks by name, so that a
    room's ``tasks`` module (which calls the services) and its services do not import each other;
    each room's ``AppConfig.ready`` imports its tasks, so they are registered in every process."""
    return current_app.tasks[name]
