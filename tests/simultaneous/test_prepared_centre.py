"""A centre of a prepared simultaneous replays the event's record (rules §5): it places the record's
move (another tied top would leave another reliquat and the record's next rack could not be drawn),
a cancelled round is played again on the record's same rack, and a forged post gets a sentence on
the arbiter's screen."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubs.models import Club, Member, Role
from engine.draw import remaining_after
from lexicons.loaded import lexicon_default_row
from server.writes import ServiceError
from simultaneous import services as events
from simultaneous.models import Event, Registration
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.clubs

RECORD = (Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-002.json").read_bytes()
HTMX = {"HTTP_HX_REQUEST": "true"}


def _racks() -> list[str]:
    return [r["rack"] for r in json.loads(RECORD)["rounds"]]


@pytest.fixture
def centre(db):
    club = Club.objects.create(name="Vichy")
    arbiter = User.objects.create_user("arbitre-vichy", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    event = events.event_create(
        organiser=club, created_by=arbiter, name="Coupe de novembre", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(), round_seconds=180, record_file=RECORD,
    )  # fmt: skip
    events.centre_register(event=event, club=club, mode=Registration.Mode.LIVE)
    return events.event_join(event=event, club=club, created_by=arbiter), arbiter


def _closed(game_id: int, number: int) -> Round:
    rnd = services.round_draw(game_id=game_id, expected_number=number).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _other_leave(rnd: Round) -> int:
    def leave(top):
        return sorted(remaining_after(rnd.tiles, [tile for _sq, tile in top["tiles"]]))

    return next(i for i, top in enumerate(rnd.tops) if leave(top) != leave(rnd.tops[0]))


def test_a_prepared_centre_places_the_records_move_and_a_cancel_replays_the_records_rack(centre):
    centre, _arbiter = centre
    rnd = _closed(centre.game_id, 1)
    with pytest.raises(ServiceError) as refused:
        services.round_place_top(round_id=rnd.pk, index=_other_leave(rnd))
    assert refused.value.message.code == "place_records_move"
    services.round_place_top(round_id=rnd.pk)
    second = _closed(centre.game_id, 2)
    assert second.rack == _racks()[1]
    services.round_cancel(round_id=second.pk)
    again = Round.objects.get(game_id=centre.game_id, number=2, attempt=2)
    assert again.rack == _racks()[1]
    services.round_compute_top(round_id=again.pk)
    services.round_start(round_id=again.pk)
    services.round_close(round_id=again.pk)
    services.round_place_top(round_id=again.pk)
    third = services.round_draw(game_id=centre.game_id, expected_number=3).round
    assert third.rack == _racks()[2]


def test_a_forged_post_in_a_prepared_centre_gets_a_sentence_and_the_game_goes_on(client, centre):
    centre, arbiter = centre
    client.force_login(arbiter)
    rnd = _closed(centre.game_id, 1)
    forged = client.post(reverse("live:round_place", args=[rnd.pk]), {"index": _other_leave(rnd)}, **HTMX)
    assert forged.status_code == 200
    assert "Le top placé est celui de la partie préparée" in forged.content.decode()
    placed = client.post(reverse("live:round_place", args=[rnd.pk]), {"index": 0}, **HTMX)
    assert placed.status_code == 200 and "Tirer le coup 2" in placed.content.decode()
    drawn = client.post(reverse("live:game_draw", args=[centre.game_id]), {"expected_number": 2}, **HTMX)
    assert drawn.status_code == 200
    assert Round.objects.get(game_id=centre.game_id, number=2).rack == _racks()[1]
