"""A hall's arbiter screens: a game of 1,500 players shows the arbiter what is read there (the first
100 ranks with a link to the whole ranking, the tables not heard from counted and listed on demand,
the slips a hundred tables at a time), a club's room everything; and the screens' polls that find
nothing new are answered before the session, the user and the views (``live.pulse``)."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.test import Client
from django.urls import reverse

from live import pulse
from live import services as live_services
from tests.fixtures import calls_to
from tournaments import services, standings
from tournaments.models import Player, Round

from .test_earlier_slips import HTMX, _top_slip

HALL = 1500
SENT = 30  # slips sent in the hall's first round


def _csv(players: int) -> bytes:
    lines = ["Nom;Table"] + [f"Joueur {n};{n + 1}" for n in range(players)]
    return ("\r\n".join(lines) + "\r\n").encode()


@pytest.fixture
def hall(tournament):
    """A game of 1,500 players: round 1 placed (30 slips, one a zero), round 2 running, no slip yet."""
    services.players_import_csv(tournament=tournament, data=_csv(HALL))
    game = services.game_start(tournament=tournament, seed=42)
    players = list(Player.objects.filter(tournament=tournament).order_by("table_number")[:SENT])
    first = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    for n, player in enumerate(players):
        live_services.submission_record(
            player=player, round_id=first.pk, text=_top_slip(first) if n else "H8 ZZZ 10"
        )
    services.round_close(round_id=first.pk)
    services.round_place_top(round_id=first.pk)
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    services.round_start(round_id=second.pk)
    return game


def _rows(html: str, table_class: str) -> int:
    table = re.search(rf'<table class="list {table_class}">.*?</table>', html, re.S)
    assert table, f"no {table_class} table"
    return len(re.findall(r"<tr[ >]", table.group(0).split("<tbody>", 1)[1]))


def _live(client, game) -> str:
    return client.get(reverse("live:game_poll", args=[game.pk]), **HTMX).content.decode()


def _poll(html: str, element: str) -> dict:
    """What the element's script sends on its poll: the key it shows (``v``) and its ticket (``t``)."""
    tag = re.search(rf'<div id="{element}"[^>]*>', html).group(0)
    key = re.search(r'hx-get="[^"?]+\?v=([^"]+)"', tag).group(1)
    ticket = re.search(r"""hx-vals='\{"t": "([^"]*)"\}'""", tag).group(1)
    return {"v": unquote(key), "t": ticket}


# -- what the screens show ---------------------------------------------------------------------------


def test_a_halls_running_round_counts_its_missing_tables_and_shows_the_first_100_ranks(arbiter_client, hall):
    live = _live(arbiter_client, hall)
    assert "Pas encore reçu : 1500 tables." in live
    assert "/historique/" not in live  # no table listed
    assert _rows(live, "ranking") == 100
    assert "les 100 premiers sur 1" in live and reverse("live:game_ranking", args=[hall.pk]) in live
    assert len(live) < 60_000  # not 1,500 tables and 1,500 ranks


def test_the_missing_tables_are_listed_on_demand(arbiter_client, hall):
    rnd = Round.objects.get(game=hall, number=2)
    sender = Player.objects.get(tournament=hall.tournament, table_number=7)
    live_services.submission_record(player=sender, round_id=rnd.pk, text=_top_slip(rnd))
    url = reverse("live:game_missing", args=[hall.pk])
    assert f'data-list="{url}"' in _live(arbiter_client, hall)
    listed = arbiter_client.get(url, **HTMX).content.decode()
    tables = [int(t) for t in re.findall(r'href="[^"]*/historique/([0-9]+)/"', listed)]
    assert len(tables) == HALL - 1 and 7 not in tables and tables == sorted(set(tables))
    assert "1499 tables n’ont rien envoyé" in listed
    page = arbiter_client.get(url).content.decode()  # a page of its own, without the script
    assert "<title>" in page and len(re.findall(r'href="[^"]*/historique/', page)) == HALL - 1


