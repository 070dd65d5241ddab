"""The hall: a slip that reached the server by the cutoff is stored however long it then waited, on
both deployments; only the configured proxy's arrival stamp is believed; the round's close waits out
the web processes' queues; a room's changes are pushed to its phones through nginx."""

from __future__ import annotations

import http.cookiejar
import json
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from live import broadcast, room
from server import arrival, push
from tests.live_services import wait_for
from tests.scale_front import Front, collected_static, front_publishing
from tournaments import services
from tournaments.models import Round, Submission
from tournaments.selectors import round_key

HTMX = {"HTTP_HX_REQUEST": "true"}
PROXY = "10.0.0.1"


def _running(game, deadline_in: float) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timedelta(seconds=deadline_in))
    return Round.objects.select_related("game__tournament").get(pk=rnd.pk)


def _running_until(game, deadline_in: float) -> Round:
    Round.objects.filter(game=game).update(deadline=timezone.now() + timedelta(seconds=deadline_in))
    return Round.objects.select_related("game__tournament").get(game=game)


def _cutoff(rnd: Round):
    return rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)


def _top_slip(rnd: Round) -> str:
    return f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}"


def _submit(client, player, rnd, **environ) -> str:
    url = reverse("live:player_submit", kwargs={"token": player.token})
    data = {"round": rnd.pk, "slip": _top_slip(rnd), "request_id": "r-1"}
    return client.post(url, data, **HTMX, **environ).content.decode()


def _stamp(moment) -> str:
    return f"t={moment.timestamp():.3f}"


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXIES = frozenset({PROXY})


# -- the proxy's stamp --------------------------------------------------------------------------


def test_the_proxys_stamp_decides_a_slip_handled_after_the_cutoff(client, players, game, behind_proxy):
    rnd = _running(game, deadline_in=-3)  # handled 1 s after the cutoff, the round not closed yet
    early = _cutoff(rnd) - timedelta(seconds=0.3)
    html = _submit(client, players[0], rnd, HTTP_X_REQUEST_START=_stamp(early), REMOTE_ADDR=PROXY)
    assert "reçu à" in html
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert abs((sub.received_at - early).total_seconds()) < 0.002


def test_a_stamp_sent_by_anyone_but_the_configured_proxy_is_ignored(client, players, game, behind_proxy):
    rnd = _running(game, deadline_in=-3)
    early = _stamp(_cutoff(rnd) - timedelta(seconds=1))
    assert "Trop tard" in _submit(
        client, players[0], rnd, HTTP_X_REQUEST_START=early, REMOTE_ADDR="10.0.0.77"
    )
    assert "Trop tard" in _submit(client, players[1], rnd, HTTP_X_REQUEST_START=early)  # 127.0.0.1
    assert not Submission.objects.filter(round=rnd).exists()


def test_with_no_proxy_configured_no_stamp_is_believed(client, players, game, settings):
    settings.TRUSTED_PROXIES = frozenset()
    rnd = _running(game, deadline_in=-3)
    early = _stamp(_cutoff(rnd) - timedelta(seconds=1))
    assert "Trop tard" in _submit(client, players[0], rnd, HTTP_X_REQUEST_START=early, REMOTE_ADDR=PROXY)


@pytest.mark.parametrize(
    "header",
    ["t=abc", "1700000000.5", "t=1e9", "t=", "t=99999999999.0", "t=1000000000.0", "t=1700000000.123456789"],
)
def test_a_malformed_or_implausible_stamp_counts_as_none(rf, behind_proxy, header):
    request = rf.get("/", HTTP_X_REQUEST_START=header, REMOTE_ADDR=PROXY)
    assert arrival.proxy_stamp(request.META) is None
    before = timezone.now()
    assert arrival.received_at(request) >= before


def test_a_stamp_from_a_proxy_whose_clock_runs_ahead_is_now(rf, behind_proxy):
    request = rf.get("/", HTTP_X_REQUEST_START=f"t={time.time() + 1:.3f}", REMOTE_ADDR=PROXY)
    assert arrival.proxy_stamp(request.META) <= time.time()


