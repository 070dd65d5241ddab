"""Strangers' work does not slow the room: on the laptop's server (``manage.py serve``, a real
process), four strangers start random training games in a loop while the room's phones poll.  The
strangers are sent to the strangers' process (``server/strangers.py``: a 307 to the next port, which
they follow as a browser does).  Each stranger's fifth new game within a minute is refused with
``Retry-After``; the games are searched by a low-priority worker process, not in the threads that
answer the phones; every game started is played once ready; every phone's poll is answered.  Each
client has a loopback address of its own (on Linux the whole of 127/8 is the loopback), as on a
club's Wi-Fi.  No time is asserted."""

from __future__ import annotations

import datetime
import http.client
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse

from lexicons.loaded import lexicon_default_row
from tests.live_services import free_port, listening, shared_database_url, wait_for
from tournaments import services
from training.worker import NICENESS

ROOT = Path(__file__).resolve().parents[2]
TRAINERS = 4
PHONES = 3

# Transactional: the data is committed for the server's process to read.
pytestmark = pytest.mark.django_db(transaction=True)


class Client:
    """A browser reduced to one kept-alive connection from its own address, and its cookies."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, form: dict | None = None) -> http.client.HTTPResponse:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):  # a kept-alive connection the server closed meanwhile: once more
            if self.connection is None:
                self.connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=60, source_address=(self.source, 0)
                )
            try:
                self.connection.request(method, path, body=body, headers=headers)
                answer = answer_read(self.connection.getresponse())
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                self.connection = None
                if attempt:
                    raise
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        if answer.status in (307, 308):  # to the strangers' process: followed, and stayed at
            target = urllib.parse.urlsplit(answer.getheader("Location"))
            if target.port != self.port:
                if self.connection is not None:
                    self.connection.close()
                self.connection, self.port = None, target.port
            return self.request(method, target.path + (f"?{target.query}" if target.query else ""), form)
        return answer


def answer_read(answer: http.client.HTTPResponse) -> http.client.HTTPResponse:
    answer.text = answer.read().decode()
    return answer


class Server:
    """``manage.py serve`` on a free port, on this test's database."""

    def __init__(self, folder: Path):
        self.port, strangers = free_port(), free_port()
        self.log = folder / "serve.log"
        env = {**os.environ, "DATABASE_URL": shared_database_url(), "ARBITER_VAR_DIR": str(folder / "var")}
        command = ["manage.py", "serve", "--port", str(self.port), "--strangers-port", str(strangers)]
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, *command], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        # Both listening: the strangers' quotas are counted by the strangers' process from the first.
        up = lambda: listening(self.port) and listening(strangers)  # noqa: E731
        if not wait_for(lambda: up() or self.process.poll() is not None, 120):
            raise AssertionError(f"the server did not start: {self.log.read_text()}")
        assert self.process.poll() is None, self.log.read_text()

    def children(self) -> list[tuple[int, int, int]]:
        """The server's descendants (its strangers' process, their workers): (niceness, CPU ticks
        used, process id)."""
        table = {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            table[int(pid)] = (int(fields[1]), int(fields[16]), int(fields[11]) + int(fields[12]))
        found, parents = [], {self.process.pid}
        while True:
            new = [pid for pid, (parent, *_rest) in table.items() if parent in parents and pid not in parents]
            if not new:
                return found
            parents.update(new)
            found += [(table[pid][1], table[pid][2], pid) for pid in new]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    yield running
    running.stop()


@pytest.fixture
def tokens():
    organiser = User.objects.create_user("organisateur", password="secret-123")
    tournament = services.tournament_create(
        created_by=organiser, lexicon=lexicon_default_row(), name="Coupe du club",
        date=datetime.date(2026, 11, 20), place="Salle des fêtes",
    )  # fmt: skip
    return [services.player_register(tournament=tournament, name=f"Joueur {n}").token for n in range(PHONES)]


def phones_poll(server: Server, tokens: list[str], stop: threading.Event, answers: list) -> None:
    phones = [Client(server.port, f"127.0.1.{n + 1}") for n in range(len(tokens))]
    for phone, token in zip(phones, tokens, strict=True):
        answers.append(phone.request("GET", reverse("live:player_page", args=[token])).status)
    while not stop.is_set():
        for phone, token in zip(phones, tokens, strict=True):
            answers.append(phone.request("GET", reverse("live:player_status", args=[token])).status)
        stop.wait(0.5)


def start_random(trainer: Client) -> http.client.HTTPResponse:
    page = trainer.request("GET", reverse("training:home"))
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    form = {"csrfmiddlewaretoken": csrf, "source": "random", "seconds": "180"}
    return trainer.request("POST", reverse("training:home"), form)


def play_when_ready(trainer: Client, seconds: float = 120) -> str:
    """The round page once the game is ready (the preparing page asks again every second)."""
    end = time.monotonic() + seconds
    while True:
        page = trainer.request("GET", reverse("training:round"))
        if (page.status == 200 and 'class="rack"' in page.text) or time.monotonic() > end:
            return page.text
        assert page.status in (200, 503) and page.getheader("Retry-After"), page.status
        time.sleep(float(page.getheader("Retry-After")))


def test_strangers_starting_random_games_are_limited_and_searched_away_from_the_phones(server, tokens):
    stop, answers = threading.Event(), []
    polling = threading.Thread(target=phones_poll, args=(server, tokens, stop, answers))
    polling.start()
    results: dict[int, list] = {}

    def stranger(n: int) -> None:
        trainer = Client(server.port, f"127.0.2.{n + 1}")
        results[n] = []
        for _ in range(settings.TRAINING_GAMES_PER_MINUTE + 1):
            started = start_random(trainer)
            results[n].append((started.status, started.getheader("Retry-After")))
            if started.status == 302:
                results[n].append(play_when_ready(trainer))

    try:
        strangers = [threading.Thread(target=stranger, args=(n,)) for n in range(TRAINERS)]
        for thread in strangers:
            thread.start()
        for thread in strangers:
            thread.join(timeout=600)
        workers = [(ticks, pid) for niceness, ticks, pid in server.children() if niceness >= NICENESS]
    finally:
        stop.set()
        polling.join(timeout=60)

    for n in range(TRAINERS):
        starts = [entry for entry in results[n] if isinstance(entry, tuple)]
        played = [entry for entry in results[n] if isinstance(entry, str)]
        # Four new games a minute from one address (the default); the fifth is told how long to wait.
        assert [status for status, _ in starts] == [302] * settings.TRAINING_GAMES_PER_MINUTE + [429]
        assert 0 < int(starts[-1][1]) <= 60
        # Every game started was played: its round page shows the rack.
        assert len(played) == settings.TRAINING_GAMES_PER_MINUTE
        assert all('class="rack"' in page for page in played)
    # The games were searched by the server's low-priority worker process, not its own threads.
    assert workers and max(workers)[0] > 0
    # Every poll of the room's phones was answered.
    assert answers and set(answers) <= {200, 204}
    # The worker ends with the server, even killed.
    server.process.kill()
    server.process.wait(timeout=30)
    assert wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for _ticks, pid in workers), 30)