def test_the_whole_ranking_is_a_page_of_its_own(arbiter_client, hall):
    page = arbiter_client.get(reverse("live:game_ranking", args=[hall.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert _rows(html, "ranking") == HALL
    assert "1500 joueurs" in html and "les 100 premiers" not in html
    ranking = standings.game_rows_shared(hall)
    assert ranking.rows[0].name in html and ranking.rows[-1].name in html


def test_the_projector_shows_the_first_100_ranks_with_the_link(arbiter_client, hall):
    Round.objects.filter(game=hall, number=2).delete()  # between rounds: the ranking is shown
    projector = arbiter_client.get(reverse("live:projector", args=[hall.pk])).content.decode()
    assert _rows(projector, "ranking") == 100
    assert "les 100 premiers sur 1" in projector
    assert reverse("live:game_ranking", args=[hall.pk]) in projector


def test_a_halls_slips_panel_shows_a_hundred_tables_and_reaches_every_other(arbiter_client, hall):
    url = reverse("live:game_slips", args=[hall.pk])
    panel = arbiter_client.get(url, {"coup": 1}, **HTMX).content.decode()
    assert _rows(panel, "slips-table") == 100
    assert len(panel) < 150_000  # a hundred slips, not 1,500
    pages = re.findall(r'tranche=([0-9]+)"[^>]*>([0-9]+)–([0-9]+)<', panel)
    assert len(pages) == 15 and pages[-1] == ("15", "1401", "1500")
    last = arbiter_client.get(url, {"coup": 1, "tranche": 15}, **HTMX).content.decode()
    assert _rows(last, "slips-table") == 100 and 'name="table_number" value="1500"' in last
    rnd = Round.objects.get(game=hall, number=1)
    typed = arbiter_client.post(
        reverse("live:slip_enter", args=[rnd.pk]),
        {"table_number": 1234, "text": _top_slip(rnd), "paper": "1"},
        **HTMX,
    ).content.decode()
    assert 'data-page="13"' in typed and 'name="table_number" value="1234"' in typed  # the table typed


def test_a_club_sees_every_row_and_every_missing_table(arbiter_client, game, players):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    live = _live(arbiter_client, game)
    assert "Pas encore reçu :" in live and len(re.findall(r'href="[^"]*/historique/', live)) == len(players)
    assert _rows(live, "ranking") == len(players) and "premiers sur" not in live
    services.round_close(round_id=rnd.pk)
    panel = arbiter_client.get(reverse("live:game_slips", args=[game.pk]), **HTMX).content.decode()
    assert _rows(panel, "slips-table") == len(players) and "slips-pages" not in panel


# -- the polls that find nothing new -----------------------------------------------------------------


def test_the_game_screens_poll_that_finds_nothing_new_reads_no_session_nor_ranking(
    arbiter_client, hall, monkeypatch, django_assert_max_num_queries
):
    shown = _poll(arbiter_client.get(reverse("live:game_detail", args=[hall.pk])).content.decode(), "live")
    poll = reverse("live:game_poll", args=[hall.pk])
    ranked = calls_to(monkeypatch, standings, "game_rows_shared")
    with django_assert_max_num_queries(2):  # the room's round (kept half a second), the slips counted
        answer = arbiter_client.get(poll, shown, **HTMX)
    assert answer.status_code == 204 and answer.content == b"" and ranked == []
    rnd = Round.objects.get(game=hall, number=2)
    live_services.submission_record(
        player=Player.objects.get(tournament=hall.tournament, table_number=3),
        round_id=rnd.pk,
        text=_top_slip(rnd),
    )
    changed = arbiter_client.get(poll, shown, **HTMX)  # a slip came: the screen is drawn again
    assert changed.status_code == 200 and "Pas encore reçu : 1499 tables." in changed.content.decode()
    assert arbiter_client.get(poll, _poll(changed.content.decode(), "live"), **HTMX).status_code == 204


def test_the_projectors_poll_that_finds_nothing_new_reads_no_session_nor_ranking(
    arbiter_client, hall, monkeypatch, django_assert_max_num_queries
):
    Round.objects.filter(game=hall, number=2).delete()  # between rounds: the ranking is shown
    page = arbiter_client.get(reverse("live:projector", args=[hall.pk])).content.decode()
    shown = _poll(page, "projection")
    poll = reverse("live:projector_poll", args=[hall.pk])
    ranked = calls_to(monkeypatch, standings, "game_rows_shared")
    with django_assert_max_num_queries(1):  # the room's round
        answer = arbiter_client.get(poll, shown, **HTMX)
    assert answer.status_code == 204 and answer.content == b"" and ranked == []


def test_a_ticket_serves_only_its_own_session_and_screen(arbiter_client, arbiter, hall, monkeypatch):
    shown = _poll(arbiter_client.get(reverse("live:game_detail", args=[hall.pk])).content.decode(), "live")
    poll = reverse("live:game_poll", args=[hall.pk])
    answered = calls_to(monkeypatch, pulse, "key_now")
    assert arbiter_client.get(poll, shown, **HTMX).status_code == 204 and len(answered) == 1
    stranger = Client()  # no session: the view answers, and sends it to the login page
    assert stranger.get(poll, shown, **HTMX).status_code == 302
    other = Client()
    other.force_login(arbiter)  # another session of the same account: the view answers it
    assert other.get(poll, shown, **HTMX).status_code == 204
    forged = {**shown, "t": shown["t"][:-1] + ("0" if shown["t"][-1] != "0" else "1")}
    assert arbiter_client.get(poll, forged, **HTMX).status_code == 204  # the view's answer
    projector = reverse("live:projector_poll", args=[hall.pk])
    assert arbiter_client.get(projector, shown, **HTMX).status_code == 200  # another screen's ticket
    assert len(answered) == 1


def test_a_poll_past_the_deadline_goes_to_the_view_which_closes_the_round(arbiter_client, hall):
    shown = _poll(arbiter_client.get(reverse("live:game_detail", args=[hall.pk])).content.decode(), "live")
    rnd = Round.objects.get(game=hall, number=2)
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline.replace(year=2020))
    answer = arbiter_client.get(reverse("live:game_poll", args=[hall.pk]), shown, **HTMX)
    assert answer.status_code == 200 and "Placer ce top" in answer.content.decode()
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
