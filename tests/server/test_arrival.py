"""A slip that reached the server in time is in time (§3.3.3: the server's clock decides, with the
grace window for the network), even when it then waited for a free thread in the last-second rush:
the embedded server stamps each request on arrival, and a round is not closed while a slip that
arrived by its cutoff still waits."""

from __future__ import annotations

import gc
import http.cookiejar
import re
import threading
import time
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from server import arrival
from tests.live_services import wait_for
from tournaments import services
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}


class _Request:
    """Stands for a request the server holds (the waiting list refers to it weakly)."""


def _running(game, deadline_in: float) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timedelta(seconds=deadline_in))
    return Round.objects.select_related("game__tournament").get(pk=rnd.pk)


def _cutoff(rnd: Round):
    return rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)


def _status(rnd: Round) -> str:
    return Round.objects.values_list("status", flat=True).get(pk=rnd.pk)


@pytest.fixture
def waiting():
    held: list[_Request] = []
    yield held
    for request in held:
        arrival.slip_answered(request)


# -- the waiting list and the round's close -------------------------------------------------------


def test_a_round_is_not_closed_while_a_slip_that_arrived_in_time_waits_for_a_thread(game, waiting):
    rnd = _running(game, deadline_in=-5)  # deadline and grace (2 s) are over
    waiting.append(_Request())
    arrival.slip_arrived(waiting[0], (_cutoff(rnd) - timedelta(seconds=0.5)).timestamp())
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.RUNNING
    arrival.slip_answered(waiting[0])
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.CLOSED


def test_a_slip_that_arrived_after_the_cutoff_does_not_hold_the_round(game, waiting):
    rnd = _running(game, deadline_in=-5)
    waiting.append(_Request())
    arrival.slip_arrived(waiting[0], (_cutoff(rnd) + timedelta(seconds=0.1)).timestamp())
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.CLOSED


def test_a_slip_never_answered_holds_the_round_no_longer_than_the_limit(game, waiting):
    rnd = _running(game, deadline_in=-5)
    waiting.append(_Request())
    arrival.slip_arrived(waiting[0], _cutoff(rnd).timestamp() - 1)
    soon = _cutoff(rnd) + timedelta(seconds=arrival.MAX_WAIT_SECONDS - 1)
    assert services.round_close_if_due(round_id=rnd.pk, now=soon).status == Round.Status.RUNNING
    later = _cutoff(rnd) + timedelta(seconds=arrival.MAX_WAIT_SECONDS + 1)
    assert services.round_close_if_due(round_id=rnd.pk, now=later).status == Round.Status.CLOSED


def test_a_request_dropped_with_its_connection_leaves_the_waiting_list():
    request = _Request()
    arrival.slip_arrived(request, time.time() - 10)
    assert arrival.slips_waiting_since(timezone.now())
    del request
    gc.collect()
    assert not arrival.slips_waiting_since(timezone.now())


def test_the_server_recognises_the_phones_slip_url_and_nothing_else():
    assert arrival.SLIP_PATH.match(reverse("live:player_submit", kwargs={"token": "Ab-3_x"}))
    for other in ("live:player_status", "live:player_page"):
        assert not arrival.SLIP_PATH.match(reverse(other, kwargs={"token": "Ab-3_x"}))


# -- the phone's slip judged by its stamp ---------------------------------------------------------


def _submit(client, player, rnd, **environ):
    url = reverse("live:player_submit", kwargs={"token": player.token})
    top = rnd.tops[0]
    data = {"round": rnd.pk, "slip": f"{top['ref']} {top['word']}", "request_id": "r-1"}
    return client.post(url, data, **HTMX, **environ).content.decode()


def test_a_slip_stamped_before_the_cutoff_is_received_though_handled_after_it(client, players, game):
    rnd = _running(game, deadline_in=-3)  # handled 1 s after the cutoff, the round still open
    stamp = (_cutoff(rnd) - timedelta(seconds=0.2)).timestamp()
    html = _submit(client, players[0], rnd, **{arrival.ENVIRON_KEY: stamp})
    assert "reçu à" in html
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert abs(sub.received_at.timestamp() - stamp) < 0.001


def test_without_a_stamp_or_with_a_forged_header_the_handling_time_decides(client, players, game):
    rnd = _running(game, deadline_in=-3)
    early = (_cutoff(rnd) - timedelta(seconds=1)).timestamp()
    assert "Trop tard" in _submit(client, players[0], rnd)
    assert "Trop tard" in _submit(client, players[1], rnd, HTTP_ARBITER_RECEIVED_AT=str(early))
    assert not Submission.objects.filter(round=rnd).exists()


# -- the real embedded server --------------------------------------------------------------------


HOLD_PATH = "/__test_hold__"


