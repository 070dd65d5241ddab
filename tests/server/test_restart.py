"""A server restart in the middle of a round keeps the rack, the slips and the deadline: the web
process is killed (SIGKILL, no clean shutdown) and started again against the same database."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest

from tests.live_services import free_port, listening, shared_database_url, wait_for
from tournaments import services
from tournaments.models import Round, Submission

ROOT = Path(__file__).resolve().parents[2]
SERVE = "from waitress import serve; from arbiter.wsgi import application; import sys; " \
    "serve(application, host='127.0.0.1', port=int(sys.argv[1]), threads=4)"  # fmt: skip


class Server:
    """The application in its own process, as on the laptop (waitress)."""

    def __init__(self, port: int):
        self.port = port
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**os.environ, "DATABASE_URL": shared_database_url()}
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(self.port)], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        if not wait_for(lambda: listening(self.port), 30):
            raise AssertionError("the server did not start")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture
def server():
    running = Server(free_port())
    yield running
    if running.process and running.process.poll() is None:
        running.kill()


class Phone:
    """A player's browser reduced to cookies and forms."""

    def __init__(self, server: Server, token: str):
        self.server, self.token = server, token
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def page(self) -> str:
        with self.opener.open(self.server.url(f"/j/{self.token}/"), timeout=10) as answer:
            return answer.read().decode()

    def send(self, round_id: int, slip: str, claimed: str) -> str:
        html = self.page()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        data = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": csrf, "round": round_id, "slip": slip, "claimed": claimed,
             "request_id": "phone-1"}
        ).encode()  # fmt: skip
        request = urllib.request.Request(
            self.server.url(f"/j/{self.token}/bulletin/"), data=data,
            headers={"Referer": self.server.url(f"/j/{self.token}/")},
        )  # fmt: skip
        with self.opener.open(request, timeout=10) as answer:
            return answer.read().decode()


@pytest.mark.django_db(transaction=True)
def test_a_restart_mid_round_keeps_the_rack_the_slips_and_the_deadline(server, tournament, players):
    game = services.game_start(tournament=tournament, seed=11)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    server.start()
    phone = Phone(server, players[0].token)
    phone.send(rnd.pk, f"{top['ref']} {top['word']}", str(top["score"]))
    assert Submission.objects.filter(round=rnd, player=players[0]).exists()

    server.kill()
    server.start()

    page = phone.page()
    after = Round.objects.get(pk=rnd.pk)
    assert (after.rack, after.tiles, after.deadline, after.status) == (
        rnd.rack, rnd.tiles, rnd.deadline, Round.Status.RUNNING,
    )  # fmt: skip
    shown = re.findall(r'<li class="tile">([A-Z])<sub ', page) + ["?"] * page.count('class="tile joker"')
    assert sorted(shown) == sorted(rnd.rack.replace("+", "").replace("-", ""))
    remaining = float(re.search(r'data-remaining="([0-9.]+)"', page).group(1))
    assert 150 <= remaining <= 180  # counted from the stored deadline, not restarted
    assert Submission.objects.get(round=rnd, player=players[0]).word == top["word"]

    # The restarted server still closes the round once the deadline (and grace) has passed.
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline - timedelta(seconds=600))
    # Changed by another process (this test): the server sees it once its poll memo has expired.
    end = time.monotonic() + 5
    while Round.objects.get(pk=rnd.pk).status == Round.Status.RUNNING and time.monotonic() < end:
        phone.page()
        time.sleep(0.2)
    closed = Round.objects.get(pk=rnd.pk)
    assert closed.status == Round.Status.CLOSED
    assert Submission.objects.get(round=rnd, player=players[0]).paid == top["score"]
