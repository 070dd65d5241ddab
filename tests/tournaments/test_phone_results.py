"""After the round on the phone: an invalid slip is never shown in the success colour, the player's
line is coloured by its sanction, and the standing shows the running total, the négatif, the
percentage on the tournament's base (the ranking pages' figure), the rank, and the solos only where
they count (§3.5)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from live import services as live_services
from tournaments import services, standings
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _page(player) -> str:
    return reverse("live:player_page", kwargs={"token": player.token})


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _top(rnd: Round) -> str:
    return f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}"


def _send(client, player, rnd, slip, claimed=""):
    data = {"round": rnd.pk, "slip": slip, "claimed": claimed, "request_id": player.name}
    url = reverse("live:player_submit", kwargs={"token": player.token})
    return client.post(url, data, **HTMX).content.decode()


def _closed(rnd: Round) -> None:
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    services.round_close_if_due(round_id=rnd.pk)


def _status(html: str) -> str:
    start = html.index('id="player-status"')
    return html[start : html.index("</section>", start)]


def _line_class(html: str) -> str:
    return re.search(r'<p class="line ([a-z-]+)">', html).group(1)


def test_after_the_round_the_receipt_leaves_the_success_colour_and_the_line_has_its_sanctions(
    client, players, game
):
    alice, bruno, chloe = players
    rnd = _running(game)
    running = _send(client, bruno, rnd, "H8 ZZZZ", "10")
    assert '<p class="sent" ' in running  # received: the success colour while the round runs
    _send(client, alice, rnd, _top(rnd), str(rnd.top_score))
    _send(client, chloe, rnd, _top(rnd), str(rnd.top_score - 1))
    _closed(rnd)
    pages = {p.name: client.get(_page(p)).content.decode() for p in players}
    for html in pages.values():
        assert '<p class="sent past" ' in html and '<p class="sent" ' not in html
    assert _line_class(pages["Alice"]) == "sanction-none"
    assert _line_class(pages["Bruno"]) == "sanction-zero"
    assert _line_class(pages["Chloé"]) == "sanction-warning"


def test_a_penalty_and_a_missing_slip_are_coloured_as_what_they_are(client, players, game):
    alice, bruno, _ = players
    rnd = _running(game)
    _send(client, alice, rnd, _top(rnd), str(rnd.top_score))
    _closed(rnd)
    Submission.objects.filter(player=alice).update(sanction="penalty", paid=rnd.top_score - 5)
    assert _line_class(client.get(_page(alice)).content.decode()) == "sanction-penalty"
    bruno_page = client.get(_page(bruno)).content.decode()
    assert _line_class(bruno_page) == "sanction-zero" and "aucun bulletin remis" in bruno_page


@pytest.mark.parametrize("base", ["total", "paid"])
def test_the_percentage_is_the_ranking_pages_on_the_tournaments_base(client, players, game, tournament, base):
    """Alice alone finds the top: a solo (three players suffice here), counted in the total."""
    tournament.solo_min_players, tournament.percent_base = 3, base
    tournament.save(update_fields=["solo_min_players", "percent_base"])
    alice = players[0]
    rnd = _running(game)
    _send(client, alice, rnd, _top(rnd), str(rnd.top_score))
    _send(client, players[1], rnd, "H8 ZZZZ", "10")
    _closed(rnd)
    ranking = standings.tournament_rows(standings.tournament_ranking(tournament))
    row = next(row for row in ranking.rows if row.key == alice.pk)
    assert (row.percent == 100) == (base == "paid")  # the solo's 10 points count on the total only
    shown = f"{row.percent:.2f}".replace(".", ",")
    status = _status(client.get(_page(alice)).content.decode())
    assert f"<b>{shown}</b> %" in status
    english = _status(client.get(_page(alice), **ENGLISH).content.decode())
    assert f"<b>{row.percent:.2f}</b> %" in english


def test_solos_are_shown_where_they_count(client, players, game, tournament):
    tournament.solo_min_players = 3
    tournament.save(update_fields=["solo_min_players"])
    alice, bruno, _ = players
    rnd = _running(game)
    _send(client, alice, rnd, _top(rnd), str(rnd.top_score))
    _closed(rnd)
    alice_status = _status(client.get(_page(alice)).content.decode())
    assert "solos <b>1</b>" in alice_status
    assert f'<span class="solo">solo : +{tournament.solo_value}</span>' in alice_status
    bruno_status = _status(client.get(_page(bruno)).content.decode())
    assert "solos <b>0</b>" in bruno_status and 'class="solo"' not in bruno_status


def test_below_the_solo_threshold_the_phone_says_nothing_of_solos(client, players, game, tournament):
    assert len(players) < tournament.solo_min_players
    alice = players[0]
    rnd = _running(game)
    _send(client, alice, rnd, _top(rnd), str(rnd.top_score))
    _closed(rnd)
    for headers in ({}, ENGLISH):
        status = _status(client.get(_page(alice), **headers).content.decode()).lower()
        assert "solo" not in status


def test_the_game_screens_ranking_is_made_once_per_change_and_follows_every_change(
    client, players, game, arbiter, django_assert_max_num_queries
):
    """The arbiter's game screen redraws every second while slips come in: its ranking is made once
    per change of the results or of the players, and is the one made afresh."""
    alice, bruno, _chloe = players
    rnd = _running(game)
    _send(client, alice, rnd, _top(rnd))
    _closed(rnd)
    game.refresh_from_db()
    made = standings.game_rows_shared(game)
    assert made == standings.game_rows(standings.game_ranking(game))
    assert made.rows[0].name == alice.name and made.rows[0].total == rnd.tops[0]["score"]
    with django_assert_max_num_queries(4):  # the results' key; no ranking made again
        assert standings.game_rows_shared(game) is made
    services.player_update(player=alice, table_number=alice.table_number, name="Alice A.")
    assert standings.game_rows_shared(game).rows[0].name == "Alice A."
    live_services.submission_correct(round_id=rnd.pk, player=bruno, text=_top(rnd), user=arbiter)
    after = standings.game_rows_shared(game)
    assert after == standings.game_rows(standings.game_ranking(game))
    assert {row.total for row in after.rows[:2]} == {rnd.tops[0]["score"]}


def test_the_projectors_ranking_is_the_kept_one_and_its_rows_are_written_once_per_change(
    client, players, game, arbiter, monkeypatch
):
    """The projector shows the arbiter's screen's kept ranking (not one made at each redraw), and a
    ranking's rows are written once per ranking and language; a rename shows at the next redraw."""
    from live import screens
    from live.templatetags import rows as rows_tags

    alice = players[0]
    rnd = _running(game)
    _send(client, alice, rnd, _top(rnd))
    _closed(rnd)
    game.refresh_from_db()
    shown = screens.projection(game).ranking
    assert shown is standings.game_rows_shared(game).rows and shown[0].name == alice.name
    written = []
    write = rows_tags._ranking_rows
    monkeypatch.setattr(rows_tags, "_ranking_rows", lambda rows: written.append(rows) or write(rows))
    first = rows_tags.ranking_rows(shown)
    assert rows_tags.ranking_rows(shown) is first and len(written) == 1
    assert f"{alice.name} <small>" in first and "100,00" in first
    with translation.override("en"):
        assert "100.00" in rows_tags.ranking_rows(shown) and len(written) == 2
    services.player_update(player=alice, table_number=alice.table_number, name="Alice A.")
    renamed = screens.projection(game).ranking
    assert renamed[0].name == "Alice A." and "Alice A. <small>" in rows_tags.ranking_rows(renamed)


