"""Reaching the real services the integration tests need (PostgreSQL, Redis, a server or a worker
of their own): under CI=true an unreachable service fails the test, elsewhere it skips it."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection
from kombu import pools

from arbiter.celery import app as celery_app


def require_port(name: str, host: str, port: int) -> None:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is not reachable at {host}:{port}: CI needs it.")
        pytest.skip(f"{name} is not reachable at {host}:{port}")


def shared_database_url() -> str:
    """A URL of the database this test runs against, for another process to open."""
    cfg = connection.settings_dict
    if cfg["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{cfg['NAME']}"
    user = cfg.get("USER") or "postgres"
    return f"postgres://{user}@{cfg.get('HOST') or '127.0.0.1'}:{cfg.get('PORT') or 5432}/{cfg['NAME']}"


def wait_for(predicate, seconds: float = 60.0) -> bool:
    """Whether ``predicate`` came true within ``seconds`` (asked every tenth of a second)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


#: Ports handed to the servers the tests start: below the kernel's range for outgoing connections
#: (32768 and up on Linux), so no client socket holds one, and cut in slices, one per pytest-xdist
#: worker, so two workers starting servers at the same instant never pick the same port (with the
#: kernel's ``bind(0)`` they could, and a test would then talk to another worker's server, on
#: another database).  Within a slice the ports are taken in turn from an offset of the process's
#: own.
PORTS_FROM, PORTS_TO, SLICES, STEP = 20000, 32000, 16, 4
_turn: list[int] = []


def _worker_index() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker[2:]) % SLICES if worker[2:].isdigit() else 0


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port free on every address, with the next one free too: the laptop's server listens on all
    addresses (``manage.py serve``), on its port and the next (the strangers' port)."""
    width = (PORTS_TO - PORTS_FROM) // SLICES
    start = PORTS_FROM + _worker_index() * width
    if not _turn:
        _turn.append((os.getpid() * STEP) % (width - STEP))
    for _ in range(width // STEP):
        port = start + _turn[0]
        _turn[0] = (_turn[0] + STEP) % (width - STEP)
        if _bindable(port) and _bindable(port + 1):
            return port
    raise RuntimeError(f"no free port in {start}..{start + width}")


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


#: Redis databases of the test session's own server (``own_redis``), one per use, so that a test's
#: ``flushdb`` never empties another's keys.
REDIS_DATABASES = {"faults": 1, "worker": 2, "cache": 3}


def own_redis(folder: Path):
    """A Redis server of this test session's own, on a free port with its files in ``folder``
    (nothing saved): ``(process, "redis://127.0.0.1:<port>")``.  No other program on the machine
    knows its port, so none can empty or fill a database a test uses (on the machine's shared Redis,
    a program using the same database number would fail tests).  pytest-xdist's workers each start
    their own.  Without ``redis-server`` on the machine, the tests needing it skip; under CI=true
    they fail."""
    binary = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    if binary is None:
        _missing("redis-server is not installed")
    for _attempt in range(3):  # a port found free may be taken before the server binds it
        port = free_port()
        command = [
            binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
            "--appendonly", "no", "--logfile", str(folder / f"redis-{port}.log"), "--daemonize", "no",
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if _started(process, port):
            return process, f"redis://127.0.0.1:{port}"
        process.kill()
        process.wait()
    _missing(f"redis-server did not start (see {folder})")


def _started(process: subprocess.Popen, port: int) -> bool:
    """The server answers on ``port`` (False: it ended, its port taken meanwhile, or 20 s passed)."""
    wait_for(lambda: process.poll() is not None or _pings(port), 20)
    return process.poll() is None and _pings(port)


def _pings(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _missing(why: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}: CI needs it.")
    pytest.skip(why)


@contextmanager
def use_broker(settings, url: str):
    """The web side (this process) queues its tasks to ``url`` instead of running them in-process."""
    # Read before the Django setting changes: Celery reads its configuration from it lazily.
    previous = {
        "task_always_eager": celery_app.conf.task_always_eager,
        "broker_url": celery_app.conf.broker_url,
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    celery_app.conf.update(task_always_eager=False, broker_url=url)
    _drop_broker_connections()
    try:
        yield url
    finally:
        celery_app.conf.update(**previous)
        _drop_broker_connections()


def _drop_broker_connections() -> None:
    """Forget every pooled broker connection (the app's and kombu's process-wide ones) so the next
    task goes to the broker now configured."""
    pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
