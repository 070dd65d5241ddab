"""A closed round's results made once for the whole server (live/closed_results.py), on a real
Redis: the process that pushes them makes them, the web processes read each phone's own entry."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse

import pytest
from django.core.cache import cache

from arbiter.wsgi import application
from live import broadcast, closed_results, phone, room
from live.own import own_html
from tests.fixtures import calls_to
from tests.live_services import REDIS_DATABASES
from tournaments import marks, services
from tournaments.models import Tournament
from tournaments.selectors import round_key

from .test_polled import _messages
from .test_slipgate import _call, _environ, _form, _running, _top

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shared_cache(settings, redis_server):
    settings.CACHES = {
        "default": {
            "BACKEND": "server.cache.RedisCache",
            "LOCATION": f"{redis_server}/{REDIS_DATABASES['cache']}",
            "KEY_PREFIX": "closed-results",
            "OPTIONS": {"socket_timeout": 1},
        }
    }
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def made(monkeypatch):
    """Every time a process made the room's results itself (the costly part at a hall's size)."""
    return calls_to(monkeypatch, closed_results, "room_results")


def _closed(players, game):
    """A closed round of a French room where phones read English too."""
    Tournament.objects.filter(pk=game.tournament_id).update(room_languages=["en"])
    rnd = _running(game)
    _call(application, _environ(players[0].token, urllib.parse.urlencode(_form(rnd, _top(rnd))).encode()))
    services.round_close(round_id=rnd.pk)
    return rnd, phone.room_screen(game.tournament_id)


def _local(screen) -> dict[int, dict[str, str]]:
    """Each player's own result as a process makes them alone."""
    results = closed_results.room_results(screen)
    solo = screen.round.game.tournament.solo_value
    return {s.player.pk: {lang: own_html(s, lang, solo) for lang in ("fr", "en")} for s in results.screens}


def test_the_first_process_makes_them_and_the_others_read_each_players_own(shared_cache, made, players, game):
    _rnd, screen = _closed(players, game)
    mark = marks.players_mark(game.tournament_id)
    assert mark is not None
    first = closed_results.results_of(screen, mark)
    other = closed_results.results_of(screen, mark)  # another process: the same cache
    assert len(made) == 1 and other.made is None and other.digest == first.digest
    expected = _local(screen)
    for player in players:
        for lang in ("fr", "en"):
            assert other.own(player.pk, lang) == expected[player.pk][lang] != ""
    assert dict(other.every_own()) == dict(first.every_own()) == expected
    assert other.own(10**9, "fr") is None  # a player the results do not hold


def test_a_process_waits_for_the_one_making_them(shared_cache, made, players, game):
    _rnd, screen = _closed(players, game)
    mark = marks.players_mark(game.tournament_id)
    base = f"closed:{game.tournament_id}:{screen.signature}:{mark}"
    assert cache.add(f"{base}:making", 1, 30)  # another process took the making
    got = []
    waiter = threading.Thread(target=lambda: got.append(closed_results.results_of(screen, mark)))
    waiter.start()
    time.sleep(0.3)
    assert got == [] and made == []  # waiting, not making
    maker = closed_results._make_shared(screen, base)
    waiter.join(5)
    assert len(made) == 1 and got[0].made is None and got[0].digest == maker.digest
    assert got[0].own(players[1].pk, "fr") == _local(screen)[players[1].pk]["fr"]


def test_a_maker_that_died_leaves_them_made_by_the_waiter(shared_cache, made, players, game, monkeypatch):
    monkeypatch.setattr(closed_results, "WAIT_SECONDS", 0.3)
    _rnd, screen = _closed(players, game)
    mark = marks.players_mark(game.tournament_id)
    assert cache.add(f"closed:{game.tournament_id}:{screen.signature}:{mark}:making", 1, 30)
    results = closed_results.results_of(screen, mark)
    assert len(made) == 1 and results.own(players[0].pk, "fr") == _local(screen)[players[0].pk]["fr"]
    assert closed_results.results_of(screen, mark).made is None  # left for the others


def test_the_push_and_the_polls_make_them_once_for_the_room(shared_cache, made, players, game):
    rnd, _screen = _closed(players, game)
    key = round_key(phone.room_screen(game.tournament_id).round)
    pushed = dict(broadcast.messages(game.tournament_id, key))  # the Celery worker's task
    assert len(made) == 1
    for player in players:
        own, state = _messages(player.token, s=round_key(rnd) + "x", d="fr")
        assert own["fr"] and own["fr"] == json.loads(pushed[broadcast.own_room(player.pk)])["fr"]
        assert state["o"] == own["o"]
    assert len(made) == 1


