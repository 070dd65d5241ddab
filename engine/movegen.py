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

from bisect import insort
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from operator import itemgetter, mul
from typing import NamedTuple

from engine.alphabet import ALL_LETTERS, BLANK, BLANK_FLAG, LETTER_MASK, RACK_SIZE, VALUES
from engine.board import CENTER, LETTER_MULT, SIZE, WORD_MULT, Board
from engine.lexicon import PRIMES, Lexicon
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

    What a square allows depends only on the line its cross word lies in, so
    each line's result is remembered per lexicon, keyed by the line's tiles:
    from one round to the next only the lines the last top touched are worked
    out again.
    """

    __slots__ = ("has", "mask", "score")

    def __init__(self, cells: list[int], lexicon: Lexicon, horizontal: bool):
        self.mask = mask = [ALL_LETTERS] * (SIZE * SIZE)
        self.score = score = [0] * (SIZE * SIZE)
        self.has = has = [False] * (SIZE * SIZE)
        memo = lexicon.memo("cross_checks")
        # A horizontal move's cross words run down the columns, and vice versa.
        for index, line in enumerate(_LINES[0] if horizontal else _LINES[1]):
            tiles = tuple(cells[sq] for sq in line)
            if not any(tiles):
                continue
            found = memo.get(tiles)
            if found is None:
                found = memo.put(tiles, _line_cross_checks(tiles, lexicon.dawg))
            cut = slice(index, None, SIZE) if horizontal else slice(index * SIZE, (index + 1) * SIZE)
            mask[cut], score[cut], has[cut] = found


def _line_cross_checks(tiles: tuple[int, ...], dawg) -> tuple[list[int], list[int], list[bool]]:
    """Masks, scores and flags for the squares of one line, from the words across it."""
    children, lengths = dawg.children, dawg.lengths
    mask = [ALL_LETTERS] * SIZE
    score = [0] * SIZE
    has = [False] * SIZE
    for i in range(SIZE):
        if tiles[i]:
            continue
        before = i > 0 and tiles[i - 1]
        after = i < SIZE - 1 and tiles[i + 1]
        if not (before or after):
            continue
        start = i
        while start > 0 and tiles[start - 1]:
            start -= 1
        end = i
        while end < SIZE - 1 and tiles[end + 1]:
            end += 1
        prefix = tiles[start:i]
        suffix = tiles[i + 1 : end + 1]
        has[i] = True
        score[i] = sum(_TILE_VALUE[t] for t in prefix) + sum(_TILE_VALUE[t] for t in suffix)
        mask[i] = _cross_mask(children, lengths, dawg.root, prefix, suffix)
    return mask, score, has


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


class _Slot(NamedTuple):
    bound: int
    horizontal: bool
    line: int
    start: int
    end: int
    const: int
    empties: tuple[int, ...]  # positions in the line of the empty squares
    weights: tuple[int, ...]


def _rack_counts(rack) -> tuple[list[int], int]:
    counts = [0] * 28
    for c in rack:
        counts[c] += 1
    return counts, counts[BLANK]


class _Rack:
    """What the bounds need of a rack: its values best first, and per letter mask its best value."""

    __slots__ = ("_present", "cap", "size", "usable", "values")

    def __init__(self, rack, counts, blanks):
        self.size = len(rack)
        self.values = sorted((VALUES[c] for c in rack), reverse=True)
        self.usable = ALL_LETTERS if blanks else sum(1 << c for c in range(1, 27) if counts[c])
        present = sorted({c for c in rack if c != BLANK}, key=VALUES.__getitem__, reverse=True)
        self.cap = {}
        self._present = present

    def best_value(self, mask: int) -> int:
        """The best value a rack tile can have on a square allowing ``mask`` (a blank is 0)."""
        cap = self.cap.get(mask)
        if cap is None:
            cap = next((VALUES[c] for c in self._present if mask >> c & 1), 0)
            self.cap[mask] = cap
        return cap


#: Above this many rack sub-multisets for a slot size, walking the DAWG beats looking anagrams up.
ANAGRAM_LIMIT = 1000


def _subset_keys(rack, counts, blanks) -> list[list[int] | None]:
    """``keys[k]``: the anagram keys of every multiset of ``k`` tiles the rack can lay, or None
    when there are too many for lookups to pay.

    A blank stands for a letter only where no real tile of that letter is left
    over: the real tile would score more, so that multiset is never the top,
    and this way every word comes from exactly one multiset.
    """
    real = sorted(c for c in rack if c != BLANK)
    parts: dict[int, set] = {}
    for k in range(len(real) + 1):
        parts[k] = {tuple(combo) for combo in combinations(real, k)}
    keys: list[list[int] | None] = [None] * (len(rack) + 1)
    for k in range(1, len(rack) + 1):
        estimate = sum(len(parts.get(k - b, ())) * 26**b for b in range(min(blanks, k) + 1))
        if estimate > ANAGRAM_LIMIT:
            continue
        found = []
        for b in range(min(blanks, k) + 1):
            for part in parts.get(k - b, ()):
                key = 1
                for c in part:
                    key *= PRIMES[c]
                if not b:
                    found.append(key)
                    continue
                spare = [c for c in range(1, 27) if counts[c] == part.count(c)]
                for extra in combinations_with_replacement(spare, b):
                    k2 = key
                    for c in extra:
                        k2 *= PRIMES[c]
                    found.append(k2)
        keys[k] = found
    return keys


def _slots(position: Position, checks: dict[bool, CrossChecks], rack: _Rack) -> list[tuple]:
    """Every slot of the position with its score bound."""
    cells = position.board.cells
    first = position.is_first_move
    slots: list[tuple] = []
    if first:
        directions = ((True, (CENTER // SIZE,)),)
    else:
        directions = ((True, range(SIZE)), (False, range(SIZE)))
    for horizontal, lines in directions:
        check = checks[horizontal]
        for line in lines:
            _line_slots(slots, cells, _LINES[horizontal][line], horizontal, line, check, rack, first)
    return slots


def _line_slots(slots, cells, squares, horizontal, line, check, rack: _Rack, first) -> None:
    """The slots of one line, as ``(bound, horizontal, line, start, end, const)``.

    Two bounds, both valid, the lower kept: the rack's values paired best with
    best against the squares' weights, and each square's weight times the best
    value its cross-check lets a rack tile have.  Without a word premium in the
    slot (the common case) both are kept up to date square by square.
    """
    tiles = [cells[sq] for sq in squares]
    mask, has, cscore = check.mask, check.has, check.score
    if not first and not any(tiles) and not any(has[sq] for sq in squares):
        return
    usable, n, values = rack.usable, rack.size, rack.values
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
                fixed += _TILE_VALUE[t]
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
                const = fixed * wm + cross + (BINGO if k == RACK_SIZE else 0)
                if wm == 1:
                    paired = -sum(map(mul, negated, values))
                    bound = const + (paired if paired < capped else capped)
                else:
                    weights = [lm * (wm + x) for lm, x in zip(lms, xws)]
                    paired = sum(map(mul, sorted(weights, reverse=True), values))
                    cap_sum = sum(map(mul, weights, caps))
                    bound = const + (paired if paired < cap_sum else cap_sum)
                append((bound, horizontal, line, s, e, const))


def _expand(cells, check: CrossChecks, raw) -> _Slot:
    """The details the search needs of a listed slot: its empty squares and their weights."""
    bound, horizontal, line, start, end, const = raw
    squares = _LINES[horizontal][line]
    empties = tuple(i for i in range(start, end + 1) if not cells[squares[i]])
    wm = 1
    for i in empties:
        wm *= WORD_MULT[squares[i]]
    has = check.has
    weights = tuple(
        LETTER_MULT[sq] * (wm + (WORD_MULT[sq] if has[sq] else 0)) for sq in (squares[i] for i in empties)
    )
    return _Slot(bound, horizontal, line, start, end, const, empties, weights)


def _prepare(position: Position) -> tuple[dict[bool, CrossChecks], _Rack, list[int], int, list[tuple]]:
    """Cross-checks for each direction searched, the rack (as bound data and as counts), and every
    slot listed."""
    cells = position.board.cells
    checks = {True: CrossChecks(cells, position.lexicon, True)}
    if not position.is_first_move:
        checks[False] = CrossChecks(cells, position.lexicon, False)
    counts, blanks = _rack_counts(position.rack)
    rack = _Rack(position.rack, counts, blanks)
    return checks, rack, counts, blanks, _slots(position, checks, rack)


def find_tops(position: Position) -> Tops:
    """Every distinct legal move reaching the best score (§3.3.4); one-tile moves counted once."""
    checks, rack, counts, blanks, slots = _prepare(position)
    slots.sort(key=itemgetter(0), reverse=True)
    search = _SlotSearch(position, checks, rack, counts, blanks)
    cells = position.board.cells
    for raw in slots:
        if raw[0] < search.best:
            break
        search.run(_expand(cells, checks[raw[1]], raw))
    return Tops(max(search.best, 0), tuple(search.plays))


class _SlotSearch:
    """The DAWG walk inside one slot, sharing the best score found so far across slots."""

    def __init__(self, position: Position, checks, rack: _Rack, counts, blanks):
        self.cells = position.board.cells
        self.dawg = position.lexicon.dawg
        self.checks = checks
        self.counts = counts
        self.original = list(counts)
        self.blanks = blanks
        self.values = rack.values
        self.best = -1
        self.plays: list[Play] = []
        self.keys: set = set()
        self.anagrams = position.lexicon.anagrams
        self.subset_keys = _subset_keys(position.rack, counts, blanks)
        self.candidates: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def run(self, slot: _Slot) -> None:
        if self.subset_keys[len(slot.empties)] is None:
            self.walk(slot)
        else:
            self.lookup(slot)

    def lookup(self, slot: _Slot) -> None:
        """The slot's words are anagrams of its board letters plus ``k`` rack tiles."""
        squares = _LINES[slot.horizontal][slot.line]
        cells = self.cells
        start = slot.start
        empties = slot.empties
        fixed = [
            (i - start, cells[squares[i]] & LETTER_MASK)
            for i in range(start, slot.end + 1)
            if cells[squares[i]]
        ]
        key = 1
        for _, letter in fixed:
            key *= PRIMES[letter]
        k = len(empties)
        words = self.candidates.get((key, k))
        if words is None:
            words = []
            index = self.anagrams
            for sub in self.subset_keys[k]:
                found = index.get(key * sub)
                if found:
                    words.extend(found)
            self.candidates[(key, k)] = words
        if not words:
            return
        mask = self.checks[slot.horizontal].mask
        masks = [mask[squares[p]] for p in empties]
        offsets = [p - start for p in empties]
        weights = slot.weights
        original = self.original
        const = slot.const
        for word in words:
            if any(word[i] != letter for i, letter in fixed):
                continue
            placed = [word[i] for i in offsets]
            if any(not m >> letter & 1 for m, letter in zip(masks, placed)):
                continue
            upper = const + sum(VALUES[c] * w for c, w in zip(placed, weights) if original[c])
            self._complete(slot, squares, placed, upper)

    def walk(self, slot: _Slot) -> None:
        squares = _LINES[slot.horizontal][slot.line]
        cells = self.cells
        children = self.dawg.children
        lengths = self.dawg.lengths
        counts = self.counts
        original = self.original
        mask = self.checks[slot.horizontal].mask
        empties = slot.empties
        last = slot.end
        # runs[j]: the board letters right after empty square j, up to the next empty one.
        runs = []
        for j, p in enumerate(empties):
            stop = empties[j + 1] if j + 1 < len(empties) else last + 1
            runs.append(tuple(cells[squares[i]] & LETTER_MASK for i in range(p + 1, stop)))
        # left[j]: squares still to fill after empty square j and its run.
        left = [last - p - len(runs[j]) for j, p in enumerate(empties)]
        after_empty = [last - p for p in empties]
        masks = [mask[squares[p]] for p in empties]
        weights = slot.weights
        k = len(weights)
        # rest[j]: the most the squares from j on can add, the rack's best values on their best weights.
        values = self.values
        rest = [sum(map(mul, sorted(weights[j:], reverse=True), values)) for j in range(k)] + [0]
        const = slot.const
        placed = [0] * k
        blanks = [self.blanks]

        def walk(j: int, node: int, ub: int) -> None:
            if const + ub + rest[j] < self.best:
                return
            m = masks[j]
            w = weights[j]
            run = runs[j]
            rem = left[j]
            nxt = j + 1
            after = after_empty[j]
            for letter, child in children[node].items():
                if not (m >> letter & 1 and lengths[child] >> after & 1):
                    continue
                if not (counts[letter] or blanks[0]):
                    continue
                for t in run:
                    child = children[child].get(t)
                    if child is None:
                        break
                else:
                    if run and not lengths[child] >> rem & 1:
                        continue
                    placed[j] = letter
                    if counts[letter]:
                        counts[letter] -= 1
                        if nxt == k:
                            self._complete(slot, squares, placed, const + ub + VALUES[letter] * w)
                        else:
                            walk(nxt, child, ub + VALUES[letter] * w)
                        counts[letter] += 1
                    elif blanks[0]:
                        # Counted as a real tile if the rack has that letter at all: the
                        # exact blank squares are settled when the word is complete.
                        blanks[0] -= 1
                        gain = VALUES[letter] * w if original[letter] else 0
                        if nxt == k:
                            self._complete(slot, squares, placed, const + ub + gain)
                        else:
                            walk(nxt, child, ub + gain)
                        blanks[0] += 1

        node = self.dawg.root
        for i in range(slot.start, empties[0]):
            node = children[node].get(cells[squares[i]] & LETTER_MASK)
            if node is None:
                return
        if lengths[node] >> (last - empties[0] + 1) & 1:
            walk(0, node, 0)

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


