"""The search inside slots: ``find_tops`` and the ``SlotSearch`` it runs slot after slot.

A slot is searched by anagram lookups (``anagrams``) when the rack lays few
enough tile multisets of its size, else by walking the DAWG square by square.
Either way a complete word goes through ``SlotSearch.complete``, which settles
its blanks and keeps it if it reaches the best score found so far.
"""

from __future__ import annotations

from itertools import combinations, product
from operator import itemgetter, mul

from engine.alphabet import BLANK_FLAG, LETTER_MASK
from engine.board import SIZE
from engine.movegen.anagrams import lookup, subset_keys
from engine.movegen.crosschecks import LINES
from engine.movegen.position import Position, Tops
from engine.movegen.slots import RackBounds, Slot, expand, prepare
from engine.notation import Ref, format_word
from engine.play import Play


def find_tops(position: Position) -> Tops:
    """Every distinct legal move reaching the best score (§3.3.4); one-tile moves counted once."""
    search = walk_slots(position, SlotSearch)
    return Tops(max(search.best, 0), tuple(search.plays))


def walk_slots(position: Position, make_search):
    """The slots walked best bound first by the search ``make_search(position, checks, rack,
    counts, blanks)`` makes, until a slot's bound is under the search's ``best``; the search."""
    checks, rack, counts, blanks, slots = prepare(position)
    slots.sort(key=itemgetter(0), reverse=True)
    search = make_search(position, checks, rack, counts, blanks)
    cells = position.board.cells
    for raw in slots:
        if raw[0] < search.best:
            break
        search.run(expand(cells, checks[raw[1]], raw))
    return search


class SlotSearch:
    """The DAWG walk inside one slot, sharing the best score found so far across slots."""

    def __init__(self, position: Position, checks, rack: RackBounds, counts, blanks):
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
        self.letters = letters = position.lexicon.letters
        self.tile_values = letters.tile_values
        self.anagrams = position.lexicon.anagrams
        self.subset_keys = subset_keys(position.rack, counts, blanks, letters, position.played_max)
        self.candidates: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def run(self, slot: Slot) -> None:
        if self.subset_keys[len(slot.empties)] is None:
            self.walk(slot)
        else:
            lookup(self, slot)

    def walk(self, slot: Slot) -> None:
        squares = LINES[slot.horizontal][slot.line]
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
        tile_values = self.tile_values

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
                            self.complete(slot, squares, placed, const + ub + tile_values[letter] * w)
                        else:
                            walk(nxt, child, ub + tile_values[letter] * w)
                        counts[letter] += 1
                    elif blanks[0]:
                        # Counted as a real tile if the rack has that letter at all: the
                        # exact blank squares are settled when the word is complete.
                        blanks[0] -= 1
                        gain = tile_values[letter] * w if original[letter] else 0
                        if nxt == k:
                            self.complete(slot, squares, placed, const + ub + gain)
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

    def complete(self, slot: Slot, squares, placed, upper: int) -> None:
        """Keep a word filling the slot if it reaches the best score found so far.

        ``upper`` is its score before its blanks are settled: every letter the
        rack holds at all counted at its full value.
        """
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
            value = self.tile_values[letter]
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

    def _play(self, slot: Slot, squares, placed, blank_positions, score: int) -> Play:
        new = {}
        for j, p in enumerate(slot.empties):
            letter = placed[j]
            new[squares[p]] = letter | BLANK_FLAG if j in blank_positions else letter
        word = [new.get(squares[i]) or self.cells[squares[i]] for i in range(slot.start, slot.end + 1)]
        first = squares[slot.start]
        ref = Ref(first // SIZE, first % SIZE, slot.horizontal)
        return Play(ref, format_word(word, self.letters), tuple(new.items()), score)
