"""The Multiplex as the FFSc plays it.  In a live simultaneous every centre gets round N's rack the
moment the lead centre draws it and plays it at the same time, each searching the same top on the
same board; among tied tops the lead's choice is the one every centre places, a centre that closed
its round first waiting for it ("en attente du choix du centre principal"); no centre learns a
round's top before its own round has closed, not from its screens, its game's data or the public
page.  A rack the lead cancels and draws again reaches the centres again; a centre that joins late
plays the rounds in order; the lead's end ends theirs."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from server.writes import ServiceError
from simultaneous import services as events
from simultaneous.models import Centre, Event
from tournaments import services
from tournaments.models import Game, Round

pytestmark = pytest.mark.clubs

#: Round 1's rack with three tied tops (74: H2 RIPOSTE proposed, H4 POSTIER, H4 POTIERS).
TIED = "OIEPRST"
WAITING = "en attente du choix du centre principal"


def _club(name: str) -> tuple[Club, User]:
    club = Club.objects.create(name=name)
    arbiter = User.objects.create_user(f"arbitre-{name.lower()}", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    return club, arbiter


def _live_event(*names: str) -> tuple[Event, list[Centre], list[User]]:
    """A live event organised by the first club (the lead), the others joined as centres."""
    clubs = [_club(n) for n in names]
    event = events.event_create(
        organiser=clubs[0][0], created_by=clubs[0][1], name="Multiplex", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.LIVE, lexicon=lexicon_default_row(), round_seconds=180,
    )  # fmt: skip
    centres = [Centre.objects.get(event=event, lead=True)]
    for club, arbiter in clubs[1:]:
        centres.append(_join(event, club, arbiter))
    return event, centres, [arbiter for _club_, arbiter in clubs]


def _join(event: Event, club: Club, arbiter: User) -> Centre:
    events.centre_register(event=event, club=club)
    return events.event_join(event=event, club=club, created_by=arbiter)


def _draw(centre: Centre, number: int, typed: str | None = None) -> Round:
    rnd = services.round_draw(game_id=centre.game_id, expected_number=number, typed=typed).round
    assert rnd is not None and rnd.number == number
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _poll_url(client, centre: Centre) -> str:
    """The address the centre's game screen polls, with the state it shows now."""
    page = client.get(f"/parties/{centre.game_id}/").content.decode()
    return html.unescape(re.search(r'hx-get="([^"]*/etat/\?v=[^"]*)"', page).group(1))


def _told(centre: Centre, number: int) -> dict:
    """Round ``number`` as the centre's game holds it from the lead."""
    return Game.objects.get(pk=centre.game_id).prepared["rounds"][number - 1]


def test_the_leads_rack_reaches_every_centre_when_drawn_and_they_play_it_at_the_same_time(client, db):
    _event, (lead, vichy, moulins), arbiters = _live_event("Clermont", "Vichy", "Moulins")
    with pytest.raises(ServiceError) as waiting:
        services.round_draw(game_id=vichy.game_id, expected_number=1)
    assert waiting.value.message.code == "draw_waits_for_lead"
    client.force_login(arbiters[1])
    assert (
        "En attente du tirage du coup 1 dans le centre principal"
        in client.get(f"/parties/{vichy.game_id}/").content.decode()
    )

    poll = _poll_url(client, vichy)
    assert client.get(poll).status_code == 204  # nothing new
    led = _draw(lead, 1)
    # The lead has only drawn: Vichy's screen redraws on its poll, every centre draws the same rack at
    # once, searches the same top, and the clocks run together.
    page = client.get(poll).content.decode()
    assert "Tirer le coup 1" in page and "En attente du tirage" not in page
    mine = {c.pk: _draw(c, 1) for c in (vichy, moulins)}
    for rnd in mine.values():
        assert (rnd.rack, sorted(rnd.tiles)) == (led.rack, sorted(led.tiles))
        assert rnd.top_score == led.top_score
        assert {t["word"] for t in rnd.tops} == {t["word"] for t in led.tops}
    running = [services.round_start(round_id=r.pk) for r in (led, *mine.values())]
    assert {r.status for r in running} == {Round.Status.RUNNING}

    # The lead closes and places round 1 and draws round 2 while Vichy and Moulins still play round 1.
    services.round_close(round_id=led.pk)
    services.round_place_top(round_id=led.pk)
    led2 = _draw(lead, 2)
    assert "word" not in _told(vichy, 1) and "score" not in _told(vichy, 1)
    for number, rnd in ((1, led), (2, led2)):
        assert _told(vichy, number) == {"rack": rnd.rack}
    # Round 2 waits for Vichy's round 1 to be placed, as every round does.
    assert services.round_draw(game_id=vichy.game_id, expected_number=2).round.pk == mine[vichy.pk].pk
    placed = Round.objects.get(pk=led.pk).placed
    services.round_close(round_id=mine[vichy.pk].pk)
    assert {k: _told(vichy, 1)[k] for k in ("ref", "word", "score")} == {
        k: placed[k] for k in ("ref", "word", "score")
    }
    assert "word" not in _told(moulins, 1)  # Moulins' round still runs
    for centre in (vichy, moulins):
        if centre is moulins:
            services.round_close(round_id=mine[moulins.pk].pk)
        services.round_place_top(round_id=mine[centre.pk].pk)
        followed = _draw(centre, 2)
        assert (followed.rack, sorted(followed.tiles)) == (led2.rack, sorted(led2.tiles))
    boards = [Game.objects.get(pk=c.game_id).board for c in (lead, vichy, moulins)]
    assert boards[0] == boards[1] == boards[2]