def all_plays(position: Position) -> list[Play]:
    """Every distinct legal placement, each blank choice apart, no pruning.

    Slow next to ``find_tops``; it exists so tests can hold the search and the
    scorer against each other on every move of a position.
    """
    cells = position.board.cells
    checks, _rack, counts, blanks, slots = _prepare(position)
    found: dict[frozenset, Play] = {}
    for raw in slots:
        slot = _expand(cells, checks[raw[1]], raw)
        for play in _slot_plays(
            slot, cells, position.lexicon.dawg, checks[slot.horizontal].mask, counts, blanks
        ):
            found.setdefault(play.key, play)
    return list(found.values())


def _slot_plays(slot: _Slot, cells, dawg, mask, counts, blanks: int) -> list[Play]:
    """Every word of one slot, with each way of laying it from the rack (real tile or blank)."""
    squares = _LINES[slot.horizontal][slot.line]
    children, lengths = dawg.children, dawg.lengths
    weight_of = dict(zip(slot.empties, slot.weights))
    first = squares[slot.start]
    ref = Ref(first // SIZE, first % SIZE, slot.horizontal)
    plays: list[Play] = []
    word: list[int] = []
    new: list[tuple[int, int]] = []
    spare = [blanks]

    def visit(i: int, node: int, gain: int) -> None:
        if i > slot.end:
            if lengths[node] & 1:
                plays.append(Play(ref, format_word(word), tuple(new), slot.const + gain))
            return
        sq = squares[i]
        if cells[sq]:
            child = children[node].get(cells[sq] & LETTER_MASK)
            if child is not None:
                word.append(cells[sq])
                visit(i + 1, child, gain)
                word.pop()
            return
        for letter, child in children[node].items():
            if not mask[sq] >> letter & 1:
                continue
            choices = []
            if counts[letter]:
                choices.append((letter, letter, VALUES[letter] * weight_of[i]))
            if spare[0]:
                choices.append((BLANK, letter | BLANK_FLAG, 0))
            for used, tile, value in choices:
                if used == BLANK:
                    spare[0] -= 1
                else:
                    counts[used] -= 1
                word.append(tile)
                new.append((sq, tile))
                visit(i + 1, child, gain + value)
                word.pop()
                new.pop()
                if used == BLANK:
                    spare[0] += 1
                else:
                    counts[used] += 1

    visit(slot.start, dawg.root, 0)
    return plays
