"""The final board drawn as the 15×15 grid (rules §1.2), premium squares in the classic colours."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from reportlab.lib import colors
from reportlab.platypus import Flowable

from engine.alphabet import FRENCH
from engine.board import CELLS, CENTER, LETTER_MULT, SIZE, WORD_MULT
from results.reports.layout import BOLD, FONT
from results.reports.text import labels, pdf_text

TW = colors.HexColor("#d7322c")
DW = colors.HexColor("#f4b3bf")
TL = colors.HexColor("#2e6db4")
DL = colors.HexColor("#a9d3f0")
PLAIN = colors.HexColor("#f4f4ef")
TILE = colors.HexColor("#f3e2b3")
TILE_EDGE = colors.HexColor("#a08850")
BLANK_INK = colors.HexColor("#c0251d")
LINE = colors.HexColor("#8a8a8a")
KEY = ((TW, "tw_long"), (DW, "dw_long"), (TL, "tl_long"), (DL, "dl_long"), (colors.white, "blank_long"))

#: The French set's points by tile name: a board's values when its sheet names no other set.
FRENCH_VALUES = {name: FRENCH.values[code] for code, name in enumerate(FRENCH.names) if name and name != "?"}

#: (word multiplier, letter multiplier) → (fill, label key, label colour).
PREMIUMS = {
    (3, 1): (TW, "tw", colors.white),
    (2, 1): (DW, "dw", colors.black),
    (1, 3): (TL, "tl", colors.white),
    (1, 2): (DL, "dl", colors.black),
}


class BoardGrid(Flowable):
    """The board with its title above and its colour key below.

    ``cells``: 225 strings, "" empty, a tile's name in upper case ("A", "CH"), a blank's in lower case;
    rows A–O, columns 1–15.  ``values``: each tile's points by its name (the French set's by default).
    The squares take what room is left on the page, between ``smallest`` and ``largest`` points: a
    board that would be smaller goes to the next page, where it is drawn at full size.
    """

    TITLE, LEGEND = 20, 16

    def __init__(
        self,
        cells: Sequence[str],
        lang: str,
        smallest: float = 17,
        largest: float = 27,
        values: Mapping[str, int] | None = None,
    ):
        super().__init__()
        if len(cells) != CELLS:
            raise ValueError("a board has 225 cells")
        self.cells, self.lang, self.smallest, self.largest = cells, lang, smallest, largest
        self.values = values if values is not None else FRENCH_VALUES
        self.square = self.margin = self.width = 0.0

    def wrap(self, available_width, available_height):
        room = min(available_width, available_height - self.TITLE - self.LEGEND) / (SIZE + 0.8)
        self.square = max(self.smallest, min(self.largest, room))
        self.margin = self.square * 0.8
        self.width = available_width
        return available_width, self._side() + self.TITLE + self.LEGEND

    def _side(self) -> float:
        return self.margin + SIZE * self.square

    def draw(self):
        c, side = self.canv, self._side()
        c.setFont(BOLD, 11)
        c.setFillColor(colors.black)
        c.drawString(0, side + self.LEGEND + 8, labels(self.lang)["board"])
        self._legend()
        c.saveState()
        c.translate((self.width - side) / 2, self.LEGEND)
        self._labels()
        for index, letter in enumerate(self.cells):
            x, y = self._corner(index)
            self._premium(index, x, y)
            if letter:
                self._tile(letter, x, y)
        c.restoreState()

    def _legend(self):
        """The colour key, in one line across the page."""
        c, t = self.canv, labels(self.lang)
        step = self.width / len(KEY)
        for i, (fill, key) in enumerate(KEY):
            c.setFillColor(fill)
            c.setStrokeColor(BLANK_INK if key == "blank_long" else LINE)
            c.rect(i * step, 2, 9, 9, stroke=1, fill=1)
            c.setFillColor(BLANK_INK if key == "blank_long" else colors.black)
            c.setFont(FONT, 7)
            c.drawString(i * step + 13, 4, t[key])

    def _corner(self, index: int) -> tuple[float, float]:
        row, col = divmod(index, SIZE)
        return self.margin + col * self.square, (SIZE - 1 - row) * self.square

    def _labels(self):
        c, s = self.canv, self.square
        c.setFont(BOLD, s * 0.42)
        c.setFillColor(colors.black)
        top = SIZE * s + self.margin * 0.3
        for i in range(SIZE):
            c.drawCentredString(self.margin + (i + 0.5) * s, top, str(i + 1))
            c.drawCentredString(self.margin * 0.45, (SIZE - 1 - i + 0.32) * s, chr(65 + i))

    def _premium(self, index: int, x: float, y: float):
        c, s = self.canv, self.square
        fill, key, ink = PREMIUMS.get((WORD_MULT[index], LETTER_MULT[index]), (PLAIN, "", colors.black))
        c.setStrokeColor(LINE)
        c.setLineWidth(0.4)
        c.setFillColor(fill)
        c.rect(x, y, s, s, stroke=1, fill=1)
        if index == CENTER:
            self._star(x + s / 2, y + s / 2)
        elif key:
            c.setFillColor(ink)
            c.setFont(FONT, s * 0.3)
            c.drawCentredString(x + s / 2, y + s * 0.38, labels(self.lang)[key])

    def _star(self, cx: float, cy: float):
        c = self.canv
        points = list(_star_points(cx, cy, self.square * 0.32))
        path = c.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        c.setFillColor(colors.black)
        c.drawPath(path, stroke=0, fill=1)

    def _tile(self, letter: str, x: float, y: float):
        c, s, pad = self.canv, self.square, self.square * 0.06
        blank = letter.islower()
        c.setFillColor(colors.white if blank else TILE)
        c.setStrokeColor(BLANK_INK if blank else TILE_EDGE)
        c.setLineWidth(0.8 if blank else 0.6)
        c.roundRect(x + pad, y + pad, s - 2 * pad, s - 2 * pad, s * 0.12, stroke=1, fill=1)
        c.setFillColor(BLANK_INK if blank else colors.black)
        c.setFont(FONT if blank else BOLD, s * (0.56 if len(letter) == 1 else 0.38))
        c.drawCentredString(x + s * (0.5 if blank else 0.42), y + s * 0.28, pdf_text(letter))
        value = None if blank else self.values.get(letter)
        if value is not None:
            c.setFont(FONT, s * 0.24)
            c.drawRightString(x + s - pad * 2, y + pad * 2, str(value))


def _star_points(cx: float, cy: float, radius: float):
    """The ten corners of a five-pointed star (the centre square, H8)."""
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = math.radians(90 + 36 * k)
        yield cx + r * math.cos(angle), cy + r * math.sin(angle)
