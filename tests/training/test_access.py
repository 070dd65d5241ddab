"""Training shows and plays only what its visitor may see.  Without login: the shipped list, random
games and the visitor's own files, nothing a club owns, in the form nor when an id is sent (by a
form or in a replayed cookie).  A club's arbiter or deputy: the club's finished games and lists;
another club's: none of them.  A player: the games of their tournament, through their join link.  A
simultaneous's game: secret to everyone until every centre is done with it.  And no page reachable
without login shows what a club owns (the URLs are walked from the configuration)."""

from __future__ import annotations

import datetime
import html
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from lexicons.services import lexicon_upload
from simultaneous import services as events
from simultaneous.models import Centre, Event, Registration, Upload
from tournaments import services as room
from tournaments.models import Game, Round
from training import services, state

pytestmark = pytest.mark.clubs

WORDS = "\n".join(["AA", "AB", "ABACA", "ABAISSA", "ZYTHUMS"]).encode()
GAME = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"
CLOSED = "Vous n'avez pas accès à cette partie"
LIST_CLOSED = "Vous n'avez pas accès à ce dictionnaire"
SECRET = "reste secrète tant que tous ses centres"


@pytest.fixture(autouse=True)
def _no_brake(settings):
    """These tests start many trainings from one client; the brake on new games has its own tests."""
    settings.TRAINING_GAMES_PER_MINUTE = 1000


def _member(club: Club, name: str, role: str = Role.ARBITER) -> User:
    user = User.objects.create_user(name, password="x-secret-123")
    Member.objects.create(club=club, user=user, role=role)
    return user


def _play_round(game: Game, number: int = 1) -> Round:
    rnd = room.round_draw(game_id=game.pk, expected_number=number).round
    if rnd.top_state != Round.TopState.READY:
        room.round_compute_top(round_id=rnd.pk)
    room.round_start(round_id=rnd.pk)
    room.round_close(round_id=rnd.pk)
    return room.round_place_top(round_id=rnd.pk)


def _finished(club: Club, arbiter: User, name: str):
    """A tournament of ``club`` with one player and a game of one round, over."""
    tournament = room.tournament_create(
        created_by=arbiter, owner=club, lexicon=lexicon_default_row(), name=name,
        date=datetime.date(2026, 11, 20),
    )  # fmt: skip
    player = room.player_register(tournament=tournament, name="Alice")
    game = room.game_start(tournament=tournament, seed=42)
    rnd = _play_round(game)
    room.game_end(game_id=game.pk)
    return game, player, rnd


@pytest.fixture
def club_a(db):
    club = Club.objects.create(name="Club A")
    arbiter = _member(club, "arbitre-a")
    game, player, rnd = _finished(club, arbiter, "Coupe secrète de A")
    words = lexicon_upload(name="liste-de-a.txt", data=WORDS, club=club)
    return club, arbiter, game, player, rnd, words


