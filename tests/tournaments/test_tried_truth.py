"""A slip a phone tried to send during an outage, received late, says one truth on every screen: the
phone (its page opened afresh, its poll), the arbiter's slips panel and the slip's history say
whether the arbiter accepted it (when, and when the phone tried it by its own clock), refused it, or
has still to decide; an accepted slip never stands beside "Trop tard … non reçu", and undoing the
correction that accepted it takes the acceptance back."""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from live import phone
from live import services as live_services
from live.tried import clock_text
from tournaments import services, standings
from tournaments.models import Round, Submission, SubmissionChange, TriedSlip

HTMX = {"HTTP_HX_REQUEST": "true"}


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _top(rnd) -> tuple[str, str]:
    top = rnd.tops[0]
    return phone.typed_slip(f"{top['ref']} {top['word']}"), str(top["score"])


def _outage(game, player) -> Round:
    """Round 1 runs; the player's phone loses the server before the deadline and keeps its slip.
    The server is back after the cutoff: the phone's retry of the slip is refused as late ("Trop
    tard", kept for the round's receipt), then the kept slip is sent as a tried slip (a claim); the
    round is closed meanwhile."""
    rnd = _running(game)
    slip, claimed = _top(rnd)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    url = reverse("live:player_submit", kwargs={"token": player.token})
    data = {"round": rnd.pk, "slip": slip, "claimed": claimed, "request_id": "phone-1"}
    late = Client().post(url, data, **HTMX).content.decode()
    assert "Trop tard" in late
    rnd = services.round_close_if_due(round_id=rnd.pk)
    tried_at = rnd.deadline - timedelta(seconds=12)
    essai = reverse("live:player_tried", kwargs={"token": player.token})
    sent = {**data, "tried_at": str(int(tried_at.timestamp() * 1000))}
    assert Client().post(essai, sent, **HTMX).status_code == 202
    return Round.objects.get(pk=rnd.pk)


def _page(player) -> str:
    """The phone's page opened afresh (a reload, another browser)."""
    return Client().get(reverse("live:player_page", kwargs={"token": player.token})).content.decode()


def _receipt(html: str) -> str:
    return re.search(r'<div id="player-receipt".*?</div>', html, re.S).group(0)


def _decide(client, rnd, action):
    claim = TriedSlip.objects.get(round=rnd, status="pending")
    url = reverse(f"live:tried_{action}", args=[rnd.pk, claim.pk])
    assert client.post(url, **HTMX).status_code == 200
    return TriedSlip.objects.get(pk=claim.pk)


def _panel(client, game) -> str:
    url = reverse("live:game_slips", args=[game.pk]) + "?coup=1"
    return client.get(url, **HTMX).content.decode()


def _history(client, rnd, player) -> str:
    url = reverse("live:slip_history", args=[rnd.pk, player.table_number])
    return client.get(url, **HTMX).content.decode()


def _total(game, player) -> int:
    rows = standings.game_rows(standings.game_ranking(game)).rows
    return next(row.total for row in rows if row.table == player.table_number)


def _apostrophes(text: str) -> str:
    return text.replace("'", "&#x27;")


def test_a_freshly_opened_phone_says_the_slip_was_accepted_not_too_late(arbiter_client, game, players):
    alice = players[0]
    rnd = _outage(game, alice)
    claim = _decide(arbiter_client, rnd, "accept")
    receipt = _receipt(_page(alice))
    accepted = f"accepté par l'arbitre à {clock_text(claim.decided_at)} (tenté à {clock_text(claim.tried_at)}"
    assert _apostrophes(accepted) in receipt and "à l&#x27;heure du téléphone" in receipt
    assert "Trop tard" not in receipt and "non reçu" not in receipt
    assert f"reçu à {clock_text(rnd.deadline)}" not in receipt  # the deadline is no time it was received
    # The slip shown is the one that counts, and it counts.
    _slip, claimed = _top(rnd)
    assert f"{claimed}</b>" in receipt and Submission.objects.get(player=alice).paid == int(claimed)
    assert _total(game, alice) == int(claimed)
    # The poll of a phone that showed the round before says the same.
    status = reverse("live:player_status", kwargs={"token": alice.token})
    polled = Client().get(status, {"s": "old", "r": "old"}, **HTMX).content.decode()
    assert _apostrophes(accepted) in polled and "Trop tard" not in polled


def test_the_arbiters_table_and_the_slips_history_say_the_same(arbiter_client, game, players):
    alice = players[0]
    rnd = _outage(game, alice)
    claim = TriedSlip.objects.get()
    tried = clock_text(claim.tried_at)
    pending = f"tenté à {tried} (heure du téléphone) : à décider"
    assert pending in _panel(arbiter_client, game)
    assert "en attente de la décision de l&#x27;arbitre" in _history(arbiter_client, rnd, alice)
    claim = _decide(arbiter_client, rnd, "accept")
    decided = clock_text(claim.decided_at)
    panel = _panel(arbiter_client, game)
    assert f"tenté à {tried} (heure du téléphone), accepté à {decided}" in panel
    history = _history(arbiter_client, rnd, alice)
    assert f"reçu à {clock_text(claim.received_at)} : accepté par l&#x27;arbitre à {decided}" in history
    assert "Aucun bulletin reçu du téléphone." not in history
    assert "Aucun bulletin reçu à temps du téléphone." in history


