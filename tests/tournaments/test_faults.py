"""Faults: something real breaks during a round and the round goes on.  The Celery worker is killed
in the middle of a top, Redis does not answer, the database is locked or its connection dropped
during the burst of slips.  Every test ends by checking that nothing was lost.

No mocks: a real worker through a real Redis (killed with SIGKILL), a Redis URL on a closed port, a
second SQLite connection holding the write lock, PostgreSQL's pg_terminate_backend.  (The web
process killed in the middle of a round is test_restart.py.)"""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager, suppress
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.db import OperationalError, connection
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.board import Board
from engine.draw import Bag
from engine.movegen import Position, find_tops
from lexicons.loaded import engine_lexicon
from live.middleware import RETRY_AFTER_SECONDS
from tests.fixtures import worker_game
from tests.live_services import (
    REDIS_DATABASES,
    free_port,
    listening,
    shared_database_url,
    use_broker,
    wait_for,
)
from tournaments import plays, services
from tournaments.models import Game, Player, Round, Submission, Tournament

ROOT = Path(__file__).resolve().parents[2]
#: A Redis database of these tests only: emptied before and after each of them.
#: A real broker address where nothing listens: connecting is refused, as when Redis is down.
DEAD_REDIS_URL = "redis://127.0.0.1:1/0"
HTMX = {"HTTP_HX_REQUEST": "true"}
BROKER_DOWN_TEXT = "Le serveur de tâches (Redis) ne répond pas : calculez le top sur ce portable."
OVERDUE_TEXT = "Le top n&#x27;est toujours pas calculé : aucun serveur de tâches ne semble s&#x27;en charger."

#: A worker's options: its log, and none of the chatter between workers (a faster start).
QUIET = ["--loglevel=INFO", "--without-heartbeat", "--without-gossip", "--without-mingle"]
#: A Celery worker whose first top task stalls as it begins, after writing its process id to a file,
#: so the test can kill it while the task runs, its message taken and not acknowledged.  The stall is
#: a signal handler of this script (task_prerun): the application has no hook for tests.
STALLING_WORKER = """
import os, sys, time
from celery.signals import task_prerun
from arbiter.celery import app

marker, pool = sys.argv[1], sys.argv[2]

def stall(task=None, **kwargs):
    if task.name.endswith("round_compute_top_task") and not os.path.exists(marker):
        with open(marker + ".tmp", "w") as out:
            out.write(str(os.getpid()))
        os.replace(marker + ".tmp", marker)
        time.sleep(600)

task_prerun.connect(stall, weak=False)
app.worker_main(["worker", "--pool=" + pool, "--concurrency=1", "--loglevel=INFO",
                 "--without-heartbeat", "--without-gossip", "--without-mingle"])
"""


# -- brokers and workers ---------------------------------------------------------------------------


@pytest.fixture
def redis_url(redis_server) -> str:
    """The broker's database on the session's own Redis server (tests/conftest.py)."""
    return f"{redis_server}/{REDIS_DATABASES['faults']}"


@pytest.fixture
def redis_broker(settings, redis_url):
    store = redis.Redis.from_url(redis_url)
    store.flushdb()
    with use_broker(settings, redis_url):
        yield store
    store.flushdb()
    store.close()


@pytest.fixture
def dead_broker(settings):
    with use_broker(settings, DEAD_REDIS_URL) as url:
        yield url


class Workers:
    """Celery worker processes against the test's Redis and database, each logging to a file."""

    def __init__(self, folder: Path, redis_url: str):
        self.folder = folder
        self.redis_url = redis_url
        self.started: list[tuple[subprocess.Popen, Path]] = []

    def start(self, *, stall: Path | None = None, pool: str = "solo", **env) -> subprocess.Popen:
        log = self.folder / f"worker-{len(self.started) + 1}.log"
        database = shared_database_url()
        environment = {**os.environ, "REDIS_URL": self.redis_url, "DATABASE_URL": database, **env}
        if stall is None:
            command = [sys.executable, "-m", "celery", "-A", "arbiter", "worker", "--pool=solo", *QUIET]
        else:
            command = [sys.executable, "-c", STALLING_WORKER, str(stall), pool]
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started.append((process, log))
        return process

    def ready(self, process: subprocess.Popen) -> bool:
        """The worker said it is ready (it has restored what Redis gives back at its start)."""
        log = next(path for started, path in self.started if started is process)
        return b" ready." in log.read_bytes()

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')}" for _p, path in self.started)

    def stop(self) -> None:
        """Every worker and the processes of its pool (a killed worker's pool may outlive it)."""
        for process, _log in self.started:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


