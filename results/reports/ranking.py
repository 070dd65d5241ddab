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
#: A merged ranking (§5) adds each row's centre after the table number: tables are each centre's own.
CENTRE = ("col_centre", 0.3)


def _columns(sheet: RankingSheet) -> tuple[tuple[str, float], ...]:
    """The sheet's columns; with a centre column, the name, club and centre share what is left."""
    if not sheet.centres:
        return COLUMNS
    shares = {"col_name": 0.4, "col_club": 0.3}
    columns = [(key, shares.get(key, width)) for key, width in COLUMNS]
    return (*columns[:NAME], CENTRE, *columns[NAME:])


def _shift(sheet: RankingSheet, index: int) -> int:
    """A column's index once the centre column (before the name) is in."""
    return index + 1 if sheet.centres and index >= NAME else index


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
    columns = _columns(sheet)
    head = [t[key] for key, _ in columns]
    body = [_row(row, sheet.header.lang) for row in sheet.rows]
    if sheet.centres:
        body = [[*cells[:NAME], cell(centre), *cells[NAME:]] for cells, centre in zip(body, sheet.centres)]
    table = Table([head, *body], colWidths=column_widths(columns, width), repeatRows=1)
    # The figure the ranking is on (§4) is the bold one: the paid scores on "scores seuls".
    main = _shift(sheet, PAID if sheet.rows and sheet.rows[0].base is Base.PAID else TOTAL)
    series, paid, percent = (_shift(sheet, index) for index in (SERIES, PAID, PERCENT))
    table.setStyle(
        TableStyle(
            [
                *TABLE_STYLE,
                ("ALIGN", (0, 0), (-1, 0), "CENTER"),
                ("ALIGN", (0, 1), (3, -1), "RIGHT"),
                ("ALIGN", (series, 1), (series, -1), "CENTER"),
                ("ALIGN", (paid, 1), (-1, -1), "RIGHT"),
                ("FONT", (main, 1), (main, -1), BOLD, 8),
                ("FONT", (percent, 1), (percent, -1), BOLD, 8),
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
    """The solos announced at the end of the game (§3.5); on a ranking of several games, each named
    with its game."""
    lang = sheet.header.lang
    t = labels(lang)
    if not sheet.solos and not sheet.game_solos:
        return Paragraph(f"<b>{t['solos']}</b> — {t['no_solo']}", BODY)
    items = [t["solo_item"].format(round=number, name=markup(name)) for number, name in sheet.solos]
    items += [
        t["game_solo_item"].format(game=game, round=number, name=markup(name))
        for game, number, name in sheet.game_solos
    ]
    separator = " ; " if lang == "fr" else "; "
    return Paragraph(f"<b>{t['solos']}</b> — {separator.join(items)}.", BODY)
