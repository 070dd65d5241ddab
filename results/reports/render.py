"""The printed results of a game, each returned as ``(filename, mimetype, bytes)`` (pretix's renderers).

Fed with the plain values of ``results.reports.data``; nothing here reads the database.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from results.reports.cards import card_section
from results.reports.data import GamePapers, GameSheet, RankingSheet, ScoreCard, SheetHeader
from results.reports.game import game_section
from results.reports.layout import FONT, Progress, Section, build_pdf
from results.reports.paper import CARD_PAPERS, MARGIN
from results.reports.ranking import ranking_section
from results.reports.text import LABELS, labels, slug

PDF = "application/pdf"


def ranking_sheet(sheet: RankingSheet) -> tuple[str, str, bytes]:
    return _filename("file_ranking", sheet.header), PDF, build_pdf([ranking_section(sheet)])


def game_sheet(sheet: GameSheet) -> tuple[str, str, bytes]:
    return _filename("file_game", sheet.header), PDF, build_pdf([game_section(sheet)])


def score_cards(
    cards: Sequence[ScoreCard], progress: Progress | None = None, per_page: int = 1
) -> tuple[str, str, bytes]:
    """One card per page (a card with many long reasons runs on), or ``per_page`` 2 or 4 cards cut from
    each sheet; ``progress(done, total)`` per card."""
    if not cards:
        return _empty()
    sections = _cards(cards, per_page)
    return _filename("file_cards", cards[0].header), PDF, build_pdf(sections, progress)


def bundle(
    ranking: RankingSheet,
    game: GameSheet,
    cards: Sequence[ScoreCard],
    progress: Progress | None = None,
    per_page: int = 1,
) -> tuple[str, str, bytes]:
    """Everything for the "print everything" click: the ranking, the game sheet, then every card."""
    sections = _game_papers(GamePapers(ranking, game, tuple(cards)), per_page)
    return _filename("file_bundle", ranking.header), PDF, build_pdf(sections, progress)


def evening(
    ranking: RankingSheet,
    games: Sequence[GamePapers],
    progress: Progress | None = None,
    per_page: int = 1,
) -> tuple[str, str, bytes]:
    """A whole evening in one go: the tournament's ranking, then each game's ranking, game sheet and
    cards, in the order of the games."""
    sections = [ranking_section(ranking), *(s for game in games for s in _game_papers(game, per_page))]
    return _filename("file_evening", ranking.header, game=False), PDF, build_pdf(sections, progress)


def _game_papers(game: GamePapers, per_page: int) -> list[Section]:
    return [ranking_section(game.ranking), game_section(game.game), *_cards(game.cards, per_page)]


def _cards(cards: Sequence[ScoreCard], per_page: int) -> list[Section]:
    """The cards' sections on the sheet for ``per_page`` cards (1, 2 or 4)."""
    if per_page not in CARD_PAPERS:
        raise ValueError(f"{per_page} cards per page: 1, 2 or 4")
    return [card_section(card, CARD_PAPERS[per_page]) for card in cards]


def _filename(kind: str, header: SheetHeader, *, game: bool = True) -> str:
    parts = [labels(header.lang)[kind], slug(header.tournament), slug(header.game) if game else ""]
    return "-".join(part for part in parts if part) + ".pdf"


def _empty() -> tuple[str, str, bytes]:
    """No player, no card: a page that says so in every language of the sheets rather than an error."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    canvas.setFont(FONT, 10)
    canvas.drawString(MARGIN, A4[1] - MARGIN - 10, " / ".join(LABELS[lang]["no_card"] for lang in LABELS))
    canvas.showPage()
    canvas.save()
    return "fiches.pdf", PDF, buffer.getvalue()