# -- handled after the close: stored, on both deployments -----------------------------------------


@pytest.mark.parametrize("deployment", ["embedded", "scale"])
def test_a_slip_that_arrived_in_time_is_stored_though_the_round_closed_while_itwait_for(
    client, players, game, behind_proxy, deployment
):
    rnd = _running(game, deadline_in=-5)
    services.round_close(round_id=rnd.pk)
    version = Round.objects.get(pk=rnd.pk).version
    key_before = room.round_signature(rnd.game.tournament_id).key
    early = _cutoff(rnd) - timedelta(seconds=0.5)
    if deployment == "embedded":
        environ = {arrival.ENVIRON_KEY: early.timestamp()}  # waitress's stamp (server.arrival)
    else:
        environ = {"HTTP_X_REQUEST_START": _stamp(early), "REMOTE_ADDR": PROXY}
    html = _submit(client, players[0], rnd, **environ)
    assert "reçu à" in html
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.graded_at is not None and sub.paid == rnd.tops[0]["score"]
    # The phones, the screens and the rankings take it in: the room's state key moved.
    assert Round.objects.get(pk=rnd.pk).version == version + 1
    assert room.round_signature(rnd.game.tournament_id).key != key_before
    # A slip that reached the server after the cutoff is late, closed round or not.
    late = _cutoff(rnd) + timedelta(seconds=0.2)
    environ = {arrival.ENVIRON_KEY: late.timestamp()}
    assert "Trop tard" in _submit(client, players[1], rnd, **environ)
    assert not Submission.objects.filter(round=rnd, player=players[1]).exists()


def test_a_slip_in_time_is_stored_even_once_the_top_is_placed(client, players, game):
    rnd = _running(game, deadline_in=-5)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    early = _cutoff(rnd) - timedelta(seconds=0.1)
    assert "reçu à" in _submit(client, players[2], rnd, **{arrival.ENVIRON_KEY: early.timestamp()})
    sub = Submission.objects.get(round=rnd, player=players[2])
    assert sub.paid == rnd.tops[0]["score"]  # graded on the board the round was played on


# -- the close waits out the web processes' queues ------------------------------------------------


def test_the_close_waits_for_the_wait_the_web_processes_told(game, behind_proxy):
    rnd = _running(game, deadline_in=-2.5)  # the cutoff passed 0.5 s ago
    arrival.note_wait(1.5)  # a web process handles requests 1.5 s after nginx received them
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.RUNNING
    later = _cutoff(rnd) + timedelta(seconds=1.7)
    assert services.round_close_if_due(round_id=rnd.pk, now=later).status == Round.Status.CLOSED


def test_a_wait_told_long_ago_holds_nothing(game, behind_proxy, monkeypatch):
    arrival.note_wait(3.0)
    rnd = _running(game, deadline_in=-2.5)
    monkeypatch.setattr(arrival.time, "time", lambda real=time.time: real() + arrival.WAIT_KEPT_SECONDS + 1)
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.CLOSED


# -- the real front: nginx before gunicorn ----------------------------------------------------------


@pytest.fixture(scope="module")
def static_files(tmp_path_factory):
    return collected_static(tmp_path_factory.mktemp("front-static"))


@pytest.fixture
def front(tmp_path, static_files, settings):
    with front_publishing(tmp_path, static_files, settings, workers=1, threads=2) as running:
        yield running


