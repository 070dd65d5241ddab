"""The whole scale deployment on one machine, in the foreground, for trying it (``manage.py
stack``): the processes of server/deployment.py, the very commands the systemd services run, on free
loopback ports, nginx's files in a folder of their own.  Each process leads a session of its own, so a
Ctrl+C in the terminal reaches this supervisor alone, which stops them in order (nginx first, the
worker last) and kills what is left; the same on SIGTERM and SIGHUP, and when one of them ends by
itself.  SIGINT is caught even when the shell started this in the background with it ignored."""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from server.deployment import Layout, Process, manage

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(address: str) -> bool:
    host, port = address.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=0.5).close()
        return True
    except OSError:
        return False


@dataclass
class Stack:
    layout: Layout
    folder: Path
    say: callable = print
    running: list[tuple[Process, subprocess.Popen]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def on_free_ports(cls, folder: Path, port: int = 0, say=print) -> Stack:
        layout = Layout(
            listen=f"127.0.0.1:{port or free_port()}", web=f"127.0.0.1:{free_port()}",
            strangers=f"127.0.0.1:{free_port()}", publisher=f"127.0.0.1:{free_port()}",
            nginx_conf=folder / "nginx.conf", run=folder / "nginx",
            # nginx's workers read the static files, kept private to this account (var/ is 0700).
            nginx_user=getpass.getuser(),
        )  # fmt: skip
        return cls(layout, folder, say)

    def catch_signals(self) -> None:
        for number in STOPS:
            signal.signal(number, lambda *_: self.stopping.set())

    def prepare(self) -> bool:
        """The database migrated, the static files collected, the guides built, the first account
        made (its password printed the first time), nginx's configuration written; False when one of
        them failed or a stop was asked meanwhile."""
        for command in (["migrate", "--verbosity=1"], ["collectstatic", "--noinput", "--verbosity=0"],
                        ["build_guides"], ["first_account"]):  # fmt: skip
            done = subprocess.run(manage(*command), cwd=settings.BASE_DIR, env=self.environment())
            if self.stopping.is_set():
                return False
            if done.returncode:
                self.say(f"manage.py {command[0]} failed ({done.returncode})")
                return False
        self.layout.run.mkdir(parents=True, exist_ok=True)
        self.layout.nginx_conf.write_text(self.layout.proxy().conf())
        return True

    def environment(self) -> dict[str, str]:
        return {**os.environ, **self.layout.environment(), "PYTHONUNBUFFERED": "1"}

    def start(self) -> bool:
        """Each process started and waited for until it listens (the worker: started); False when
        stopped meanwhile or when one ended."""
        ports = {"web": self.layout.web, "strangers": self.layout.strangers, "nginx": self.layout.listen}
        for process in self.layout.processes():
            started = subprocess.Popen(
                process.command, cwd=settings.BASE_DIR, env=self.environment(), start_new_session=True,
                preexec_fn=(lambda n=process.nice: os.nice(n)) if process.nice else None,
            )  # fmt: skip
            self.running.append((process, started))
            self.say(f"{process.name}: pid {started.pid} ({process.description})")
            address = ports.get(process.name)
            while address and not listening(address):
                if started.poll() is not None:
                    self.say(f"{process.name} ended while starting ({started.returncode})")
                    return False
                if self.stopping.wait(0.2):
                    return False
        return not self.stopping.is_set() and self.ended() is None

    def ended(self) -> Process | None:
        return next((p for p, started in self.running if started.poll() is not None), None)

    def watch(self) -> int:
        """Until asked to stop (0) or until a process ends by itself (1)."""
        while not self.stopping.wait(0.5):
            gone = self.ended()
            if gone is not None:
                self.say(f"{gone.name} ended by itself: stopping the others")
                return 1
        return 0

    def stop(self) -> None:
        """SIGTERM to each process's session, nginx first; whatever is left after its time, and
        anything its process left behind (a training worker), killed."""
        for process, started in reversed(self.running):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(started.pid, signal.SIGTERM)
            try:
                started.wait(timeout=process.stop_seconds)
            except subprocess.TimeoutExpired:
                self.say(f"{process.name} did not stop in {process.stop_seconds} s: killed")
            with contextlib.suppress(ProcessLookupError):
                os.killpg(started.pid, signal.SIGKILL)
            started.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def run(port: int = 0, say=print) -> int:
    folder = Path(tempfile.mkdtemp(prefix="arbiter-stack-"))
    stack = Stack.on_free_ports(folder, port, say)
    stack.catch_signals()
    at = stack.layout
    say(f"nginx {at.listen}, web {at.web}, strangers {at.strangers}, publisher {at.publisher}")
    try:
        if stack.prepare() and stack.start():
            say(f"ready: http://{stack.layout.listen}/ (Ctrl+C stops it all)")
            code = stack.watch()
        else:
            code = 0 if stack.stopping.is_set() else 1
    finally:
        stack.stop()
    say("stopped")
    sys.stdout.flush()
    return code
