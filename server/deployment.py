"""The scale deployment's processes, said once: the room's web processes (gunicorn), the strangers'
(a gunicorn of their own at a lower priority), the Celery worker and nginx in front, with the
environment they share.  ``manage.py systemd_units`` writes them as systemd services
(server/units.py); ``manage.py stack`` runs them in the foreground on one machine (server/stack.py),
so that what the tests start is what a federation's server runs."""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from server.proxy import MODULES, Proxy

#: The interpreter's folder: the virtualenv's bin/, where gunicorn and celery are installed with it.
BIN = Path(sys.executable).parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: gunicorn's settings (workers, threads, keep-alive, the word list loaded before the first request):
#: a module of the package (arbiter/gunicorn.py), found by a checkout and an installed server alike.
GUNICORN_CONFIG = "python:arbiter.gunicorn"
#: Celery worker processes: a top search or a round's close each (README: "Running at scale").
WORKER_CONCURRENCY = 2
#: The strangers' web processes' priority (nice): the room's requests go first on a busy machine.
STRANGERS_NICE = 10


@dataclass(frozen=True)
class Process:
    """One long-running process of the deployment."""

    name: str  # "web": the service arbiter-web, the stack's "web"
    description: str
    command: list[str]
    nice: int = 0
    #: Whether it tells systemd itself when it is ready (gunicorn: sd_notify).
    notifies: bool = False
    #: Runs as root, dropping to its workers' account itself (nginx, to listen on port 80).
    root: bool = False
    #: How long a stop may take before the rest is killed: gunicorn's workers finish their requests
    #: (30 s), a Celery worker its task (a round's close waits out the queues, 30 s at most).
    stop_seconds: int = 45


@dataclass(frozen=True)
class Layout:
    """Where each process listens, and nginx's files."""

    listen: str = "80"  # where the phones connect: "80", "127.0.0.1:8080"
    web: str = "127.0.0.1:8000"
    strangers: str = "127.0.0.1:8001"
    publisher: str = "127.0.0.1:8081"
    nginx_conf: Path = Path("/etc/arbiter/nginx.conf")
    run: Path = Path("/run/arbiter-nginx")  # nginx's pid, error log, temporary files
    nginx_user: str = "www-data"  # nginx's workers' account: reads the static files
    static: Path = field(default_factory=lambda: Path(settings.STATIC_ROOT))
    worker_concurrency: int = WORKER_CONCURRENCY
    #: nginx's HTTPS fields (server.proxy.Proxy: certificate, certificate_key, redirect, acme_root).
    tls: tuple[tuple[str, str], ...] = ()

    def proxy(self) -> Proxy:
        return Proxy(
            listen=self.listen, app=self.web, publisher=self.publisher, run=self.run, static=self.static,
            foreground=True, user=self.nginx_user, strangers=self.strangers, **dict(self.tls),
        )  # fmt: skip

    def environment(self) -> dict[str, str]:
        """What the web and worker processes are told of the front: only nginx, on this machine, is
        believed about a request's arrival and its client's address; the room's changes are pushed
        through nginx's publisher."""
        return {
            "ARBITER_TRUSTED_PROXIES": "127.0.0.1",
            "ARBITER_CLIENT_IP_HEADER": "X-Real-IP",
            "ARBITER_PUSH_PUBLISH_URL": self.proxy().publish_url(),
        }

    def processes(self) -> list[Process]:
        """In the order they start: the worker, the web processes, nginx last (it stops first)."""
        # No control socket: the room's and the strangers' gunicorn would share one path in the
        # account's home; the service manager starts and stops them.
        gunicorn = [
            str(BIN / "gunicorn"), "arbiter.wsgi:application", "--config", GUNICORN_CONFIG,
            "--no-control-socket",
        ]  # fmt: skip
        concurrency = f"--concurrency={self.worker_concurrency}"
        return [
            Process(
                "worker", "the Celery worker: top searches, round closes, printouts, pushes",
                [str(BIN / "celery"), "-A", "arbiter", "worker", "--loglevel=INFO", concurrency],
            ),
            Process(
                "web", "the room's web processes (gunicorn)", [*gunicorn, "--bind", self.web],
                notifies=True,
            ),
            Process(
                "strangers", "the strangers' web processes: public results, training (gunicorn)",
                [*gunicorn, "--bind", self.strangers, "--workers", "1"], nice=STRANGERS_NICE,
                notifies=True,
            ),
            Process(
                "nginx", "the phones' door: arrival stamps, pushes, static files (nginx)",
                [NGINX, "-c", str(self.nginx_conf), "-e", str(self.run / "start.log")], root=True,
                stop_seconds=20,
            ),
        ]  # fmt: skip


def missing_programs() -> list[str]:
    """What this machine lacks to run the deployment (Debian's packages named)."""
    missing = []
    for program in (BIN / "gunicorn", BIN / "celery"):
        if not program.is_file():
            missing.append(f"{program} (pip install -r requirements.txt)")
    if not Path(NGINX).is_file():
        missing.append(f"{NGINX} (apt install nginx-light)")
    if not Path(MODULES, "ngx_nchan_module.so").is_file():
        missing.append(f"{MODULES}/ngx_nchan_module.so (apt install libnginx-mod-nchan)")
    return missing


def manage(*args: str) -> list[str]:
    """``manage.py ARGS`` run by this interpreter (``python -m arbiter`` for an installed package)."""
    script = Path(settings.BASE_DIR) / "manage.py"
    if script.is_file():
        return [sys.executable, str(script), *args]
    return [sys.executable, "-m", "arbiter", *args]
