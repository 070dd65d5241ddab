"""When a slip reached the server.  The rules (§3.3.3) let the server's clock decide lateness, with a
grace window for the network's delay; the server's own queue is not the player's fault.

In the last seconds of a round every phone sends at once, and a slip may wait in the server's queue
for a free thread.  Judged by when Django handles it, a slip that arrived in time could be refused as
late.  The embedded server (waitress, ``manage.py serve``) therefore stamps each request when its last
byte arrived (``ENVIRON_KEY``), and keeps the slips it received but has not answered yet, so that a
round is not closed while a slip that arrived in time still waits for a thread
(``services.round_close_if_due``).

In the scale deployment the reverse proxy stamps each request before any queue (nginx:
``proxy_set_header X-Request-Start "t=${msec}"``, ``deploy/nginx.conf``), and the stamp is believed
only from the proxies named in ``ARBITER_TRUSTED_PROXIES``: anyone else's header is ignored.  There
the web processes cannot see each other's queues, so each tells the others (through the cache) how
long its requests waited, and a round closes only once that wait has passed after its cutoff
(``close_may_wait_until``).  Whatever closes the round, a slip stamped by the cutoff is stored
(``services.submission_record``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
import weakref
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from server import addresses

logger = logging.getLogger(__name__)

#: The WSGI environ key of the arrival time (seconds since the epoch); a client cannot set it (its
#: headers arrive as ``HTTP_*``).
ENVIRON_KEY = "arbiter.received_at"
#: The phone's slip URL (``live.urls``: ``player_submit``), matched before Django routes it.
SLIP_PATH = re.compile(r"/j/[^/]+/bulletin/\Z")
#: A round waits at most this long after its deadline and grace for slips still queued: a request
#: that never finishes must not keep the round open.
MAX_WAIT_SECONDS = 30.0

_lock = threading.Lock()
#: The slips received and not answered yet: request -> arrival time.  Weak: a request dropped with
#: its connection before a thread took it leaves by itself.
_waiting: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


#: The header the trusted proxy stamps: ``t=`` and seconds since the epoch (nginx's ``$msec``).
PROXY_HEADER = "HTTP_X_REQUEST_START"
_PROXY_STAMP = re.compile(r"t=([0-9]{9,11}(?:\.[0-9]{1,6})?)")
#: A proxy's stamp older than this is not believed (a replayed header, a clock gone wrong).
PROXY_STAMP_MAX_AGE = 120.0
#: The proxy's clock may run this far ahead of ours (another machine): a stamp in the future is now.
PROXY_CLOCK_AHEAD = 2.0


def received_at(request) -> datetime:
    """When the request reached the server: the embedded server's stamp, or the trusted proxy's,
    else now."""
    stamp = request.META.get(ENVIRON_KEY)
    if isinstance(stamp, float):
        return datetime.fromtimestamp(stamp, tz=UTC)
    stamp = proxy_stamp(request.META)
    if stamp is not None:
        return datetime.fromtimestamp(stamp, tz=UTC)
    return timezone.now()


def proxy_stamp(meta) -> float | None:
    """The arrival time the trusted proxy wrote, if this request comes from it; None otherwise (a
    header sent by a phone, or by anything not in ``settings.TRUSTED_PROXIES``: ``server.addresses``)."""
    if not addresses.trusted_proxy(meta):
        return None
    found = _PROXY_STAMP.fullmatch(str(meta.get(PROXY_HEADER, "")).strip())
    if found is None:
        return None
    stamp, now = float(found.group(1)), time.time()
    if not now - PROXY_STAMP_MAX_AGE <= stamp <= now + PROXY_CLOCK_AHEAD:
        return None
    note_wait(now - stamp)
    return min(stamp, now)


# -- the web processes' queues, told to whoever closes a round (scale deployment) ----------------

#: The cache key holding the longest recent wait between the proxy and a web process.
WAIT_KEY = "web-queue-wait"
#: A wait is told at most this often per process, and is forgotten this long after.
WAIT_TELL_EVERY, WAIT_KEPT_SECONDS = 0.25, 5.0
#: Waits shorter than this are not worth telling.
WAIT_WORTH_TELLING = 0.05
_told = {"at": 0.0, "wait": 0.0}


def note_wait(seconds: float) -> None:
    """This process handled a request ``seconds`` after the proxy received it."""
    now = time.monotonic()
    if seconds < WAIT_WORTH_TELLING or (now - _told["at"] < WAIT_TELL_EVERY and seconds <= _told["wait"]):
        return
    _told.update(at=now, wait=seconds)
    try:
        known = cache.get(WAIT_KEY)
        if known and known[0] > time.time() - 1 and known[1] >= seconds and known[2] != os.getpid():
            return  # another process told a longer wait a moment ago
        cache.set(WAIT_KEY, (time.time(), seconds, os.getpid()), WAIT_KEPT_SECONDS)
    except Exception:  # the cache down must not refuse a slip
        logger.warning("The web queue's wait could not be told to the cache.", exc_info=True)


def close_may_wait_until(cutoff: datetime) -> datetime:
    """When a round whose cutoff is ``cutoff`` may close: the cutoff, or later by the wait the web
    processes told lately (a slip that reached the proxy by the cutoff is then handled)."""
    if not settings.TRUSTED_PROXIES:
        return cutoff
    try:
        known = cache.get(WAIT_KEY)
    except Exception:  # without the cache, the stamp still decides each slip
        return cutoff
    if not known or known[0] < time.time() - WAIT_KEPT_SECONDS:
        return cutoff
    return cutoff + timedelta(seconds=min(known[1], MAX_WAIT_SECONDS) + 0.1)


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
    waiting list until answered: its channel, its parser (``SoundParser``: every refusal answered)
    and waitress's own task, each extended by one step (waitress is pinned in requirements.txt;
    tests/server/test_arrival.py runs it)."""
    from waitress.task import WSGITask

    from server.waitress import GuardedChannel, SoundParser
    from server.waitress import create_server as guarded_server

    class StampedParser(SoundParser):
        """A request refused by the parser is stamped too, and is no slip: its answer is the
        parser's 400, whatever its path."""

        received_at: float | None = None
        slip = False

        def received(self, data):
            consumed = super().received(data)
            if self.completed and self.received_at is None:
                self.received_at = time.time()
                if self.error is None and self.command == "POST" and SLIP_PATH.match(self.path):
                    self.slip = True
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

        def service(self):
            """A slip that arrived whole is handled even if its connection closed while it waited
            for a thread (the phone's Wi-Fi, an answer it stopped waiting for): waitress would drop
            it, and the phone's retry, now past the cutoff, be told "too late" for a slip sent in
            time.  Its answer goes nowhere; the retry finds the slip stored (nginx does the same at
            scale: ``proxy_ignore_client_abort``)."""
            request = self.requests[0] if self.requests else None
            if request is not None and not self.connected and getattr(request, "slip", False):
                with contextlib.suppress(Exception):  # its answer cannot be written: ClientDisconnected
                    self.task_class(self, request).service()
            super().service()

    return guarded_server(application, channel_class=StampedChannel, **options)
