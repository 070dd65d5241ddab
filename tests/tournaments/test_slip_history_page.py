"""A slip's history: in the game screen's panel a partial, opened in a tab of its own a whole page,
styled like the arbiter's pages, whose close leads back to the game screen."""

from __future__ import annotations

from django.templatetags.static import static
from django.urls import reverse

from live import services as live_services
from tournaments import services

HTMX = {"HTTP_HX_REQUEST": "true"}


def _history(game, player):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    live_services.submission_record(player=player, round_id=rnd.pk, text="H8 ZZZ")
    return reverse("live:slip_history", args=[rnd.pk, player.table_number])


def test_the_history_opened_in_its_own_tab_is_a_styled_page_whose_close_leads_back(
    arbiter_client, game, players
):
    url = _history(game, players[0])

    page = arbiter_client.get(url).content.decode()

    assert page.lstrip().startswith("<!doctype html>")
    assert f'<link rel="stylesheet" href="{static("tournaments/arbiter.css")}">' in page
    assert f'<script src="{static("tournaments/arbiter.js")}">' in page  # what makes its close work
    back = reverse("live:game_detail", args=[game.pk])
    assert f'<a class="close" href="{back}" data-close-history' in page
    assert "H8 ZZZ" in page and "bulletins du coup 1" in page

    # In the game screen's panel (htmx) it stays the partial, its close a button.
    panel = arbiter_client.get(url, **HTMX).content.decode()
    assert "<html" not in panel and "H8 ZZZ" in panel
    assert '<button type="button" class="close" data-close-history' in panel


def test_the_arbiter_reads_any_tables_slips_and_times_while_the_round_runs(arbiter_client, game, players):
    _history(game, players[0])  # the round runs, table 1 has sent a slip
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    lookup = reverse("live:game_slip_history", args=[game.pk])
    assert f'hx-get="{lookup}"' in page  # on the game screen, outside what its poll redraws

    panel = arbiter_client.get(lookup, {"table": players[0].table_number}, **HTMX).content.decode()
    assert "H8 ZZZ" in panel and "Reçu à" in panel and "Fin du temps" in panel

    nobody = arbiter_client.get(lookup, {"table": "999"}, **HTMX)
    assert nobody.status_code == 200 and "Aucun joueur à la table 999." in nobody.content.decode()
    for typed in ("", "abc", "1" * 40, "-3"):
        assert arbiter_client.get(lookup, {"table": typed}, **HTMX).status_code == 200
    assert arbiter_client.get(lookup, {"table": "abc"}).status_code == 302  # its own tab: back, said
