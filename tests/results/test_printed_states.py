"""What the sheets and results pages say in the states ``test_every_link`` walks: the time per round
each round was played at, the game each solo of the overall ranking was made in, and the centre of
each player of a merged ranking.  PDFs are read back as text."""

from __future__ import annotations

import html
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from results import sheets
from results.models import MergedResults, Printout
from results.reports import render
from tests.results.test_door_files import _files, _player, _post, _results
from tests.results.test_every_link import NAMES, _placed, _random, the_round_time_changed_mid_game
from tests.results.walk import pdf_text
from tournaments import services


def _printed(client, tournament, kind: str, game=None) -> str:
    fields = {"kind": kind, "cards_per_page": 1, **({"game": game.pk} if game else {})}
    response = client.post(reverse("results:printout_request", args=[tournament.pk]), fields)
    assert response.status_code == 302
    printout = Printout.objects.filter(tournament=tournament).latest("pk")
    assert printout.status == Printout.Status.DONE, printout.error
    return pdf_text(bytes(printout.pdf))


def _page(client, name: str, pk: int) -> str:
    response = client.get(reverse(name, args=[pk]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _registered(tournament):
    return [services.player_register(tournament=tournament, name=name) for name in NAMES]


# -- the time per round ---------------------------------------------------------------------------


def test_rounds_played_before_the_time_per_round_changed_print_the_time_they_were_played_at(
    arbiter_client, tournament
):
    players = _registered(tournament)
    game = _random(tournament)
    _placed(game, players)
    _placed(game, players, 2)
    services.tournament_update(tournament=tournament, round_seconds=120)  # after both rounds

    for kind in ("game", "ranking", "cards", "bundle"):
        text = _printed(arbiter_client, tournament, kind, game)
        assert "Temps par coup : 3 min" in text and "2 min" not in text, kind
    for kind in ("tournament", "evening"):
        assert "Temps par coup : 3 min" in _printed(arbiter_client, tournament, kind), kind


def test_a_game_played_at_two_times_per_round_prints_each_with_its_rounds(arbiter_client, tournament):
    the_round_time_changed_mid_game(tournament, _registered(tournament))
    game = tournament.games.get()

    for kind in ("game", "ranking", "cards", "bundle"):
        text = " ".join(_printed(arbiter_client, tournament, kind, game).split())
        assert "Temps par coup : 3 min (coup 1), 2 min (coups 2–3)" in text, kind
    overall = " ".join(_printed(arbiter_client, tournament, "tournament").split())
    assert "Temps par coup : 3 min (partie 1, coup 1), 2 min (partie 1, coups 2–3)" in overall


def test_a_second_game_played_whole_at_the_new_time_is_named_alone_on_the_overall_sheet(tournament):
    players = _registered(tournament)
    first = _random(tournament)
    _placed(first, players)
    services.game_end(game_id=first.pk)
    services.tournament_update(tournament=tournament, round_seconds=60)
    second = services.game_start(tournament=tournament, seed=6)
    _placed(second, players)
    _placed(second, players, 2)

    sheet = sheets.tournament_ranking_sheet(tournament)
    _name, _type, data = render.ranking_sheet(sheet)

    assert "Temps par coup : 3 min (partie 1), 1 min (partie 2)" in " ".join(pdf_text(data).split())


def test_the_time_per_round_prints_in_english_on_english_sheets(tournament):
    tournament.sheet_language = "en"
    tournament.save(update_fields=["sheet_language"])
    the_round_time_changed_mid_game(tournament, _registered(tournament))

    _name, _type, data = render.game_sheet(sheets.game_sheet(tournament.games.get()))

    assert "Time per round: 3 min (round 1), 2 min (rounds 2–3)" in " ".join(pdf_text(data).split())


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", "Tiempo por jugada: 3 min (jugada 1), 2 min (jugadas 2–3)"),
        ("ca", "Temps per jugada: 3 min (jugada 1), 2 min (jugades 2–3)"),
    ],
)
def test_the_time_per_round_prints_in_spanish_and_catalan_on_their_sheets(tournament, lang, said):
    tournament.sheet_language = lang
    tournament.save(update_fields=["sheet_language"])
    the_round_time_changed_mid_game(tournament, _registered(tournament))

    _name, _type, data = render.game_sheet(sheets.game_sheet(tournament.games.get()))

    assert said in " ".join(pdf_text(data).split())


