"""Removing a player asks first (a page saying who, with the confirming button)."""

from __future__ import annotations

from tournaments.models import Player


def test_removing_a_player_asks_first(arbiter_client, players):
    player = players[0]
    url = f"/joueurs/{player.pk}/retirer/"
    asked = arbiter_client.post(url)
    page = asked.content.decode()
    assert asked.status_code == 200
    assert f"Retirer {player.name} (table {player.table_number}) du tournoi ?" in page
    assert 'name="confirmed" value="1"' in page and Player.objects.filter(pk=player.pk).exists()
    removed = arbiter_client.post(url, {"confirmed": "1"})
    assert removed.status_code == 302 and not Player.objects.filter(pk=player.pk).exists()
