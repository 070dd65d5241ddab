"""A polling phone's changed state is answered with the room's messages, as pushed (live/polled.py),
before Django: the laptop's 1,000 phones ask for it within 2 s of a change."""

from __future__ import annotations

import io
import json
import urllib.parse

import pytest
from django.db import connections

from arbiter.wsgi import application
from live import broadcast, closed_results, phone
from tournaments import services
from tournaments.models import Player, Tournament
from tournaments.selectors import round_key

from .test_slipgate import _call, _environ, _form, _running, _top

pytestmark = pytest.mark.django_db(transaction=True)


def _poll(token: str, **query) -> tuple[str, dict, str]:
    said = {}

    def start_response(status, headers):
        said["status"], said["headers"] = status, dict(headers)

    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": f"/j/{token}/etat/", "SCRIPT_NAME": "",
        "QUERY_STRING": urllib.parse.urlencode(query), "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
        "HTTP_HOST": "127.0.0.1:8000", "REMOTE_ADDR": "127.0.0.1", "HTTP_HX_REQUEST": "true",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": io.StringIO(),
        "SERVER_PROTOCOL": "HTTP/1.1",
    }  # fmt: skip
    try:
        text = b"".join(application(environ, start_response)).decode()
    finally:
        connections.close_all()
    return said["status"], said["headers"], text


def _messages(token: str, **query) -> list[dict]:
    status, headers, text = _poll(token, **query)
    assert status == "200 OK" and headers["Content-Type"] == "application/json"
    assert headers["X-Arbiter"] == "1"
    assert "Content-Language" not in headers  # the gate's answer, not Django's
    return json.loads(text)


def _pushed(tournament_id: int, lang: str) -> dict:
    """The room's state as the push sends it, without its clock and its moment."""
    screen = phone.room_screen(tournament_id)
    results = closed_results.room_results(screen) if screen.phase in ("closed", "ended") else None
    message = json.loads(broadcast.room_message(screen, lang, 0.0, results.digest if results else ""))
    return {k: v for k, v in message.items() if k != "rem"}


def _english_too(game) -> None:
    """Phones of the room read English besides the sheets' French."""
    Tournament.objects.filter(pk=game.tournament_id).update(room_languages=["en"])


def test_a_running_round_is_answered_with_the_rooms_state_as_pushed(players, game):
    _english_too(game)
    rnd = _running(game)
    key = round_key(rnd)
    (state,) = _messages(players[0].token, s="0.0.p", d="fr")
    assert state["k"] == key and state["ph"] == "running" and state["r"] == str(rnd.pk)
    assert 0 < state["rem"] <= 60 and state["at"] == 0 and len(state["b"]) == 225
    assert {k: v for k, v in state.items() if k != "rem"} == _pushed(game.tournament_id, "fr")
    (english,) = _messages(players[0].token, s="0.0.p", d="en")
    assert english == {**english, **_pushed(game.tournament_id, "en")} and english["html"] != state["html"]
    # Nothing new: 204; a page without the script, or a language the site does not speak: Django's page.
    assert _poll(players[0].token, s=key, d="fr")[0].startswith("204")
    for query in ({"s": "0.0.p"}, {"s": "0.0.p", "d": "xx"}):
        status, headers, text = _poll(players[0].token, **query)
        assert status == "200 OK" and 'id="player-status"' in text and headers["Content-Language"] == "fr"


def test_a_closed_round_brings_each_phone_its_own_result_first(players, game):
    _english_too(game)
    rnd = _running(game)
    _call(application, _environ(players[0].token, urllib.parse.urlencode(_form(rnd, _top(rnd))).encode()))
    services.round_close(round_id=rnd.pk)
    screen = phone.room_screen(game.tournament_id)
    results = closed_results.results_of(screen, None)
    expected = {name: json.loads(text) for name, text in broadcast.own_messages(results)}
    for player in players[:2]:
        own, state = _messages(player.token, s=round_key(rnd), d="fr")
        assert state["ph"] == "closed" and state["o"] == own["o"] == results.digest
        assert own["fr"] == expected[broadcast.own_room(player.pk)]["fr"] and "en" not in own
        assert state == {**_pushed(game.tournament_id, "fr"), "rem": None}
    top_player, other = (_messages(p.token, s=round_key(rnd), d="fr")[0]["fr"] for p in players[:2])
    assert "aucun bulletin" not in top_player and "aucun bulletin" in other
    (english, _state) = _messages(players[1].token, s=round_key(rnd), d="en")
    assert "no slip" in english["en"].lower() or english["en"] != other


def test_a_player_registered_after_the_close_is_drawn_as_djangos_page_draws_it(players, game):
    rnd = _running(game)
    services.round_close(round_id=rnd.pk)
    late = Player.objects.create(tournament=game.tournament, name="Zoé", table_number=99)
    own, state = _messages(late.token, s="0.0.p", d="fr")
    assert state["ph"] == "closed" and "aucun bulletin remis" in own["fr"] and "/4</span>" in own["fr"]
    status, _headers, text = _poll(late.token, s="0.0.p")  # Django's page: the same own part
    assert status == "200 OK" and 'data-phase="closed"' in text and own["fr"] in text


def test_a_poll_past_the_cutoff_closes_the_round_and_is_answered_before_django(players, game):
    """The polls of a close's seconds (dozens at each close of a 1,500-phone room) close the round
    as Django's view does, and are answered with the room's messages by the gate, not with Django's
    page."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Round

    rnd = _running(game)
    key = round_key(rnd)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    own, state = _messages(players[0].token, s=key, d="fr")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
    assert state["ph"] == "closed" and state["k"] != key and own["o"] == state["o"]


def test_a_closed_rounds_results_are_made_once_while_its_state_and_players_stay(
    players, game, settings, monkeypatch
):
    """A closed round's results for the whole room (costly at 1,500 players) are made once per state
    by each process, not every half second while its phones poll; a player changed (the room's mark)
    has them made again."""
    from live import polled

    settings.ROOM_MEMO_SECONDS = 60
    rnd = _running(game)
    services.round_close(round_id=rnd.pk)
    made, make = [], polled._make
    monkeypatch.setattr(polled, "_make", lambda *args: made.append(args) or make(*args))
    for player in players:
        _messages(player.token, s=round_key(rnd), d="fr")
    assert len(made) == 1
    services.player_update(player=players[0], table_number=players[0].table_number, name="Alice A.")
    _messages(players[0].token, s=round_key(rnd), d="fr")
    assert len(made) == 2


def test_a_phone_of_another_language_is_answered_by_django_until_its_page_adds_the_language(
    client, players, game
):
    """A room writes its states in the languages its phones read: a poll in Spanish before any
    Spanish page is Django's answer; the page in Spanish adds the language, then the gate answers."""
    rnd = _running(game)
    status, _headers, text = _poll(players[0].token, s="0.0.p", d="es")
    assert status == "200 OK" and 'id="player-status"' in text
    page = client.get(f"/j/{players[1].token}/", HTTP_ACCEPT_LANGUAGE="es")
    assert page.status_code == 200 and page["Content-Language"] == "es"
    assert Tournament.objects.get(pk=game.tournament_id).room_languages == ["es"]
    (state,) = _messages(players[0].token, s="0.0.p", d="es")
    assert state["k"] == round_key(rnd) and state == {**state, **_pushed(game.tournament_id, "es")}