@pytest.fixture
def workers(redis_broker, redis_url, tmp_path):
    running = Workers(tmp_path, redis_url)
    yield running
    running.stop()


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def _top_state(rnd: Round) -> str:
    return Round.objects.get(pk=rnd.pk).top_state


def _wait_for_top(rnd: Round, workers: Workers, seconds: float = 60.0) -> Round:
    if not wait_for(lambda: _top_state(rnd) == Round.TopState.READY, seconds):
        pytest.fail(f"the top was never computed; workers' logs:\n{workers.logs()}")
    return Round.objects.get(pk=rnd.pk)


# -- what "nothing lost" means for a round ----------------------------------------------------------


def _assert_top_is_the_racks(rnd: Round) -> None:
    """The stored tops are every top of the rack, as an uninterrupted search finds them."""
    lexicon = engine_lexicon(rnd.game.tournament.lexicon)
    expected = find_tops(Position(Board(), tuple(rnd.tiles), lexicon, first_move=rnd.number == 1))
    assert rnd.top_state == Round.TopState.READY
    assert rnd.top_score == expected.score > 0
    found = sorted((t["ref"], t["word"], t["score"]) for t in rnd.tops)
    assert found == sorted((p["ref"], p["word"], p["score"]) for p in map(plays.play_json, expected.plays))


def _assert_no_tile_lost(game: Game, rnd: Round) -> None:
    """One draw of round 1 (no second one made by a retry), and the rack plus the bag are the full set."""
    game.refresh_from_db()
    assert list(Round.objects.filter(game=game).values_list("pk", flat=True)) == [rnd.pk]
    rnd.refresh_from_db()
    assert sorted([*game.bag, *rnd.tiles]) == sorted(Bag.full().tiles())


# -- the worker dies in the middle of a top --------------------------------------------------------


def test_redis_keeps_a_taken_task_long_enough_for_a_round_to_close_and_not_longer_than_needed(settings):
    """A round's close waits in a worker for the round's time and grace: Redis must not hand it out
    again meanwhile (a shorter visibility timeout would), and a lost message should come back within
    minutes, not Redis's default hour."""
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    longest_round = max(Tournament.RoundTime.values) + Tournament._meta.get_field("grace_seconds").default
    assert longest_round + 60 <= timeout <= 3600 / 4
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST


def _draw_and_kill_the_searching_worker(workers: Workers, tournament, tmp_path) -> tuple[Game, Round]:
    """Round 1 drawn, its top taken by a worker that is killed (SIGKILL) in the search."""
    game = worker_game(tournament)
    searching = tmp_path / "searching"
    first = workers.start(stall=searching)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    if not wait_for(searching.exists):
        pytest.fail(f"the first worker never began the search:\n{workers.logs()}")
    _kill(first.pid)
    first.wait(timeout=10)
    return game, rnd


@pytest.mark.django_db(transaction=True)
def test_a_top_lost_with_its_killed_worker_is_queued_again_by_the_arbiters_screen(
    workers, arbiter_client, tournament, tmp_path, settings
):
    game, rnd = _draw_and_kill_the_searching_worker(workers, tournament, tmp_path)

    # A new worker: Redis keeps the lost message for its visibility timeout (minutes), so nothing yet.
    second = workers.start()
    assert wait_for(lambda: workers.ready(second)), workers.logs()
    # Not overdue yet, however long the kill and the new worker took on a loaded machine.
    Round.objects.filter(pk=rnd.pk).update(drawn_at=timezone.now())
    poll = reverse("live:game_poll", args=[game.pk])
    assert arbiter_client.get(poll).status_code == 200
    assert _top_state(rnd) == Round.TopState.PENDING

    # Once the top is overdue, the arbiter's next poll queues it again; the new worker computes it.
    overdue = timedelta(seconds=settings.TOP_REQUEUE_SECONDS)
    Round.objects.filter(pk=rnd.pk).update(drawn_at=F("drawn_at") - overdue)
    arbiter_client.get(poll)
    rnd = _wait_for_top(rnd, workers)
    _assert_top_is_the_racks(rnd)

    arbiter_client.post(reverse("live:round_start", args=[rnd.pk]), **HTMX)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.RUNNING
    _assert_no_tile_lost(game, rnd)


