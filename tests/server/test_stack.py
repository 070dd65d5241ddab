"""``manage.py stack``: the whole scale deployment on one machine, started as someone trying it would
(on a PostgreSQL database of its own and a Redis), answers through nginx: a page and its static file,
the first account's login, the guides, the strangers' pages, a phone's page, a top searched by the
Celery worker and the room's state pushed by it to a phone listening through nchan.  Its processes
run exactly the commands the systemd services start (``manage.py systemd_units``).  Stopped by
SIGINT, even started with SIGINT ignored (a shell's background job), it stops every process it
started and removes its folder.  Real processes, real PostgreSQL, Redis and nginx; under CI=true
never skipped."""

from __future__ import annotations

import http.cookiejar
import io
import os
import re
import secrets
import signal
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.live_services import require_port, wait_for
from tests.scale_front import require_nginx
from tests.server.test_hall import Listener, _room_states

ROOT = Path(settings.BASE_DIR)
SERVER = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/arbiter")

#: Run by ``python -c`` in the stack's environment: a tournament of two players, its game started
#: (the first account its creator); prints the first player's join token.
SETUP = """
import datetime, django
django.setup()
from django.contrib.auth.models import User
from clubs.access import first_club
from lexicons.loaded import lexicon_default_row
from tournaments import services
from tournaments.models import Player
tournament = services.tournament_create(
    created_by=User.objects.get(username="arbitre"), owner=first_club(), lexicon=lexicon_default_row(),
    name="Essai", date=datetime.date(2026, 11, 29),
)
for name in ("Alice", "Bruno"):
    services.player_register(tournament=tournament, name=name)
services.game_start(tournament=tournament, seed=7)
print(Player.objects.filter(tournament=tournament).order_by("table_number")[0].token)
"""

#: The first round drawn and started here; its top searched by the stack's Celery worker (this
#: process only queues it): prints the round's state key once the worker stored the top.
DRAW = """
import time, django
django.setup()
from tournaments import services
from tournaments.models import Game, Round
from tournaments.selectors import round_key
rnd = services.round_draw(game_id=Game.objects.get().pk, expected_number=1).round
services.round_start(round_id=rnd.pk)
for _ in range(1200):
    rnd = Round.objects.select_related("game").get(pk=rnd.pk)
    if rnd.top_state == Round.TopState.READY:
        break
    time.sleep(0.1)
print(rnd.top_state, round_key(rnd))
"""


def _admin(sql: str) -> None:
    import psycopg

    url = SERVER.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(
        url.replace("postgres://", "postgresql://"), autocommit=True, connect_timeout=5
    ) as pg:
        pg.execute(sql)


@pytest.fixture
def database():
    parts = urlsplit(SERVER)
    require_port("PostgreSQL", parts.hostname or "127.0.0.1", parts.port or 5432)
    name = f"arbiter_stack_{os.getpid()}"
    _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _admin(f"CREATE DATABASE {name}")
    yield SERVER.rsplit("/", 1)[0] + "/" + name
    _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _sessions_alive(sessions: set[int]) -> list[str]:
    """The processes still in one of ``sessions``."""
    alive = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if entry.name.isdigit() and int(fields[3]) in sessions and fields[0] != "Z":
            alive.append(f"{entry.name}: {stat[:80]}")
    return alive


