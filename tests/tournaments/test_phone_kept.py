"""What a player saw and keeps on the phone: a refused sending stays on the screen beside the
results, and every game the player finished that evening offers its review."""

from __future__ import annotations

import re
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from live import services as live_services
from tournaments import services
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}


def _submit(client, player, rnd, slip, request_id="r-1"):
    data = {"round": rnd.pk, "slip": slip, "request_id": request_id}
    url = reverse("live:player_submit", kwargs={"token": player.token})
    return client.post(url, data, **HTMX).content.decode()


def _poll(client, player, **shown) -> str:
    url = reverse("live:player_status", kwargs={"token": player.token})
    response = client.get(url, {"s": "old", **shown}, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def _receipt_key(html: str) -> str:
    """The receipt's ``data-key``, as ``player.js`` reads it and sends it back (``r``)."""
    receipt = re.search(r'<div id="player-receipt"[^>]*>', html).group(0)
    found = re.search(r'data-key="([^"]+)"', receipt)
    return found.group(1) if found else ""


def _running(game, number: int = 1) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    return services.round_start(round_id=rnd.pk)


def _past_deadline(rnd: Round) -> None:
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))


def _top(rnd: Round) -> str:
    return f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}"


# -- a refusal stays beside the results -------------------------------------------------------------


def test_too_late_stays_on_the_phone_when_the_results_replace_the_round(client, players, game):
    rnd = _running(game)
    _submit(client, players[0], rnd, _top(rnd), request_id="in-time")
    _past_deadline(rnd)
    refused = _submit(client, players[0], rnd, "H8 ZZZ", request_id="late")
    assert "Trop tard" in refused
    shown = {"r": _receipt_key(refused)}
    assert shown["r"], "the receipt with the refusal is the one the phone says it shows"

    results = _poll(client, players[0], **shown)  # the phone's next poll: the round is over

    assert "Total" in results and "rang" in results  # the results came
    receipt = results[results.index('id="player-receipt"') :]
    assert "Trop tard" in receipt  # and the refusal is still said, with the slip the server holds
    assert rnd.tops[0]["word"] in receipt
    assert Submission.objects.get(round=rnd, player=players[0]).word == rnd.tops[0]["word"]
    # Polled again with what it now shows, the receipt is not sent again: it stays as it is.
    again = _poll(client, players[0], r=_receipt_key(results))
    assert 'id="player-receipt"' not in again


def test_a_player_with_no_slip_stored_still_reads_why_beside_the_zero(client, players, game):
    rnd = _running(game)
    _past_deadline(rnd)
    assert "Trop tard" in _submit(client, players[1], rnd, _top(rnd))
    results = _poll(client, players[1])
    assert "aucun bulletin remis" in results and "Trop tard" in results
    assert "Trop tard" not in _poll(client, players[0])  # another player's phone says nothing of it
    services.round_place_top(round_id=rnd.pk)
    _running(game, 2)
    assert "Trop tard" not in _poll(client, players[1])  # nor the next round's screen


def test_a_refusal_during_the_round_stays_until_a_slip_is_stored(client, players, game):
    rnd = _running(game)
    refused = _submit(client, players[0], rnd, "Z99 QUOI?", request_id="bad")
    assert "Bulletin illisible" in refused
    # The next poll while the round runs leaves the receipt as it is (the phone shows it already).
    assert 'id="player-receipt"' not in _poll(client, players[0], r=_receipt_key(refused))
    stored = _submit(client, players[0], rnd, _top(rnd), request_id="good")
    assert "Bulletin illisible" not in stored and "reçu à" in stored
    _past_deadline(rnd)
    assert "Bulletin illisible" not in _poll(client, players[0])


# -- every finished game's review ---------------------------------------------------------------


def _one_round_game(tournament, player, seed: int):
    """A game of one round that the player played, then ended by the arbiter."""
    game = services.game_start(tournament=tournament, seed=seed)
    rnd = _running(game)
    live_services.submission_record(player=player, round_id=rnd.pk, text=_top(rnd))
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    services.game_end(game_id=game.pk)
    return game


def test_the_phone_offers_the_review_of_every_game_finished_that_evening(client, tournament, players):
    games = [_one_round_game(tournament, players[0], seed) for seed in (3, 4, 5)]
    services.game_abandon(game_id=services.game_start(tournament=tournament, seed=6).pk)

    html = _poll(client, players[0])

    reviews = {
        game.number: reverse("review:player_game", kwargs={"token": players[0].token, "game": game.pk})
        for game in games
    }
    assert all(f'href="{url}"' in html for url in reviews.values())
    assert "Revoir la partie 1" in html and "Revoir la partie 2" in html
    assert "Revoir la partie coup par coup" in html  # the game just over, under its own label
    assert html.count(f'href="{reviews[3]}"') == 1
    for url in reviews.values():  # each opens for this player
        assert client.get(url).status_code == 200


def test_a_slip_sent_before_the_clock_started_is_refused_once_not_kept(client, players, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    refused = _submit(client, players[0], rnd, "H8 ZZZ")
    assert "Trop tard" not in refused and 'class="error"' in refused
    assert _receipt_key(refused) == ""  # the next poll redraws the receipt without it
    services.round_start(round_id=rnd.pk)
    running = _poll(client, players[0])
    assert 'class="error"' not in running[running.index('id="player-receipt"') :]
