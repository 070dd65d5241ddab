"""Every arbiter URL checks the object's club, not only the login.  The URLs are found in the
project's URL configuration (a URL added later is walked too, or the test says what it does not
know): an arbiter of another club gets 403 or 404 and changes nothing; a deputy of the club gets 403
everywhere but the slips and corrections; the club's arbiter gets each page."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import Club, Invitation, Member, Role
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from results import services as results_services
from results.models import MergedResults, Printout
from simultaneous import services as simultaneous
from simultaneous.models import Event
from tournaments import services
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament

pytestmark = pytest.mark.clubs

#: A URL's first segment to the kind of object its ``<id:pk>`` names.
KINDS = {
    "tournois": "tournament",
    "joueurs": "player",
    "parties": "game",
    "coups": "round",
    "projecteur": "game",
    "impressions": "printout",
    "fusions": "merge",
    "clubs": "club",
    "membres": "member",
    "simultanes": "event",
}
#: URLs any club's arbiter may use on another club's object, by design: none (joining a simultaneous
#: event takes the organiser's registration of the club).
ANY_CLUB: set[str] = set()
#: Namespaces that are not the arbiter's: the phone (its token is its key), training (anyone's).
NOT_ARBITERS = {"training", "admin"}
#: The URLs a deputy may use: the game screen, its poll and its lists (the whole ranking, the tables
#: not heard from), slips entered and corrected, slips tried while the server was unreachable
#: accepted or refused.
DEPUTY = {
    "live:game_detail",
    "live:game_poll",
    "live:game_ranking",
    "live:game_missing",
    "live:game_slips",
    "live:slip_enter",
    "live:correction_undo",
    "live:slip_history",
    "live:game_slip_history",
    "live:tried_accept",
    "live:tried_refuse",
}


def _patterns(resolvers=None, namespace=""):
    for entry in resolvers if resolvers is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _patterns(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", str(entry.pattern)


def _object_urls():
    """(name, route) of every URL naming one object by ``<id:pk>``, outside the phone and training."""
    found = []
    for name, route in _patterns():
        if "<id:pk>" not in route or name.split(":")[0] in NOT_ARBITERS or route.startswith("j/"):
            continue
        assert route.split("/")[0] in KINDS, f"{name} ({route}): which object's club does it check?"
        found.append((name, route))
    return found


@pytest.fixture
def club_a(db):
    club = Club.objects.create(name="Club A")
    people = {}
    for username, role in (("arbitre-a", Role.ARBITER), ("adjoint-a", Role.DEPUTY)):
        people[role] = User.objects.create_user(username, password="x-secret-123")
        Member.objects.create(club=club, user=people[role], role=role)
    tournament = services.tournament_create(
        created_by=people[Role.ARBITER], owner=club, lexicon=lexicon_default_row(),
        name="Tournoi A", date=datetime.date(2026, 11, 26),
    )  # fmt: skip
    players = [services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno")]
    game = services.game_start(tournament=tournament, seed=7)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    slip = f"{top['ref']} {top['word']} {top['score']}"
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=slip)
    # The game played and ended: its review opens, its slips can still be corrected.
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    services.game_end(game_id=game.pk)
    printout = results_services.printout_request(tournament=tournament, kind=Printout.Kind.TOURNAMENT)
    merge = MergedResults.objects.create(created_by=people[Role.ARBITER], owner=club, files=[])
    member = Member.objects.get(club=club, user=people[Role.DEPUTY])
    event = simultaneous.event_create(
        organiser=club, created_by=people[Role.ARBITER], name="Simultané", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.LIVE, lexicon=lexicon_default_row(), round_seconds=180,
    )  # fmt: skip
    objects = {
        "tournament": tournament.pk, "player": players[0].pk, "game": game.pk, "round": rnd.pk,
        "printout": printout.pk, "merge": merge.pk, "club": club.pk, "member": member.pk,
        "event": event.pk,
    }  # fmt: skip
    return club, people, objects, players


def _url(route: str, objects: dict, players) -> str:
    kind = KINDS[route.split("/")[0]]
    url = route.replace("<id:pk>", str(objects[kind]))
    url = url.replace("<str:what>", "csv").replace("<id:table>", str(players[0].table_number))
    return "/" + re.sub(r"<id:\w+>", "1", url)


def _state():
    """What a refused request must leave as it was."""
    return (
        list(Tournament.objects.values_list("pk", "name", "round_seconds")),
        list(Player.objects.values_list("pk", "name", "table_number")),
        list(Game.objects.values_list("pk", "status")),
        list(Round.objects.values_list("pk", "status", "deadline", "placed")),
        list(Submission.objects.values_list("pk", "ref", "word", "claimed")),
        SubmissionChange.objects.count(),
        Printout.objects.count(),
        MergedResults.objects.count(),
        list(Member.objects.values_list("pk", "role")),
        Invitation.objects.count(),
        list(Event.objects.values_list("pk", "name")),
    )


def test_an_arbiter_of_another_club_gets_nothing_and_changes_nothing(client, club_a):
    _club, _people, objects, players = club_a
    other = User.objects.create_user("arbitre-b", password="x-secret-123")
    Member.objects.create(club=Club.objects.create(name="Club B"), user=other, role=Role.ARBITER)
    client.force_login(other)
    urls = _object_urls()
    assert len(urls) >= 35, urls
    before = _state()
    for name, route in urls:
        if name in ANY_CLUB:
            continue
        url = _url(route, objects, players)
        got = client.get(url).status_code
        assert got in (403, 404, 405), (name, url, got)
        posted = client.post(url, {"table": players[0].table_number, "slip": "H8 AS 4", "role": "arbiter"})
        assert posted.status_code in (403, 404), (name, url, posted.status_code)
    assert _state() == before
    # The lists show nothing of club A.
    home = client.get("/").content.decode()
    assert "Tournoi A" not in home and "Alice" not in home
    assert "Club A" not in client.get("/clubs/").content.decode()


def test_the_clubs_arbiter_opens_every_page_and_a_deputy_only_the_slips(client, club_a):
    _club, people, objects, players = club_a
    urls = _object_urls()
    client.force_login(people[Role.ARBITER])
    for name, route in urls:
        url = _url(route, objects, players)
        got = client.get(url).status_code
        assert got not in (403, 404), (name, url, got)
    client.force_login(people[Role.DEPUTY])
    before = _state()
    for name, route in urls:
        if name in ANY_CLUB:
            continue
        url = _url(route, objects, players)
        got = client.get(url).status_code
        if name in DEPUTY:
            assert got not in (403, 404), (name, url, got)
        else:
            assert got in (403, 405), (name, url, got)
            posted = client.post(url, {"role": "arbiter"}).status_code
            assert posted == 403, (name, url, posted)
    assert _state() == before
    # The deputy's home lists the game under way to enter slips in, and no tournament's page.
    playing = services.game_start(tournament=Tournament.objects.get(pk=objects["tournament"]), seed=8)
    home = client.get("/").content.decode()
    assert f"/parties/{playing.pk}/" in home and f"/parties/{objects['game']}/" not in home
    assert f"/tournois/{objects['tournament']}/" not in home
    # Their game screen offers no arbiter's action: no draw, no projector, no way back to the tournament.
    screen = client.get(f"/parties/{playing.pk}/").content.decode()
    assert "/tirage/" not in screen and "/projecteur/" not in screen and "/tournois/" not in screen
    assert "Le tirage est fait par l'arbitre." in screen


def test_an_account_of_no_club_sees_no_tournament(client, club_a):
    client.force_login(User.objects.create_user("personne", password="x-secret-123"))
    home = client.get("/")
    assert home.status_code == 403
    assert client.get("/tournois/nouveau/").status_code == 403
    assert client.get("/fusions/nouvelle/").status_code == 403
