"""The servers the benchmark starts, and nothing else: the laptop default (``manage.py serve``:
waitress, SQLite, tasks in-process) or the scale deployment (a fresh PostgreSQL database, a Redis
database number of its own, a Celery worker, gunicorn, the strangers' gunicorn and nginx in front, as
the README's "Running at scale" deploys them).  Every process it starts is kept in ``roots`` with the
CPU column it counts in (cpu.py)."""

from __future__ import annotations

import contextlib
import getpass
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from . import BIN, PG_ADMIN_URL, ROOT

#: The command's entry point: the laptop server with --timings or --profile is this script again.
ENTRY = ROOT / "scripts" / "loadbench.py"
#: The deployment's gunicorn settings (arbiter/gunicorn.py, given as server/deployment.py gives them):
#: --web-workers and --web-threads override theirs.
GUNICORN_CONFIG = ["--config", "python:arbiter.gunicorn"]


def free_port() -> int:
    """A port free on every address: the laptop's server listens on all of them, and the previous
    run's phones (each from its own 127.1.x.y) may leave a port taken on theirs."""
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def wait_for_http(port: int, process: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped; see {log}")
        with contextlib.suppress(OSError):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/login/")
            if conn.getresponse().status == 200:
                return
        time.sleep(0.3)
    raise SystemExit(f"the server did not answer in {seconds} s; see {log}")


def wait_for_line(log: Path, needle: str, process: subprocess.Popen, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if needle in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            raise SystemExit(f"{process.args[0]} stopped; see {log}")
        time.sleep(0.3)
    raise SystemExit(f"{needle!r} not seen in {log}")


class Deployment:
    """The server processes of one deployment and the environment they share with this script."""

    def __init__(self, args, workdir: Path):
        self.args = args
        self.workdir = workdir
        self.port = free_port()
        self.processes: list[tuple[subprocess.Popen, Path]] = []
        #: The pid of every process started here, with the CPU column it and its descendants count in.
        self.roots: dict[int, str] = {}
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        self.env.update(
            {
                "ARBITER_VAR_DIR": str(workdir / "var"),
                "DJANGO_SETTINGS_MODULE": "arbiter.settings",
                "ARBITER_LOG_LEVEL": "WARNING",
                "PYTHONUNBUFFERED": "1",
            }
        )
        self.database = ""
        if args.deployment == "scale":
            self.database = f"loadbench_{int(time.time())}_{os.getpid()}"
            self.env["DATABASE_URL"] = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + self.database
            self.env["REDIS_URL"] = f"redis://127.0.0.1:6379/{args.redis_db}"
            self.env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(40)
            if args.timings:
                self.env["LOADBENCH_TIMINGS"] = str(args.timings)
        self.proxy = None
        if args.deployment == "scale" and not args.no_proxy:
            # As the README deploys it: nginx (deploy/nginx.conf) stamps arrivals and holds the pushes.
            self.app_port = free_port()
            self.strangers_port = free_port()  # the strangers' gunicorn (README: "Running at scale")
            self.proxy = {"listen": f"127.0.0.1:{self.port}", "app": f"127.0.0.1:{self.app_port}",
                          "publisher": f"127.0.0.1:{free_port()}",
                          "strangers": f"127.0.0.1:{self.strangers_port}"}  # fmt: skip
            self.env["ARBITER_TRUSTED_PROXIES"] = "127.0.0.1"
            self.env["ARBITER_CLIENT_IP_HEADER"] = "X-Real-IP"
            if not args.no_push:
                self.env["ARBITER_PUSH_PUBLISH_URL"] = f"http://{self.proxy['publisher']}/pub/"

    def spawn(self, name: str, column: str, command: list[str]) -> subprocess.Popen:
        """Start a server process, leading a session of its own, its output in ``<name>.log``; its
        CPU and its descendants' count in ``column`` (cpu.py)."""
        log = self.workdir / f"{name}.log"
        out = log.open("w")
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.processes.append((process, log))
        self.roots[process.pid] = column
        return process

    def manage(self, *command: str) -> None:
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True)

    def start(self) -> None:
        if self.args.deployment == "embedded":
            self._start_embedded()
        else:
            self._start_scale()

    def _start_embedded(self) -> None:
        args = self.args
        if args.profile or args.timings or args.connection_limit:
            limit = str(args.connection_limit or 0)  # 0: manage.py serve's
            out = str(args.profile or args.timings or "-")
            mode = "profile" if args.profile else "timings" if args.timings else "-"
            command = [sys.executable, str(ENTRY), "--serve-embedded", str(self.port), limit, mode, out]
            command.append(str(args.threads or 0))
        else:
            command = [sys.executable, "manage.py", "serve", "--port", str(self.port)]
            if args.threads:
                command += ["--threads", str(args.threads)]
        server = self.spawn("server", "web", command)
        wait_for_http(self.port, server, self.workdir / "server.log")

    def _start_scale(self) -> None:
        import psycopg
        import redis

        with psycopg.connect(PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True) as pg:
            pg.execute(f'CREATE DATABASE "{self.database}"')
        redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()  # this bench's own database number only
        self.manage("migrate", "--verbosity=0")
        self.manage("collectstatic", "--noinput", "--verbosity=0")
        worker = self.spawn(
            "celery",
            "workers",
            [str(BIN / "celery"), "-A", "arbiter", "worker", "--loglevel=INFO",
             f"--concurrency={self.args.celery_concurrency}"],
        )  # fmt: skip
        wait_for_line(self.workdir / "celery.log", "ready.", worker)
        server = self.spawn("gunicorn", "web", self.gunicorn_command())
        if self.proxy is None:
            wait_for_http(self.port, server, self.workdir / "gunicorn.log")
            return
        wait_for_http(self.app_port, server, self.workdir / "gunicorn.log")
        # The strangers' gunicorn: one worker, at nice 10, as the README deploys it.
        bind = f"127.0.0.1:{self.strangers_port}"
        command = ["nice", "-n", "10", str(BIN / "gunicorn"), "arbiter.wsgi:application", *GUNICORN_CONFIG]
        command += ["--bind", bind]
        strangers = self.spawn("gunicorn-strangers", "web", [*command, "--workers", "1"])
        wait_for_http(self.strangers_port, strangers, self.workdir / "gunicorn-strangers.log")
        conf = self.workdir / "nginx.conf"
        run = self.workdir / "nginx"
        run.mkdir(exist_ok=True)
        command = [sys.executable, "manage.py", "nginx_conf", "--foreground", "--run", str(run)]
        command += ["--user", getpass.getuser()]  # nginx's workers read var/static, this account's own
        command += [f"--{name}={value}" for name, value in self.proxy.items()]
        conf.write_text(
            subprocess.run(command, cwd=ROOT, env=self.env, check=True, capture_output=True, text=True).stdout
        )
        nginx = self.spawn(
            "nginx",
            "front",
            [shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(conf), "-e", str(run / "start.log")],
        )
        wait_for_http(self.port, nginx, self.workdir / "nginx.log")

    def gunicorn_command(self) -> list[str]:
        app = (
            ["scripts.loadbench.timings:timed_application"]  # gunicorn puts its folder, ROOT, on the path
            if self.args.timings
            else ["arbiter.wsgi:application"]
        )
        port = self.app_port if self.proxy else self.port
        command = [str(BIN / "gunicorn"), *app, *GUNICORN_CONFIG, "--bind", f"127.0.0.1:{port}"]
        if self.args.web_workers:
            command += ["--workers", str(self.args.web_workers)]
        if self.args.web_threads:
            command += ["--threads", str(self.args.web_threads)]
        return command

    def stop(self) -> None:
        for process, _log in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process, _log in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.database and not self.args.keep:
            self._drop_database()
            import redis

            redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()

    def _drop_database(self) -> None:
        import psycopg
        from django.conf import settings
        from django.db import connections

        if settings.configured:
            connections.close_all()
        with psycopg.connect(PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True) as pg:
            pg.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [self.database]
            )
            pg.execute(f'DROP DATABASE IF EXISTS "{self.database}"')
