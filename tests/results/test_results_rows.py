"""The results pages' rows written in Python (live/templatetags/rows.py ``results_rows``): the
cells the template wrote, written once per ranking, language and main column."""

from __future__ import annotations

from decimal import Decimal
from html.parser import HTMLParser

from django.utils import translation

from engine.ranking import Row
from live.templatetags import rows as rows_tags
from tests.fixtures import calls_to


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self.cell = []
        elif tag == "strong" and self.cell is not None:
            self.cell.append("*")

    def handle_endtag(self, tag):
        if tag == "td":
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def _cells(html: str) -> list[list[str]]:
    parser = _Cells()
    parser.feed(html)
    return parser.rows


def _row(**changes) -> Row:
    fields = dict(
        rank=1, series_rank=2, category_rank=3, table=7, name="Zoé <b>", club="Vichy & co", series="B",
        category="Senior", total=120, paid=100, negatif=-5, percent=Decimal("95.237"),
        percent_total=Decimal("95.24"), percent_paid=Decimal("90"), solos=1, warnings=2, penalty=5,
        parts=(60, 40), solo_points=25,
    )  # fmt: skip
    return Row(**(fields | changes))


def test_each_cell_as_the_template_wrote_it():
    rows = (_row(), _row(rank=2, series="", category="", solo_points=0, penalty=0, warnings=0, parts=(1, 2)))
    with translation.override("fr"):
        cells = _cells(rows_tags.results_rows(rows, [61, 41], "percent"))
    assert cells[0] == [
        "1", "2 (B)", "3 (Senior)", "7", "Zoé <b>", "Vichy & co", "60", "40", "100", "+25", "−5", "120",
        "-5", "*95,24", "2",
    ]  # fmt: skip
    assert cells[1][:3] == ["2", "", ""] and cells[1][8:] == ["100", "", "", "120", "-5", "*95,24", ""]
    with translation.override("en"):
        game = _cells(rows_tags.results_rows(rows, None, "total"))  # a game's page: no parts
    assert game[0][6:] == ["100", "+25", "−5", "*120", "-5", "95.24", "2"]
    assert "&lt;b&gt;" in rows_tags.results_rows(rows, None, "total")


def test_the_rows_are_written_once_per_ranking_language_and_main_column(monkeypatch):
    written = calls_to(monkeypatch, rows_tags, "_results_row")
    rows = (_row(),)
    first = rows_tags.results_rows(rows, None, "total")
    assert rows_tags.results_rows(rows, None, "total") is first and len(written) == 1
    rows_tags.results_rows(rows, None, "paid")
    assert len(written) == 2
    assert rows_tags.results_rows((_row(),), None, "total") == first and len(written) == 3  # another object
    assert "Aucun joueur" in rows_tags.results_rows((), None, "total")