@pytest.fixture
def server():
    """``arrival.create_server`` with one thread, in this process (so the test reads the same
    waiting list), and a path that keeps that thread busy until released."""
    from arbiter.wsgi import application

    release = threading.Event()

    def app(environ, start_response):
        try:
            if environ["PATH_INFO"] == HOLD_PATH:
                release.wait(20)
                start_response("200 OK", [("Content-Type", "text/plain")])
                return [b"released"]
            result = application(environ, start_response)
            return [b"".join(result)]
        finally:
            connections.close_all()  # this thread's connections: the test database is dropped later

    srv = arrival.create_server(app, host="127.0.0.1", port=0, threads=1)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.effective_port}", release
    release.set()
    srv.task_dispatcher.shutdown()
    srv.close()
    for channel in list(srv._map.values()):
        channel.close()
    thread.join(5)


def _opener():
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


@pytest.mark.django_db(transaction=True)
def test_a_slip_queued_behind_a_busy_thread_past_the_cutoff_is_stored_and_the_close_waits_for_it(
    server, players, game
):
    base, release = server
    rnd = _running(game, deadline_in=1.0)
    token = players[0].token
    phone = _opener()
    with phone.open(f"{base}/j/{token}/", timeout=10) as answer:
        page = answer.read().decode()
    field = lambda name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1)  # noqa: E731
    top = rnd.tops[0]
    form = {
        "csrfmiddlewaretoken": field("csrfmiddlewaretoken"), "round": field("round"),
        "request_id": field("request_id"), "slip": f"{top['ref']} {top['word']}",
    }  # fmt: skip

    busy = threading.Thread(target=lambda: urllib.request.urlopen(base + HOLD_PATH, timeout=30).read())
    busy.start()
    time.sleep(0.3)  # the only thread is taken
    answers: list[str] = []

    def send():
        request = urllib.request.Request(
            f"{base}/j/{token}/bulletin/", data=urllib.parse.urlencode(form).encode(),
            headers={"Referer": f"{base}/j/{token}/", "HX-Request": "true"},
        )  # fmt: skip
        with phone.open(request, timeout=30) as answer:
            answers.append(answer.read().decode())

    sender = threading.Thread(target=send)
    sent_at = timezone.now()
    sender.start()
    cutoff = _cutoff(rnd)
    assert sent_at < rnd.deadline
    time.sleep(max(0.0, (cutoff - timezone.now()).total_seconds()) + 1.0)
    # Past the cutoff, the slip still queued: the close (any poll's, or a worker's) waits for it.
    assert arrival.slips_waiting_since(cutoff)
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.RUNNING

    release.set()
    sender.join(20)
    busy.join(20)
    assert answers and "reçu à" in answers[0]
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sent_at <= sub.received_at < cutoff
    # The server lets go of the slip's request just after its answer is written.
    assert wait_for(lambda: not arrival.slips_waiting_since(cutoff), 5)
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.CLOSED
    assert Submission.objects.get(pk=sub.pk).graded_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_slip_whose_connection_closed_while_it_waited_for_a_thread_is_stored(server, players, game):
    """The phone sent its slip whole, then its connection closed (its Wi-Fi, an answer it stopped
    waiting for) while the slip waited for a thread: the slip is handled all the same, stamped when it
    arrived, and the phone's retry after the cutoff finds it stored rather than "too late"."""
    import socket

    base, release = server
    rnd = _running(game, deadline_in=1.0)
    token = players[0].token
    top = rnd.tops[0]
    body = urllib.parse.urlencode(
        {"round": rnd.pk, "request_id": "dropped-1", "slip": f"{top['ref']} {top['word']}"}
    ).encode()
    busy = threading.Thread(target=lambda: urllib.request.urlopen(base + HOLD_PATH, timeout=30).read())
    busy.start()
    time.sleep(0.3)  # the only thread is taken
    host, port = base.removeprefix("http://").split(":")
    sent_at = timezone.now()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        head = (
            f"POST /j/{token}/bulletin/ HTTP/1.1\r\nHost: {host}:{port}\r\nHX-Request: true\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        time.sleep(0.3)  # arrived whole and stamped, waiting for the busy thread
    cutoff = _cutoff(rnd)
    time.sleep(max(0.0, (cutoff - timezone.now()).total_seconds()) + 0.5)
    assert not Submission.objects.filter(round=rnd, player=players[0]).exists()
    release.set()
    busy.join(20)
    assert wait_for(lambda: Submission.objects.filter(round=rnd, player=players[0]).exists(), 10)
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sent_at <= sub.received_at < cutoff and sub.word == top["word"]
    assert wait_for(lambda: not arrival.slips_waiting_since(cutoff), 5)
