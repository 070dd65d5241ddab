"""``manage.py strangers``: the laptop's second server, for strangers' pages (``server/strangers.py``),
started by ``manage.py serve`` on the next port; not a command an arbiter types."""

from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
import threading
import time

from django.core.management.base import BaseCommand

from server.logs import log_to_file
from server.management.commands.serve import laptop_server_options
from server.strangers import READY, STOP_SECONDS, strangers_side

#: The strangers' process gives way to the room's (POSIX nice; Windows' below-normal class).
NICENESS = 10
BELOW_NORMAL = 0x4000


class Command(BaseCommand):
    help = "Serve strangers' pages beside the room's server (started by manage.py serve)."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, required=True)
        parser.add_argument("--room-port", type=int, required=True)
        parser.add_argument("--threads", type=int, default=2)

    def handle(self, *args, port: int, room_port: int, threads: int, **options):
        # Its details in a log file of its own; the arbiter's terminal gets its errors in a line.
        log_to_file("strangers")
        # Ctrl+C is the room's server's to handle: it stops this one (SIGTERM), and so does its
        # input closing (the room's server ended, however it ended).  Either ends the server's loop
        # and this process as any program ends: the training worker and the queues that spoke to it
        # closed, nothing left behind for the system to clean up.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, _stop)
        threading.Thread(target=_end_with_input, name="room-watch", daemon=True).start()
        _lower_priority()
        from django.core.servers.basehttp import get_internal_wsgi_application

        from server.waitress import create_server
        from server.warmup import warm_up_rooms

        # As every web process: the word list loaded, training's searches to a worker of their own.
        warm_up_rooms()

        server = create_server(
            strangers_side(get_internal_wsgi_application(), room_port),
            room_first=False,  # all strangers here: first come, first served
            **laptop_server_options(port, threads),
        )
        self.stdout.write(READY)
        self.stdout.flush()
        server.run()


def _stop(_signum, _frame) -> None:
    raise SystemExit(0)  # waitress's loop ends on it, its threads stopped


def _end_with_input() -> None:
    while sys.stdin.read(1024):
        pass
    _thread.interrupt_main(signal.SIGTERM)  # ``_stop``, in the main thread
    time.sleep(STOP_SECONDS)
    os._exit(0)  # the orderly end did not come


def _lower_priority() -> None:
    """Below the room's: nice 10, and on Linux the idle class (before waitress starts its threads,
    which inherit it): a core running only strangers counts as free when a room's thread wakes, and
    the room's thread takes it at once."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
        if hasattr(os, "SCHED_IDLE"):
            with contextlib.suppress(OSError):  # a system that refuses it: nice alone
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    elif sys.platform == "win32":  # pragma: no cover - Windows only
        import ctypes

        kernel32 = ctypes.windll.kernel32
        kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), BELOW_NORMAL)