def _marked(mark: str) -> list[str]:
    """The processes whose environment carries ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark.encode() in (entry / "environ").read_bytes():
                found.append(entry.name)
        except OSError:
            continue
    return found


def _command_line(pid: int) -> str:
    return " ".join((Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")).strip()


class Browser:
    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def open(self, path: str, form: dict | None = None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.base + path, data=data, headers={"Referer": self.base + path})
        try:
            answer = self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as error:
            answer = error
        return answer.status, answer.headers, answer.read().decode(errors="replace"), answer.url


def test_the_stack_answers_through_nginx_and_stops_whole_on_sigint(database, redis_server, tmp_path):
    require_nginx()
    mark = f"arbiter-stack-test-{secrets.token_hex(8)}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
    env.update(
        DATABASE_URL=database, REDIS_URL=f"{redis_server}/5", ARBITER_VAR_DIR=str(tmp_path / "var"),
        DJANGO_SECRET_KEY=secrets.token_urlsafe(40), ARBITER_STACK_TEST_MARK=mark, PYTHONUNBUFFERED="1",
        ARBITER_CACHE_DIR=os.environ.get("ARBITER_CACHE_DIR", str(tmp_path / "cache")),
    )  # fmt: skip
    log_path = tmp_path / "stack.log"
    with log_path.open("w") as log:
        stack = subprocess.Popen(
            [sys.executable, "manage.py", "stack"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # a shell's background job: SIGINT ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
        )  # fmt: skip

    def said() -> str:
        return log_path.read_text(errors="replace")

    try:
        assert wait_for(lambda: "[stack] ready:" in said() or stack.poll() is not None, 300), said()[-3000:]
        assert stack.poll() is None, said()[-3000:]
        text = said()
        pids = {name: int(pid) for name, pid in re.findall(r"\[stack\] (\w+): pid (\d+)", text)}
        assert list(pids) == ["worker", "web", "strangers", "nginx"]
        addresses = dict(re.findall(r"(nginx|web|strangers|publisher) (127\.0\.0\.1:\d+)", text))
        password = re.search(r"mot de passe « ([^»]+) »", text).group(1)
        lines = {name: _command_line(pid) for name, pid in pids.items()}
        folder = Path(re.search(r" -c (\S+)/nginx\.conf", lines["nginx"]).group(1))

        # The processes run the systemd services' very commands (the same addresses given).
        out = io.StringIO()
        call_command(
            "systemd_units", "--listen", addresses["nginx"], "--web", addresses["web"],
            "--strangers", addresses["strangers"], "--publisher", addresses["publisher"],
            "--nginx-conf", str(folder / "nginx.conf"), "--run", str(folder / "nginx"), stdout=out,
        )  # fmt: skip
        starts = dict(re.findall(r"arbiter-(\w+)\.service <==\n.*?\nExecStart=(.*?)\n", out.getvalue(), re.S))
        for name, line in lines.items():
            assert line.endswith(starts[name]), (name, line, starts[name])
        assert os.getpriority(os.PRIO_PROCESS, pids["strangers"]) == 10

        browser = Browser(f"http://{addresses['nginx']}")
        status, headers, page, _url = browser.open("/login/")
        assert status == 200 and headers["X-Arbiter"] == "1"
        css = re.search(r'href="(/static/[^"]+\.css)"', page).group(1)
        status, headers, _body, _url = browser.open(css)
        assert status == 200 and headers["X-Arbiter"] is None  # nginx's own file, not Django's
        # The first account logs in (its password printed once by the stack's first start).
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = {"csrfmiddlewaretoken": csrf, "username": "arbitre", "password": password}
        status, _headers, _page, landed = browser.open("/login/", form)
        assert status == 200 and not landed.endswith("/login/"), landed
        # The guides, built by the stack's start, are served.
        assert browser.open("/aide/")[0] == 200
        # The strangers' pages go to their own gunicorn, which answers.
        status, headers, _page, _url = browser.open("/entrainement/")
        assert status == 200 and headers["X-Arbiter"] == "1"

        # A phone listens through nchan; the worker searches the top and pushes the room's state.
        script_env = {**env, "ARBITER_PUSH_PUBLISH_URL": f"http://{addresses['publisher']}/pub/"}
        token = _python(SETUP, script_env).split()[-1]
        status, _headers, phone, _url = Browser(browser.base).open(f"/j/{token}/")
        assert status == 200, phone[-2000:]
        listener = Listener(browser.base + re.search(r'data-push="([^"]+)"', phone).group(1))
        try:
            state, key = _python(DRAW, script_env).split()
            assert state == "ready"  # stored by the stack's Celery worker
            assert wait_for(lambda: key in [m["k"] for m in _room_states(listener)], 60), listener.messages
        finally:
            listener.close()
    finally:
        if stack.poll() is None:
            stack.send_signal(signal.SIGINT)
        try:
            stack.wait(timeout=180)
        except subprocess.TimeoutExpired:
            os.killpg(stack.pid, signal.SIGKILL)
            raise
    assert stack.returncode == 0, said()[-3000:]
    assert said().rstrip().endswith("[stack] stopped")
    assert _sessions_alive({stack.pid, *pids.values()}) == []
    assert _marked(mark) == []
    assert not folder.exists()


def test_the_stack_stopped_by_sigterm_while_it_starts_leaves_nothing(database, redis_server, tmp_path):
    """SIGTERM as the stack prepares (a service manager, a closed terminal): whatever it started by
    then is stopped, and it ends without an error."""
    require_nginx()
    mark = f"arbiter-stack-test-{secrets.token_hex(8)}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
    env.update(
        DATABASE_URL=database, REDIS_URL=f"{redis_server}/5", ARBITER_VAR_DIR=str(tmp_path / "var"),
        DJANGO_SECRET_KEY=secrets.token_urlsafe(40), ARBITER_STACK_TEST_MARK=mark, PYTHONUNBUFFERED="1",
    )  # fmt: skip
    log_path = tmp_path / "stack.log"
    with log_path.open("w") as log:
        stack = subprocess.Popen(
            [sys.executable, "manage.py", "stack"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        assert wait_for(
            lambda: "publisher 127.0.0.1:" in log_path.read_text() or stack.poll() is not None, 120
        )
        stack.send_signal(signal.SIGTERM)
        stack.wait(timeout=180)
    finally:
        if stack.poll() is None:
            os.killpg(stack.pid, signal.SIGKILL)
    said = log_path.read_text()
    assert stack.returncode == 0 and said.rstrip().endswith("[stack] stopped"), said[-3000:]
    started = {int(pid) for pid in re.findall(r"\[stack\] \w+: pid (\d+)", said)}
    assert _sessions_alive({stack.pid, *started}) == [] and _marked(mark) == []


def _python(code: str, env: dict) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "arbiter.settings"},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_stack_without_redis_says_what_it_needs(settings):
    """A try on the laptop's settings: refused in words, nothing started."""
    from django.core.management import CommandError

    require_nginx()
    settings.REDIS_URL = ""
    with pytest.raises(CommandError, match=r"The stack needs: REDIS_URL \(the worker's broker"):
        call_command("stack")
    with pytest.raises(CommandError, match="a port is 1 to 65535"):
        call_command("stack", "--port", "70000")
