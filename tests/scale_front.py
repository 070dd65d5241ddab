"""The scale deployment's front for the tests: nginx (``deploy/nginx.conf`` through ``server.proxy``,
with its nchan module) before gunicorn (the deployment's settings, ``arbiter/gunicorn.py``, with the
test's workers and threads), both in processes of their own, on the test's database.  Under CI=true a
missing nginx or nchan module fails the test (``./scripts/test`` installs them); elsewhere it skips
it."""

from __future__ import annotations

import getpass
import os
import resource
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from server.deployment import GUNICORN_CONFIG
from server.proxy import MODULES, Proxy
from tests.live_services import free_port, listening, shared_database_url, wait_for

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def require_nginx() -> None:
    missing = [p for p in (NGINX, f"{MODULES}/ngx_nchan_module.so") if not Path(p).is_file()]
    if missing:
        reason = f"{', '.join(missing)} missing (apt-get install nginx-light libnginx-mod-nchan)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: CI runs the scale deployment's tests, it never skips them.")
        pytest.skip(reason)


def collected_static(base: Path) -> Path:
    """The static files as ``collectstatic`` gathers them for nginx to serve."""
    static = base / "static"
    if not static.is_dir():
        env = {**os.environ, "ARBITER_VAR_DIR": str(base)}
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity=0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
    return static


class Front:
    """gunicorn (``workers`` x ``threads``) and nginx before it; ``url()`` goes through nginx."""

    def __init__(
        self, run: Path, static: Path, workers: int = 1, threads: int = 2, nginx_files: int | None = None,
        **proxy_options,
    ):  # fmt: skip
        """``nginx_files``: the open-files limit nginx starts under (a service's: 1,024 on Debian),
        else this process's; ``proxy_options``: ``server.proxy.Proxy``'s (``per_address``...)."""
        self.run = run
        self.static = static
        self.workers, self.threads = workers, threads
        self.nginx_files = nginx_files
        self.port, self.app_port, self.publisher_port = free_port(), free_port(), free_port()
        self.proxy = Proxy(
            listen=f"127.0.0.1:{self.port}",
            app=f"127.0.0.1:{self.app_port}",
            publisher=f"127.0.0.1:{self.publisher_port}",
            run=run,
            static=static,
            foreground=True,
            user=getpass.getuser(),  # the test's own temporary folders are its account's only
            **proxy_options,
        )
        self.gunicorn: subprocess.Popen | None = None
        self.nginx: subprocess.Popen | None = None

    @property
    def publish_url(self) -> str:
        return self.proxy.publish_url()

    def env(self) -> dict:
        return {
            **os.environ,
            "DATABASE_URL": shared_database_url(),
            "DJANGO_SECRET_KEY": settings.SECRET_KEY,  # the same channel names as this process
            "ARBITER_VAR_DIR": str(self.run / "var"),
            "ARBITER_TRUSTED_PROXIES": "127.0.0.1",
            "ARBITER_CLIENT_IP_HEADER": "X-Real-IP",
            "ARBITER_PUSH_PUBLISH_URL": self.publish_url,
            "ARBITER_LOG_LEVEL": "WARNING",
        }

    def start(self) -> Front:
        require_nginx()
        self.start_gunicorn()
        self.start_nginx()
        return self

    def start_gunicorn(self) -> None:
        command = [
            str(BIN / "gunicorn"), "arbiter.wsgi:application", "--config", GUNICORN_CONFIG,
            "--bind", f"127.0.0.1:{self.app_port}",
            "--workers", str(self.workers), "--threads", str(self.threads),
        ]  # fmt: skip
        log = (self.run / "gunicorn.log").open("w")
        self.gunicorn = subprocess.Popen(
            command, cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        if not wait_for(lambda: listening(self.app_port), 60):
            raise AssertionError(f"gunicorn did not start: {(self.run / 'gunicorn.log').read_text()[-2000:]}")

    def start_nginx(self) -> None:
        conf = self.run / "nginx.conf"
        conf.write_text(self.proxy.conf())
        files = self.nginx_files

        def limit_files() -> None:
            if files is not None:
                hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))

        self.nginx = subprocess.Popen(
            [NGINX, "-c", str(conf), "-e", str(self.run / "nginx-start.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=limit_files,
        )  # fmt: skip
        if not wait_for(lambda: listening(self.port) and listening(self.publisher_port), 20):
            raise AssertionError("nginx did not start")

    def stop_nginx(self) -> None:
        """Every connection through nginx dropped at once (the phones' pushes among them)."""
        if self.nginx and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGTERM)
            self.nginx.wait(timeout=20)
        wait_for(lambda: not listening(self.port), 10)

    def pause_web(self) -> None:
        """gunicorn stops handling requests (every process of it), as a worker overloaded."""
        os.killpg(self.gunicorn.pid, signal.SIGSTOP)

    def resume_web(self) -> None:
        os.killpg(self.gunicorn.pid, signal.SIGCONT)

    def stop(self) -> None:
        self.stop_nginx()
        if self.gunicorn and self.gunicorn.poll() is None:
            self.resume_web()
            os.killpg(self.gunicorn.pid, signal.SIGTERM)
            try:
                self.gunicorn.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.gunicorn.pid, signal.SIGKILL)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def app_url(self, path: str) -> str:
        """Straight to gunicorn, around the proxy (as a client on the server's network could)."""
        return f"http://127.0.0.1:{self.app_port}{path}"


@contextmanager
def front_publishing(run: Path, static: Path, settings, **options):
    """A started ``Front``; this process publishes its changes to its nginx, as a web process or a
    Celery worker of the deployment does (``settings``: pytest-django's fixture)."""
    running = Front(run, static, **options)
    settings.PUSH_PUBLISH_URL = running.publish_url
    running.start()
    try:
        yield running
    finally:
        running.stop()