@pytest.mark.django_db(transaction=True)
def test_redis_gives_the_task_of_a_killed_worker_to_the_next_one_after_the_visibility_timeout(
    workers, tournament, tmp_path
):
    """No screen polls here: Redis itself hands the unacknowledged message out again."""
    visibility = 2
    game, rnd = _draw_and_kill_the_searching_worker(workers, tournament, tmp_path)
    time.sleep(visibility + 0.5)  # the message is now older than the next worker's visibility timeout
    assert _top_state(rnd) == Round.TopState.PENDING

    workers.start(ARBITER_BROKER_VISIBILITY_TIMEOUT=str(visibility))
    rnd = _wait_for_top(rnd, workers)
    _assert_top_is_the_racks(rnd)
    _assert_no_tile_lost(game, rnd)


@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_search_process_is_killed_puts_the_top_back_and_computes_it_again(
    workers, tournament, tmp_path
):
    """The default pool (prefork): the process running the search dies, its parent lives on and,
    with reject_on_worker_lost, gives the message back to Redis at once."""
    game = worker_game(tournament)
    searching = tmp_path / "searching"
    worker = workers.start(stall=searching, pool="prefork")
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    if not wait_for(lambda: searching.exists() and searching.read_text()):
        pytest.fail(f"the worker never began the search:\n{workers.logs()}")
    child = int(searching.read_text())
    assert child != worker.pid
    _kill(child)

    rnd = _wait_for_top(rnd, workers)
    assert worker.poll() is None
    _assert_top_is_the_racks(rnd)
    _assert_no_tile_lost(game, rnd)


@pytest.mark.django_db(transaction=True)
def test_a_pending_top_is_queued_again_once_it_is_overdue_and_not_on_every_poll(
    redis_broker, tournament, settings
):
    """No worker runs: what Redis holds is counted."""
    game = worker_game(tournament)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    assert redis_broker.llen("celery") == 1
    assert not services.round_requeue_top(round_id=rnd.pk)  # the search may still be running

    later = timezone.now() + timedelta(seconds=settings.TOP_REQUEUE_SECONDS)
    assert services.round_requeue_top(round_id=rnd.pk, now=later)
    assert not services.round_requeue_top(round_id=rnd.pk, now=later)  # the next polls wait
    assert redis_broker.llen("celery") == 2

    # Two copies of the search: the first computes the top, the second finds it ready.
    services.round_compute_top(round_id=rnd.pk)
    before = Round.objects.get(pk=rnd.pk)
    services.round_compute_top(round_id=rnd.pk)
    after = Round.objects.get(pk=rnd.pk)
    assert (after.tops, after.top_score, after.version) == (before.tops, before.top_score, before.version)
    assert not services.round_requeue_top(round_id=rnd.pk, now=later + timedelta(hours=1))
    _assert_top_is_the_racks(after)
    _assert_no_tile_lost(game, after)


