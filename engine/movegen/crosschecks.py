"""Cross-checks: what each empty square allows, given the word it would form across the move.

Also the table the other modules of the search share: ``LINES`` (the squares
of every row and column).  Tile values and the mask allowing every tile come
from the lexicon's letter set.
"""

from __future__ import annotations

from engine.alphabet import LETTER_MASK
from engine.board import SIZE
from engine.lexicon import Lexicon

#: ``LINES[horizontal][line]``: the squares of a row (horizontal) or column, in reading order.
LINES = (
    tuple(tuple(i * SIZE + line for i in range(SIZE)) for line in range(SIZE)),
    tuple(tuple(line * SIZE + i for i in range(SIZE)) for line in range(SIZE)),
)


class CrossChecks:
    """For one move direction: what each empty square allows in the perpendicular word.

    ``mask[sq]``: tiles that make a valid cross word (the set's ``all_letters`` where no
    cross word forms); ``score[sq]``: the face value of the tiles of that cross
    word; ``has[sq]``: whether a cross word forms at all.

    What a square allows depends only on the line its cross word lies in, so
    each line's result is remembered per lexicon, keyed by the line's tiles:
    from one round to the next only the lines the last top touched are worked
    out again.
    """

    __slots__ = ("has", "mask", "score")

    def __init__(self, cells: list[int], lexicon: Lexicon, horizontal: bool):
        letters = lexicon.letters
        every = letters.all_letters
        self.mask = mask = [every] * (SIZE * SIZE)
        self.score = score = [0] * (SIZE * SIZE)
        self.has = has = [False] * (SIZE * SIZE)
        memo = lexicon.memo("cross_checks")
        # A horizontal move's cross words run down the columns, and vice versa.
        for index, line in enumerate(LINES[0] if horizontal else LINES[1]):
            tiles = tuple(cells[sq] for sq in line)
            if not any(tiles):
                continue
            found = memo.get(tiles)
            if found is None:
                found = memo.put(tiles, _line_cross_checks(tiles, lexicon.dawg, letters.tile_values, every))
            cut = slice(index, None, SIZE) if horizontal else slice(index * SIZE, (index + 1) * SIZE)
            mask[cut], score[cut], has[cut] = found


def _line_cross_checks(tiles: tuple[int, ...], dawg, tile_value, every: int) -> tuple[list, list, list]:
    """Masks, scores and flags for the squares of one line, from the words across it."""
    children, lengths = dawg.children, dawg.lengths
    mask = [every] * SIZE
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
        score[i] = sum(tile_value[t] for t in prefix) + sum(tile_value[t] for t in suffix)
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