def test_tied_tops_every_centre_places_the_leads_choice_and_waits_for_it(client, db):
    _event, (lead, vichy), arbiters = _live_event("Clermont", "Vichy")
    chloe = services.player_register(tournament=vichy.tournament, name="Chloé")
    led = _draw(lead, 1, typed=TIED)
    mine = _draw(vichy, 1)
    assert len(led.tops) == 3 and mine.tops == led.tops  # the same search: RIPOSTE proposed
    for rnd in (led, mine):
        services.round_start(round_id=rnd.pk)
    # Vichy's round closes first: it waits for the lead's choice and shows no top meanwhile.
    services.round_close(round_id=mine.pk)
    with pytest.raises(ServiceError) as refused:
        services.round_place_top(round_id=mine.pk)
    assert refused.value.message.code == "place_waits_for_lead"
    client.force_login(arbiters[1])
    page = client.get(f"/parties/{vichy.game_id}/").content.decode()
    assert WAITING in page and "Placer ce top" not in page and "Annuler le coup" not in page
    poll = _poll_url(client, vichy)
    assert client.get(poll).status_code == 204
    for url in (f"/projecteur/{vichy.game_id}/", f"/j/{chloe.token}/"):
        room = client.get(url).content.decode()
        assert "RIPOSTE" not in room and "POTIERS" not in room, url

    # The lead places the third tied top, not the one proposed: Vichy proposes and places that one.
    services.round_close(round_id=led.pk)
    services.round_place_top(round_id=led.pk, index=2)
    chosen = Round.objects.get(pk=led.pk).placed
    assert chosen["word"] == "POTIERS"
    mine = Round.objects.get(pk=mine.pk)
    assert mine.tops[0]["word"] == "POTIERS" and mine.tops[0]["ref"] == chosen["ref"]
    page = client.get(poll).content.decode()  # the screen's poll redraws it
    assert WAITING not in page and "Top choisi par le centre principal" in page and "POTIERS" in page
    # The room sees a top once its own arbiter placed it, not when the lead chose it.
    for url in (f"/projecteur/{vichy.game_id}/", f"/j/{chloe.token}/"):
        assert "POTIERS" not in client.get(url).content.decode(), url
    with pytest.raises(ServiceError) as refused:
        services.round_place_top(round_id=mine.pk, index=1)
    assert refused.value.message.code == "place_leads_choice"
    answer = client.post(f"/coups/{mine.pk}/placer/", {"index": "0"})
    assert answer.status_code == 302
    assert Round.objects.get(pk=mine.pk).placed["tiles"] == chosen["tiles"]
    assert Game.objects.get(pk=vichy.game_id).board == Game.objects.get(pk=lead.game_id).board
    for url in (f"/projecteur/{vichy.game_id}/", f"/j/{chloe.token}/"):
        assert "POTIERS" in client.get(url).content.decode(), url


