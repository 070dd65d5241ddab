"""Push instead of polling, in the scale deployment: a room's change is published once, and the
reverse proxy holds every phone's connection and passes the change on.

A phone that polls every 2 s costs 750 requests a second at 1,500 phones.  With ``PUSH_PUBLISH_URL``
set, the process that changes a room (a web process, a Celery worker) POSTs one short message to
nginx's nchan publisher (``deploy/nginx.conf``), and nginx sends it to every phone listening on the
room's channel (server-sent events): holding 1,500 idle connections costs nginx almost nothing and
costs Python nothing.  The message is the room's new state key; each phone then asks for its own
screen once.  A phone whose connection drops asks for its screen as it reconnects (``player.js``)
and polls every 2 s while it is not connected, so nothing it missed is lost.

Channels are named by the room and a keyed hash, so a channel cannot be guessed from a tournament's
number; the messages say nothing but a state key.  Without ``PUSH_PUBLISH_URL`` (the laptop
default) nothing is published and the phones poll.

Publishing never holds the request or the task that made the change: messages go through a queue to
one thread of the process, which drops them (logged) if nginx does not answer within a second.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import queue
import threading
import urllib.error
import urllib.request

from django.conf import settings

logger = logging.getLogger(__name__)

#: Messages waiting for the publishing thread; more than this and the newest are dropped (logged):
#: the phones' own safety poll catches up.
QUEUE_SIZE = 1000
PUBLISH_TIMEOUT = 1.0

_queue: queue.Queue[tuple[str, str]] = queue.Queue(QUEUE_SIZE)
_thread: dict[str, object] = {"pid": None}
_lock = threading.Lock()


def enabled() -> bool:
    return bool(settings.PUSH_PUBLISH_URL)


def channel(room: str) -> str:
    """The channel of ``room`` (letters, digits and ``-``, as nchan's channel ids)."""
    mac = hmac.new(settings.SECRET_KEY.encode(), f"push:{room}".encode(), hashlib.sha256).hexdigest()
    return f"{room}-{mac[:24]}"


def listen_path(room: str) -> str:
    """Where a phone of ``room`` listens (same origin), or "" when nothing is pushed."""
    return f"{settings.PUSH_LISTEN_PATH}{channel(room)}" if enabled() else ""


def publish(room: str, message: str) -> None:
    """Queue ``message`` for every phone listening to ``room``; never waits for the network."""
    if not enabled():
        return
    _start_thread()
    try:
        _queue.put_nowait((channel(room), message))
    except queue.Full:
        logger.warning("Push queue full: a change of %s was not pushed (the phones' polls catch up).", room)


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
    while True:
        name, message = _queue.get()
        send(name, message)


def send(name: str, message: str) -> bool:
    """POST one message to the publisher of channel ``name``; whether it was taken."""
    request = urllib.request.Request(
        settings.PUSH_PUBLISH_URL + name,
        data=message.encode(),
        headers={"Content-Type": "text/plain", "Accept": "text/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=PUBLISH_TIMEOUT) as answer:  # our own setting's URL
            return 200 <= answer.status < 300
    except (OSError, urllib.error.URLError, ValueError):
        logger.warning(
            "A change could not be pushed to %s (the phones' polls catch up).", name, exc_info=True
        )
        return False
