"""The laptop's terminal shows what the arbiter must know and nothing that looks like a crash when
nothing failed; the details go to ``var/log/arbiter.log`` (``server.logs``).  A real ``manage.py
serve``, resuming an evening copied from another laptop, meets a deputy's 403, 404s on both ports,
the browser's icon, a burst of requests that queues (waitress's "Task queue depth"), a browser
bringing back its session from the other laptop, a training game searched by the strangers'
process's worker, then Ctrl+C: the terminal holds no traceback, no "Forbidden", no "Not Found", no
"leaked semaphore", no "Session data corrupted", and the log file holds the details.  A page that
fails (500) is one French line on the terminal naming the log, its traceback in the file."""

from __future__ import annotations

import logging
import logging.config
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.utils.log import log_response

from server import backup
from server.logs import log_to_file
from tests.live_services import free_port, listening, wait_for
from tests.server.test_serve_slips import RECORD, ROOT, _env, _evening
from tests.server.test_strangers_process import _get
from tests.training.test_strangers import Client, play_when_ready, start_random

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")

#: What the terminal must never show when nothing failed.
ALARMING = (
    "Traceback", "Forbidden", "Not Found", "leaked semaphore", "Session data corrupted",
    "Task queue depth", "KeyboardInterrupt", "Warning",
)  # fmt: skip

#: The first laptop's deputy, of the club whose tournament it is; the tournament's id.
DEPUTY = """
import django
django.setup()
from django.contrib.auth.models import User
from clubs.models import Member, Role
from tournaments.models import Tournament
tournament = Tournament.objects.get()
deputy = User.objects.create_user("adjoint", password="x-secret-123")
Member.objects.create(club=tournament.owner, user=deputy, role=Role.DEPUTY)
print(tournament.pk)
"""
#: A logged-in session of the account named in argv, signed with this laptop's key: its cookie.
SESSION = """
import sys
import django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
user = User.objects.get(username=sys.argv[1])
session = SessionStore()
session.update({SESSION_KEY: str(user.pk), HASH_SESSION_KEY: user.get_session_auth_hash(),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend"})
session.create()
print(session.session_key)
"""


def _script(var: Path, code: str, *arguments: str) -> str:
    done = subprocess.run([sys.executable, "-c", code, *arguments], cwd=ROOT, env=_env(var),
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture
def first_laptop(tmp_path):
    """An evening on the first laptop (a hall, round 1 running), its deputy, its arbiter's browser
    logged in there; copied to a key as the server's saver copies it."""
    var = tmp_path / "first"
    _evening(var, "hall", str(RECORD))
    tournament = int(_script(var, DEPUTY))
    cookie = _script(var, SESSION, "arbitre")
    source = sqlite3.connect(var / "arbiter.sqlite3")
    try:
        backup.copy_database(source, tmp_path / "key")
    finally:
        source.close()
    return tmp_path / "key", tournament, cookie


def _serve(var: Path, terminal: Path, *options: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    with terminal.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), *options], cwd=ROOT,
            env=_env(var), stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    up = wait_for(lambda: listening(port) or process.poll() is not None, 180)
    assert up and process.poll() is None, terminal.read_text(errors="replace")
    return process, port


def _ctrl_c(process: subprocess.Popen) -> None:
    """As the terminal sends it: SIGINT to the whole group."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        raise


def _burst(port: int, requests: int = 12) -> None:
    """``requests`` requests arriving together: more than the server's threads, so they queue."""
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(requests)]
    try:
        for conn in sockets:
            conn.sendall(
                f"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
            )
        for conn in sockets:
            while conn.recv(65536):
                pass
    finally:
        for conn in sockets:
            conn.close()