def test_a_pending_claim_says_waiting_for_the_arbiter_after_a_reload(arbiter_client, game, players):
    bruno = players[1]
    rnd = _outage(game, bruno)
    claim = TriedSlip.objects.get()
    receipt = _receipt(_page(bruno))
    assert f"Bulletin tenté à {clock_text(claim.tried_at)} (heure du téléphone)" in receipt
    assert "En attente de la décision de l&#x27;arbitre." in receipt
    assert "Trop tard" not in receipt  # the claim's line says what became of that slip
    assert not Submission.objects.filter(player=bruno).exists() and _total(game, bruno) == 0
    assert rnd.status == Round.Status.CLOSED


def test_a_refused_claim_says_refused_after_a_reload(arbiter_client, game, players):
    chloe = players[2]
    rnd = _outage(game, chloe)
    claim = _decide(arbiter_client, rnd, "refuse")
    receipt = _receipt(_page(chloe))
    assert f"Refusé par l&#x27;arbitre à {clock_text(claim.decided_at)} : il ne compte pas." in receipt
    assert "En attente" not in receipt and "accepté" not in receipt
    assert f"refusé à {clock_text(claim.decided_at)}" in _panel(arbiter_client, game)
    assert "refusé par l&#x27;arbitre" in _history(arbiter_client, rnd, chloe)
    assert _total(game, chloe) == 0


def test_a_slip_sent_in_time_stays_beside_a_later_claim_waiting(arbiter_client, game, players):
    alice = players[0]
    rnd = _running(game)
    url = reverse("live:player_submit", kwargs={"token": alice.token})
    Client().post(url, {"round": rnd.pk, "slip": "H8 MOT", "claimed": "12", "request_id": "early"}, **HTMX)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    rnd = services.round_close_if_due(round_id=rnd.pk)
    essai = reverse("live:player_tried", kwargs={"token": alice.token})
    tried_at = str(int((rnd.deadline - timedelta(seconds=3)).timestamp() * 1000))
    data = {"round": rnd.pk, "slip": "H8 MOTS", "claimed": "14", "request_id": "kept", "tried_at": tried_at}
    assert Client().post(essai, data, **HTMX).status_code == 202
    receipt = _receipt(_page(alice))
    assert 'H8 MOT 12</b> — <span class="when">reçu à' in receipt  # the slip that counts, as sent
    assert "H8 MOTS 14, reçu à" in receipt and "En attente de la décision" in receipt


def test_undoing_the_accepted_claims_correction_takes_the_acceptance_back(arbiter_client, game, players):
    alice = players[0]
    rnd = _outage(game, alice)
    _decide(arbiter_client, rnd, "accept")
    undo = reverse("live:correction_undo", args=[rnd.pk])
    assert arbiter_client.post(undo, **HTMX).status_code == 200
    claim = TriedSlip.objects.get()
    assert (claim.status, claim.decided_at, claim.decided_by_id, claim.change_id) == (
        "pending",
        None,
        None,
        None,
    )
    assert not Submission.objects.filter(player=alice).exists() and _total(game, alice) == 0
    # Every screen says it waits for the arbiter again: the phone, the game screen, the panel.
    receipt = _receipt(_page(alice))
    assert "En attente de la décision de l&#x27;arbitre." in receipt and "accepté" not in receipt
    screen = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "a tenté d&#x27;envoyer son bulletin du coup 1" in screen
    panel = _panel(arbiter_client, game)
    assert reverse("live:tried_accept", args=[rnd.pk, claim.pk]) in panel
    assert "à décider" in panel and "accepté à" not in panel
    assert "en attente de la décision" in _history(arbiter_client, rnd, alice)
    # Accepted again, it counts again; the journal keeps every step.
    _decide(arbiter_client, rnd, "accept")
    assert _total(game, alice) == rnd.tops[0]["score"]
    assert SubmissionChange.objects.filter(round=rnd).count() == 3


def test_undoing_a_later_correction_leaves_the_acceptance(arbiter_client, arbiter, game, players):
    alice = players[0]
    rnd = _outage(game, alice)
    _decide(arbiter_client, rnd, "accept")
    live_services.submission_enter(
        round_id=rnd.pk, table_number=alice.table_number, text="H8 MOT 12", user=arbiter
    )
    live_services.submission_correction_undo(round_id=rnd.pk, user=arbiter)
    assert TriedSlip.objects.get().status == "accepted"
    assert "accepté par l&#x27;arbitre" in _receipt(_page(alice))


def test_an_acceptance_undone_while_a_newer_claim_waits_joins_it(arbiter_client, arbiter, game, players):
    alice = players[0]
    rnd = _outage(game, alice)
    first = _decide(arbiter_client, rnd, "accept")
    essai = reverse("live:player_tried", kwargs={"token": alice.token})
    tried_at = str(int((rnd.deadline - timedelta(seconds=2)).timestamp() * 1000))
    data = {"round": rnd.pk, "slip": "H8 MOT", "claimed": "12", "request_id": "phone-2", "tried_at": tried_at}
    assert Client().post(essai, data, **HTMX).status_code == 202
    live_services.submission_correction_undo(round_id=rnd.pk, user=arbiter)
    claim = TriedSlip.objects.get()  # one claim waits: the newer one, with both sendings
    assert claim.pk != first.pk and claim.status == "pending" and len(claim.history) == 2
    assert claim.text == "H8 MOT 12"
