"""The game sheet: every round's rack, top and score (rules §5's prepared-game record) and the final board."""

from __future__ import annotations

from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from results.reports.board import BLANK_INK, BoardGrid
from results.reports.data import GameRound, GameSheet
from results.reports.layout import (
    BOLD,
    CELL,
    FONT,
    HEAD,
    SMALL,
    TABLE_STYLE,
    Section,
    column_widths,
    header_block,
)
from results.reports.paper import PORTRAIT
from results.reports.text import clip, fit, labels, markup

REJECTED = "#8a8a8a"
WORD = CELL.clone("word", fontName=BOLD)
#: (label key, width in points); the rack and word columns share what is left of the page.
COLUMNS = (
    ("col_round", 24),
    ("col_rack", 0.55),
    ("col_ref", 34),
    ("col_word", 0.45),
    ("col_score", 38),
    ("col_cumulated", 40),
    ("col_tied", 44),
)


def game_section(sheet: GameSheet) -> Section:
    header = sheet.header
    t = labels(header.lang)
    width = PORTRAIT.width
    extra = [(t["top"], str(sheet.total)), (t["rounds"], str(len(sheet.rounds)))]
    return Section(
        header=header,
        title=t["game_sheet"],
        flowables=[
            *header_block(header, t["game_sheet"], width, extra),
            _table(sheet, width),
            Spacer(0, 3),
            Paragraph(t["rack_legend"], SMALL),
            Spacer(0, 6),
            BoardGrid(sheet.board, header.lang, values=sheet.tile_values),
        ],
    )


def _table(sheet: GameSheet, width: float) -> Table:
    t = labels(sheet.header.lang)
    head = [t[key] for key, _ in COLUMNS]
    total = [t["game_total"], "", "", "", str(sheet.total), "", ""]
    rows = [head, *(_row(r, sheet.header.lang) for r in sheet.rounds), total]
    table = Table(rows, colWidths=column_widths(COLUMNS, width), repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                *TABLE_STYLE,
                ("ALIGN", (0, 0), (-1, 0), "CENTER"),
                ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                ("ALIGN", (4, 1), (-1, -1), "RIGHT"),
                ("FONT", (4, 1), (4, -1), BOLD, 8),
                ("SPAN", (0, -1), (3, -1)),
                ("ALIGN", (0, -1), (3, -1), "RIGHT"),
                ("FONT", (0, -1), (-1, -1), BOLD, 8),
                ("BACKGROUND", (0, -1), (-1, -1), HEAD),
            ]
        )
    )
    return table


def _row(game_round: GameRound, lang: str) -> list:
    return [
        str(game_round.number),
        Paragraph(_rack(game_round, lang), CELL),
        fit(game_round.ref, FONT, 8, 28),
        Paragraph(word_markup(clip(game_round.word, 40)), WORD),
        str(game_round.score),
        str(game_round.cumulated),
        str(game_round.tied) if game_round.tied else "",
    ]


def _rack(game_round: GameRound, lang: str) -> str:
    """Cancelled draws struck through and marked so (§3.1.6), rejected draws struck through in grey
    (§3.1.4), then the rack played."""
    mark = labels(lang)["cancelled"]
    cancelled = [f"<strike>{markup(r)}</strike> <i>({mark})</i>" for r in game_round.cancelled]
    struck = [f'<strike><font color="{REJECTED}">{markup(r)}</font></strike>' for r in game_round.rejected]
    return "&nbsp;&nbsp; ".join([*cancelled, *struck, markup(game_round.rack)])


def word_markup(word: str) -> str:
    """The word with each blank (a lower-case letter, §1.3) in the board's blank colour, not bold."""
    blank = f'<font name="Helvetica" color="#{BLANK_INK.hexval()[2:]}">{{}}</font>'
    return "".join(blank.format(markup(ch)) if ch.islower() else markup(ch) for ch in word)
