"""A player the arbiter renames or moves sees the new name and table on their phone at its next
poll, never only at the next round.  The poll's "nothing changed" (204) also compares the name and
table the phone shows (``p``, read off the status by ``player.js``), so a phone drawn with the old
name after the change (by a process whose memo of the room was older than it) is drawn again."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from tournaments import services
from tournaments.models import Player

HTMX = {"HTTP_HX_REQUEST": "true"}


def _keys(html: str) -> dict:
    """What the phone's script sends back on its poll (``player.js``): the round's key from the
    status's address, and the keys read off the status, the board and the receipt."""
    keys = {"s": re.search(r"\?s=([0-9a-z.]+)", html).group(1)}
    for param, element in (("p", "player-status"), ("b", "player-board"), ("r", "player-receipt")):
        found = re.search(rf'id="{element}"[^>]*?data-key="([^"]*)"', html)
        if found:
            keys[param] = found.group(1)
    return keys


def _page(client, player) -> str:
    return client.get(reverse("live:player_page", kwargs={"token": player.token})).content.decode()


def _poll(client, player, keys):
    return client.get(reverse("live:player_status", kwargs={"token": player.token}), keys, **HTMX)


def _shows(response, name: str, table: int) -> bool:
    """The phone's heading names the player and their table (the name and "· table N · coup M" are
    two parts of it, so that a long name is cut, never the table and round)."""
    text = html.unescape(re.sub(r"<[^>]+>", "", response.content.decode())).replace("\xa0", " ")
    return response.status_code == 200 and f"{name} · table {table}" in text


def _running(game):
    services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)


def test_a_renamed_and_moved_player_sees_it_at_the_next_poll(client, players, game, settings):
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    _running(game)
    bruno = players[1]
    keys = _keys(_page(client, bruno))
    assert _poll(client, bruno, keys).status_code == 204
    services.player_update(player=bruno, table_number=12, name="Bruno Bernard")
    changed = _poll(client, Player.objects.get(pk=bruno.pk), keys)
    assert changed.status_code == 200 and _shows(changed, "Bruno Bernard", 12)
    assert 'data-phase="running"' in changed.content.decode()


def test_a_phone_drawn_with_the_old_name_after_the_change_is_drawn_again(client, players, game, settings):
    """Another web process redrew the phone for the round's new version while its memo still held
    the room as it was (or a poll read the room while the change was being written), so the phone
    shows the round's current key and the old name: its next poll draws it again, not the next
    round."""
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    _running(game)
    bruno, alice = players[1], players[0]
    before = _keys(_page(client, bruno))
    services.player_update(player=bruno, table_number=12, name="Bruno Bernard")
    now = _keys(_page(client, Player.objects.get(pk=bruno.pk)))
    stale = {**now, **{k: v for k, v in before.items() if k == "p"}}  # the new round key, the old name
    redrawn = _poll(client, bruno, stale)
    assert redrawn.status_code == 200 and _shows(redrawn, "Bruno Bernard", 12)
    # Shown now: nothing changed again; and the room's other phones were never concerned.
    assert _poll(client, bruno, now).status_code == 204
    assert _poll(client, alice, _keys(_page(client, alice))).status_code == 204
