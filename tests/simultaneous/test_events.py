"""A simultaneous event on one server.  A prepared one: every centre's room replays the record,
whose later racks reach no centre's screen before that centre draws them.  A live one: the lead
centre draws, the other centres wait for each rack, get it as soon as the lead draws it, and place
the same top (``test_multiplex``); the lead's end ends theirs.  The public page ranks every centre's
players without a login, from the cache while nothing changed."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Member, Role
from engine.notation import parse_rack
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from server.writes import ServiceError
from simultaneous import services as events
from simultaneous.models import Centre, Event
from tournaments import services
from tournaments.models import Game, Round

pytestmark = pytest.mark.clubs

GAME = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"


def _club(name: str) -> tuple[Club, User]:
    club = Club.objects.create(name=name)
    arbiter = User.objects.create_user(f"arbitre-{name.lower()}", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    return club, arbiter


def _event(kind: str, organiser: Club, arbiter: User) -> Event:
    return events.event_create(
        organiser=organiser, created_by=arbiter, name="Simultané de novembre",
        date=datetime.date(2026, 11, 28), kind=kind, lexicon=lexicon_default_row(), round_seconds=180,
        record_file=GAME.read_bytes() if kind == Event.Kind.PREPARED else None,
    )  # fmt: skip


def _join(event: Event, club: Club, arbiter: User) -> Centre:
    """The organiser registers ``club`` to play live; its arbiter joins."""
    events.centre_register(event=event, club=club)
    return events.event_join(event=event, club=club, created_by=arbiter)


def _play_round(game: Game, number: int) -> Round:
    """Draw, start, close and place the proposed top of round ``number``."""
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    assert rnd is not None and rnd.number == number
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk)


def _top(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


def test_a_prepared_event_replays_its_record_in_each_centre_and_no_rack_comes_early(client, db):
    a, arbiter_a = _club("Vichy")
    b, arbiter_b = _club("Moulins")
    event = _event(Event.Kind.PREPARED, a, arbiter_a)
    first = _join(event, a, arbiter_a)
    second = _join(event, b, arbiter_b)
    assert second.tournament.owner == b and second.game.source == Game.Source.PREPARED
    record = json.loads(GAME.read_text())
    rnd = services.round_draw(game_id=second.game_id, expected_number=1).round
    assert sorted(rnd.tiles) == sorted(parse_rack(record["rounds"][0]["rack"]).tiles)
    # Nothing the centre's arbiter opens shows round 2's rack before round 2 is drawn.
    client.force_login(arbiter_b)
    later = record["rounds"][1]["rack"]
    for url in (
        f"/tournois/{second.tournament_id}/",
        f"/parties/{second.game_id}/",
        f"/simultanes/{event.pk}/",
    ):
        page = client.get(url)
        assert page.status_code == 200 and later not in page.content.decode(), url
    # A club joins once; the centres' rooms are their clubs'.
    with pytest.raises(ServiceError):
        events.event_join(event=event, club=b, created_by=arbiter_b)
    assert client.get(f"/tournois/{first.tournament_id}/").status_code == 404


def test_a_live_event_gives_each_centre_the_leads_racks_and_tops(db):
    a, arbiter_a = _club("Vichy")
    b, arbiter_b = _club("Moulins")
    event = _event(Event.Kind.LIVE, a, arbiter_a)
    lead = Centre.objects.get(event=event)
    assert lead.lead and lead.club == a and lead.game.source == Game.Source.RANDOM
    follower = _join(event, b, arbiter_b)

    # Round 1 cannot be drawn in Moulins before Vichy draws it.
    with pytest.raises(ServiceError) as waiting:
        services.round_draw(game_id=follower.game_id, expected_number=1)
    assert waiting.value.message.code == "draw_waits_for_lead"
    for number in (1, 2):
        led = _play_round(lead.game, number)
        followed = _play_round(Game.objects.get(pk=follower.game_id), number)
        assert (followed.rack, followed.tiles) == (led.rack, led.tiles)
        assert (
            followed.placed["tiles"] == led.placed["tiles"]
            and followed.placed["score"] == led.placed["score"]
        )
    assert Game.objects.get(pk=follower.game_id).board == Game.objects.get(pk=lead.game_id).board
    # Round 3 waits again; the lead ends its game, and so does the follower's (every round played).
    with pytest.raises(ServiceError):
        services.round_draw(game_id=follower.game_id, expected_number=3)
    services.game_end(game_id=lead.game_id)
    assert Game.objects.get(pk=follower.game_id).status == Game.Status.ENDED


def test_the_public_page_ranks_every_centres_players_without_login_and_from_the_cache(
    client, db, django_assert_max_num_queries, settings
):
    a, arbiter_a = _club("Vichy")
    b, arbiter_b = _club("Moulins")
    event = _event(Event.Kind.PREPARED, a, arbiter_a)
    centres = [_join(event, c, u) for c, u in ((a, arbiter_a), (b, arbiter_b))]
    people = {
        c.pk: [services.player_register(tournament=c.tournament, name=n, series="2") for n in names]
        for c, names in zip(centres, (["Alice", "Bruno"], ["Chloé", "Denis"]), strict=True)
    }
    # Vichy plays two rounds, Moulins one: the overall ranking is on Vichy's two rounds, Moulins is
    # behind and ranked in its own table until it catches up.
    for number in (1, 2):
        rnd = services.round_draw(game_id=centres[0].game_id, expected_number=number).round
        _finish(rnd, {people[centres[0].pk][0]: "top"})
    rnd = services.round_draw(game_id=centres[1].game_id, expected_number=1).round
    _finish(rnd, {people[centres[1].pk][1]: "top"})

    page = client.get(f"/simultane/{event.public_key}/")
    html = page.content.decode()
    assert page.status_code == 200
    for name in ("Alice", "Bruno", "Chloé", "Denis", "Vichy", "Moulins"):
        assert name in html
    assert "Classement général sur 2 coups" in html
    overall = html[: html.index("<h2>Vichy")]
    assert "Alice" in overall and "Chloé" not in overall and "Moulins (1 coup)" in overall
    assert html.index("Alice") < html.index("Bruno") and html.index("Denis") < html.index("Chloé")
    with django_assert_max_num_queries(12):  # the event, its centres, each centre's change key
        again = client.get(f"/simultane/{event.public_key}/").content.decode()
    assert again.count("Alice") == html.count("Alice")
    # Each row (templatetags/event_rows.py): rank, name, club, series with its rank, total, percentage.
    assert re.search(r"<tr><td>1</td><td>Alice</td><td>Vichy</td><td>2 \(1\)</td><td>[^<]*</td>"
                     r"<td>\d+</td><td>100,00</td></tr>", html), html  # fmt: skip
    assert html.count("<td>Alice</td><td>Vichy</td>") == 2  # overall, and in her centre's table
    # Readers refreshing the page: worked out once per PUBLIC_RESULTS_SECONDS by each process.
    settings.PUBLIC_RESULTS_SECONDS = 60
    client.get(f"/simultane/{event.public_key}/")
    with django_assert_max_num_queries(2):  # the event and its organiser
        kept = client.get(f"/simultane/{event.public_key}/").content.decode()
    assert kept.count("Alice") == html.count("Alice")
    assert "Série 2" in html and client.get(f"/simultane/{event.public_key}/?serie=9").status_code == 200
    assert client.get("/simultane/pas-une-cle/").status_code == 404


def _finish(rnd: Round, slips: dict) -> None:
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = Round.objects.get(pk=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    for player in slips:
        live_services.submission_record(player=player, round_id=rnd.pk, text=_top(rnd))
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