@pytest.mark.django_db(transaction=True)
def test_a_top_no_worker_takes_is_offered_to_the_laptop_once_overdue(
    redis_broker, arbiter_client, tournament, settings
):
    """Redis answers but no Celery worker runs: the arbiter is not left waiting on "calcul du top…"."""
    game = worker_game(tournament)
    html = arbiter_client.post(
        reverse("live:game_draw", args=[game.pk]), {"expected_number": 1}, **HTMX
    ).content.decode()
    rnd = Round.objects.get(game=game)
    here = reverse("live:round_compute_top", args=[rnd.pk])
    assert rnd.top_state == Round.TopState.PENDING and "calcul du top" in html and here not in html
    key = re.search(r"\?v=([^\"&]+)", html).group(1)
    poll = reverse("live:game_poll", args=[game.pk])
    assert arbiter_client.get(poll, {"v": key}, **HTMX).status_code == 204

    Round.objects.filter(pk=rnd.pk).update(
        drawn_at=rnd.drawn_at - timedelta(seconds=settings.TOP_REQUEUE_SECONDS)
    )
    overdue = arbiter_client.get(poll, {"v": key}, **HTMX)  # the screen redraws by itself
    assert overdue.status_code == 200
    html = overdue.content.decode()
    assert OVERDUE_TEXT in html and f'hx-post="{here}"' in html and "calcul du top" not in html
    html = arbiter_client.post(here, **HTMX).content.decode()
    assert "Top prêt." in html and OVERDUE_TEXT not in html
    _assert_top_is_the_racks(Round.objects.get(pk=rnd.pk))


# -- Redis does not answer -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_the_arbiter_is_told_and_computes_the_top_on_the_laptop(
    dead_broker, arbiter_client, tournament, players
):
    game = worker_game(tournament)
    began = time.monotonic()
    page = arbiter_client.post(reverse("live:game_draw", args=[game.pk]), {"expected_number": 1}, **HTMX)
    assert time.monotonic() - began < 5  # the draw is not held by a broker that does not answer
    rnd = Round.objects.get(game=game)
    assert rnd.top_state == Round.TopState.FAILED
    html = page.content.decode()
    here = reverse("live:round_compute_top", args=[rnd.pk])
    assert BROKER_DOWN_TEXT in html and f'hx-post="{here}"' in html and "Calculer le top ici" in html
    assert re.search(r'<button type="submit" class="primary big" disabled>\s*Lancer le chrono', html)

    html = arbiter_client.post(here, **HTMX).content.decode()
    rnd.refresh_from_db()
    _assert_top_is_the_racks(rnd)
    assert "Top prêt." in html and BROKER_DOWN_TEXT not in html

    # The round then runs as usual: the clock starts (its close cannot be queued either) and a
    # request past the deadline closes it.
    arbiter_client.post(reverse("live:round_start", args=[rnd.pk]), **HTMX)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING
    top = rnd.tops[0]
    submit = reverse("live:player_submit", kwargs={"token": players[0].token})
    slip = {
        "round": rnd.pk,
        "slip": f"{top['ref']} {top['word']}",
        "claimed": top["score"],
        "request_id": "r1",
    }
    assert Client().post(submit, slip, **HTMX).status_code == 200
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    arbiter_client.get(reverse("live:game_poll", args=[game.pk]))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert Submission.objects.get(round=rnd, player=players[0]).paid == top["score"]
    _assert_no_tile_lost(game, rnd)


@pytest.mark.django_db(transaction=True)
def test_a_top_overdue_when_redis_goes_down_is_reported_and_computed_on_the_laptop(
    redis_broker, arbiter_client, tournament, settings
):
    """The top was queued, no worker took it, then Redis went down: queuing it again fails, and the
    screen says so."""
    game = worker_game(tournament)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    overdue = timedelta(seconds=settings.TOP_REQUEUE_SECONDS)
    Round.objects.filter(pk=rnd.pk).update(drawn_at=F("drawn_at") - overdue)
    poll = reverse("live:game_poll", args=[game.pk])
    with use_broker(settings, DEAD_REDIS_URL):
        arbiter_client.get(poll)
        assert _top_state(rnd) == Round.TopState.FAILED
        assert BROKER_DOWN_TEXT in arbiter_client.get(poll).content.decode()
        arbiter_client.post(reverse("live:round_compute_top", args=[rnd.pk]), **HTMX)
    rnd.refresh_from_db()
    _assert_top_is_the_racks(rnd)
    _assert_no_tile_lost(game, rnd)


# -- the database fails during the slips -----------------------------------------------------------


def _on(vendor: str) -> None:
    if connection.vendor != vendor:
        pytest.skip(f"runs on {vendor} (./scripts/test runs this file on SQLite and on PostgreSQL)")


