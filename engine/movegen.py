"""The top search: every legal move reaching the best score of a position (rules §2, §3.3.4).

The search works on *slots*: a stretch of one line, from a first to a last
square, that a word could exactly fill (the squares just outside it are empty
or off the board), holding 1 to 7 empty squares and touching the tiles already
placed.  Once a slot is fixed, which premiums count is fixed too, so every
move in it scores

    const + sum(value(letter on empty square j) * weight[j])

with ``weight[j] = letter_premium * (word_multiplier + cross_word_multiplier)``.
Pairing the rack's best values with the best weights bounds the slot's score
without touching the lexicon; slots are searched in decreasing bound order and
the search stops when a bound falls below the best score found.  Bounds equal
to the best are still searched: every tied move must be found.

Inside a slot the DAWG is walked square by square; a node's ``lengths`` bit
set drops branches that cannot end exactly at the slot's last square.  Blanks
are settled when a word is complete: a letter needed more often than the rack
holds it takes blanks on its lightest squares, which gives the word's exact
best score (a greedy choice while walking could under-score it), and every
equally good choice of squares is a distinct tied move.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

from engine.alphabet import ALL_LETTERS, BLANK, BLANK_FLAG, LETTER_MASK, RACK_SIZE, VALUES
from engine.board import CENTER, LETTER_MULT, SIZE, WORD_MULT, Board
from engine.lexicon import Lexicon
from engine.notation import Ref, format_word
from engine.play import Play

BINGO = 50
_TILE_VALUE = tuple(0 if t & BLANK_FLAG or not 1 <= t <= 26 else VALUES[t] for t in range(64))

#: ``_LINES[horizontal][line]``: the squares of a row (horizontal) or column, in reading order.
_LINES = (
    tuple(tuple(i * SIZE + line for i in range(SIZE)) for line in range(SIZE)),
    tuple(tuple(line * SIZE + i for i in range(SIZE)) for line in range(SIZE)),
)


@dataclass(frozen=True, slots=True)
class Position:
    """Everything the search needs, in one value: no module state."""

    board: Board
    rack: tuple[int, ...]
    lexicon: Lexicon
    #: The first move of a game: through H8, horizontal (§3.3.4).  None: the board is empty.
    first_move: bool | None = None

    @property
    def is_first_move(self) -> bool:
        return self.board.is_empty() if self.first_move is None else self.first_move


@dataclass(frozen=True, slots=True)
class Tops:
    """The best score and every distinct placement reaching it (empty when no move exists)."""

    score: int
    plays: tuple[Play, ...]


class CrossChecks:
    """For one move direction: what each empty square allows in the perpendicular word.

    ``mask[sq]``: letters that make a valid cross word (``ALL_LETTERS`` where no
    cross word forms); ``score[sq]``: the face value of the tiles of that cross
    word; ``has[sq]``: whether a cross word forms at all.
    """

    __slots__ = ("has", "mask", "score")

    def __init__(self, cells: list[int], lexicon: Lexicon, horizontal: bool):
        dawg = lexicon.dawg
        children, lengths = dawg.children, dawg.lengths
        self.mask = mask = [ALL_LETTERS] * (SIZE * SIZE)
        self.score = score = [0] * (SIZE * SIZE)
        self.has = has = [False] * (SIZE * SIZE)
        # A horizontal move's cross words run down the columns, and vice versa.
        for line in _LINES[0] if horizontal else _LINES[1]:
            for i, sq in enumerate(line):
                if cells[sq]:
                    continue
                before = i > 0 and cells[line[i - 1]]
                after = i < SIZE - 1 and cells[line[i + 1]]
                if not (before or after):
                    continue
                start = i
                while start > 0 and cells[line[start - 1]]:
                    start -= 1
                end = i
                while end < SIZE - 1 and cells[line[end + 1]]:
                    end += 1
                prefix = [cells[line[k]] for k in range(start, i)]
                suffix = [cells[line[k]] for k in range(i + 1, end + 1)]
                has[sq] = True
                score[sq] = sum(_TILE_VALUE[t] for t in prefix) + sum(_TILE_VALUE[t] for t in suffix)
                mask[sq] = _cross_mask(children, lengths, dawg.root, prefix, suffix)


def _cross_mask(children, lengths, root, prefix, suffix) -> int:
    node = root
    for t in prefix:
        node = children[node].get(t & LETTER_MASK)
        if node is None:
            return 0
    bits = 0
    tail = len(suffix)
    for letter, child in children[node].items():
        if not lengths[child] >> tail & 1:
            continue
        n = child
        for t in suffix:
            n = children[n].get(t & LETTER_MASK)
            if n is None:
                break
        else:
            if lengths[n] & 1:
                bits |= 1 << letter
    return bits


@dataclass(slots=True)
class _Slot:
    bound: int
    horizontal: bool
    line: int
    start: int
    end: int
    const: int
    empties: list[int]  # positions in the line of the empty squares
    weights: list[int]


def _rack_counts(rack) -> tuple[list[int], int]:
    counts = [0] * 28
    for c in rack:
        counts[c] += 1
    return counts, counts[BLANK]


def _slots(position: Position, checks: dict[bool, CrossChecks], counts, blanks) -> list[_Slot]:
    """Every slot of the position with its score bound."""
    cells = position.board.cells
    n = len(position.rack)
    usable = ALL_LETTERS if blanks else sum(1 << c for c in range(1, 27) if counts[c])
    values = sorted((VALUES[c] for c in position.rack), reverse=True)
    slots: list[_Slot] = []
    if position.is_first_move:
        directions = ((True, (CENTER // SIZE,)),)
    else:
        directions = ((True, range(SIZE)), (False, range(SIZE)))
    for horizontal, lines in directions:
        check = checks[horizontal]
        for line in lines:
            _line_slots(
                slots, cells, _LINES[horizontal][line], horizontal, line, check, usable, n, values,
                position.is_first_move,
            )
    return slots


def _line_slots(slots, cells, squares, horizontal, line, check, usable, n, values, first) -> None:
    tiles = [cells[sq] for sq in squares]
    mask, has, cscore = check.mask, check.has, check.score
    if not first and not any(tiles) and not any(has[sq] for sq in squares):
        return
    for s in range(SIZE):
        if s and tiles[s - 1]:
            continue
        k = 0
        wm = 1
        fixed = 0
        cross = 0
        connected = False
        empties: list[int] = []
        for e in range(s, SIZE):
            t = tiles[e]
            if t:
                fixed += _TILE_VALUE[t]
                connected = True
            else:
                sq = squares[e]
                if not mask[sq] & usable:
                    break
                k += 1
                if k > n:
                    break
                wm *= WORD_MULT[sq]
                if has[sq]:
                    connected = True
                    cross += cscore[sq] * WORD_MULT[sq]
                if first and sq == CENTER:
                    connected = True
                empties.append(e)
            if k and e > s and connected and (e == SIZE - 1 or not tiles[e + 1]):
                weights = [
                    LETTER_MULT[squares[p]] * (wm + (WORD_MULT[squares[p]] if has[squares[p]] else 0))
                    for p in empties
                ]
                const = fixed * wm + cross + (BINGO if k == RACK_SIZE else 0)
                best = sorted(weights, reverse=True)
                bound = const + sum(w * v for w, v in zip(best, values))
                slots.append(_Slot(bound, horizontal, line, s, e, const, list(empties), weights))


def find_tops(position: Position) -> Tops:
    """Every distinct legal move reaching the best score (§3.3.4); one-tile moves counted once."""
    cells = position.board.cells
    lexicon = position.lexicon
    checks = {True: CrossChecks(cells, lexicon, True)}
    if not position.is_first_move:
        checks[False] = CrossChecks(cells, lexicon, False)
    counts, blanks = _rack_counts(position.rack)
    slots = _slots(position, checks, counts, blanks)
    slots.sort(key=lambda slot: slot.bound, reverse=True)
    search = _SlotSearch(position, checks, counts, blanks)
    for slot in slots:
        if slot.bound < search.best:
            break
        search.run(slot)
    return Tops(max(search.best, 0), tuple(search.plays))


class _SlotSearch:
    """The DAWG walk inside one slot, sharing the best score found so far across slots."""

    def __init__(self, position: Position, checks, counts, blanks):
        self.cells = position.board.cells
        self.dawg = position.lexicon.dawg
        self.checks = checks
        self.counts = counts
        self.original = list(counts)
        self.blanks = blanks
        self.max_value = max((VALUES[c] for c in position.rack), default=0)
        self.best = -1
        self.plays: list[Play] = []
        self.keys: set = set()

    def run(self, slot: _Slot) -> None:
        squares = _LINES[slot.horizontal][slot.line]
        cells = self.cells
        children = self.dawg.children
        lengths = self.dawg.lengths
        counts = self.counts
        original = self.original
        mask = self.checks[slot.horizontal].mask
        start, end = slot.start, slot.end + 1
        tiles = [cells[squares[i]] for i in range(start, end)]
        masks = [mask[squares[p]] for p in slot.empties]
        weights = slot.weights
        rest = [0] * (len(weights) + 1)
        for j in range(len(weights) - 1, -1, -1):
            rest[j] = rest[j + 1] + weights[j] * self.max_value
        const = slot.const
        placed = [0] * len(weights)
        blanks = [self.blanks]
        length = end - start

        def walk(i: int, node: int, ub: int, j: int) -> None:
            if i == length:
                self._complete(slot, squares, placed, const + ub)
                return
            t = tiles[i]
            rem = length - 1 - i
            if t:
                child = children[node].get(t & LETTER_MASK)
                if child is not None and lengths[child] >> rem & 1:
                    walk(i + 1, child, ub, j)
                return
            if const + ub + rest[j] < self.best:
                return
            m = masks[j]
            w = weights[j]
            for letter, child in children[node].items():
                if not (m >> letter & 1 and lengths[child] >> rem & 1):
                    continue
                placed[j] = letter
                if counts[letter]:
                    counts[letter] -= 1
                    walk(i + 1, child, ub + VALUES[letter] * w, j + 1)
                    counts[letter] += 1
                elif blanks[0]:
                    # Counted as a real tile if the rack has that letter at all: the
                    # exact blank squares are settled when the word is complete.
                    blanks[0] -= 1
                    walk(i + 1, child, ub + (VALUES[letter] * w if original[letter] else 0), j + 1)
                    blanks[0] += 1

        node = self.dawg.root
        if lengths[node] >> length & 1:
            walk(0, node, 0, 0)

    def _complete(self, slot: _Slot, squares, placed, upper: int) -> None:
        if upper < self.best:
            return
        options = self._blank_options(placed, slot.weights)
        score = upper - options[0]
        if score < self.best:
            return
        if score > self.best:
            self.best = score
            self.plays.clear()
            self.keys.clear()
        for blank_positions in options[1]:
            play = self._play(slot, squares, placed, blank_positions, score)
            if len(play.tiles) == 1:
                if play.key in self.keys:
                    continue
                self.keys.add(play.key)
            self.plays.append(play)

    def _blank_options(self, placed, weights) -> tuple[int, list[frozenset]]:
        """The least score a word's blanks must cost, and every set of squares achieving it.

        A letter used ``n`` times with ``r`` real tiles needs ``n - r`` blanks; putting
        them on its lightest squares loses the least.  Letters the rack lacks entirely
        were never counted, so they cost nothing more.
        """
        original = self.original
        need: dict[int, list[int]] = {}
        for j, letter in enumerate(placed):
            need.setdefault(letter, []).append(j)
        loss = 0
        choices = []
        for letter, positions in need.items():
            missing = len(positions) - original[letter]
            if missing <= 0:
                continue
            if original[letter] == 0:
                choices.append([tuple(positions)])
                continue
            value = VALUES[letter]
            best = None
            group = []
            for combo in combinations(positions, missing):
                cost = sum(weights[j] for j in combo) * value
                if best is None or cost < best:
                    best, group = cost, [combo]
                elif cost == best:
                    group.append(combo)
            loss += best
            choices.append(group)
        if not choices:
            return 0, [frozenset()]
        return loss, [frozenset(j for part in pick for j in part) for pick in product(*choices)]

    def _play(self, slot: _Slot, squares, placed, blank_positions, score: int) -> Play:
        new = {}
        for j, p in enumerate(slot.empties):
            letter = placed[j]
            new[squares[p]] = letter | BLANK_FLAG if j in blank_positions else letter
        word = [new.get(squares[i]) or self.cells[squares[i]] for i in range(slot.start, slot.end + 1)]
        first = squares[slot.start]
        ref = Ref(first // SIZE, first % SIZE, slot.horizontal)
        return Play(ref, format_word(word), tuple(new.items()), score)
