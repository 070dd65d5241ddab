"""The projector follows the tournament's current game as the phones do (the last rack drawn of the
last game not abandoned): left open on a game that ended, its poll answers with the next game once
its first rack is drawn, and the address it is now at; opened on the old game, it goes to the new
one.  Before that draw it stays on the game that ended (its final ranking), and it never goes back
to an earlier game or to an abandoned one.  The browser's side: tests/e2e/test_projector_screens.py."""

from __future__ import annotations

import re

from django.urls import reverse

from tournaments import services

HTMX = {"HTTP_HX_REQUEST": "true"}


def _played_and_ended(game) -> None:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    services.game_end(game_id=game.pk)


def _key(page: str) -> str:
    return re.search(r"etat/\?v=([^\"]+)\"", page).group(1)


def test_the_projector_of_a_game_that_ended_follows_the_next_game_once_it_draws(
    arbiter_client, tournament, game, players
):
    _played_and_ended(game)
    page = arbiter_client.get(reverse("live:projector", args=[game.pk])).content.decode()
    poll = reverse("live:projector_poll", args=[game.pk])
    key = _key(page)
    assert "Partie terminée" in page

    # A game started by mistake, drawn and abandoned: the room is still on the game that ended.
    mistake = services.game_start(tournament=tournament, seed=7)
    services.round_draw(game_id=mistake.pk, expected_number=1)
    services.game_abandon(game_id=mistake.pk)
    assert arbiter_client.get(poll, {"v": key}, **HTMX).status_code == 204

    following = services.game_start(tournament=tournament, seed=7)
    # Not drawn yet: the room is still on the game that ended (the phones too).
    assert arbiter_client.get(poll, {"v": key}, **HTMX).status_code == 204

    services.round_draw(game_id=following.pk, expected_number=1)
    answer = arbiter_client.get(poll, {"v": key}, **HTMX)
    shown = answer.content.decode()
    assert answer.status_code == 200
    assert answer["HX-Replace-Url"] == reverse("live:projector", args=[following.pk])
    assert reverse("live:projector_poll", args=[following.pk]) in shown  # it polls the new game
    assert "Coup 1" in shown and "Partie terminée" not in shown
    assert "<title>Projecteur — partie 3</title>" in shown
    assert 'id="projector-heading" hx-swap-oob="true">Projecteur — partie 3<' in shown

    opened = arbiter_client.get(reverse("live:projector", args=[game.pk]))
    assert opened.status_code == 302
    assert opened["Location"] == reverse("live:projector", args=[following.pk])
    # The new game's own projector stays on it.
    later = arbiter_client.get(reverse("live:projector", args=[following.pk]))
    assert later.status_code == 200 and "Coup 1" in later.content.decode()
    polled = arbiter_client.get(
        reverse("live:projector_poll", args=[following.pk]),
        {"v": _key(later.content.decode())},
        **HTMX,
    )
    assert polled.status_code == 204