def test_a_cache_that_does_not_answer_leaves_them_made_here(settings, made, players, game):
    _rnd, screen = _closed(players, game)
    settings.CACHES = {
        "default": {
            "BACKEND": "server.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }
    results = closed_results.results_of(screen, "read-earlier")
    assert len(made) == 1 and results.own(players[0].pk, "fr") == _local(screen)[players[0].pk]["fr"]


def test_the_web_leaves_the_making_to_the_worker_sent_the_state(
    shared_cache, made, players, game, monkeypatch
):
    """In a hall (here: from 3 players), the poll that closed the round (or crossed the close) does
    not make the room's results when the worker that pushes the state was sent it: it waits for the
    worker's.  A club's room below the threshold makes them at once."""
    monkeypatch.setattr(closed_results, "LEFT_TO_WORKER_FROM", 4)
    _rnd, screen = _closed(players, game)
    closed_results.worker_coming(game.tournament_id)
    assert closed_results.results_of(screen, marks.players_mark(game.tournament_id)).made is not None
    assert len(made) == 1
    made.clear()
    cache.clear()
    monkeypatch.setattr(closed_results, "LEFT_TO_WORKER_FROM", 3)
    mark = marks.players_mark(game.tournament_id)
    closed_results.worker_coming(game.tournament_id)
    got = []
    web = threading.Thread(target=lambda: got.append(closed_results.results_of(screen, mark)))
    web.start()
    time.sleep(0.3)
    assert got == [] and made == []  # waiting for the worker, no lock taken
    pushed = closed_results.results_of(screen, mark, pusher=True)  # the worker's task
    web.join(5)
    assert len(made) == 1 and pushed.made is not None and got[0].made is None
    assert got[0].own(players[2].pk, "en") == _local(screen)[players[2].pk]["en"]


def test_a_worker_that_never_comes_leaves_them_to_the_web(shared_cache, made, players, game, monkeypatch):
    monkeypatch.setattr(closed_results, "WAIT_SECONDS", 0.3)
    monkeypatch.setattr(closed_results, "LEFT_TO_WORKER_FROM", 0)
    _rnd, screen = _closed(players, game)
    closed_results.worker_coming(game.tournament_id)
    results = closed_results.results_of(screen, marks.players_mark(game.tournament_id))
    assert len(made) == 1 and results.digest == closed_results.room_results(screen).digest


def test_a_web_process_reading_the_made_results_reads_no_players(
    shared_cache, made, players, game, monkeypatch, settings
):
    """A web process that finds the results made reads one entry and counts the room once in a while
    (``room.room_size``): it does not read the hall's players (all 1,500 of them, in every web
    process at every close) to learn that the room is a hall."""
    settings.ROOM_MEMO_SECONDS = 60
    _rnd, screen = _closed(players, game)
    mark = marks.players_mark(game.tournament_id)
    closed_results.results_of(screen, mark, pusher=True)  # the worker made them
    expected = _local(screen)[players[1].pk]["fr"]
    read = calls_to(monkeypatch, room, "_room")
    closed_results.worker_coming(game.tournament_id)
    for _ in range(3):
        results = closed_results.results_of(screen, mark)
        assert results.own(players[1].pk, "fr") == expected
    assert read == [] and len(made) == 2  # the worker's, and this test's own
    assert room.room_size(game.tournament_id) == len(players)
    services.player_register(tournament=game.tournament, name="Arrivée tardive")
    assert room.room_size(game.tournament_id) == len(players) + 1  # this process's save: counted again


def test_a_poll_that_sees_a_close_before_its_announce_leaves_the_results_to_the_worker(
    shared_cache, made, players, game, monkeypatch, settings
):
    """The close is committed, then announced a moment later: a hall's poll that reads the closed
    round in that moment waits for the worker's results too, told before the commit
    (``worker_coming``, from the round's save), instead of making the hall's results itself."""
    monkeypatch.setattr(closed_results, "LEFT_TO_WORKER_FROM", 3)
    rnd, screen = _closed(players, game)
    cache.clear()
    made.clear()
    settings.PUSH_PUBLISH_URL = "http://127.0.0.1:9/pub/"  # pushed (nothing listens: never sent here)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # by a Celery worker
    announced = []
    monkeypatch.setattr(broadcast, "_announce", announced.append)  # the announce, held back
    type(rnd).objects.get(pk=rnd.pk).save()  # the close, committed: not yet announced
    assert announced == [game.tournament_id]
    mark = marks.players_mark(game.tournament_id)
    got = []
    web = threading.Thread(target=lambda: got.append(closed_results.results_of(screen, mark)))
    web.start()
    time.sleep(0.3)
    assert got == [] and made == []  # waiting for the worker
    closed_results.results_of(screen, mark, pusher=True)
    web.join(5)
    assert len(made) == 1 and got[0].made is None
    assert got[0].own(players[0].pk, "fr") == _local(screen)[players[0].pk]["fr"]
