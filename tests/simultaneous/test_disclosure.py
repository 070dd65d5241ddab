"""What of a game leaves the server, to whom and from when (``tournaments.disclosure``): a live centre
of a prepared simultaneous reads nothing of the rounds its room has not played, by any page, file or
poll its arbiter, its projector or its players open; a played random game's seed (its later racks) never
leaves; people outside the room train on an event's game only once every centre is done."""

from __future__ import annotations

import datetime
import gzip
import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from results import exports, transfer
from simultaneous import services as events
from simultaneous.models import Event, Registration
from tournaments import disclosure, services
from tournaments.models import Game, Round
from training import access as training_access

pytestmark = pytest.mark.clubs

RECORD = (Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-002.json").read_bytes()
#: Rounds played in the centre's room before its arbiter looks around: two placed, the third running.
PLACED = 2
HREF = re.compile(r"""(?:href|hx-get|src|data-url)="([^"]+)\"""")
#: Pages that act or leave: never followed by the crawl.
SKIP = ("deconnexion", "logout", "supprimer", "/static/", "/media/")


def _record() -> dict:
    return json.loads(RECORD)


def _ahead_strings() -> set[str]:
    """What a round not yet played in the room would betray: its rack as written and its top's word
    (words of 7 letters or more, which no page holds by chance), from round ``PLACED + 2`` on (the
    running round's rack is the room's, and its top is the arbiter's to see)."""
    played = _record()["rounds"][: PLACED + 1]
    seen = {r["rack"] for r in played} | {r["word"].upper() for r in played}
    out = set()
    for r in _record()["rounds"][PLACED + 1 :]:
        out.add(r["rack"])
        if len(r["word"]) >= 7:
            out.add(r["word"].upper())
    return out - seen


@pytest.fixture
def centre(db):
    """A prepared event of club Vichy, club Thiers playing it live in its own room, two rounds placed
    and the third running; Thiers' arbiter logged in."""
    organiser = Club.objects.create(name="Vichy")
    boss = User.objects.create_user("arbitre-vichy", password="x-secret-123")
    Member.objects.create(club=organiser, user=boss, role=Role.ARBITER)
    event = events.event_create(
        organiser=organiser, created_by=boss, name="Coupe de novembre", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(), round_seconds=180, record_file=RECORD,
    )  # fmt: skip
    club = Club.objects.create(name="Thiers")
    arbiter = User.objects.create_user("arbitre-thiers", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    events.centre_register(event=event, club=club, mode=Registration.Mode.LIVE)
    centre = events.event_join(event=event, club=club, created_by=arbiter)
    player = services.player_register(tournament=centre.tournament, name="Jeanne Martin")
    for number in range(1, PLACED + 2):
        rnd = services.round_draw(game_id=centre.game_id, expected_number=number).round
        if rnd.top_state != Round.TopState.READY:
            services.round_compute_top(round_id=rnd.pk)
        services.round_start(round_id=rnd.pk)
        if number <= PLACED:
            services.round_close(round_id=rnd.pk)
            services.round_place_top(round_id=rnd.pk)
    client = Client()
    client.force_login(arbiter)
    return centre, client, player


def _body(response) -> str:
    data = b"".join(response.streaming_content) if response.streaming else response.content
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", "replace")


def _crawl(client: Client, starts: list[str], limit: int = 250) -> dict[str, str]:
    """Every page of this site reachable from ``starts`` by the links, polls and images they offer
    (GET only), as ``client`` reads them."""
    seen: dict[str, str] = {}
    queue = list(starts)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url, HTTP_HX_REQUEST="true" if url.endswith("/etat/") else None)
        assert response.status_code < 500, url
        seen[url] = _body(response) if response.status_code == 200 else ""
        for href in HREF.findall(seen[url]):
            target = urljoin(url, href.replace("&amp;", "&"))
            parts = urlsplit(target)
            if parts.netloc not in ("", "testserver") or any(s in parts.path for s in SKIP):
                continue
            queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return seen


def test_a_live_centre_reads_no_round_its_room_has_not_played_anywhere(centre):
    centre, client, player = centre
    tournament, game = centre.tournament_id, centre.game_id
    starts = [
        reverse("tournaments:tournament_detail", args=[tournament]),
        reverse("live:game_detail", args=[game]),
        reverse("live:game_poll", args=[game]),
        reverse("live:game_slips", args=[game]),
        reverse("live:projector", args=[game]),
        reverse("live:projector_poll", args=[game]),
        reverse("results:tournament_file", args=[tournament]),
        reverse("results:game_results", args=[game]),
        reverse("results:tournament_results", args=[tournament]),
        *(reverse("results:game_export", args=[game, what]) for what in ("partie", "resultats", "csv")),
        reverse("review:game_review", args=[game]),
        reverse("training:home"),
        reverse("live:player_page", args=[player.token]),
        reverse("live:player_status", args=[player.token]),
    ]
    pages = _crawl(client, starts)
    assert reverse("results:tournament_file", args=[tournament]) in pages
    assert len(pages) > 30  # the arbiter's pages, polls and files, the projector, the phone
    ahead = _ahead_strings()
    assert len(ahead) > 10
    for url, text in pages.items():
        leaked = sorted(s for s in ahead if s in text)
        assert not leaked, f"{url} shows {leaked[:3]}"


def test_the_tournament_file_carries_the_centres_game_as_its_room_played_it(centre):
    centre, _client, _player = centre
    document = transfer.tournament_document(centre.tournament)
    (game,) = document["games"]
    assert game["prepared"] is None and game["source"] == Game.Source.TYPED
    assert [r["number"] for r in game["rounds"]] == [1, 2, 3]
    # The file still moves to another installation, where the game goes on from the bag.
    other = Club.objects.create(name="Ailleurs")
    someone = User.objects.create_user("ailleurs", password="x-secret-123")
    Member.objects.create(club=other, user=someone, role=Role.ARBITER)
    copy = transfer.tournament_import(
        data=transfer.tournament_export(centre.tournament), club=other, user=someone
    )
    moved = Game.objects.get(tournament=copy)
    assert moved.source == Game.Source.TYPED and moved.prepared is None
    assert moved.rounds.filter(status=Round.Status.PLACED).count() == PLACED


def test_the_organisers_record_stays_whole_in_a_clubs_own_prepared_game(db, tournament):
    game = services.game_start(tournament=tournament, prepared=RECORD)
    (written,) = transfer.tournament_document(tournament)["games"]
    assert not disclosure.sealed(game)
    assert written["source"] == Game.Source.PREPARED
    assert len(written["prepared"]["rounds"]) == len(_record()["rounds"])


def test_a_played_random_games_seed_leaves_in_no_file_until_the_game_is_over(db, tournament, players):
    game = services.game_start(tournament=tournament)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_compute_top(round_id=rnd.pk)
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    (written,) = transfer.tournament_document(tournament)["games"]
    assert written["seed"] is None
    assert "seed" not in exports.game_record(game)
    assert str(game.seed) not in exports.results_export(game).decode()
    services.game_end(game_id=game.pk)
    game.refresh_from_db()
    assert exports.game_record(game)["seed"] == game.seed


def test_a_file_without_a_seed_goes_on_from_a_seed_of_the_installation_that_reads_it(db, tournament, players):
    game = services.game_start(tournament=tournament)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_compute_top(round_id=rnd.pk)
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    data = transfer.tournament_export(tournament)
    copy = transfer.tournament_import(data=data, club=tournament.owner, user=tournament.created_by)
    moved = Game.objects.get(tournament=copy)
    assert moved.seed is not None
    nxt = services.round_draw(game_id=moved.pk, expected_number=2).round
    assert nxt.number == 2 and len(nxt.tiles) == 7


def test_the_lead_of_a_live_event_leaves_without_its_seed_or_record(db, arbiter):
    club = Club.objects.create(name="Riom")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    event = events.event_create(
        organiser=club, created_by=arbiter, name="Multiplex", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.LIVE, lexicon=lexicon_default_row(), round_seconds=180,
    )  # fmt: skip
    lead = event.centres.get(lead=True)
    assert lead.game.source == Game.Source.RANDOM and disclosure.sealed(lead.game)
    (written,) = transfer.tournament_document(lead.tournament)["games"]
    assert written["seed"] == 0 and written["prepared"] is None


def test_outsiders_train_on_an_events_game_only_once_every_centre_is_done(centre):
    centre, _client, _player = centre
    late = Club.objects.create(name="Issoire")
    waiting = events.centre_register(event=centre.event, club=late, mode=Registration.Mode.OFFLINE)
    running = Round.objects.get(game_id=centre.game_id, number=PLACED + 1)
    services.round_close(round_id=running.pk)
    services.round_place_top(round_id=running.pk)
    services.game_end(game_id=centre.game_id)
    game = Game.objects.get(pk=centre.game_id)
    admin = User.objects.create_superuser("admin-site", password="x-secret-123")
    assert disclosure.outsiders_wait(game)  # Issoire has sent no file yet
    assert disclosure.shown_to_outsiders([game]) == []
    assert game.pk not in {g.pk for g in training_access.games_for(admin)}
    events.centre_withdraw(event=centre.event, registration_id=waiting.pk)
    assert not disclosure.outsiders_wait(game)
    assert game.pk in {g.pk for g in training_access.games_for(admin)}
