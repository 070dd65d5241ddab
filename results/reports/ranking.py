"""The ranking sheet (rules §4): A4 landscape, so that every column fits at a legible size."""

from __future__ import annotations

from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from engine.ranking import Base, Row
from results.reports.data import RankingSheet
from results.reports.layout import (
    BODY,
    BOLD,
    FONT,
    TABLE_STYLE,
    Section,
    cell,
    column_widths,
    header_block,
)
from results.reports.paper import LANDSCAPE
from results.reports.text import fit, labels, markup, percent, signed

#: (label key, width in points); the name and club columns share what is left of the page.
COLUMNS = (
    ("col_rank", 24),
    ("col_series_rank", 30),
    ("col_category_rank", 28),
    ("col_table", 28),
    ("col_name", 0.57),
    ("col_club", 0.43),
    ("col_series", 30),
    ("col_category", 52),
    ("col_paid", 34),
    ("col_solos", 28),
    ("col_penalty", 32),
    ("col_total", 34),
    ("col_negatif", 38),
    ("col_percent", 34),
    ("col_percent_total", 32),
    ("col_percent_paid", 34),
    ("col_warnings", 30),
)
#: Scores + solos − penalty = total on every line (§4): the solos and the penalty print as points.
NAME, CLUB, SERIES, PAID, TOTAL, PERCENT = 4, 5, 6, 8, 11, 13


def ranking_section(sheet: RankingSheet) -> Section:
    header = sheet.header
    t = labels(header.lang)
    width = LANDSCAPE.width
    extra = [(t["top"], str(sheet.top)), (t["players"], str(len(sheet.rows)))]
    return Section(
        header=header,
        title=t["ranking"],
        paper=LANDSCAPE,
        flowables=[
            *header_block(header, t["ranking"], width, extra),
            _table(sheet, width),
            Spacer(0, 8),
            _solos(sheet),
        ],
    )


def _table(sheet: RankingSheet, width: float) -> Table:
    t = labels(sheet.header.lang)
    head = [t[key] for key, _ in COLUMNS]
    body = [_row(row, sheet.header.lang) for row in sheet.rows]
    table = Table([head, *body], colWidths=column_widths(COLUMNS, width), repeatRows=1)
    # The figure the ranking is on (§4) is the bold one: the paid scores on "scores seuls".
    main = PAID if sheet.rows and sheet.rows[0].base is Base.PAID else TOTAL
    table.setStyle(
        TableStyle(
            [
                *TABLE_STYLE,
                ("ALIGN", (0, 0), (-1, 0), "CENTER"),
                ("ALIGN", (0, 1), (3, -1), "RIGHT"),
                ("ALIGN", (SERIES, 1), (SERIES, -1), "CENTER"),
                ("ALIGN", (PAID, 1), (-1, -1), "RIGHT"),
                ("FONT", (main, 1), (main, -1), BOLD, 8),
                ("FONT", (PERCENT, 1), (PERCENT, -1), BOLD, 8),
            ]
        )
    )
    return table


def _row(row: Row, lang: str) -> list:
    return [
        str(row.rank),
        _blank_zero(row.series_rank),
        _blank_zero(row.category_rank),
        str(row.table),
        cell(row.name),
        cell(row.club),
        fit(row.series, FONT, 8, 24),
        cell(row.category),
        str(row.paid),
        signed(row.solo_points) if row.solo_points else "",
        signed(-row.penalty) if row.penalty else "",
        str(row.total),
        signed(row.negatif),
        percent(row.percent, lang),
        percent(row.percent_total, lang),
        percent(row.percent_paid, lang),
        _blank_zero(row.warnings),
    ]


def _blank_zero(value: int) -> str:
    return str(value) if value else ""


def _solos(sheet: RankingSheet) -> Paragraph:
    """The solos announced at the end of the game (§3.5)."""
    lang = sheet.header.lang
    t = labels(lang)
    if not sheet.solos:
        return Paragraph(f"<b>{t['solos']}</b> — {t['no_solo']}", BODY)
    items = [t["solo_item"].format(round=number, name=markup(name)) for number, name in sheet.solos]
    separator = " ; " if lang == "fr" else "; "
    return Paragraph(f"<b>{t['solos']}</b> — {separator.join(items)}.", BODY)
