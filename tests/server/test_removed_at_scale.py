"""A removed player at scale: nginx before several gunicorn workers on PostgreSQL, their cache in
Redis, each worker remembering the room's players.  The arbiter removes a player (here, from this
process, as the arbiter's web process would): the slips, polls and join link of that player, through
every worker at once, are answered 410 with the sentence, never a 500, and no slip of theirs is
stored.  A removal racing the player's slips in flight is either refused (a slip was stored first)
or leaves no slip at all.  The same race on one process: tests/tournaments/test_removed_player.py."""

from __future__ import annotations

import html
import http.cookiejar
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.core.cache import cache
from django.db import connection
from django.urls import reverse

from server.writes import ServiceError
from tests.scale_front import Front, collected_static
from tournaments import services
from tournaments.models import Player, Round, Submission

WORKERS = 3
REMOVED = "Vous avez été retiré du tournoi par l'arbitre"


class SharedFront(Front):
    """The scale deployment's front with the web processes' cache in Redis (``redis_url``: the test
    session's own server, shared with this process so that its removal reaches them)."""

    redis_url = ""

    def env(self) -> dict:
        return {**super().env(), "REDIS_URL": self.redis_url}


@pytest.fixture(scope="module")
def static_files(tmp_path_factory):
    return collected_static(tmp_path_factory.mktemp("front-static"))


@pytest.fixture
def front(tmp_path, static_files, settings, redis_server):
    if connection.vendor != "postgresql":
        pytest.skip("the scale deployment runs on PostgreSQL (./scripts/test runs tests/server on it)")
    redis_url = f"{redis_server}/4"
    settings.CACHES = {
        "default": {
            "BACKEND": "server.cache.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "arbiter",
        }
    }
    cache.clear()
    running = SharedFront(tmp_path, static_files, workers=WORKERS, threads=2)
    running.redis_url = redis_url
    settings.PUSH_PUBLISH_URL = running.publish_url
    running.start()
    try:
        yield running
    finally:
        running.stop()
        cache.clear()


class Phone:
    """A player's phone through nginx: its page (session, CSRF cookie, the round it shows), then
    requests as ``player.js`` sends them, each answer as (status, headers, body) whatever its status."""

    def __init__(self, front: Front, token: str):
        self.front, self.token = front, token
        cookies = urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        self.opener = urllib.request.build_opener(cookies)
        self.page = self.ask(f"/j/{token}/")[2]
        self.fields = {
            name: re.search(rf'name="{name}" value="([^"]*)"', self.page).group(1)
            for name in ("csrfmiddlewaretoken", "round")
        }

    def ask(self, path: str, form: dict | None = None, **headers) -> tuple[int, dict, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        referer = {"Referer": self.front.url(f"/j/{self.token}/")}
        request = urllib.request.Request(self.front.url(path), data=data, headers={**referer, **headers})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def slip(self, slip: str, request_id: str) -> tuple[int, dict, str]:
        form = {**self.fields, "slip": slip, "request_id": request_id}
        return self.ask(f"/j/{self.token}/bulletin/", form, **{"HX-Request": "true"})

    def poll(self) -> tuple[int, dict, str]:
        return self.ask(f"/j/{self.token}/etat/?s=old", **{"HX-Request": "true"})


def _at_once(calls) -> list:
    """Every call in a thread of its own, all started together; their answers in order."""
    answers: list = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i, call):
        start.wait()
        answers[i] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def _said_removed(answer) -> bool:
    status, _headers, body = answer
    return status == 410 and REMOVED in html.unescape(body)


def _top(rnd: Round) -> str:
    return f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}"


@pytest.mark.django_db(transaction=True)
def test_a_removed_players_slips_through_every_web_process_are_refused_clearly_and_never_stored(
    front, players, game
):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    removed, racing, other = (Phone(front, p.token) for p in players)
    # Every worker reads the room, and remembers its players (``ROOM_MEMO_SECONDS``).
    warm = _at_once([removed.poll] * 24 + [racing.poll] * 24)
    assert {answer[0] for answer in warm} == {200}

    services.player_remove(player=players[0])
    slips = [lambda i=i: removed.slip(_top(rnd), f"r-{i}") for i in range(40)]
    answers = _at_once(slips + [removed.poll] * 8)
    statuses = sorted(a[0] for a in answers)
    assert all(_said_removed(a) for a in answers), statuses
    assert {a[1].get("HX-Redirect") for a in answers} == {f"/j/{players[0].token}/"}
    assert _said_removed(removed.ask(f"/j/{players[0].token}/"))  # the page the phone is sent to
    assert not Submission.objects.filter(player_id=players[0].pk).exists()

    # A removal racing the player's slips in flight: refused if a slip was stored first, else no slip.
    outcome: list = []

    def remove() -> None:
        time.sleep(0.05)
        try:
            services.player_remove(player=players[1])
            outcome.append("removed")
        except ServiceError as refusal:
            outcome.append(refusal.message.code)

    remover = threading.Thread(target=remove)
    remover.start()
    answers = _at_once([lambda i=i: racing.slip(_top(rnd), f"q-{i}") for i in range(40)])
    remover.join(30)
    stored = Submission.objects.filter(player_id=players[1].pk).count()
    received = [a for a in answers if a[0] == 200 and "reçu à" in a[2]]
    refused = [a for a in answers if _said_removed(a)]
    assert len(received) + len(refused) == len(answers), sorted(a[0] for a in answers)
    if outcome == ["removed"]:
        assert stored == 0 and received == [] and not Player.objects.filter(pk=players[1].pk).exists()
    else:
        assert outcome == ["player_has_slips"] and stored == 1 and len(received) == len(answers)

    # A player renamed and moved is shown so at once by every worker, though each remembers the room.
    warm = _at_once([other.poll] * 24)
    assert all("Chloé" in answer[2] for answer in warm)
    services.player_update(player=players[2], table_number=7, name="Chloé Renard")
    shown = _at_once([other.poll] * 24)
    assert all("Chloé Renard" in answer[2] and "table 7" in answer[2] for answer in shown)

    # The room goes on: the other player's slip is stored, graded as any.
    assert "reçu à" in other.slip(_top(rnd), "o-1")[2]
    assert Submission.objects.filter(player_id=players[2].pk).count() == 1
    assert reverse("live:player_page", kwargs={"token": players[2].token}) in other.page
