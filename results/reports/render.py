"""The printed results of a game, each returned as ``(filename, mimetype, bytes)`` (pretix's renderers).

Fed with the plain values of ``results.reports.data``; nothing here reads the database.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from results.reports.cards import card_section
from results.reports.data import GameSheet, RankingSheet, ScoreCard, SheetHeader
from results.reports.game import game_section
from results.reports.layout import FONT, MARGIN, Progress, build_pdf
from results.reports.ranking import ranking_section
from results.reports.text import LABELS, labels, slug

PDF = "application/pdf"


def ranking_sheet(sheet: RankingSheet) -> tuple[str, str, bytes]:
    return _filename("file_ranking", sheet.header), PDF, build_pdf([ranking_section(sheet)])


def game_sheet(sheet: GameSheet) -> tuple[str, str, bytes]:
    return _filename("file_game", sheet.header), PDF, build_pdf([game_section(sheet)])


def score_cards(cards: Sequence[ScoreCard], progress: Progress | None = None) -> tuple[str, str, bytes]:
    """One card per page (a card with many long reasons runs on); ``progress(done, total)`` per card."""
    if not cards:
        return _empty()
    sections = [card_section(card) for card in cards]
    return _filename("file_cards", cards[0].header), PDF, build_pdf(sections, progress)


def bundle(
    ranking: RankingSheet,
    game: GameSheet,
    cards: Sequence[ScoreCard],
    progress: Progress | None = None,
) -> tuple[str, str, bytes]:
    """Everything for the "print everything" click: the ranking, the game sheet, then every card."""
    sections = [ranking_section(ranking), game_section(game), *(card_section(card) for card in cards)]
    return _filename("file_bundle", ranking.header), PDF, build_pdf(sections, progress)


def _filename(kind: str, header: SheetHeader) -> str:
    parts = [labels(header.lang)[kind], slug(header.tournament), slug(header.game)]
    return "-".join(part for part in parts if part) + ".pdf"


def _empty() -> tuple[str, str, bytes]:
    """No player, no card: a page that says so in both languages rather than an error."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    canvas.setFont(FONT, 10)
    canvas.drawString(MARGIN, A4[1] - MARGIN - 10, " / ".join(LABELS[lang]["no_card"] for lang in LABELS))
    canvas.showPage()
    canvas.save()
    return "fiches.pdf", PDF, buffer.getvalue()
