"""The 15x15 board (rules §1.2): tiles on a flat 225-cell grid, the premium layout, the board as text.

The board holds tiles only; cross-checks and anything else the move generator
derives belong to ``movegen``.  Square ``index = row * 15 + col`` with rows
A..O = 0..14 and columns 1..15 = 0..14.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.alphabet import FRENCH, LetterSet, char

SIZE = 15
CELLS = SIZE * SIZE
CENTER = 7 * SIZE + 7
EMPTY = 0


def _squares(names: str) -> list[int]:
    return [(ord(n[0]) - 65) * SIZE + int(n[1:]) - 1 for n in names.split()]


_TW = _squares("A1 A8 A15 H1 H15 O1 O8 O15")
_DW = _squares("B2 C3 D4 E5 K11 L12 M13 N14 B14 C13 D12 E11 K5 L4 M3 N2 H8")
_TL = _squares("B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10")
_DL = _squares("A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12")


def _layout(pairs: Iterable[tuple[list[int], int]]) -> tuple[int, ...]:
    grid = [1] * CELLS
    for squares, mult in pairs:
        for sq in squares:
            grid[sq] = mult
    return tuple(grid)


#: ``LETTER_MULT[square]``: 1, 2 (DL) or 3 (TL).
LETTER_MULT = _layout([(_DL, 2), (_TL, 3)])
#: ``WORD_MULT[square]``: 1, 2 (DW, star) or 3 (TW).
WORD_MULT = _layout([(_DW, 2), (_TW, 3)])


def square(row: int, col: int) -> int:
    return row * SIZE + col


def square_name(sq: int) -> str:
    return f"{chr(65 + sq // SIZE)}{sq % SIZE + 1}"


class Board:
    """Tiles on the board; ``cells[sq]`` is ``EMPTY`` or a tile code (see ``alphabet``)."""

    __slots__ = ("cells",)

    def __init__(self, cells: Iterable[int] | None = None):
        self.cells = list(cells) if cells is not None else [EMPTY] * CELLS
        if len(self.cells) != CELLS:
            raise ValueError("a board has 225 cells")

    def copy(self) -> Board:
        return Board(self.cells)

    def is_empty(self) -> bool:
        return not any(self.cells)

    def place(self, tiles: Iterable[tuple[int, int]]) -> None:
        """Put ``(square, tile)`` pairs on the board (the squares must be empty)."""
        for sq, tile in tiles:
            if self.cells[sq]:
                raise ValueError(f"square {square_name(sq)} is already covered")
            self.cells[sq] = tile

    def tile_count(self) -> int:
        return sum(1 for c in self.cells if c)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def __repr__(self) -> str:
        return f"Board(\n{board_text(self)})"


def board_text(board: Board, letters: LetterSet = FRENCH) -> str:
    """Fifteen lines, row letter then cells: ``.`` empty, letters, blanks in lower case (a tile of
    several characters in brackets).

    Here rather than in ``notation`` (which re-exports it, next to ``parse_board``)
    so that ``Board.__repr__`` needs no import of a module that imports this one.
    """
    lines = ["   " + "".join(f"{c % 10}" for c in range(1, SIZE + 1))]
    for r in range(SIZE):
        row = board.cells[r * SIZE : (r + 1) * SIZE]
        lines.append(f"{chr(65 + r)}  " + "".join(_cell(t, letters) if t else "." for t in row))
    return "\n".join(lines)


def _cell(tile: int, letters: LetterSet) -> str:
    text = char(tile, letters)
    return f"[{text}]" if len(text) > 1 else text