def _offered(page: str, field: str) -> set[int]:
    """The ids the start form's ``field`` offers."""
    found = re.search(rf'<select name="{field}".*?</select>', page, re.S)
    return {int(v) for v in re.findall(r'<option value="(\d+)"', found.group(0))} if found else set()


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _upload(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("partie.json", data, content_type="application/json")


def _start(client: Client, **data):
    return client.post("/entrainement/", {"seconds": "60", **data})


def test_a_visitor_without_login_is_offered_and_given_nothing_a_club_owns(client, club_a):
    _club, _arbiter, game, _player, _rnd, words = club_a
    page = _text(client.get("/entrainement/"))
    assert "Coupe secrète de A" not in page and "liste-de-a" not in page
    assert game.pk not in _offered(page, "game") and words.pk not in _offered(page, "lexicon")
    assert "une partie jouée au club" not in page and lexicon_default_row().pk in _offered(page, "lexicon")
    # Ids sent anyway: refused with a sentence, no training started.
    for data, said in (
        ({"source": "club", "game": str(game.pk)}, CLOSED),
        ({"source": "random", "seed": "7", "lexicon": str(words.pk)}, LIST_CLOSED),
    ):
        refused = _start(client, **data)
        assert refused.status_code == 200 and said in _text(refused), data
        assert state.COOKIE not in refused.cookies
    # The shipped list is the visitor's.
    assert _start(client, source="random", seed="7", lexicon=str(lexicon_default_row().pk)).status_code == 302


def test_a_replayed_cookie_naming_a_club_game_or_list_is_refused_at_each_read(client, club_a):
    _club, arbiter, game, _player, _rnd, words = club_a
    member = Client()
    member.force_login(arbiter)
    assert _start(member, source="club", game=str(game.pk)).status_code == 302
    assert "Coup 1 sur" in _text(member.get("/entrainement/coup/"))
    cookie = member.cookies[state.COOKIE].value
    stranger = Client()
    stranger.force_login(_member(Club.objects.create(name="Club B"), "arbitre-b"))
    for someone in (client, stranger):
        someone.cookies[state.COOKIE] = cookie
        for url in ("/entrainement/coup/", "/entrainement/fin/", "/entrainement/fin/1/"):
            page = someone.get(url)
            assert page.status_code == 200 and CLOSED in _text(page), url
            assert "Coupe secrète de A" not in _text(page)
            someone.cookies[state.COOKIE] = cookie
        assert someone.post("/entrainement/bulletin/", {"slip": "H8 AA 4"}).status_code == 200
    # A random game on the club's list, and ids no form could send: said, never a 500.
    for source, said in (
        ({"kind": "random", "seed": 7, "lexicon": words.pk}, LIST_CLOSED),
        ({"kind": "random", "seed": 7, "lexicon": "x' OR 1"}, LIST_CLOSED),
        ({"kind": "club", "game": 10**30}, CLOSED),
        ({"kind": "club", "game": [game.pk]}, CLOSED),
        ({"kind": "player", "game": game.pk}, CLOSED),
    ):
        client.cookies[state.COOKIE] = state.dumps(state.Training(source=source, seconds=60, topping=False))
        page = client.get("/entrainement/coup/")
        assert page.status_code == 200 and said in _text(page), source
    # The club's arbiter plays on.
    assert "Coup 1 sur" in _text(member.get("/entrainement/coup/"))


def test_another_clubs_arbiter_neither_sees_nor_starts_a_clubs_game_or_list(client, club_a):
    club, _arbiter, game, _player, _rnd, words = club_a
    b = Club.objects.create(name="Club B")
    theirs, _p, _r = _finished(b, _member(b, "arbitre-b0"), "Coupe de B")
    client.force_login(_member(b, "arbitre-b"))
    page = _text(client.get("/entrainement/"))
    assert (
        theirs.pk in _offered(page, "game")
        and game.pk not in _offered(page, "game")
        and words.pk not in _offered(page, "lexicon")
    )
    assert CLOSED in _text(_start(client, source="club", game=str(game.pk)))
    assert LIST_CLOSED in _text(_start(client, source="random", lexicon=str(words.pk)))
    # A's deputy sees A's game and list, not B's; the administrator sees all.
    client.force_login(_member(club, "adjoint-a", Role.DEPUTY))
    page = _text(client.get("/entrainement/"))
    assert (
        game.pk in _offered(page, "game")
        and words.pk in _offered(page, "lexicon")
        and theirs.pk not in _offered(page, "game")
    )
    taken = _start(client, source="file", record=_upload(GAME.read_bytes()), lexicon=str(words.pk))
    assert LIST_CLOSED not in _text(taken) and "Partie préparée refusée" in _text(taken)
    client.force_login(User.objects.create_superuser("admin", password="x-secret-123"))
    page = _text(client.get("/entrainement/"))
    assert (
        game.pk in _offered(page, "game")
        and theirs.pk in _offered(page, "game")
        and words.pk in _offered(page, "lexicon")
    )


def test_a_player_trains_on_their_own_game_through_their_link_only(client, club_a):
    club, arbiter, game, player, _rnd, _words = club_a
    other, stranger, _r = _finished(club, arbiter, "Autre soirée")
    # The phone, the game over, links to the training on that game.
    phone = _text(client.get(f"/j/{player.token}/"))
    assert f"/entrainement/j/{player.token}/{game.pk}/" in phone
    review = _text(client.get(f"/j/{player.token}/revue/{game.pk}/"))
    assert f"/entrainement/j/{player.token}/{game.pk}/" in review
    mine = f"/entrainement/j/{player.token}/{game.pk}/"
    assert "Coupe secrète de A" in _text(client.get(mine))
    assert client.post(mine, {"seconds": "60"}).status_code == 302
    page = _text(client.get("/entrainement/coup/"))
    assert "Coup 1 sur 1" in page
    # Another tournament's game through this link, or an unknown link: nothing.
    for token, pk in ((player.token, other.pk), (stranger.token, game.pk)):
        url = f"/entrainement/j/{token}/{pk}/"
        refused = client.get(url)
        assert refused.status_code == 404 and "Coupe secrète de A" not in _text(refused), url
        assert CLOSED in _text(refused)
        assert client.post(url, {"seconds": "60"}).status_code == 404
    assert client.get(f"/entrainement/j/{'x' * 22}/{game.pk}/").status_code == 404
    # The link's training is read again with the link: a player removed, the game is no longer theirs.
    client.post(mine, {"seconds": "60"})
    game.tournament.players.filter(pk=player.pk).delete()
    assert CLOSED in _text(client.get("/entrainement/coup/"))


def _centre(event: Event, club: Club, arbiter: User) -> Centre:
    """``club`` registered by the organiser, playing the event live in its own room."""
    events.centre_register(event=event, club=club, mode=Registration.Mode.LIVE)
    return events.event_join(event=event, club=club, created_by=arbiter)


def test_a_simultaneous_game_stays_secret_until_every_centre_has_finished(client, db):
    a, b = Club.objects.create(name="Vichy"), Club.objects.create(name="Moulins")
    late, offline = Club.objects.create(name="Cusset"), Club.objects.create(name="Gannat")
    arbiter_a, arbiter_b = _member(a, "arbitre-a"), _member(b, "arbitre-b")
    event = events.event_create(
        organiser=a, created_by=arbiter_a, name="Simultané de novembre", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(), round_seconds=180,
        record_file=GAME.read_bytes(),
    )  # fmt: skip
    first, second = _centre(event, a, arbiter_a), _centre(event, b, arbiter_b)
    player = room.player_register(tournament=first.tournament, name="Alice")
    _play_round(first.game)
    room.game_end(game_id=first.game_id)
    admin = Client()
    admin.force_login(User.objects.create_superuser("admin", password="x-secret-123"))
    link = f"/entrainement/j/{player.token}/{first.game_id}/"
    client.force_login(arbiter_a)

    def secret() -> bool:
        """Whether Vichy's game is no one's to train on (and said so), whoever asks."""
        hidden = [
            first.game_id not in _offered(_text(c.get("/entrainement/")), "game") for c in (client, admin)
        ]
        refused = _start(client, source="club", game=str(first.game_id))
        by_link = Client().get(link)
        said = [refused.status_code == 200 and CLOSED in _text(refused)]
        said.append(by_link.status_code == 404 and SECRET in _text(by_link))
        assert len(set(hidden + said)) == 1, (hidden, said)
        return hidden[0]

    # Vichy is done, Moulins has not played: the game is no one's to train on yet.
    assert secret()
    assert state.COOKIE not in Client().post(link, {"seconds": "60"}).cookies
    # A cookie made before (or elsewhere) is refused too.
    client.cookies[state.COOKIE] = state.dumps(
        state.Training(source={"kind": "club", "game": first.game_id}, seconds=60, topping=False)
    )
    assert SECRET in _text(client.get("/entrainement/coup/"))
    # Moulins plays it and ends; a club registered to play live has not joined, one registered to
    # play on its laptop has not sent its results: still secret.
    events.centre_register(event=event, club=late, mode=Registration.Mode.LIVE)
    events.centre_register(event=event, club=offline, mode=Registration.Mode.OFFLINE)
    _play_round(second.game)
    room.game_end(game_id=second.game_id)
    assert secret()
    # The late club withdrawn; the laptop's file holds one round, then all of them.
    events.centre_withdraw(event=event, registration_id=Registration.objects.get(club=late).pk)
    assert secret()
    rounds = len(event.record["rounds"])
    sent = Upload.objects.create(event=event, club=offline, data="{}", players=3, rounds=1)
    assert secret()
    Upload.objects.filter(pk=sent.pk).update(rounds=rounds)
    # Every centre is done: the game is offered, to its club, and to its player by their link.
    assert not secret()
    page = _text(client.get("/entrainement/"))
    assert first.game_id in _offered(page, "game") and second.game_id not in _offered(page, "game")
    assert _start(client, source="club", game=str(first.game_id)).status_code == 302
    anonymous = Client()
    assert anonymous.post(link, {"seconds": "60"}).status_code == 302
    assert "Coup 1 sur 1" in _text(anonymous.get("/entrainement/coup/"))
    assert services.game_of(state.loads(anonymous.cookies[state.COOKIE].value)).rounds == 1


# -- every page without login ---------------------------------------------------------------------


def _routes(resolvers=None, namespace=""):
    for entry in resolvers if resolvers is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern):
            yield f"{namespace}{entry.name}", str(entry.pattern)


