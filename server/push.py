"""Push instead of polling, in the scale deployment: a room's change is published once, and the
reverse proxy holds every phone's connection and passes the change on.

A phone that polls every 2 s costs 750 requests a second at 1,500 phones.  With ``PUSH_PUBLISH_URL``
set, the process that changes a room (a web process, a Celery worker) POSTs one short message to
nginx's nchan publisher (``deploy/nginx.conf``), and nginx sends it to every phone listening on the
room's channel (server-sent events): holding 1,500 idle connections costs nginx almost nothing and
costs Python nothing.  The message carries what every phone of the room shows in common (the rack,
the clock, the top, the board: ``live.broadcast``), and at a round's close each phone's own
result comes on a channel of its own, on the same connection: a change costs no request per phone.
A phone whose connection drops asks for its screen as it reconnects (``player.js``) and polls every
2 s while it is not connected, so nothing it missed is lost.

Channels are named by the room and a keyed hash, so a channel cannot be guessed from a tournament's
number; the messages say nothing but a state key.  Without ``PUSH_PUBLISH_URL`` (the laptop
default) nothing is published and the phones poll.

Publishing never holds the request or the task that made the change: messages, or a function that
makes them (``publish_built``: a room's 1,500 results at a close), go through a queue to one thread
of the process, which sends them over one kept-alive connection and drops them (logged) if nginx
does not answer within a second.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import logging
import os
import queue
import threading
import urllib.parse
from collections.abc import Callable, Iterable

from django.conf import settings

logger = logging.getLogger(__name__)

#: Messages waiting for the publishing thread; more than this and the newest are dropped (logged):
#: the phones' own safety poll catches up.
QUEUE_SIZE = 1000
PUBLISH_TIMEOUT = 1.0

#: What a ``publish_built`` function gives: (room, message) pairs.
Built = Callable[[], Iterable[tuple[str, str]]]

_queue: queue.Queue[tuple[str, str] | Built] = queue.Queue(QUEUE_SIZE)
_thread: dict[str, object] = {"pid": None}
_lock = threading.Lock()


def enabled() -> bool:
    return bool(settings.PUSH_PUBLISH_URL)


def channel(room: str) -> str:
    """The channel of ``room`` (letters, digits and ``-``, as nchan's channel ids)."""
    mac = hmac.new(settings.SECRET_KEY.encode(), f"push:{room}".encode(), hashlib.sha256).hexdigest()
    return f"{room}-{mac[:24]}"


def listen_path(room: str, own: str = "") -> str:
    """Where a phone of ``room`` listens (same origin), or "" when nothing is pushed; with ``own``,
    on that room's channel too, on the same connection (nginx's location with two channels)."""
    if not enabled():
        return ""
    path = f"{settings.PUSH_LISTEN_PATH}{channel(room)}"
    return f"{path}/{channel(own)}" if own else path


def publish(room: str, message: str) -> None:
    """Queue ``message`` for every phone listening to ``room``; never waits for the network."""
    if not enabled():
        return
    _start_thread()
    try:
        _queue.put_nowait((channel(room), message))
    except queue.Full:
        logger.warning("Push queue full: a change of %s was not pushed (the phones' polls catch up).", room)


def publish_built(build: Built) -> None:
    """Queue ``build``, called by the publishing thread (its queries on that thread's own database
    connection, closed after): each (room, message) pair it gives is published in turn."""
    if not enabled():
        return
    _start_thread()
    try:
        _queue.put_nowait(build)
    except queue.Full:
        logger.warning("Push queue full: a room's change was not pushed (the phones' polls catch up).")


def _start_thread() -> None:
    # A forked process (a gunicorn or Celery worker) starts its own thread.
    if _thread["pid"] == os.getpid():
        return
    with _lock:
        if _thread["pid"] == os.getpid():
            return
        threading.Thread(target=_send_forever, name="push", daemon=True).start()
        _thread["pid"] = os.getpid()


def _send_forever() -> None:
    publisher = Publisher()
    while True:
        item = _queue.get()
        if callable(item):
            _send_built(publisher, item)
        else:
            publisher.send(*item)


def _send_built(publisher: Publisher, build: Built) -> None:
    from django.db import close_old_connections, connection

    try:
        for room, message in build():
            publisher.send(channel(room), message)
    except Exception:
        logger.exception("A room's change could not be made into messages (the phones' polls catch up).")
    finally:
        close_old_connections()
        connection.close()


class Publisher:
    """One kept-alive connection to nchan's publisher (our own setting's URL, on loopback): a close's
    1,500 messages are 1,500 short POSTs, not 1,500 connections."""

    def __init__(self) -> None:
        self.url = ""
        self.connection: http.client.HTTPConnection | None = None

    def _aim(self) -> None:
        """The publisher's address as the settings say now (a test's nginx moves it): another one,
        and the kept connection is dropped."""
        if self.url == settings.PUSH_PUBLISH_URL:
            return
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        self.url = settings.PUSH_PUBLISH_URL
        url = urllib.parse.urlsplit(self.url)
        self.host, self.port, self.path = url.hostname or "127.0.0.1", url.port or 80, url.path

    def send(self, name: str, message: str) -> bool:
        """POST one message to channel ``name``; whether it was taken.  A connection nginx closed
        meanwhile is opened again once."""
        self._aim()
        for attempt in (1, 2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(
                        self.host, self.port, timeout=PUBLISH_TIMEOUT
                    )
                self.connection.request(
                    "POST", self.path + name, body=message.encode(),
                    headers={"Content-Type": "text/plain", "Accept": "text/json"},
                )  # fmt: skip
                answer = self.connection.getresponse()
                answer.read()
                return 200 <= answer.status < 300
            except (OSError, http.client.HTTPException, ValueError):
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                if attempt == 2:
                    logger.warning(
                        "A change could not be pushed to %s (the phones' polls catch up).",
                        name,
                        exc_info=True,
                    )
        return False


#: Kept-alive connections a Celery worker publishes a room's messages on side by side: a close's
#: 1,500 results are 1,500 round trips to nginx, which one after the other keep the last phone
#: waiting for its result (measured: docs/developer/benchmarks.md).
PUBLISH_WAYS = 4
_ways: list[Publisher] = []
_ways_lock = threading.Lock()


def send_all(pairs: Iterable[tuple[str, str]], ways: int = PUBLISH_WAYS) -> int:
    """POST each (channel name, message) of ``pairs`` on ``ways`` kept-alive connections at once,
    kept by the process from one call to the next (a Celery worker's); how many were taken.  The
    pairs are made by the calling thread while the others wait for nginx's answers."""
    with _ways_lock:
        while len(_ways) < ways:
            _ways.append(Publisher())
        waiting: queue.Queue[tuple[str, str] | None] = queue.Queue(ways * 64)
        taken = [0] * ways

        def work(way: int) -> None:
            while (item := waiting.get()) is not None:
                taken[way] += _ways[way].send(*item)

        threads = [threading.Thread(target=work, args=(way,), daemon=True) for way in range(ways)]
        for thread in threads:
            thread.start()
        try:
            for pair in pairs:
                waiting.put(pair)
        finally:
            for _ in threads:
                waiting.put(None)
            for thread in threads:
                thread.join()
        return sum(taken)


def send(name: str, message: str) -> bool:
    """POST one message to the publisher of channel ``name`` on a connection of its own (tests, and a
    process that publishes once); whether it was taken."""
    publisher = Publisher()
    try:
        return publisher.send(name, message)
    finally:
        if publisher.connection is not None:
            publisher.connection.close()
