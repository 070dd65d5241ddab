"""A player's score card: their slip, what it was paid and why, beside the top, round by round (§3.4).

A card fills an A4 page, or is one of two A5 or four A6 cards cut from a sheet (``paper.CARD_PAPERS``):
a cut card prints the same figures in a narrower table, each sanction and its reason on a line of its
own under its round, the settings in small print, and nothing below 7 pt.  A game of 25 rounds fits on
an A6 card with eight of its rounds sanctioned and explained; a card that does not fit runs on to the
next card of the sheet, numbered ("page 2 / 2").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from results.reports.data import CardRound, ScoreCard
from results.reports.game import word_markup
from results.reports.layout import (
    BODY,
    BOLD,
    CELL,
    FONT,
    HEAD,
    RULE,
    SMALL,
    TABLE_STYLE,
    TITLE,
    ZEBRA,
    Section,
    cell,
    column_widths,
    header_block,
    header_fields,
)
from results.reports.paper import PORTRAIT, Paper
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


def card_section(card: ScoreCard, paper: Paper = PORTRAIT) -> Section:
    """The player's card on a whole page, or cut from a sheet of ``paper``."""
    lang = card.header.lang
    t = labels(lang)
    title = label_value(lang, t["score_card"]) + card.row.name
    if paper.cards > 1:
        return Section(card.header, title, _cut_card(card, paper), paper)
    width = PORTRAIT.width
    return Section(
        header=card.header,
        title=title,
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
    # A label does not end a line without its value, nor does a line start with a separator.
    glued = [(label_value(lang, k).rstrip() + "\u00a0", v) for k, v in parts if v]
    return "\u00a0· ".join(f"<b>{markup(k)}</b>{markup(v)}" for k, v in glued)


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


# -- a card cut from a sheet ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Type:
    """A cut card's type sizes: an A5 card keeps the A4 card's 8 pt, an A6 card goes down to 7 pt,
    the smallest text of every sheet (its footer's)."""

    text: float
    leading: float
    title: float
    name: float
    padding: float


TYPES = {2: _Type(text=8, leading=9.5, title=10, name=12, padding=1), 4: _Type(7, 7.5, 8, 10, 0.25)}
#: (label key, width in points at 7 pt, wider in proportion at 8 pt); slip and top move share the rest.
CUT_COLUMNS = (
    ("col_round", 14),
    ("col_slip", 0.5),
    ("col_paid_round", 22),
    ("col_top", 20),
    ("col_top_move", 0.5),
    ("col_running", 26),
)
SLIP, PAID, RUNNING = 1, 2, 5


@dataclass(frozen=True)
class _Styles:
    title: ParagraphStyle
    name: ParagraphStyle
    text: ParagraphStyle
    value: ParagraphStyle
    fine: ParagraphStyle


@functools.cache
def _styles(size: _Type) -> _Styles:
    text = CELL.clone("cut-text", fontSize=size.text, leading=size.leading)
    return _Styles(
        title=TITLE.clone("cut-title", fontSize=size.title, leading=size.title * 1.2, spaceAfter=1),
        name=TITLE.clone("cut-name", fontSize=size.name, leading=size.name * 1.2, spaceAfter=1),
        text=text,
        value=SUM_VALUE.clone("cut-value", fontSize=size.text + 1, leading=size.leading + 1),
        fine=SMALL.clone("cut-fine", fontSize=7, leading=8.2),
    )


def _cut_card(card: ScoreCard, paper: Paper) -> list:
    """A card too long for its slot is set again with its lines closer together (the type keeps its
    size); if it still does not fit, it runs on to the next card."""
    size = TYPES[paper.cards]
    flowables = _cut_flowables(card, paper.width, size)
    if _height(flowables, paper.width) > paper.height:
        flowables = _cut_flowables(card, paper.width, replace(size, leading=size.text + 0.2, padding=0))
    return flowables


def _height(flowables: list, width: float) -> float:
    return sum(f.wrap(width, 10_000)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in flowables)


def _cut_flowables(card: ScoreCard, width: float, size: _Type) -> list:
    """Name and figures first; the settings the game was played with, in small print, last."""
    styles = _styles(size)
    header = card.header
    t = labels(header.lang)
    heading = f"{clip(header.tournament, 160)} · {t['score_card']} — {clip(header.game, 80)}"
    return [
        Paragraph(markup(heading), styles.title),
        Paragraph(f"{markup(clip(card.row.name, 200))}{_small(_identity(card), size.text)}", styles.name),
        Spacer(0, 3),
        _cut_rounds(card, width, size, styles),
        Spacer(0, 4),
        _cut_summary(card, width, styles),
        Spacer(0, 3),
        Paragraph(_settings(card), styles.fine),
    ]


def _small(identity: str, size: float) -> str:
    """The player's table, club, series and category after their name, in the card's text size."""
    return f'&nbsp;&nbsp;<font name="{FONT}" size="{size}">{identity}</font>' if identity else ""


def _settings(card: ScoreCard) -> str:
    lang = card.header.lang
    fields = header_fields(card.header)
    return " · ".join(f"{markup(label_value(lang, k))}{markup(clip(v, 160))}" for k, v in fields)


def _cut_rounds(card: ScoreCard, width: float, size: _Type, styles: _Styles) -> Table:
    """One line per round; a sanction and its reason on a line under it, across the table."""
    t = labels(card.header.lang)
    columns = [(key, w if w < 1 else w * size.text / 7) for key, w in CUT_COLUMNS]
    rows: list[list] = [[t[key] for key, _ in CUT_COLUMNS]]
    widths = column_widths(columns, width)
    commands = _cut_table_style(size)
    for index, card_round in enumerate(card.rounds):
        first = len(rows)
        why = _why(card_round, styles) if card_round.sanction or card_round.reason else None
        # Without a slip its cell is free: a reason that fits there on one line saves a line.
        inline = why if why and not card_round.slip and _one_line(why, widths[SLIP] - 4) else None
        rows.append(_cut_row(card_round, inline, t["no_slip"], styles))
        if why and not inline:
            rows.append(["", why, "", "", "", ""])
            commands += [("SPAN", (0, first), (0, first + 1)), ("SPAN", (1, first + 1), (-1, first + 1))]
        if index % 2:
            commands.append(("BACKGROUND", (0, first), (-1, len(rows) - 1), ZEBRA))
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle(commands))
    return table


