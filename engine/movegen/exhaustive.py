"""The exhaustive generator: every legal placement of a position, for tests to check the search."""

from __future__ import annotations

from engine.alphabet import BLANK, BLANK_FLAG, LETTER_MASK
from engine.board import SIZE
from engine.movegen.crosschecks import LINES
from engine.movegen.position import Position
from engine.movegen.slots import Slot, expand, prepare
from engine.notation import Ref, format_word
from engine.play import Play


def all_plays(position: Position) -> list[Play]:
    """Every distinct legal placement, each blank choice apart, no pruning.

    Slow next to ``find_tops``; it exists so tests can hold the search and the
    scorer against each other on every move of a position.
    """
    cells = position.board.cells
    checks, _rack, counts, blanks, slots = prepare(position)
    found: dict[frozenset, Play] = {}
    for raw in slots:
        slot = expand(cells, checks[raw[1]], raw)
        for play in _slot_plays(slot, cells, position.lexicon, checks[slot.horizontal].mask, counts, blanks):
            found.setdefault(play.key, play)
    return list(found.values())


def _slot_plays(slot: Slot, cells, lexicon, mask, counts, blanks: int) -> list[Play]:
    """Every word of one slot, with each way of laying it from the rack (real tile or blank)."""
    dawg, letters = lexicon.dawg, lexicon.letters
    values = letters.values
    squares = LINES[slot.horizontal][slot.line]
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
                plays.append(Play(ref, format_word(word, letters), tuple(new), slot.const + gain))
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
                choices.append((letter, letter, values[letter] * weight_of[i]))
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
