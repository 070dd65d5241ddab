"""The laptop's server serves the room first: strangers' requests wait in a lane of their own.

Waitress hands requests to its threads in the order they arrived.  Readers of a simultaneous's public
page and people training (``settings.STRANGER_PATHS``: pages anyone may open, without login) share
the one process with the room's phones; at 200 requests a second they filled the queue, and the
phones' polls waited behind them.  Here a request waiting for a thread is served before any stranger's,
and strangers' requests are served by at most ``threads - 1`` threads at once: one thread is always
free for the room.  Strangers are served whenever the room leaves room.  At scale nginx limits them
per address before gunicorn (deploy/nginx.conf)."""

from __future__ import annotations

import re
from collections import deque
from functools import lru_cache

from django.conf import settings
from waitress.task import ThreadedTaskDispatcher


@lru_cache(maxsize=4)
def _pattern(paths: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(f"(?:{path})" for path in paths) or r"(?!)")


def stranger(path: str) -> bool:
    return bool(_pattern(tuple(settings.STRANGER_PATHS)).match(path))


class Lanes:
    """The dispatcher's queue (waitress reads it with ``len``, ``bool``, ``append`` and ``popleft``,
    under its lock): the room's requests, then the strangers' while a thread is left for the room.
    A task is a connection (waitress's channel) with its next request first in ``requests``."""

    def __init__(self, dispatcher: RoomFirstDispatcher) -> None:
        self.dispatcher = dispatcher
        self.room: deque = deque()
        self.strangers: deque = deque()
        self.strangers_served = 0

    def append(self, task) -> None:
        requests = getattr(task, "requests", None)
        lane = self.strangers if requests and stranger(requests[0].path) else self.room
        lane.append(task)

    def _strangers_may(self) -> bool:
        return bool(self.strangers) and self.strangers_served < max(1, self.dispatcher.thread_count - 1)

    def __len__(self) -> int:
        return len(self.room) + (len(self.strangers) if self._strangers_may() else 0)

    def __bool__(self) -> bool:
        return bool(self.room) or self._strangers_may()

    def take(self) -> tuple[object, bool]:
        """The next task, and whether it is a stranger's (counted until ``served``)."""
        if self.room or not self._strangers_may():
            return self.room.popleft(), False
        self.strangers_served += 1
        return self.strangers.popleft(), True

    def popleft(self):
        return (self.room or self.strangers).popleft()


class RoomFirstDispatcher(ThreadedTaskDispatcher):
    """Waitress's dispatcher (3.0) with ``Lanes`` for its queue; its threads' loop is waitress's own,
    counting the strangers' tasks under way."""

    def __init__(self) -> None:
        super().__init__()
        self.queue = Lanes(self)
        self.thread_count = 1

    def set_thread_count(self, count: int) -> None:
        self.thread_count = count
        super().set_thread_count(count)

    def handler_thread(self, thread_no: int) -> None:
        while True:
            with self.lock:
                while not self.queue and self.stop_count == 0:
                    self.active_count -= 1
                    self.queue_cv.wait()
                    self.active_count += 1
                if self.stop_count > 0:
                    self.active_count -= 1
                    self.stop_count -= 1
                    self.threads.discard(thread_no)
                    self.thread_exit_cv.notify()
                    break
                task, strangers = self.queue.take()
            try:
                task.service()
            except BaseException:
                self.logger.exception("Exception when servicing %r", task)
            finally:
                if strangers:
                    with self.lock:
                        self.queue.strangers_served -= 1
                        self.queue_cv.notify()