class Phone:
    def __init__(self, front: Front, token: str):
        self.front, self.token = front, token
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        with self.opener.open(front.url(f"/j/{token}/"), timeout=20) as answer:
            self.page = answer.read().decode()

    def send_and_drop(self, slip: str) -> None:
        """Send the slip and close the connection at once, as a phone whose Wi-Fi drops."""
        form = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": self.field("csrfmiddlewaretoken"), "round": self.field("round"),
             "request_id": self.field("request_id"), "slip": slip}
        ).encode()  # fmt: skip
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        head = (
            f"POST /j/{self.token}/bulletin/ HTTP/1.1\r\nHost: 127.0.0.1:{self.front.port}\r\n"
            f"Cookie: {cookies}\r\nReferer: {self.front.url(f'/j/{self.token}/')}\r\nHX-Request: true\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", self.front.port), timeout=10) as conn:
            conn.sendall(head.encode() + form)
            time.sleep(0.3)  # nginx has it, and is waiting for gunicorn

    def field(self, name: str) -> str:
        return re.search(rf'name="{name}" value="([^"]*)"', self.page).group(1)

    def send(self, slip: str, **headers) -> str:
        form = {
            "csrfmiddlewaretoken": self.field("csrfmiddlewaretoken"), "round": self.field("round"),
            "request_id": self.field("request_id"), "slip": slip,
        }  # fmt: skip
        request = urllib.request.Request(
            self.front.url(f"/j/{self.token}/bulletin/"), data=urllib.parse.urlencode(form).encode(),
            headers={"Referer": self.front.url(f"/j/{self.token}/"), "HX-Request": "true", **headers},
        )  # fmt: skip
        with self.opener.open(request, timeout=30) as answer:
            return answer.read().decode()


@pytest.mark.django_db(transaction=True)
def test_through_nginx_a_slip_queued_past_the_cutoff_and_the_close_is_stored(front, players, game):
    _running(game, deadline_in=60)
    phone = Phone(front, players[0].token)
    rnd = _running_until(game, deadline_in=0.5)  # counted once the phone has its page
    front.pause_web()  # the web processes are overloaded: nothing is handled
    answers: list[str] = []
    sender = threading.Thread(target=lambda: answers.append(phone.send(_top_slip(rnd))))
    try:
        sent_at = timezone.now()
        sender.start()
        time.sleep(max(0.0, (_cutoff(rnd) - timezone.now()).total_seconds()) + 0.5)
        services.round_close(round_id=rnd.pk)  # a close that did not wait for it
    finally:
        front.resume_web()
    sender.join(30)
    assert sent_at < rnd.deadline
    assert answers and "reçu à" in answers[0]
    sub = Submission.objects.get(round=rnd, player=players[0])
    # nginx's stamp (to the millisecond), before the cutoff and the close
    assert sent_at - timedelta(milliseconds=2) <= sub.received_at < rnd.deadline + timedelta(seconds=0.5)
    assert sub.graded_at is not None and sub.paid == rnd.tops[0]["score"]


@pytest.mark.django_db(transaction=True)
def test_through_nginx_a_slip_whose_phone_went_away_while_it_queued_is_stored(front, players, game):
    rnd = _running(game, deadline_in=60)
    phone = Phone(front, players[2].token)
    front.pause_web()
    try:
        phone.send_and_drop(_top_slip(rnd))
        time.sleep(1.0)
    finally:
        front.resume_web()
    assert wait_for(lambda: Submission.objects.filter(round=rnd, player=players[2]).exists(), 20)


@pytest.mark.django_db(transaction=True)
def test_through_nginx_a_phone_cannot_stamp_its_own_late_slip_early(front, players, game):
    rnd = _running(game, deadline_in=-3)
    phone = Phone(front, players[1].token)
    forged = _stamp(_cutoff(rnd) - timedelta(seconds=2))
    assert "Trop tard" in phone.send(_top_slip(rnd), **{"X-Request-Start": forged})
    assert not Submission.objects.filter(round=rnd).exists()


class Listener:
    """A phone's push connection (server-sent events), read by a thread of its own."""

    def __init__(self, url: str):
        self.messages: list[str] = []
        self.answer = urllib.request.urlopen(
            urllib.request.Request(url, headers={"Accept": "text/event-stream"}), timeout=30
        )
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.answer:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("data: "):
                    self.messages.append(line[6:])
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        self.answer.close()


def _room_states(listener: Listener) -> list[dict]:
    return [m for m in map(json.loads, listener.messages) if "ph" in m]


def _own_results(listener: Listener) -> list[dict]:
    return [m for m in map(json.loads, listener.messages) if "ph" not in m]


