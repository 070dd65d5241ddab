"""How a sheet of A4 is used: whole (portrait or landscape), or cut into two A5 or four A6 cards.

A sheet cut into cards has one frame per card, in reading order (left to right, then top to bottom).
Each card keeps an inner margin wide enough for a printer's unprintable edge and a footer line of its
own; dashed lines mark the cuts, which fall exactly on the A5 and A6 edges.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame

#: A whole page: its margin and the baseline of its footer.
MARGIN = 28
FOOTER_Y = 14
#: A card cut from the sheet: its margin (5 mm, a printer's unprintable edge), its bottom margin and
#: its footer's baseline.
CARD_MARGIN = 14
CARD_BOTTOM = 24
CARD_FOOTER_Y = 11
CUT = colors.HexColor("#b0b0b0")


@dataclass(frozen=True)
class Footer:
    """Where a frame's footer goes: the left text starts at ``left``, the page number ends at ``right``."""

    left: float
    right: float
    y: float


@dataclass(frozen=True)
class Paper:
    name: str
    size: tuple[float, float]
    columns: int = 1
    rows: int = 1

    @property
    def cards(self) -> int:
        """How many slots the sheet is cut into (1: a whole page)."""
        return self.columns * self.rows

    @property
    def _margins(self) -> tuple[float, float, float]:
        """(sides and top, bottom, footer baseline) of one slot."""
        if self.cards == 1:
            return MARGIN, MARGIN, FOOTER_Y
        return CARD_MARGIN, CARD_BOTTOM, CARD_FOOTER_Y

    @property
    def width(self) -> float:
        """The width a section lays its tables out in: one slot less its margins."""
        return self.size[0] / self.columns - 2 * self._margins[0]

    @property
    def height(self) -> float:
        """The height of one slot's frame: what a card must fit in not to run on."""
        side, bottom, _ = self._margins
        return self.size[1] / self.rows - side - bottom

    def frames(self) -> list[Frame]:
        """One frame per slot, in reading order, each knowing where its footer goes."""
        side, bottom, footer_y = self._margins
        slot_width, slot_height = self.size[0] / self.columns, self.size[1] / self.rows
        frames = []
        for row in range(self.rows):
            for column in range(self.columns):
                x, y = column * slot_width, self.size[1] - (row + 1) * slot_height
                frame = Frame(
                    x + side,
                    y + bottom,
                    self.width,
                    self.height,
                    leftPadding=0,
                    rightPadding=0,
                    topPadding=0,
                    bottomPadding=0,
                    id=f"{self.name}-{len(frames)}",
                )
                frame.footer = Footer(x + side, x + slot_width - side, y + footer_y)
                frames.append(frame)
        return frames

    def draw_cuts(self, canvas: Canvas, _doc=None) -> None:
        """Dashed lines where the sheet is cut, from edge to edge."""
        if self.cards == 1:
            return
        width, height = self.size
        canvas.saveState()
        canvas.setStrokeColor(CUT)
        canvas.setLineWidth(0.4)
        canvas.setDash(3, 3)
        for column in range(1, self.columns):
            x = column * width / self.columns
            canvas.line(x, 0, x, height)
        for row in range(1, self.rows):
            y = row * height / self.rows
            canvas.line(0, y, width, y)
        canvas.restoreState()


PORTRAIT = Paper("portrait", A4)
LANDSCAPE = Paper("landscape", landscape(A4))
#: Two A5 cards side by side on a landscape sheet: each card upright, as tall as the A4 card is wide.
HALVES = Paper("halves", landscape(A4), columns=2)
#: Four A6 cards, two by two on an upright sheet.
QUARTERS = Paper("quarters", A4, columns=2, rows=2)
#: The sheet for 1, 2 or 4 score cards per page.
CARD_PAPERS = {1: PORTRAIT, 2: HALVES, 4: QUARTERS}
