"""The slips tried during an outage travel in the tournament's file (``arbiter-tournament/3``): each
claim with its state, times and sendings, an accepted one with the correction that wrote it in, so
that the imported tournament's phone says the same and undoing that correction there takes the
acceptance back.  A file of the format before (``/2``, no claims) is read too; a bad claim is
refused with a sentence."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from live import services as live_services
from results import transfer
from results.transfer_reading import FORMAT
from tests.results.test_transfer import _document, _encoded, _refused, club_b  # noqa: F401
from tests.tournaments.test_tried_truth import _decide, _outage, _page
from tournaments.models import Player, Round, SubmissionChange, Tournament, TriedSlip

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def claimed(arbiter_client, game, players):
    """Round 1 closed with three claims: Alice's accepted, Bruno's pending, Chloé's refused."""
    alice, bruno, chloe = players
    rnd = _outage(game, alice)
    _decide(arbiter_client, rnd, "accept")
    essai = lambda player, slip: Client().post(  # noqa: E731
        reverse("live:player_tried", kwargs={"token": player.token}),
        {"round": rnd.pk, "slip": slip, "claimed": "12", "request_id": f"r-{player.pk}",
         "tried_at": str(int(rnd.deadline.timestamp() * 1000) - 5000)},
        **HTMX,
    )  # fmt: skip
    assert essai(bruno, "H8 MOT").status_code == 202 and essai(chloe, "H8 MOTS").status_code == 202
    claim = TriedSlip.objects.get(player=chloe)
    arbiter_client.post(reverse("live:tried_refuse", args=[rnd.pk, claim.pk]), **HTMX)
    return game.tournament


def _claims(tournament) -> list[tuple]:
    claims = TriedSlip.objects.filter(round__game__tournament=tournament).select_related("player", "change")
    return sorted(
        (c.player.name, c.text, c.status, c.tried_at, c.received_at, c.decided_at, c.request_id,
         c.history, c.change.after["slip"] if c.change else None)
        for c in claims
    )  # fmt: skip


def test_the_claims_travel_with_their_state_and_the_acceptance_stays_undoable(claimed, club_b, arbiter):  # noqa: F811
    before = _claims(claimed)
    assert [c[2] for c in before] == ["accepted", "pending", "refused"] and before[0][-1]
    doc = _document(claimed)
    assert doc["format"] == FORMAT == "arbiter-tournament/3"
    round_doc = doc["games"][0]["rounds"][0]
    accepted = next(c for c in round_doc["tried"] if c["status"] == "accepted")
    assert accepted["change"] in [c["id"] for c in round_doc["changes"]] and accepted["decided"]
    Tournament.objects.filter(pk=claimed.pk).delete()
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    assert _claims(copy) == before
    decided = TriedSlip.objects.filter(round__game__tournament=copy).exclude(status="pending")
    assert all(c.decided_by_id == arbiter.pk for c in decided)
    # The imported phone says what the first laptop's said, and the undo there takes it back.
    alice = Player.objects.get(tournament=copy, name="Alice")
    receipt = re.search(r'<div id="player-receipt".*?</div>', _page(alice), re.S).group(0)
    assert "accepté par l&#x27;arbitre" in receipt and "Trop tard" not in receipt
    rnd = Round.objects.get(game__tournament=copy, number=1)
    live_services.submission_correction_undo(round_id=rnd.pk, user=arbiter)
    assert TriedSlip.objects.get(round=rnd, player=alice).status == "pending"
    assert SubmissionChange.objects.filter(round=rnd).count() == 2


def test_a_file_of_the_format_before_imports_without_claims(claimed, club_b, arbiter):  # noqa: F811
    doc = _document(claimed)
    doc["format"] = "arbiter-tournament/2"
    for game in doc["games"]:
        for rnd in game["rounds"]:
            del rnd["tried"]
    Tournament.objects.filter(pk=claimed.pk).delete()
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    assert not TriedSlip.objects.filter(round__game__tournament=copy).exists()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda c: c.update(status="maybe"), "'status'"),
        (lambda c: c.update(change=999_999), "'change'"),
        (lambda c: c.update(history=[{"slip": "H8 MOT"}]), "'history'"),
        (lambda c: c.update(player=424_242), "'player'"),
        (lambda c: c.update(tried_at="hier"), "'tried_at'"),
        (lambda c: c.pop("decided"), "'decided' is missing"),
    ],
)
def test_a_bad_claim_is_refused_with_a_sentence(claimed, club_b, arbiter, change, said):  # noqa: F811
    doc = _document(claimed)
    change(doc["games"][0]["rounds"][0]["tried"][0])
    problems = _refused(_encoded(doc), club_b, arbiter)
    assert any("games[0].rounds[0].tried[0]" in p and said in p for p in problems), problems


def test_two_pending_claims_of_one_player_are_refused(claimed, club_b, arbiter):  # noqa: F811
    doc = _document(claimed)
    claims = doc["games"][0]["rounds"][0]["tried"]
    pending = next(c for c in claims if c["status"] == "pending")
    claims.append({**pending, "id": pending["id"] + 1000})
    problems = _refused(_encoded(doc), club_b, arbiter)
    assert any("games[0].rounds[0].tried" in p and "'player'" in p for p in problems), problems
