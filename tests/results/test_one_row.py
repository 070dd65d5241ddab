"""One ranking row type and one rounding for every medium: the screens, the PDF sheets and the CSV print
the same figures, percentages rounded half up on the exact fraction (53.125 → 53,13, where rounding
the float gives 53,12), categories named in the medium's language."""

from __future__ import annotations

import csv
import datetime
import io
from decimal import Decimal

from django.template.loader import render_to_string
from django.utils import timezone, translation
from pypdf import PdfReader

from engine.ranking import Entrant, GameScores, Score, rank_game, rows
from results import exports
from results.reports import render
from results.reports.data import RankingSheet, SheetHeader
from tournaments import standings

#: 34 of a top of 64: exactly 53.125 %.
RANKING = rank_game(
    [Entrant(key=1, name="Alice", table=1, category="V"), Entrant(key=2, name="Bruno", table=2)],
    GameScores(tops=(64,), scores={1: (Score(34),), 2: (Score(64),)}),
)


def _header(lang: str) -> SheetHeader:
    return SheetHeader(
        tournament="Coupe", game="Partie 1", date=datetime.date(2026, 11, 20), place="Salle",
        lexicon="fr-wfrench", lexicon_checksum="0" * 64, grading="FISF", grace_seconds=2,
        round_seconds=180, base="total", tie_break="aucun", generated_at=timezone.now(), lang=lang,
    )  # fmt: skip


def test_a_percentage_is_rounded_half_up_on_its_exact_fraction():
    alice = next(row for row in rows(RANKING) if row.name == "Alice")
    assert (alice.percent, alice.percent_total, alice.percent_paid) == (Decimal("53.13"),) * 3


def test_the_screen_the_sheet_and_the_csv_print_the_same_percentage():
    with translation.override("fr"):
        screen = render_to_string("live/partials/_ranking.html", {"rows": standings.game_rows(RANKING).rows})
    assert "53,13" in screen and "53,12" not in screen
    sheet = RankingSheet(header=_header("fr"), top=RANKING.top, rows=rows(RANKING, "fr"))
    pdf = render.ranking_sheet(sheet)[2]
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "53,13" in text and "53,12" not in text
    table = list(csv.reader(io.StringIO(exports.ranking_csv(RANKING).decode("utf-8-sig")), delimiter=";"))
    assert table[2][-3:] == ["53,13", "53,13", "53,13"]


def test_the_screen_names_categories_in_the_interfaces_language():
    for lang, label in (
        ("fr", "Vermeil"),
        ("en", "Vermeil (62+)"),
        ("es", "Vermeil (62+)"),
        ("ca", "Vermeil (62+)"),
    ):
        with translation.override(lang):
            alice = next(row for row in standings.game_rows(RANKING).rows if row.name == "Alice")
        assert alice.category == label
    assert [row.category for row in rows(RANKING, "en")] == ["", "Vermeil (62+)"]


def test_the_sheet_and_the_csv_name_categories_and_write_percentages_in_spanish_and_catalan():
    diamond = rank_game(
        [
            Entrant(key=1, name="Alice", table=1, category="D"),
            Entrant(key=2, name="Bruno", table=2, category="S"),
        ],
        GameScores(tops=(64,), scores={1: (Score(34),), 2: (Score(64),)}),
    )
    for lang, names in (("es", ("Diamante (72+)", "Sénior")), ("ca", ("Diamant (72+)", "Sènior"))):
        assert [row.category for row in rows(diamond, lang)] == [names[1], names[0]]
        sheet = RankingSheet(header=_header(lang), top=diamond.top, rows=rows(diamond, lang))
        pdf = render.ranking_sheet(sheet)[2]
        text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)
        assert all(name in text for name in names) and "53,13" in text, lang
        table = list(
            csv.reader(
                io.StringIO(exports.ranking_csv(diamond, lang=lang).decode("utf-8-sig")), delimiter=";"
            )
        )
        assert table[2][8] == names[0] and table[2][-3:] == ["53,13", "53,13", "53,13"], lang
