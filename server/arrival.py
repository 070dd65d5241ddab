"""When a slip reached the server.  The rules (§3.3.3) let the server's clock decide lateness, with a
grace window for the network's delay; the server's own queue is not the player's fault.

In the last seconds of a round every phone sends at once, and a slip may wait in the server's queue
for a free thread.  Judged by when Django handles it, a slip that arrived in time could be refused as
late.  The embedded server (waitress, ``manage.py serve``) therefore stamps each request when its last
byte arrived (``ENVIRON_KEY``), and keeps the slips it received but has not answered yet, so that a
round is not closed while a slip that arrived in time still waits for a thread
(``services.round_close_if_due``).  Other servers (gunicorn in the scale deployment, several
processes) stamp nothing: the time the request is handled counts, as before.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from datetime import UTC, datetime

from django.utils import timezone

#: The WSGI environ key of the arrival time (seconds since the epoch); a client cannot set it (its
#: headers arrive as ``HTTP_*``).
ENVIRON_KEY = "arbiter.received_at"
#: The phone's slip URL (``player_urls``: ``player_submit``), matched before Django routes it.
SLIP_PATH = re.compile(r"/j/[^/]+/bulletin/\Z")
#: A round waits at most this long after its deadline and grace for slips still queued: a request
#: that never finishes must not keep the round open.
MAX_WAIT_SECONDS = 30.0

_lock = threading.Lock()
#: The slips received and not answered yet: request -> arrival time.  Weak: a request dropped with
#: its connection before a thread took it leaves by itself.
_waiting: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def received_at(request) -> datetime:
    """When the request reached the server: its stamp, else now."""
    stamp = request.META.get(ENVIRON_KEY)
    if isinstance(stamp, float):
        return datetime.fromtimestamp(stamp, tz=UTC)
    return timezone.now()


def slip_arrived(request, stamp: float) -> None:
    with _lock:
        _waiting[request] = stamp


def slip_answered(request) -> None:
    with _lock:
        _waiting.pop(request, None)


def slips_waiting_since(cutoff: datetime) -> bool:
    """Whether a slip that arrived at or before ``cutoff`` still waits for its answer."""
    limit = cutoff.timestamp()
    with _lock:
        return any(stamp <= limit for stamp in _waiting.values())


def wait_is_over(cutoff: datetime, now: datetime) -> bool:
    """True once no slip that arrived by ``cutoff`` waits any more, or the wait has lasted too long."""
    if (now - cutoff).total_seconds() > MAX_WAIT_SECONDS:
        return True
    return not slips_waiting_since(cutoff)


# -- waitress, stamping ----------------------------------------------------------------------------


def create_server(application, **options):
    """The laptop's server (``server.waitress.create_server``, held against slow and idle clients,
    with its options) whose requests carry their arrival time and whose slips are kept in the
    waiting list until answered: its channel, and waitress's own parser and task, each extended by
    one step (waitress is pinned in requirements.txt; tests/server/test_arrival.py runs it)."""
    from waitress.parser import HTTPRequestParser
    from waitress.task import WSGITask

    from server.waitress import GuardedChannel
    from server.waitress import create_server as guarded_server

    class StampedParser(HTTPRequestParser):
        received_at: float | None = None

        def received(self, data):
            consumed = super().received(data)
            if self.completed and self.received_at is None:
                self.received_at = time.time()
                path = getattr(self, "path", "") or ""
                if getattr(self, "command", "") == "POST" and not self.error and SLIP_PATH.match(path):
                    slip_arrived(self, self.received_at)
            return consumed

    class StampedTask(WSGITask):
        def get_environment(self):
            environ = super().get_environment()
            environ[ENVIRON_KEY] = getattr(self.request, "received_at", None)
            return environ

        def execute(self):
            try:
                super().execute()
            finally:
                slip_answered(self.request)

    class StampedChannel(GuardedChannel):
        parser_class = StampedParser
        task_class = StampedTask

    return guarded_server(application, channel_class=StampedChannel, **options)