def test_a_centre_learns_nothing_of_a_round_before_its_own_round_closes(client, db):
    event, (lead, vichy), arbiters = _live_event("Clermont", "Vichy")
    player = services.player_register(tournament=lead.tournament, name="Alice")
    services.player_register(tournament=vichy.tournament, name="Chloé")
    led = _draw(lead, 1, typed=TIED)
    mine = _draw(vichy, 1)
    for rnd in (led, mine):
        services.round_start(round_id=rnd.pk)
    live_services.submission_record(player=player, round_id=led.pk, text="H4 POTIERS 74")
    services.round_close(round_id=led.pk)
    services.round_place_top(round_id=led.pk, index=2)
    # Vichy's round still runs: its game holds the rack alone, its arbiter's screen and its
    # projector show no top, and the public page shows none of round 1 (Alice's 74 points).
    assert _told(vichy, 1) == {"rack": led.rack}
    client.force_login(arbiters[1])
    for url in (f"/parties/{vichy.game_id}/", f"/projecteur/{vichy.game_id}/"):
        assert "POTIERS" not in client.get(url).content.decode(), url
    client.logout()
    public = client.get(f"/simultane/{event.public_key}/").content.decode()
    # Alice's 74 as a table's cell (the page's random keys and tokens may hold the digits "74").
    assert "Classement général sur 0 coup" in public and not re.search(r">\s*74\s*<", public)
    assert "un coup paraît ici quand chaque centre encore en jeu l'a terminé" in public
    # Vichy's round closes: the lead's choice is told to it, and the public page shows round 1.
    services.round_close(round_id=mine.pk)
    assert _told(vichy, 1)["word"] == "POTIERS"
    public = client.get(f"/simultane/{event.public_key}/").content.decode()
    assert "Classement général sur 1 coup" in public and "Alice" in public


def test_a_rack_the_lead_cancels_is_cancelled_in_every_centre_and_the_new_one_reaches_them(db):
    _event, (lead, vichy), _arbiters = _live_event("Clermont", "Vichy")
    led = _draw(lead, 1)
    mine = _draw(vichy, 1)
    services.round_start(round_id=mine.pk)
    with pytest.raises(ServiceError) as refused:
        services.round_cancel(round_id=mine.pk)
    assert refused.value.message.code == "cancel_follows_lead"
    again = services.round_cancel(round_id=led.pk).round
    assert Round.objects.get(pk=mine.pk).status == Round.Status.CANCELLED
    redrawn = _draw(vichy, 1)
    assert redrawn.attempt == 2 and (redrawn.rack, sorted(redrawn.tiles)) == (again.rack, sorted(again.tiles))
    assert sorted(Game.objects.get(pk=vichy.game_id).bag) == sorted(Game.objects.get(pk=lead.game_id).bag)


def _play(centre: Centre, number: int) -> Round:
    rnd = _draw(centre, number)
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk)


def test_a_centre_joining_late_plays_the_rounds_in_order_and_the_leads_end_ends_every_centre(db):
    event, (lead, vichy), _arbiters = _live_event("Clermont", "Vichy")
    for number in (1, 2):
        _play(lead, number)
        _play(vichy, number)
    _draw(lead, 3)
    moulins, arbiter = _club("Moulins")
    late = _join(event, moulins, arbiter)
    assert [set(r) for r in Game.objects.get(pk=late.game_id).prepared["rounds"]] == [{"rack"}] * 3
    for number in (1, 2):
        placed = _play(late, number).placed
        assert placed == Round.objects.get(game_id=lead.game_id, number=number).placed
    # The lead ends its game after round 3: a centre ends once it has played every round.
    led = Round.objects.get(game_id=lead.game_id, number=3)
    services.round_start(round_id=led.pk)
    services.round_close(round_id=led.pk)
    services.round_place_top(round_id=led.pk)
    services.game_end(game_id=lead.game_id)
    _play(vichy, 3)
    assert Game.objects.get(pk=vichy.game_id).status == Game.Status.ENDED
    assert Game.objects.get(pk=late.game_id).status == Game.Status.PLAYING
    _play(late, 3)
    assert Game.objects.get(pk=late.game_id).status == Game.Status.ENDED


def test_a_centres_game_started_before_the_multiplex_follows_the_lead_after_the_upgrade(db):
    """A centre's game as a version before the Multiplex made it: the lead's placed rounds in full,
    no mark but ``growing``.  Its next rack comes when the lead draws it."""
    _event, (lead, vichy), _arbiters = _live_event("Clermont", "Vichy")
    _play(lead, 1)
    _play(vichy, 1)
    game = Game.objects.get(pk=vichy.game_id)
    game.prepared = {k: v for k, v in game.prepared.items() if k != "follows_lead"}
    game.save(update_fields=["prepared"])
    led = _draw(lead, 2)
    assert _draw(vichy, 2).rack == led.rack
