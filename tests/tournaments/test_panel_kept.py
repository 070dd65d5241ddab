"""The slips panel of a hall, made from what the process keeps: the room's players read again only
when the room changed (its mark: a player changed or removed; its number: a player registered), and
the panel's rows written once for the same players and slips, each answer with its own CSRF token; a
correction, a paper slip or a new player shows at once."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from live import room
from live.templatetags import rows as rows_tags
from tests.fixtures import calls_to
from tournaments import services
from tournaments.models import Player

from .test_earlier_slips import HTMX, _enter, _placed, _top_slip


@pytest.fixture
def kept(settings):
    settings.ROOM_MEMO_SECONDS = 60


@pytest.fixture
def reads(monkeypatch):
    """Each time the room's players were read from the database."""
    return calls_to(monkeypatch, room, "_room")


def test_the_rooms_players_are_read_again_only_when_the_room_changed(kept, reads, tournament, players):
    first = room.room_players(tournament.pk)
    assert room.room_players(tournament.pk) is first and len(reads) == 1
    late = services.player_register(tournament=tournament, name="Arrivée tardive")  # no mark moves
    again = room.room_players(tournament.pk)
    assert late.pk in again and len(reads) == 2
    Player.objects.filter(pk=players[0].pk).update(name="Alice Renommée")  # behind the application's back
    assert room.room_players(tournament.pk)[players[0].pk].name == "Alice"  # kept: the mark did not move
    bruno = Player.objects.get(pk=players[1].pk)
    services.player_update(player=bruno, table_number=bruno.table_number, name="Bruno B.")
    renamed = room.room_players(tournament.pk)
    assert renamed[players[1].pk].name == "Bruno B." and renamed[players[0].pk].name == "Alice Renommée"
    assert len(reads) == 3


def _row_token(html: str) -> str:
    """The CSRF token in every row's correction form (the paper slip's form has its own)."""
    tokens = re.findall(r'<tr class="[^"]*">.*?name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert tokens and len(set(tokens)) == 1, set(tokens)
    return tokens[0]


def test_the_panels_rows_are_written_once_and_each_answer_has_its_own_token(
    kept, reads, arbiter_client, game, players, monkeypatch
):
    rnd = _placed(game, 1, [(players[0], "H8 ZZZ 10")])
    written = calls_to(monkeypatch, rows_tags, "_row")
    url = reverse("live:game_slips", args=[game.pk])
    first = arbiter_client.get(url, {"coup": 1}, **HTMX).content.decode()
    second = arbiter_client.get(url, {"coup": 1}, **HTMX).content.decode()
    assert len(written) == len(players)  # once for both answers
    assert rows_tags._TOKEN_HERE not in first + second
    assert first.count(f'value="{_row_token(first)}"') == len(players)  # in every row
    assert _row_token(first) != _row_token(second)  # each answer's own (masked) token
    assert "H8 ZZZ 10" in second

    corrected = _enter(arbiter_client, rnd, players[0].table_number, _top_slip(rnd)).content.decode()
    assert _top_slip(rnd) in corrected and len(written) == 2 * len(players)  # the slip changed: written again
    late = services.player_register(tournament=game.tournament, name="Dernier inscrit")
    panel = arbiter_client.get(url, {"coup": 1}, **HTMX).content.decode()
    assert "Dernier inscrit" in panel and f'value="{late.table_number}"' in panel
