"""Slots and their score bounds: listing every slot of a position before any word is looked at.

A slot is a stretch of one line a word could exactly fill (see the package
docstring); its bound is worked out from the rack and the squares' premiums
alone, without touching the lexicon.
"""

from __future__ import annotations

from bisect import insort
from operator import mul
from typing import NamedTuple

from engine.alphabet import BLANK, BLANK_FLAG, LetterSet
from engine.board import CENTER, LETTER_MULT, SIZE, WORD_MULT
from engine.movegen.crosschecks import LINES, CrossChecks
from engine.movegen.position import Position
from engine.scoring import BINGO_BONUS as BINGO


class Slot(NamedTuple):
    """A slot with its bound, and what the search needs of it: its empty squares and their weights."""

    bound: int
    horizontal: bool
    line: int
    start: int
    end: int
    const: int
    empties: tuple[int, ...]  # positions in the line of the empty squares
    weights: tuple[int, ...]


def rack_counts(rack) -> tuple[list[int], int]:
    counts = [0] * BLANK_FLAG
    for c in rack:
        counts[c] += 1
    return counts, counts[BLANK]


class RackBounds:
    """What the bounds need of a rack: its values best first, and per letter mask its best value."""

    __slots__ = ("_present", "_values", "cap", "size", "tile_values", "usable", "values")

    def __init__(self, rack, counts, blanks, letters: LetterSet):
        values = letters.values
        self.size = len(rack)
        self.values = sorted((values[c] for c in rack), reverse=True)
        self.usable = letters.all_letters if blanks else sum(1 << c for c in letters.letters if counts[c])
        present = sorted({c for c in rack if c != BLANK}, key=values.__getitem__, reverse=True)
        self.cap = {}
        self._present = present
        self._values = values
        self.tile_values = letters.tile_values

    def best_value(self, mask: int) -> int:
        """The best value a rack tile can have on a square allowing ``mask`` (a blank is 0)."""
        cap = self.cap.get(mask)
        if cap is None:
            cap = next((self._values[c] for c in self._present if mask >> c & 1), 0)
            self.cap[mask] = cap
        return cap


def list_slots(position: Position, checks: dict[bool, CrossChecks], rack: RackBounds) -> list[tuple]:
    """Every slot of the position with its score bound."""
    cells = position.board.cells
    first = position.is_first_move
    limits = (min(rack.size, position.played_max), position.bingo_size)
    slots: list[tuple] = []
    if first:
        directions = ((True, (CENTER // SIZE,)),)
    else:
        directions = ((True, range(SIZE)), (False, range(SIZE)))
    for horizontal, lines in directions:
        check = checks[horizontal]
        for line in lines:
            _line_slots(slots, cells, LINES[horizontal][line], horizontal, line, check, rack, first, limits)
    return slots


def _line_slots(slots, cells, squares, horizontal, line, check, rack: RackBounds, first, limits) -> None:
    """The slots of one line, as ``(bound, horizontal, line, start, end, const)``; ``limits``: the
    most empty squares a slot may hold (the rack's size, at most the tiles a move may place) and
    how many earn the bonus.

    Two bounds, both valid, the lower kept: the rack's values paired best with
    best against the squares' weights, and each square's weight times the best
    value its cross-check lets a rack tile have.  Without a word premium in the
    slot (the common case) both are kept up to date square by square.
    """
    tiles = [cells[sq] for sq in squares]
    mask, has, cscore = check.mask, check.has, check.score
    if not first and not any(tiles) and not any(has[sq] for sq in squares):
        return
    usable, values, tile_value = rack.usable, rack.values, rack.tile_values
    n, bingo = limits
    top_value = values[0]
    best_value = rack.best_value
    append = slots.append
    for s in range(SIZE):
        if s and tiles[s - 1]:
            continue
        k = 0
        wm = 1
        fixed = 0
        cross = 0
        connected = False
        lms: list[int] = []
        xws: list[int] = []
        caps: list[int] = []
        negated: list[int] = []  # -weight of each empty square, sorted, while wm == 1
        capped = 0
        for e in range(s, SIZE):
            t = tiles[e]
            if t:
                fixed += tile_value[t]
                connected = True
            else:
                sq = squares[e]
                m = mask[sq]
                if not m & usable:
                    break
                k += 1
                if k > n:
                    break
                w = WORD_MULT[sq]
                wm *= w
                lm = LETTER_MULT[sq]
                if has[sq]:
                    connected = True
                    cross += cscore[sq] * w
                    x = w
                    cap = best_value(m)
                else:
                    x = 0
                    cap = top_value
                if first and sq == CENTER:
                    connected = True
                lms.append(lm)
                xws.append(x)
                caps.append(cap)
                weight = lm * (1 + x)
                insort(negated, -weight)
                capped += weight * cap
            if k and e > s and connected and (e == SIZE - 1 or not tiles[e + 1]):
                const = fixed * wm + cross + (BINGO if k == bingo else 0)
                if wm == 1:
                    paired = -sum(map(mul, negated, values))
                    bound = const + (paired if paired < capped else capped)
                else:
                    weights = [lm * (wm + x) for lm, x in zip(lms, xws)]
                    paired = sum(map(mul, sorted(weights, reverse=True), values))
                    cap_sum = sum(map(mul, weights, caps))
                    bound = const + (paired if paired < cap_sum else cap_sum)
                append((bound, horizontal, line, s, e, const))


def expand(cells, check: CrossChecks, raw) -> Slot:
    """The details the search needs of a listed slot: its empty squares and their weights."""
    bound, horizontal, line, start, end, const = raw
    squares = LINES[horizontal][line]
    empties = tuple(i for i in range(start, end + 1) if not cells[squares[i]])
    wm = 1
    for i in empties:
        wm *= WORD_MULT[squares[i]]
    has = check.has
    weights = tuple(
        LETTER_MULT[sq] * (wm + (WORD_MULT[sq] if has[sq] else 0)) for sq in (squares[i] for i in empties)
    )
    return Slot(bound, horizontal, line, start, end, const, empties, weights)


def prepare(position: Position) -> tuple[dict[bool, CrossChecks], RackBounds, list[int], int, list[tuple]]:
    """Cross-checks for each direction searched, the rack (as bound data and as counts), and every
    slot listed."""
    cells = position.board.cells
    checks = {True: CrossChecks(cells, position.lexicon, True)}
    if not position.is_first_move:
        checks[False] = CrossChecks(cells, position.lexicon, False)
    counts, blanks = rack_counts(position.rack)
    rack = RackBounds(position.rack, counts, blanks, position.lexicon.letters)
    return checks, rack, counts, blanks, list_slots(position, checks, rack)