def test_an_evening_of_refusals_leaves_the_terminal_quiet_and_the_details_in_the_log(first_laptop, tmp_path):
    key, tournament, old_cookie = first_laptop
    var, terminal, strangers = tmp_path / "second", tmp_path / "terminal.txt", free_port()
    process, port = _serve(var, terminal, "--strangers-port", str(strangers), "--resume", str(key))
    try:
        assert wait_for(lambda: _get(port, "/entrainement/")[0] == 307, 60)  # the strangers' process is up
        deputy = _script(var, SESSION, "adjoint")  # logged in on this laptop
        refused = _get(port, f"/tournois/{tournament}/", headers={"Cookie": f"sessionid={deputy}"})
        assert refused[0] == 403 and "réservé aux arbitres du club" in refused[2]
        assert _get(port, "/pas-de-page-ici/")[0] == 404
        assert _get(strangers, "/entrainement/pas-de-page-ici/")[0] == 404
        for each in (port, strangers):
            status, headers, _ = _get(each, "/favicon.ico")
            assert status == 200 and headers["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
        # The arbiter's browser still carries its session of the first laptop: a stranger here.
        for each, path in ((port, "/"), (strangers, "/entrainement/")):
            assert _get(each, path, headers={"Cookie": f"sessionid={old_cookie}"})[0] in (200, 302)
        _burst(port)
        trainer = Client(port, "127.0.0.1")
        assert start_random(trainer).status == 302 and trainer.port == strangers
        assert 'class="rack"' in play_when_ready(trainer)  # searched by the strangers' worker
    finally:
        _ctrl_c(process)
    shown = terminal.read_text(errors="replace")
    assert process.returncode == 0 and "Arrêté. Tout est gardé dans" in shown, shown
    assert f"Journal : {var / 'log' / 'arbiter.log'}" in shown
    assert not [sign for sign in ALARMING if sign in shown], shown
    log = (var / "log" / "arbiter.log").read_text(errors="replace")
    assert f"Forbidden (Permission denied): /tournois/{tournament}/" in log
    assert "PermissionDenied: forbidden_arbiters_only" in log  # its traceback, in the file
    assert "Not Found: /pas-de-page-ici/" in log and "Task queue depth is" in log
    assert "Not Found: /entrainement/pas-de-page-ici/" in (var / "log" / "strangers.log").read_text()
    # The copy's sessions, signed on the other laptop, were let go with the resume.
    for kept in (var / "log").glob("*.log"):
        assert "Session data corrupted" not in kept.read_text(errors="replace")


def test_ctrl_c_while_the_rooms_own_training_worker_runs_prints_no_traceback(tmp_path):
    var, terminal = tmp_path / "var", tmp_path / "terminal.txt"
    process, port = _serve(var, terminal, "--strangers-port", "0")  # the room serves training itself
    try:
        trainer = Client(port, "127.0.0.1")
        assert start_random(trainer).status == 302 and trainer.port == port
        assert 'class="rack"' in play_when_ready(trainer)
    finally:
        _ctrl_c(process)
    shown = terminal.read_text(errors="replace")
    assert process.returncode == 0 and "Arrêté. Tout est gardé dans" in shown, shown
    assert not [sign for sign in ALARMING if sign in shown], shown


@pytest.fixture
def laptop_logs(settings, tmp_path):
    """The laptop's logs in ``tmp_path`` once the test calls ``log_to_file`` (in its own body: the
    terminal is the stderr it finds, ``capsys``'s then); this process's logging as before afterwards."""
    site = settings.LOGGING
    settings.VAR_DIR = tmp_path
    yield
    logging.config.dictConfig(site)
    logging.captureWarnings(False)


@pytest.mark.usefixtures("laptop_logs")
def test_a_failed_page_is_one_french_line_on_the_terminal_and_its_traceback_in_the_file(rf, capsys):
    path = log_to_file("arbiter")
    page = rf.get("/tournois/3/")
    for _ in range(3):  # a poll failing again and again: one line a minute
        try:
            raise RuntimeError("the page broke")
        except RuntimeError as error:
            log_response("Internal Server Error: %s", page.path, request=page,
                         response=HttpResponse(status=500), exception=error)  # fmt: skip
    log_response(
        "Not Found: %s", "/favicon.ico", request=rf.get("/favicon.ico"), response=HttpResponse(status=404)
    )
    busy = rf.post("/entrainement/")  # training's worker has enough waiting: 503, try again
    log_response("Service Unavailable: %s", busy.path, request=busy, response=HttpResponse(status=503))
    logging.getLogger("waitress.queue").warning("Task queue depth is %d", 3)
    logging.getLogger("django.security.SuspiciousSession").warning("Session data corrupted")
    try:
        raise OSError(28, "No space left on device")
    except OSError:
        logging.getLogger("server.backup").warning("backup pass failed", exc_info=True)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    where = re.escape(str(path))
    assert re.fullmatch(
        rf"\d\d:\d\d:\d\d Erreur 500 sur la page GET /tournois/3/ : le détail est dans {where}", lines[0]
    )
    assert re.fullmatch(
        r"\d\d:\d\d:\d\d Attention : backup pass failed \(le détail est dans .*arbiter\.log\)", lines[1]
    )
    log = path.read_text()
    assert log.count("Internal Server Error: /tournois/3/") == 3 and "RuntimeError: the page broke" in log
    assert "Traceback" in log and "OSError: [Errno 28] No space left on device" in log
    for detail in (
        "Not Found: /favicon.ico",
        "Service Unavailable: /entrainement/",
        "Task queue depth is 3",
        "Session data corrupted",
    ):
        assert detail in log
