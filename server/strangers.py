"""On the laptop, strangers' pages in a process of their own.

The laptop's server is one Python process: one interpreter runs at a time, whatever its threads.
Readers of a simultaneous's public page (200 a second) and people training (pages drawn by Django,
most of a second of search each new game) would take turns with the room's phones there, and slow
the phones' polls and slips (measured: docs/developer/benchmarks.md), even with the strangers' pages
answered first-come after the room's (``server.lanes``) and the public page kept (``server.public``).

So ``manage.py serve`` starts a second server, ``manage.py strangers``, on the next port, at a lower
priority (nice 10 and Linux's idle class; below normal on Windows), as the scale deployment gives
strangers a gunicorn of their own: the room's process sends a stranger's request there
(``Elsewhere``: 307, the same host, the other port, the same path and query, the method and body
kept), and the browser then stays there, the page's links being relative. The strangers' process
sends anything but strangers' pages back (``Elsewhere`` again, the other way): the room's state is
changed by the room's process only (its memory of the room is forgotten by its own saves). Both
serve the static files and the language switch themselves. Until the strangers' process listens, and
if it stops, the room's process serves strangers itself (its lanes). Both share the database
(SQLite in WAL mode) and the sessions in it: a login is good on both ports (cookies do not name a
port)."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import threading
from urllib.parse import quote

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from server.commandline import manage
from server.lanes import stranger

logger = logging.getLogger(__name__)

#: What the strangers' process prints once it listens.
READY = "strangers-ready"
#: Seconds the strangers' process has to end once asked (its threads finish their requests).
STOP_SECONDS = 10
#: Paths either process serves itself: files, the language switch (a POST a 307 would carry, but
#: nothing of the room's state), the browser's icon.
EITHER = re.compile(r"/(?:static/|i18n/|favicon\.ico\Z|robots\.txt\Z)")


class Strangers:
    """The strangers' process, started by the room's (``start``): up once it said it listens, until
    it ends."""

    def __init__(self, process: subprocess.Popen | None, port: int) -> None:
        self.process = process
        self.port = port
        self.ready = threading.Event()

    def up(self) -> bool:
        return self.ready.is_set() and self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Asked to end (SIGTERM; ``manage.py strangers`` ends its loop and exits as any program,
        its training worker with it), then ended if it has not within ``STOP_SECONDS``."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()


def start(port: int, room_port: int, threads: int) -> Strangers:
    """``manage.py strangers`` on ``port`` beside the room's process (on ``room_port``): its output
    read by a thread (``READY`` makes it up; the rest goes to this process's output), its input a
    pipe it watches (closed when this process ends, however it ends: it ends too)."""
    command = manage(
        "strangers", "--port", str(port), "--room-port", str(room_port), "--threads", str(threads)
    )
    # Out of the terminal's process group: Ctrl+C is the room's process's, which stops this one.
    apart = (
        {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
        if sys.platform == "win32"
        else {"start_new_session": True}
    )
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", **apart
        )
    except OSError:
        logger.warning("The strangers' server could not start: this process serves them.", exc_info=True)
        return Strangers(None, port)
    strangers = Strangers(process, port)
    threading.Thread(target=_read, args=(strangers,), name="strangers-output", daemon=True).start()
    return strangers


def _read(strangers: Strangers) -> None:
    for line in strangers.process.stdout:
        if line.strip() == READY:
            strangers.ready.set()
        else:
            sys.stdout.write(line)
            sys.stdout.flush()


class Elsewhere:
    """A WSGI application: the requests ``here`` says belong to the other process answered 307 to
    its ``port`` (while ``up()``), everything else to ``application``."""

    def __init__(self, application, port: int, here, up=lambda: True) -> None:
        self.application = application
        self.port = port
        self.here = here
        self.up = up

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if self.here(path) or EITHER.match(path) or not self.up():
            return self.application(environ, start_response)
        location = _location(environ, self.port)
        if location is None:  # a host Django refuses: its 400
            return self.application(environ, start_response)
        start_response(
            "307 Temporary Redirect",
            [("Location", location), ("Content-Length", "0"), ("Cache-Control", "no-store")],
        )
        return [b""]


def room_side(application, strangers: Strangers):
    """The room's process: strangers' pages to the strangers' process."""
    return Elsewhere(application, strangers.port, lambda path: not stranger(path), strangers.up)


def strangers_side(application, room_port: int):
    """The strangers' process: anything else back to the room's."""
    return Elsewhere(application, room_port, stranger)


def _location(environ, port: int) -> str | None:
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    if ":" in domain and not domain.startswith("["):
        domain = f"[{domain}]"
    scheme = environ.get("wsgi.url_scheme", "http")
    path = quote(environ.get("PATH_INFO", "").encode("latin-1"), safe="/:@!$&'()*+,;=-._~")
    query = environ.get("QUERY_STRING", "")
    return f"{scheme}://{domain}:{port}{path}" + (f"?{query}" if query else "")
