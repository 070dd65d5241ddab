"""The phone shows "received" exactly when the server holds the slip.  Every answer of the slip's
address is marked as the server's (``X-Arbiter``: ``player.js`` sends the slip again on any other),
and a retry refused as late whose first try is then stored ends "received"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from server import arrival
from tournaments import services
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    return Round.objects.select_related("game__tournament").get(pk=rnd.pk)


def _slip(rnd: Round, request_id: str = "r-1") -> dict:
    return {"round": rnd.pk, "slip": f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}", "request_id": request_id}


def _submit_url(player) -> str:
    return reverse("live:player_submit", kwargs={"token": player.token})


@pytest.mark.django_db
def test_every_answer_to_a_slip_is_marked_as_the_servers(client, players, game):
    rnd = _running(game)
    stored = client.post(_submit_url(players[0]), _slip(rnd), **HTMX)
    refused = client.post(_submit_url(players[0]), {**_slip(rnd), "round": "9999"}, **HTMX)
    unknown = client.post(reverse("live:player_submit", kwargs={"token": "x" * 20}), _slip(rnd), **HTMX)
    strict = Client(enforce_csrf_checks=True)
    expired = strict.post(_submit_url(players[1]), _slip(rnd), **HTMX)
    answers = [stored, refused, unknown, expired]
    assert [a.status_code for a in answers] == [200, 200, 404, 403]
    assert "reçu à" in stored.content.decode()
    assert all(a["X-Arbiter"] == "1" for a in answers), [dict(a.headers) for a in answers]


@pytest.mark.django_db
def test_a_retry_refused_as_late_before_its_first_try_is_stored_ends_received(client, players, game):
    """The known case under overload: the first try, stamped in time, waits in a queue; its answer
    is lost meanwhile, or the phone gave up waiting, and the phone sends it again after the cutoff;
    the retry is handled first and refused as late; then the first try is stored.  What the phone
    shows next (its next poll, the page) says the slip received, not "too late"."""
    rnd = _running(game)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    rnd.refresh_from_db()
    cutoff = rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    retry = client.post(_submit_url(players[0]), _slip(rnd), **HTMX).content.decode()
    assert "Trop tard" in retry
    in_time = {arrival.ENVIRON_KEY: (cutoff - timedelta(seconds=1)).timestamp()}
    first = client.post(_submit_url(players[0]), _slip(rnd), **HTMX, **in_time).content.decode()
    assert "reçu à" in first and "Trop tard" not in first
    assert Submission.objects.get(round=rnd, player=players[0]).request_id.startswith("r-1:")

    page = client.get(reverse("live:player_page", kwargs={"token": players[0].token})).content.decode()
    receipt = page[page.index('id="player-receipt"') :]
    receipt = receipt[: receipt.index("</div>")]
    assert "reçu à" in receipt and "Trop tard" not in receipt, receipt


@pytest.mark.django_db
def test_a_late_slip_that_is_another_sending_stays_refused(client, players, game):
    """Only the refused sending's own first try lifts the refusal: a different slip sent late after
    a slip stored in time still shows why it was not received."""
    rnd = _running(game)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    rnd.refresh_from_db()
    cutoff = rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    in_time = {arrival.ENVIRON_KEY: (cutoff - timedelta(seconds=1)).timestamp()}
    client.post(_submit_url(players[0]), _slip(rnd, "r-1"), **HTMX, **in_time)
    late = client.post(_submit_url(players[0]), _slip(rnd, "r-2"), **HTMX).content.decode()
    assert "Trop tard" in late
    page = client.get(reverse("live:player_page", kwargs={"token": players[0].token})).content.decode()
    receipt = page[page.index('id="player-receipt"') :]
    assert "Trop tard" in receipt[: receipt.index("</div>")]


class _Queued:
    """Stands for a request the laptop's server received in time and has not answered yet."""


@pytest.mark.django_db(transaction=True)
def test_a_retry_handled_while_its_first_try_still_waits_is_answered_received(players, game):
    """The retry, past the cutoff, is handled while its first try (sent in time, answer lost) still
    waits in the server's queue: the retry waits for it and is answered "received", never
    "too late".  With no first try waiting, a late slip is refused at once (the test above)."""
    import threading
    import time

    rnd = _running(game)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    rnd.refresh_from_db()
    cutoff = rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    stamp = (cutoff - timedelta(seconds=1)).timestamp()
    queued = _Queued()
    arrival.slip_arrived(queued, stamp)  # the first try, received in time, waits for a thread

    def first_try_served():
        time.sleep(0.5)
        try:
            Client().post(_submit_url(players[0]), _slip(rnd), **HTMX, **{arrival.ENVIRON_KEY: stamp})
        finally:
            arrival.slip_answered(queued)

    first = threading.Thread(target=first_try_served)
    first.start()
    try:
        retry = Client().post(_submit_url(players[0]), _slip(rnd), **HTMX).content.decode()
    finally:
        first.join(30)
        arrival.slip_answered(queued)
    assert "reçu à" in retry and "Trop tard" not in retry, retry
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.received_at.timestamp() == pytest.approx(stamp) and sub.revision == 1
    # Another sending, late, while nothing of it waits: refused at once.
    other = Client().post(_submit_url(players[0]), _slip(rnd, "r-2"), **HTMX).content.decode()
    assert "Trop tard" in other
