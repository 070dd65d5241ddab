"""A player's score card: their slip, what it was paid and why, beside the top, round by round (§3.4)."""

from __future__ import annotations

from reportlab.lib.enums import TA_CENTER
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from results.reports.data import CardRound, ScoreCard
from results.reports.game import word_markup
from results.reports.layout import (
    BODY,
    BOLD,
    CELL,
    HEAD,
    SMALL,
    TABLE_STYLE,
    TITLE,
    Section,
    cell,
    column_widths,
    header_block,
    page_width,
)
from results.reports.text import clip, label_value, labels, markup, percent, signed

NAME = TITLE.clone("player", fontSize=13, leading=16)
SUM_LABEL = CELL.clone("sum-label", fontName=BOLD, fontSize=7, leading=8.5, alignment=TA_CENTER)
SUM_VALUE = CELL.clone("sum-value", fontSize=10, leading=12, alignment=TA_CENTER)
#: (label key, width in points); the slip, reason and top-move columns share what is left of the page.
COLUMNS = (
    ("col_round", 22),
    ("col_slip", 0.3),
    ("col_paid_round", 30),
    ("col_sanction", 60),
    ("col_reason", 0.4),
    ("col_top", 30),
    ("col_top_move", 0.3),
    ("col_running", 38),
)


def card_section(card: ScoreCard) -> Section:
    lang = card.header.lang
    t = labels(lang)
    width = page_width(False)
    return Section(
        header=card.header,
        title=label_value(lang, t["score_card"]) + card.row.name,
        flowables=[
            *header_block(card.header, t["score_card"], width),
            Paragraph(markup(clip(card.row.name, 200)), NAME),
            Paragraph(_identity(card), BODY),
            Spacer(0, 6),
            _rounds(card, width),
            Spacer(0, 8),
            _summary(card, width),
        ],
    )


def _identity(card: ScoreCard) -> str:
    lang = card.header.lang
    t = labels(lang)
    parts = [(t["col_table"], str(card.row.table)), (t["col_club"], card.row.club)]
    parts += [(t["col_series"], card.row.series), (t["col_category"], card.row.category)]
    return " · ".join(f"<b>{markup(label_value(lang, k))}</b>{markup(v)}" for k, v in parts if v)


def _rounds(card: ScoreCard, width: float) -> Table:
    t = labels(card.header.lang)
    head = [t[key] for key, _ in COLUMNS]
    body = [_row(r, t["no_slip"]) for r in card.rounds]
    table = Table([head, *body], colWidths=column_widths(COLUMNS, width), repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                *TABLE_STYLE,
                ("ALIGN", (0, 0), (-1, 0), "CENTER"),
                ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                ("ALIGN", (2, 1), (2, -1), "RIGHT"),
                ("FONT", (2, 1), (2, -1), BOLD, 8),
                ("ALIGN", (5, 1), (5, -1), "RIGHT"),
                ("ALIGN", (7, 1), (7, -1), "RIGHT"),
            ]
        )
    )
    return table


def _row(card_round: CardRound, no_slip: str) -> list:
    slip = (
        Paragraph(word_markup(clip(card_round.slip, 80)), CELL)
        if card_round.slip
        else Paragraph(no_slip, SMALL)
    )
    return [
        str(card_round.number),
        slip,
        str(card_round.paid),
        cell(card_round.sanction),
        cell(card_round.reason, limit=400),
        str(card_round.top),
        Paragraph(word_markup(clip(card_round.top_move, 40)), CELL),
        str(card_round.total),
    ]


def _summary(card: ScoreCard, width: float) -> Table:
    """The end of the game: paid scores, solos (§3.5), warnings and penalty (§3.4), total, rank (§4)."""
    lang = card.header.lang
    t = labels(lang)
    figures = [
        ("sum_paid", str(card.row.paid)),
        ("sum_solos", str(card.row.solos)),
        ("sum_solo_points", signed(card.solo_points)),
        ("sum_warnings", str(card.row.warnings)),
        ("sum_penalty", signed(-card.row.penalty)),
        ("sum_total", f"<b>{card.row.total}</b>"),
        ("sum_top", str(card.top)),
        ("sum_percent", percent(card.row.percent, lang)),
        ("sum_rank", f"<b>{card.row.rank}</b>"),
    ]
    head = [Paragraph(t[key], SUM_LABEL) for key, _ in figures]
    values = [Paragraph(value, SUM_VALUE) for _, value in figures]
    table = Table([head, values], colWidths=[width / len(figures)] * len(figures))
    table.setStyle(TableStyle([*TABLE_STYLE, ("BACKGROUND", (0, 0), (-1, 0), HEAD)]))
    return table