def test_a_shared_tournament_rankings_rows_are_made_once_per_language(client, players, game):
    rnd = _running(game)
    _send(client, players[0], rnd, _top(rnd))
    _closed(rnd)
    ranking = standings.tournament_ranking_shared(game.tournament)
    rows = standings.tournament_rows(ranking)
    assert standings.tournament_rows(ranking) is rows and rows.rows[0].name == players[0].name
    english = standings.tournament_rows(ranking, "en")
    assert english is not rows and english.rows == standings.rows(ranking, "en")
    fresh = standings.tournament_ranking(game.tournament)  # another ranking: its own rows
    assert standings.tournament_rows(fresh) is not rows and standings.tournament_rows(fresh) == rows


def _one_round(game, number: int, slips: dict) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    rnd = services.round_start(round_id=rnd.pk)
    for player, text in slips(rnd).items():
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    return services.round_close(round_id=rnd.pk)


def test_in_a_second_game_the_phone_shows_the_games_figures_the_room_sees_and_the_tournaments(
    client, tournament, players, game
):
    alice, bruno, chloe = players
    first = _one_round(game, 1, lambda rnd: {alice: _top(rnd), bruno: _top(rnd)})
    services.round_place_top(round_id=first.pk)
    services.game_end(game_id=game.pk)
    second = services.game_start(tournament=tournament, seed=7)
    rnd = _one_round(second, 1, lambda rnd: {bruno: _top(rnd), chloe: _top(rnd)})

    status = _status(client.get(_page(alice)).content.decode())
    lines = re.findall(r'<p class="standing">(.*?)</p>', status)
    assert len(lines) == 2, status
    text = [re.sub(r"<[^>]+>", "", line) for line in lines]
    game_rows = {row.name: row for row in standings.game_rows(standings.game_ranking(second), "fr").rows}
    ranking = standings.tournament_ranking(tournament)
    whole = {row.name: row for row in standings.tournament_rows(ranking, "fr").rows}
    assert text[0].startswith("Partie 2 : ") and f"Total {game_rows['Alice'].total} " in text[0]
    assert f"rang {game_rows['Alice'].rank}/3" in text[0]
    assert text[1].startswith("Tournoi : ") and f"Total {whole['Alice'].total} " in text[1]
    assert f"rang {whole['Alice'].rank}/3" in text[1]
    assert game_rows["Alice"].total == 0 and whole["Alice"].total > 0  # the two truly differ

    with translation.override("en"):
        english = _status(client.get(_page(alice), **ENGLISH).content.decode())
    assert "Game 2:" in english and "Tournament:" in english
    assert rnd.status == Round.Status.CLOSED