def _one_line(paragraph: Paragraph, width: float) -> bool:
    paragraph.wrap(width, 1000)
    return len(paragraph.blPara.lines) == 1


def _cut_table_style(size: _Type) -> list:
    return [
        ("FONT", (0, 0), (-1, -1), FONT, size.text),
        ("FONT", (0, 0), (-1, 0), BOLD, 7),
        ("FONT", (PAID, 1), (PAID, -1), BOLD, size.text),
        ("LEADING", (0, 0), (-1, -1), size.leading),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD),
        ("GRID", (0, 0), (-1, -1), 0.3, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), size.padding),
        ("BOTTOMPADDING", (0, 0), (-1, -1), size.padding + 0.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("ALIGN", (0, 0), (-1, 0), "CENTER"),
        ("ALIGN", (0, 1), (0, -1), "RIGHT"),
        ("ALIGN", (PAID, 1), (PAID + 1, -1), "RIGHT"),
        ("ALIGN", (RUNNING, 1), (RUNNING, -1), "RIGHT"),
    ]


def _cut_row(card_round: CardRound, why: Paragraph | None, no_slip: str, styles: _Styles) -> list:
    if card_round.slip:
        slip = Paragraph(word_markup(clip(card_round.slip, 80)), styles.text)
    else:
        slip = why or Paragraph(no_slip, SMALL)
    return [
        str(card_round.number),
        slip,
        str(card_round.paid),
        str(card_round.top),
        Paragraph(word_markup(clip(card_round.top_move, 40)), styles.text),
        str(card_round.total),
    ]


def _why(card_round: CardRound, styles: _Styles) -> Paragraph:
    parts = [f"<b>{markup(card_round.sanction)}</b>" if card_round.sanction else ""]
    parts.append(markup(clip(card_round.reason, 400)))
    return Paragraph(" — ".join(part for part in parts if part), styles.text)


def _cut_summary(card: ScoreCard, width: float, styles: _Styles) -> Table:
    """The end of the game in eight figures: the solos' points beside their number."""
    lang = card.header.lang
    t = labels(lang)
    solos = f"{card.row.solos} ({signed(card.solo_points)})" if card.solo_points else str(card.row.solos)
    figures = [
        ("col_paid", str(card.row.paid)),
        ("col_solos", solos),
        ("col_warnings", str(card.row.warnings)),
        ("col_penalty", signed(-card.row.penalty)),
        ("sum_total", f"<b>{card.row.total}</b>"),
        ("sum_top", str(card.top)),
        ("sum_percent", percent(card.row.percent, lang)),
        ("sum_rank", f"<b>{card.row.rank}</b>"),
    ]
    head = [Paragraph(t[key], SUM_LABEL) for key, _ in figures]
    values = [Paragraph(value, styles.value) for _, value in figures]
    table = Table([head, values], colWidths=[width / len(figures)] * len(figures))
    table.setStyle(
        TableStyle(
            [
                *TABLE_STYLE,
                ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                ("LEFTPADDING", (0, 0), (-1, -1), 1.5),
                ("RIGHTPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table