def test_no_page_without_login_shows_what_a_club_owns(client, club_a):
    """Every URL of the configuration, its ids filled with the club's game (a join link's token is
    the player's own key: an unknown one here), fetched without login: nothing of the club's."""
    _club, arbiter, game, _player, rnd, words = club_a
    event = events.event_create(
        organiser=_club, created_by=arbiter, name="Simultané", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(), round_seconds=180,
        record_file=GAME.read_bytes(),
    )  # fmt: skip
    secrets = ["Coupe secrète de A", "liste-de-a", rnd.rack, f"{rnd.placed['ref']} {rnd.placed['word']}"]
    secrets += [r["rack"] for r in event.record["rounds"][:3]]
    walked = 0
    for name, route in _routes():
        if name.startswith("admin:") or route.startswith("^"):
            continue
        url = "/" + route.replace("<str:key>", event.public_key)
        url = re.sub(r"<str:\w+>", "x" * 22, url)
        url = re.sub(r"<id:\w+>", str(game.pk), url)
        for answer in (client.get(url), client.post(url, {"source": "club", "game": str(game.pk)})):
            assert answer.status_code < 500, (name, url, answer.status_code)
            body = html.unescape(answer.content.decode(errors="replace")) if not answer.streaming else ""
            for secret in secrets:
                assert secret not in body, (name, url, secret)
        walked += 1
    assert walked >= 50
    assert client.get(f"/media/lexicons/{words.sha256}.txt").status_code == 404