def _running_round(tournament: Tournament) -> Round:
    game = services.game_start(tournament=tournament, seed=3)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _slip(rnd: Round, request_id: str) -> dict:
    top = rnd.tops[0]
    return {
        "round": rnd.pk,
        "slip": f"{top['ref']} {top['word']}",
        "claimed": top["score"],
        "request_id": request_id,
    }


def _assert_stored_once(rnd: Round, player: Player) -> Submission:
    sub = Submission.objects.get(round=rnd, player=player)
    assert (sub.ref, sub.word, sub.claimed, sub.revision) == (
        rnd.tops[0]["ref"],
        rnd.tops[0]["word"],
        rnd.tops[0]["score"],
        1,
    )
    return sub


def _assert_answered_retry_later(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "bulletin pas encore reçu, nouvel essai automatique" in response.content.decode()


@pytest.fixture
def short_sqlite_timeout():
    """This process gives up on a lock after 0.2 s (20 s on the laptop), so the test's lock outlasts it."""
    _on("sqlite")
    options = connection.settings_dict["OPTIONS"]
    previous = options.get("timeout")
    options["timeout"] = 0.2
    connection.close()
    yield
    options["timeout"] = previous
    connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_slip_sent_while_sqlite_is_locked_is_answered_503_and_its_retry_is_stored_once(
    short_sqlite_timeout, client, tournament, players
):
    rnd = _running_round(tournament)
    submit = reverse("live:player_submit", kwargs={"token": players[0].token})
    slip = _slip(rnd, "burst-1")

    locker = sqlite3.connect(connection.settings_dict["NAME"], timeout=5, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another writer holds the database longer than the timeout
    try:
        _assert_answered_retry_later(client.post(submit, slip, **HTMX))
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert not Submission.objects.filter(round=rnd).exists()

    for _replay in range(2):  # the phone's retry, then a retry of a lost answer
        answer = client.post(submit, slip, **HTMX)
        assert answer.status_code == 200 and "reçu à" in answer.content.decode()
    _assert_stored_once(rnd, players[0])


@pytest.mark.django_db(transaction=True)
def test_a_slip_whose_postgresql_connection_was_dropped_is_answered_503_and_its_retry_is_stored_once(
    client, tournament, players
):
    _on("postgresql")
    import psycopg

    rnd = _running_round(tournament)
    submit = reverse("live:player_submit", kwargs={"token": players[0].token})
    slip = _slip(rnd, "burst-1")

    connection.ensure_connection()
    with psycopg.connect(shared_database_url(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])
    _assert_answered_retry_later(client.post(submit, slip, **HTMX))
    # What a server does after every request (the test client does not): drop a broken connection.
    connection.close_if_unusable_or_obsolete()

    for _replay in range(2):
        answer = client.post(submit, slip, **HTMX)
        assert answer.status_code == 200 and "reçu à" in answer.content.decode()
    _assert_stored_once(rnd, players[0])


@pytest.mark.django_db(transaction=True)
def test_a_database_error_on_the_arbiters_pages_is_not_taken_for_a_phones_retry(
    short_sqlite_timeout, arbiter_client, tournament
):
    """Only the phones retry by themselves: on the arbiter's pages a database error is raised as it is."""
    game = services.game_start(tournament=tournament, seed=3)
    locker = sqlite3.connect(connection.settings_dict["NAME"], timeout=5, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(OperationalError, match="database is locked"):
            arbiter_client.post(reverse("live:game_draw", args=[game.pk]), {"expected_number": 1})
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert not Round.objects.filter(game=game).exists()


# -- the burst: many phones, a real server, the fault in the middle --------------------------------

#: The application in its own process (waitress, as on the laptop).  On SQLite it gives up on a lock
#: after 0.3 s instead of 20 s, so the test's lock outlasts it without making the test slow.
SERVE = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
from django.conf import settings
if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    settings.DATABASES["default"]["OPTIONS"]["timeout"] = 0.3
from waitress import serve
from arbiter.wsgi import application
serve(application, host="127.0.0.1", port=int(sys.argv[1]), threads=4)
"""


@pytest.fixture
def site():
    port = free_port()
    env = {**os.environ, "DATABASE_URL": shared_database_url()}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port)], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    if not wait_for(lambda: listening(port), 30):
        process.kill()
        pytest.fail("the server did not start")
    yield base
    process.kill()
    process.wait(timeout=10)


class Phone:
    """A player's phone reduced to its cookies, its form and the page script's retry: the same
    request again on a 503 or a dropped connection, after a growing pause, until it is stored."""

    def __init__(self, base: str, player: Player):
        self.base, self.token = base, player.token
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.form: dict = {}
        self.failures: list[int] = []  # 503, or 0 for a connection dropped without an answer

    def open(self, rnd: Round) -> None:
        with self.opener.open(f"{self.base}/j/{self.token}/", timeout=10) as answer:
            html = answer.read().decode()
        field = lambda name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)  # noqa: E731
        top = rnd.tops[0]
        self.form = {
            "csrfmiddlewaretoken": field("csrfmiddlewaretoken"), "round": field("round"),
            "request_id": field("request_id"), "slip": f"{top['ref']} {top['word']}", "claimed": top["score"],
        }  # fmt: skip

    def send(self, seconds: float = 30.0) -> bool:
        url = f"{self.base}/j/{self.token}/bulletin/"
        data = urllib.parse.urlencode(self.form).encode()
        headers = {"Referer": f"{self.base}/j/{self.token}/", "HX-Request": "true"}
        pause, end = 0.2, time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                with self.opener.open(
                    urllib.request.Request(url, data=data, headers=headers), timeout=10
                ) as answer:
                    if "reçu à" in answer.read().decode():
                        return True
            except urllib.error.HTTPError as error:
                if error.code != 503:
                    raise
                self.failures.append(503)
                pause = max(pause, float(error.headers["Retry-After"]) / 2)
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError):
                self.failures.append(0)
            time.sleep(pause)
            pause = min(pause * 2, 2.0)
        return False


def _burst(phones: list[Phone]) -> tuple[list[bool], list[threading.Thread]]:
    """Every phone sends at once, each in its own thread; ``stored`` fills in as they succeed."""
    stored: list[bool] = [False] * len(phones)

    def send(i: int) -> None:
        stored[i] = phones[i].send()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(phones))]
    for thread in threads:
        thread.start()
    return stored, threads


@contextmanager
def _database_fault(vendor: str, phones: list[Phone]):
    """SQLite: another writer holds the lock for a while.  PostgreSQL: the server's connections are
    cut once before the burst and again and again in its middle."""
    if vendor == "sqlite":
        locker = sqlite3.connect(connection.settings_dict["NAME"], timeout=5, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")
        try:
            yield
            wait_for(lambda: any(p.failures for p in phones), 10)
            time.sleep(1.0)
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        return
    import psycopg

    cut = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"  # noqa: E501
    connection.close()  # this test's own connection is spared: it reconnects after the burst
    with psycopg.connect(shared_database_url(), autocommit=True) as killer:
        killer.execute(cut)
        yield
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            killer.execute(cut)
            time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_slips_through_a_database_fault_stores_every_slip_exactly_once(site, tournament, players):
    vendor = connection.vendor
    if vendor not in ("sqlite", "postgresql"):
        pytest.skip(f"no fault to inject on {vendor}")
    everyone = players + [
        services.player_register(tournament=tournament, name=f"Joueur {n}") for n in range(5)
    ]
    rnd = _running_round(tournament)
    phones = [Phone(site, player) for player in everyone]
    for phone in phones:
        phone.open(rnd)

    with _database_fault(vendor, phones):
        stored, threads = _burst(phones)
    for thread in threads:
        thread.join(timeout=60)

    assert all(stored), [p.failures for p in phones]
    assert any(p.failures for p in phones), "the fault never reached a phone"
    assert Submission.objects.filter(round=rnd).count() == len(everyone)
    for player in everyone:
        _assert_stored_once(rnd, player)

    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    rnd = services.round_close_if_due(round_id=rnd.pk)
    assert rnd.status == Round.Status.CLOSED
    assert set(Submission.objects.filter(round=rnd).values_list("paid", flat=True)) == {rnd.top_score}
