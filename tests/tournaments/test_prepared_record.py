"""A prepared game replays its record (rules §5): the record's move is the top placed (a tied top
with other tiles would leave another reliquat, and the record's next rack could not be drawn), a
cancelled round is played again on the record's same rack, and a record's rack that cannot be drawn
from the bag is refused with a sentence, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from engine.draw import remaining_after
from server.writes import ServiceError
from tournaments import services
from tournaments.models import Game, Round

GAMES = Path(__file__).resolve().parents[1] / "data" / "reference-games"
HTMX = {"HTTP_HX_REQUEST": "true"}
#: Round 1 of game-002 has five tied tops, not all with the same tiles.
RECORD = json.loads((GAMES / "game-002.json").read_text())


def _leave(rnd: Round, top: dict) -> list[int]:
    return sorted(remaining_after(rnd.tiles, [tile for _sq, tile in top["tiles"]]))


def _closed_round(game: Game, number: int = 1) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _other_leave(rnd: Round) -> int:
    """A tied top that leaves other tiles on the rack than the record's move (proposed first)."""
    return next(i for i, top in enumerate(rnd.tops) if _leave(rnd, top) != _leave(rnd, rnd.tops[0]))


@pytest.fixture
def prepared(tournament) -> Game:
    return services.game_start(tournament=tournament, prepared=json.dumps(RECORD))


def test_the_records_move_is_proposed_first_and_another_tied_top_is_refused(prepared):
    rnd = _closed_round(prepared)
    written = RECORD["rounds"][0]
    assert (rnd.tops[0]["word"], rnd.tops[0]["score"]) == (written["word"], written["score"])
    with pytest.raises(ServiceError) as refused:
        services.round_place_top(round_id=rnd.pk, index=_other_leave(rnd))
    assert refused.value.message.code == "place_records_move"
    assert "partie préparée" in refused.value.message.text("fr")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
    services.round_place_top(round_id=rnd.pk)
    second = services.round_draw(game_id=prepared.pk, expected_number=2).round
    assert second.rack == RECORD["rounds"][1]["rack"]


def test_a_cancelled_round_is_played_again_on_the_records_rack_and_the_game_goes_on(prepared):
    first = services.round_draw(game_id=prepared.pk, expected_number=1).round
    outcome = services.round_cancel(round_id=first.pk)
    again = outcome.round
    assert (again.number, again.attempt, again.rack) == (1, 2, RECORD["rounds"][0]["rack"])
    assert sorted(again.tiles) == sorted(first.tiles)
    prepared.refresh_from_db()
    assert len(prepared.bag) == 102 - 7
    again.refresh_from_db()
    assert again.top_state == Round.TopState.READY
    assert again.tops[0]["word"] == RECORD["rounds"][0]["word"]
    services.round_start(round_id=again.pk)
    services.round_close(round_id=again.pk)
    services.round_place_top(round_id=again.pk)
    # Its second round too, once its clock ran: cancelled, played again, the game goes on.
    second = _closed_round(prepared, 2)
    services.round_cancel(round_id=second.pk)
    second = Round.objects.get(game=prepared, number=2, attempt=2)
    assert second.rack == RECORD["rounds"][1]["rack"]
    services.round_compute_top(round_id=second.pk)
    services.round_start(round_id=second.pk)
    services.round_close(round_id=second.pk)
    services.round_place_top(round_id=second.pk)
    third = services.round_draw(game_id=prepared.pk, expected_number=3).round
    assert third.rack == RECORD["rounds"][2]["rack"]


def test_a_record_rack_the_bag_cannot_give_is_refused_with_a_sentence(prepared):
    rnd = _closed_round(prepared)
    # A game placed off its record (as an older version could): another tied top is on the board.
    index = _other_leave(rnd)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PLACED, placed=rnd.tops[index])
    with pytest.raises(ServiceError) as refused:
        services.round_draw(game_id=prepared.pk, expected_number=2)
    assert refused.value.message.code == "draw_record_impossible"
    assert "coup 2" in refused.value.message.text("fr")
    assert "round 2" in refused.value.message.text("en")


def test_the_arbiters_screen_offers_only_the_records_move_and_forged_posts_get_a_sentence(
    arbiter_client, prepared
):
    rnd = _closed_round(prepared)
    page = arbiter_client.get(reverse("live:game_detail", args=[prepared.pk])).content.decode()
    assert "Top de la partie préparée" in page
    assert page.count('name="index"') == 1 and 'type="radio"' not in page
    assert page.count("Placer ce top") == 1
    for top in rnd.tops[1:]:
        assert f"{top['ref']} {top['word']}" in page  # told, not offered
    forged = arbiter_client.post(
        reverse("live:round_place", args=[rnd.pk]), {"index": _other_leave(rnd)}, **HTMX
    )
    assert forged.status_code == 200
    assert "Le top placé est celui de la partie préparée" in forged.content.decode()
    placed = arbiter_client.post(reverse("live:round_place", args=[rnd.pk]), {"index": 0}, **HTMX)
    assert placed.status_code == 200 and "Tirer le coup 2" in placed.content.decode()
    drawn = arbiter_client.post(reverse("live:game_draw", args=[prepared.pk]), {"expected_number": 2}, **HTMX)
    assert drawn.status_code == 200
    second = Round.objects.get(game=prepared, number=2)
    assert second.rack == RECORD["rounds"][1]["rack"]
    cancelled = arbiter_client.post(reverse("live:round_cancel", args=[second.pk]), **HTMX)
    assert cancelled.status_code == 200
    assert Round.objects.get(game=prepared, number=2, attempt=2).rack == RECORD["rounds"][1]["rack"]