# -- the overall ranking names each solo's game -----------------------------------------------------


def _two_games_with_solos_one_abandoned_between(tournament):
    """Games 1 and 3 ranked with Alice's solo in round 1 of each; game 2 abandoned (not ranked)."""
    services.tournament_update(tournament=tournament, solo_min_players=2)
    players = _registered(tournament)
    for seed in (5, 6, 7):
        game = services.game_start(tournament=tournament, seed=seed)
        _placed(game, players)
        if seed == 6:
            services.game_abandon(game_id=game.pk)
        else:
            services.game_end(game_id=game.pk)


def test_the_overall_ranking_page_names_the_game_of_each_solo_and_of_each_column(arbiter_client, tournament):
    _two_games_with_solos_one_abandoned_between(tournament)

    page = _page(arbiter_client, "results:tournament_results", tournament.pk)

    assert "Solos :</strong> partie 1, coup 1 : Alice · partie 3, coup 1 : Alice" in page
    assert 'title="Partie 1">P1<br>' in page and 'title="Partie 3">P3<br>' in page
    assert ">P2<br>" not in page  # the abandoned game has no column


def test_a_games_results_page_names_its_solos_by_round_alone(arbiter_client, tournament):
    _two_games_with_solos_one_abandoned_between(tournament)
    third = tournament.games.get(number=3)

    page = _page(arbiter_client, "results:game_results", third.pk)

    assert "Solos :</strong> coup 1 : Alice</p>" in page


def test_the_overall_ranking_sheets_name_the_game_of_each_solo(arbiter_client, tournament):
    _two_games_with_solos_one_abandoned_between(tournament)

    for kind in ("tournament", "evening"):
        text = " ".join(_printed(arbiter_client, tournament, kind).split())
        assert "Solos — partie 1, coup 1 : Alice ; partie 3, coup 1 : Alice." in text, kind
        assert "Aucun solo" not in text.split("Partie 1")[0], kind  # the overall sheet comes first
    third = tournament.games.get(number=3)
    game_text = " ".join(_printed(arbiter_client, tournament, "ranking", third).split())
    assert "Solos — coup 1 : Alice." in game_text


# -- a merged ranking tells the centres apart -------------------------------------------------------


def _merged_two_centres(client) -> MergedResults:
    """Two centres whose tables 1 and 2 are both taken: "Joueur 0" at table 1 in each."""
    paris, lyon = _results("Paris"), _results("Lyon")
    lyon["players"][1] = _player(1, name="Lucie", club="Club de Lyon")
    response = _post(client, _files(paris, lyon))
    assert response.status_code == 302
    return MergedResults.objects.latest("pk")


def test_the_merged_ranking_page_shows_each_players_centre_beside_the_table(arbiter_client):
    merged = _merged_two_centres(arbiter_client)

    page = _page(arbiter_client, "results:merge_detail", merged.pk)

    assert "<th>Centre</th>" in page and "<th>Club</th>" in page
    rows = [row for row in page.split("<tr>") if 'class="num">1</td>' in row and "Joueur 0" in row]
    assert [row.split("<td>")[1].split("<")[0] for row in rows] == ["Paris", "Lyon"]
    assert '<td>Paris</td><td class="num">2</td><td>Joueur 1</td>' in page
    assert '<td>Lyon</td><td class="num">2</td><td>Lucie</td><td>Club de Lyon</td>' in page


def test_the_merged_ranking_sheet_prints_each_players_centre(arbiter_client):
    merged = _merged_two_centres(arbiter_client)

    response = arbiter_client.get(reverse("results:merge_export", args=[merged.pk, "pdf"]))
    pages = PdfReader(io.BytesIO(response.content)).pages
    lines = [line for page in pages for line in page.extract_text(extraction_mode="layout").splitlines()]

    assert "Centre" in " ".join(lines)
    # Equal on every figure, the two tables 1 are listed in the files' order, each with its centre.
    firsts = [line for line in lines if "Joueur 0" in line]
    assert [("Paris" in line, "Lyon" in line) for line in firsts] == [(True, False), (False, True)]
    assert any("Lyon" in line and "Lucie" in line and "Club de Lyon" in line for line in lines)
