"""The server's own figures (``--timings``, ``--profile``): a WSGI wrapper measuring each kind of
request's CPU and queries (and a cProfile), for gunicorn (``timed_application``) and for the laptop
server started as ``manage.py serve`` does (``serve_embedded``)."""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from . import DUMP_PATH, ROOT


def request_kind(environ: dict) -> str:
    path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
    for pattern, name in (
        (r"^/j/[^/]+/etat/$", "phone poll"),
        (r"^/j/[^/]+/bulletin/$", "phone slip"),
        (r"^/j/[^/]+/$", "phone join"),
        (r"^/parties/\d+/etat/$", "game poll"),
        (r"^/parties/\d+/bulletins/$", "slips panel"),
        (r"^/projecteur/\d+/etat/$", "projector poll"),
        (r"^/static/", "static"),
        (r"^/tournois/\d+/classement/$", "ranking page"),
    ):
        if re.match(pattern, path):
            return name
    return f"other {method}"


class ProfiledApp:
    """WSGI wrapper: per kind of request (and answer's status), the count, the time inside the
    application, the queries and their time; a cProfile per thread and kind, merged when dumped."""

    def __init__(self, app, out: Path, cprofile: bool = True):
        import cProfile

        self.app = app
        self.out = out
        self.cprofile = cprofile
        self.profile_class = cProfile.Profile
        self.lock = threading.Lock()
        self.local = threading.local()
        self.profiles: list[tuple[str, object]] = []
        self.stats: dict[str, list] = defaultdict(list)
        self.dumped = time.monotonic()

    def _profile(self, kind: str):
        mine = self.local.__dict__.setdefault("profiles", {})
        if kind not in mine:
            mine[kind] = self.profile_class(time.thread_time)  # CPU: what a request costs, not its waits
            with self.lock:
                self.profiles.append((kind, mine[kind]))
        return mine[kind]

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") == DUMP_PATH:
            self.dump()
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"dumped"]
        from django.db import connection

        queries = [0, 0.0]

        def count(execute, sql, params, many, context):
            start = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                queries[0] += 1
                queries[1] += time.perf_counter() - start

        seen = []

        def start(status, headers, exc_info=None):
            seen.append(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info)

        kind = request_kind(environ)
        profile = self._profile(kind) if self.cprofile else None
        began, cpu, wall = time.perf_counter(), time.thread_time(), time.time()
        with connection.execute_wrapper(count):
            if profile:
                profile.enable()
            try:
                result = self.app(environ, start)
                body = b"".join(result)
                if hasattr(result, "close"):
                    result.close()
            finally:
                if profile:
                    profile.disable()
        elapsed, cpu = time.perf_counter() - began, time.thread_time() - cpu
        with self.lock:
            row = (elapsed, queries[0], queries[1], cpu, wall)
            self.stats[f"{kind} {seen[0] if seen else '-'}"].append(row)
        if not self.cprofile:
            self.dump_now_and_then()
        return [body]

    def dump(self) -> None:
        """This process's rows (``rows-<pid>.json``) and, when profiling, its merged profiles."""
        import pstats

        self.out.mkdir(parents=True, exist_ok=True)
        with self.lock:
            rows = {kind: list(values) for kind, values in self.stats.items()}
            merged: dict[str, pstats.Stats] = {}
            for kind, profile in self.profiles:
                if kind in merged:
                    merged[kind].add(profile)
                else:
                    merged[kind] = pstats.Stats(profile)
        (self.out / f"rows-{os.getpid()}.json").write_text(json.dumps(rows), encoding="utf-8")
        for kind, stats in merged.items():
            stats.dump_stats(self.out / (re.sub(r"\W+", "_", kind).strip("_") + ".prof"))

    def dump_now_and_then(self) -> None:
        """Several server processes (gunicorn) cannot all be asked: each writes its rows every few
        seconds."""
        if time.monotonic() - self.dumped > 3:
            self.dumped = time.monotonic()
            self.dump()


_TIMED = None


def timed_application(environ, start_response):
    """gunicorn's entry point for ``--timings`` on the scale deployment: the project's application
    wrapped by ProfiledApp (no cProfile), writing to LOADBENCH_TIMINGS."""
    global _TIMED
    if _TIMED is None:
        sys.path.insert(0, str(ROOT))
        from arbiter.wsgi import application  # Django's behind the slips' lean path (live.slipgate)

        _TIMED = ProfiledApp(application, Path(os.environ["LOADBENCH_TIMINGS"]), cprofile=False)
    return _TIMED(environ, start_response)


def serve_embedded(port: int, connection_limit: int, mode: str, out: str, threads: int) -> None:
    """What ``manage.py serve`` does, with waitress's connection limit given and, in ``mode``
    "profile" or "timings", the application wrapped by ProfiledApp writing to ``out``."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from arbiter.wsgi import application
    from server import arrival
    from server.management.commands.serve import (
        CONNECTION_LIMIT,
        CONNECTIONS_PER_ADDRESS,
        MAX_REQUEST_BYTES,
        THREADS,
    )

    threads, connection_limit = threads or THREADS, connection_limit or CONNECTION_LIMIT
    call_command("serve", no_serve=True)
    app = ProfiledApp(application, Path(out), mode == "profile") if mode != "-" else application
    server = arrival.create_server(
        app,
        host="0.0.0.0",
        port=port,
        threads=threads,
        ident="arbiter",
        connection_limit=connection_limit,
        connections_per_address=CONNECTIONS_PER_ADDRESS,
        max_request_body_size=MAX_REQUEST_BYTES,
    )
    server.run()