@pytest.mark.django_db(transaction=True)
def test_a_change_made_anywhere_is_pushed_to_the_rooms_phones_through_nginx(front, players, game):
    """The room's state is pushed whole (the status's common part, the board, the seconds left): the
    phone asks nothing; at the close each phone's own result comes on its own channel, on the same
    connection, and no one else's."""
    page = Phone(front, players[0].token).page
    listen = re.search(r'data-push="([^"]+)"', page).group(1)
    with translation.override("fr"):
        assert listen == broadcast.listen_path(players[0])
    assert listen.count("/") == 3  # /push/<room>/<own>
    listener = Listener(front.url(listen))
    neighbour = Listener(
        front.url(re.search(r'data-push="([^"]+)"', Phone(front, players[1].token).page).group(1))
    )
    try:
        time.sleep(0.3)
        # This process stands for a Celery worker: its change is published, and nginx passes it on.
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
        rnd = Round.objects.select_related("game").get(pk=rnd.pk)
        key = round_key(rnd)
        assert wait_for(lambda: key in [m["k"] for m in _room_states(listener)], 10), listener.messages
        state = next(m for m in _room_states(listener) if m["k"] == key)
        assert state["ph"] == "running" and state["r"] == str(rnd.pk) and 0 < state["rem"] <= 180
        assert state["html"].count('class="tile') == len(rnd.tiles) and "coup 1" in state["rn"]
        assert len(state["b"]) == 225 and set(state["b"]) == {"."}  # the first round: an empty board
        assert _own_results(listener) == []  # nothing of one's own while the round runs
        # Another room's channel hears nothing of it.
        other = Listener(front.url(push.listen_path(broadcast.push_room(game.tournament_id + 1000, "fr"))))
        services.round_close(round_id=rnd.pk)
        closed = round_key(Round.objects.select_related("game").get(pk=rnd.pk))
        assert wait_for(lambda: any(m["k"] == closed for m in _room_states(listener)), 10), listener.messages
        state = next(m for m in _room_states(listener) if m["k"] == closed)
        assert state["o"]  # the digest of the results the phones show with it
        assert wait_for(lambda: any(m["o"] == state["o"] for m in _own_results(listener)), 10)
        assert (
            state["ph"] == "closed"
            and "terminé" in state["html"]
            and '<div class="own"></div>' in state["html"]
        )
        own = next(m for m in _own_results(listener) if m["o"] == state["o"])
        # Written in the languages the room's phones read only: French here.
        assert "aucun bulletin remis" in own["fr"] and "rang" in own["fr"] and "en" not in own
        assert wait_for(lambda: _own_results(neighbour), 10)
        assert len(_own_results(listener)) == 1 and len(_own_results(neighbour)) == 1  # each its own
        # The top placed: the room's new state names the same results, and none is sent again.
        services.round_place_top(round_id=rnd.pk)
        placed = round_key(Round.objects.select_related("game").get(pk=rnd.pk))
        assert wait_for(lambda: any(m["k"] == placed for m in _room_states(listener)), 10)
        assert next(m for m in _room_states(listener) if m["k"] == placed)["o"] == state["o"]
        time.sleep(0.5)
        assert len(_own_results(listener)) == 1
        time.sleep(0.3)
        assert other.messages == []
        other.close()
    finally:
        listener.close()
        neighbour.close()


def test_a_sending_retried_after_the_cutoff_whose_first_try_was_stored_is_told_received(
    client, players, game
):
    """The phone lost the answer to a slip sent in time and sends the same request again after the
    cutoff: it was stored, and the phone is told so, not "too late"."""
    rnd = _running(game, deadline_in=-1.5)  # the cutoff is 0.5 s away
    assert "reçu à" in _submit(client, players[0], rnd)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    services.round_close(round_id=rnd.pk)
    retried = _submit(client, players[0], rnd)  # the same request id: a retry
    assert "reçu à" in retried and "Trop tard" not in retried
    assert Submission.objects.get(round=rnd, player=players[0]).revision == 1
    # Another slip from the same phone after the cutoff is late.
    url = reverse("live:player_submit", kwargs={"token": players[0].token})
    late = client.post(url, {"round": rnd.pk, "slip": "H8 ZZZ", "request_id": "r-2"}, **HTMX).content.decode()
    assert "Trop tard" in late
