"""The ranking ranks what it shows (rules §4): whatever the percentage base, every ranking lists its
lines in the order of the figure in its main column, its columns add up (the games make the paid
scores, and scores + solos − penalty = total), and it says which base it is on.

The game: Alice pays 4 points under the top in round 1 and nobody beats her in round 2; Bruno alone
finds round 1's top (a solo, three players suffice here) and pays 8 under the top in round 2.  On
"scores seuls" Alice (T − 4) is above Bruno (T − 8) although Bruno's total with his solo (T + 2) is
higher; on the total Bruno is first.  Chloé has one warning over a threshold of none: 5 points off."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from live import services as live_services
from results import sheets
from results.reports import render
from tournaments import services, standings
from tournaments.models import Round, Submission

GAMES = Path(__file__).resolve().parents[1] / "data" / "reference-games"


def _played(tournament, players, name: str = "game-001.json"):
    """Two rounds where everyone hands in the top, then the paid scores of the story above."""
    game = services.game_start(tournament=tournament, prepared=(GAMES / name).read_text())
    rounds = []
    for number in (1, 2):
        rnd = services.round_draw(game_id=game.pk, expected_number=number).round
        rnd = services.round_start(round_id=rnd.pk)
        top = rnd.tops[0]
        for player in players:
            live_services.submission_record(
                player=player, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
            )
        services.round_close(round_id=rnd.pk)
        rounds.append(services.round_place_top(round_id=rnd.pk))
    alice, bruno, chloe = players
    first, second = rounds
    t1, t2 = first.top_score, second.top_score
    _pay(first, alice, t1 - 4), _pay(first, bruno, t1), _pay(first, chloe, 0)
    _pay(second, alice, t2), _pay(second, bruno, t2 - 8), _pay(second, chloe, t2, warning=True)
    return game, t1 + t2


def _pay(rnd: Round, player, paid: int, warning: bool = False) -> None:
    sanction = "warning" if warning else "none"
    Submission.objects.filter(round=rnd, player=player).update(paid=paid, sanction=sanction)


@pytest.fixture
def on_base(tournament):
    def set_base(base: str):
        tournament.solo_min_players, tournament.warning_threshold, tournament.percent_base = 3, 0, base
        tournament.save(update_fields=["solo_min_players", "warning_threshold", "percent_base"])

    return set_base


class _Table(HTMLParser):
    """The ranking table's header cells, its rows' cells and which of them are bold."""

    def __init__(self):
        super().__init__()
        self.head: list[str] = []
        self.rows: list[list[str]] = []
        self.bold: list[list[bool]] = []
        self._cell: list[str] | None = None
        self._in_head = self._cell_bold = False

    def handle_starttag(self, tag, attrs):
        if tag == "thead":
            self._in_head = True
        elif tag == "tr" and not self._in_head:
            self.rows.append([])
            self.bold.append([])
        elif tag in ("td", "th"):
            self._cell, self._cell_bold = [], False
        elif tag == "strong":
            self._cell_bold = True

    def handle_endtag(self, tag):
        if tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None:
            text = " ".join(" ".join(self._cell).split())
            if self._in_head:
                self.head.append(text)
            else:
                self.rows[-1].append(text)
                self.bold[-1].append(self._cell_bold)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _table(html: str) -> _Table:
    table = _Table()
    table.feed(html[html.index('<table class="list ranking wide">') : html.index("</table>")])
    return table


def _main_column(table: _Table) -> list[int]:
    """The bold figure of each line: the one the ranking says it is on."""
    return [int(next(c for c, b in zip(row, bold) if b)) for row, bold in zip(table.rows, table.bold)]


def _number(text: str) -> int:
    return int(text.replace("+", "").replace("−", "-")) if text else 0


def test_on_scores_only_the_games_page_lists_the_lines_in_the_order_of_the_figure_it_shows(
    arbiter_client, tournament, players, on_base
):
    on_base("paid")
    game, top = _played(tournament, players)
    page = arbiter_client.get(reverse("results:game_results", args=[game.pk])).content.decode()
    table = _table(page)
    assert [row[4] for row in table.rows] == ["Alice", "Bruno", "Chloé"]
    shown = _main_column(table)
    assert shown[:2] == [top - 4, top - 8] and shown == sorted(shown, reverse=True)
    assert "Base : scores seuls" in page
    scores, total = table.head.index("Scores"), table.head.index("Total")
    assert [row[total] for row in table.rows][:2] == [str(top - 4), str(top + 2)]
    assert all(row[scores] == str(value) for row, value in zip(table.rows, shown))


@pytest.mark.parametrize("base", ["total", "paid"])
def test_the_tournaments_columns_add_up_to_its_total_on_either_base(
    arbiter_client, tournament, players, on_base, base
):
    on_base(base)
    _, top1 = _played(tournament, players)
    _, top2 = _played(tournament, players, "game-002.json")
    page = arbiter_client.get(reverse("results:tournament_results", args=[tournament.pk])).content.decode()
    table = _table(page)
    head = table.head
    games = [head.index("P1 " + str(top1)), head.index("P2 " + str(top2))]
    scores, solos, penalty, total = (head.index(h) for h in ("Scores", "Solos", "Pénalité", "Total"))
    for row in table.rows:
        assert sum(_number(row[i]) for i in games) == _number(row[scores])
        assert _number(row[scores]) + _number(row[solos]) + _number(row[penalty]) == _number(row[total])
    bruno = next(row for row in table.rows if row[4] == "Bruno")
    assert (bruno[solos], bruno[total]) == ("+20", str(top1 + top2 + 4))
    shown = _main_column(table)
    assert shown == sorted(shown, reverse=True)
    said = "scores seuls" if base == "paid" else "total avec solos et pénalités"
    assert f"Base : {said}" in page


def test_on_scores_only_the_csv_lists_the_lines_in_the_order_of_its_scores_and_names_the_base(
    arbiter_client, tournament, players, on_base
):
    on_base("paid")
    game, _ = _played(tournament, players)
    data = arbiter_client.get(reverse("results:game_export", args=[game.pk, "csv"])).content
    header, *lines = csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";")
    column = {name: header.index(name) for name in ("Nom", "Scores", "Points de solo", "Pénalité", "Total")}
    assert "Pourcentage (base : scores seuls)" in header
    assert [line[column["Nom"]] for line in lines] == ["Alice", "Bruno", "Chloé"]
    scores = [int(line[column["Scores"]]) for line in lines]
    assert scores == sorted(scores, reverse=True)
    for line in lines:
        paid, solo, penalty = (int(line[column[name]]) for name in ("Scores", "Points de solo", "Pénalité"))
        assert paid + solo - penalty == int(line[column["Total"]])


def test_on_scores_only_the_ranking_sheet_prints_the_scores_first_and_the_base(tournament, players, on_base):
    on_base("paid")
    game, top = _played(tournament, players)
    pdf = render.ranking_sheet(sheets.game_ranking_sheet(game, standings.game_ranking(game)))[2]
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Base : scores seuls" in text
    cells = text[: text.index("Solos —")].splitlines()  # pypdf gives a table cell per line
    names = [cell for cell in cells if cell in ("Alice", "Bruno", "Chloé")]
    assert names == ["Alice", "Bruno", "Chloé"]
    # After the name (no club, series or category here): the paid scores, the figure ranked on; then
    # the solos, the penalty (none) and the total: T − 8, +10, T + 2 for Bruno.
    after = cells.index("Bruno") + 1
    assert cells[after : after + 3] == [str(top - 8), "+10", str(top + 2)]
    after = cells.index("Alice") + 1
    assert cells[after : after + 2] == [str(top - 4), str(top - 4)]


@pytest.mark.parametrize("base, label", [("paid", "Scores"), ("total", "Total")])
def test_the_arbiters_screen_the_projector_and_the_simultaneous_show_the_figure_ranked_on(
    tournament, players, on_base, base, label
):
    """The compact ranking (arbiter's screen, projector, merged results) and the simultaneous's
    public page: the main column is the figure ranked on, named, and the base said above."""
    on_base(base)
    game, top = _played(tournament, players)
    rows = standings.game_rows(standings.game_ranking(game)).rows
    bruno = top - 8 if base == "paid" else top + 2
    said = "scores seuls" if base == "paid" else "total avec solos et pénalités"
    for template in ("live/partials/_ranking.html", "simultaneous/_ranking.html"):
        with translation.override("fr"):
            html = render_to_string(template, {"rows": rows})
        assert f'<caption class="base">Base : {said}</caption>' in html
        head = html[html.index("<thead>") : html.index("</thead>")]
        assert f">{label}</th>" in head and (">Total</th>" in head) == (base == "total")
        line = html[html.index("Bruno") :]
        assert re.search(rf"<td( class=\"num\")?>{bruno}</td>", line[:400])


def test_on_scores_only_the_phone_shows_the_scores_its_rank_follows(client, tournament, players, on_base):
    on_base("paid")
    _, top = _played(tournament, players)
    bruno = players[1]
    html = client.get(reverse("live:player_page", kwargs={"token": bruno.token})).content.decode()
    status = html[html.index('id="player-status"') :]
    assert f"Scores <b>{top - 8}</b>" in status and "rang <b>2</b>/3" in status


def test_on_the_average_of_the_games_the_tournaments_page_shows_the_percentage_it_ranks_on(
    arbiter_client, tournament, players, on_base
):
    """§4's other setting: the average of the games' percentages is what the ranking follows, so it
    is the bold column, and the page says so."""
    on_base("total")
    tournament.aggregate = "average"
    tournament.save(update_fields=["aggregate"])
    _played(tournament, players)
    _played(tournament, players, "game-002.json")
    page = arbiter_client.get(reverse("results:tournament_results", args=[tournament.pk])).content.decode()
    table = _table(page)
    percent = table.head.index("%")
    assert all(bold == [i == percent for i in range(len(row))] for row, bold in zip(table.rows, table.bold))
    shown = [float(row[percent].replace(",", ".")) for row in table.rows]
    assert shown == sorted(shown, reverse=True)
    assert "moyenne des pourcentages" in page
