"""The anagram lookups: a slot's words found in the lexicon's anagram index instead of the DAWG.

When the rack can lay few enough multisets of ``k`` tiles, the words of a slot
with ``k`` empty squares are the anagrams of its board letters plus one of
those multisets: a handful of dictionary lookups, cheaper than the walk.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from engine.alphabet import BLANK, LETTER_MASK
from engine.lexicon import PRIMES
from engine.movegen.crosschecks import LINES
from engine.movegen.slots import Slot

#: Above this many rack sub-multisets for a slot size, walking the DAWG beats looking anagrams up.
ANAGRAM_LIMIT = 1000


def subset_keys(rack, counts, blanks, letters, most: int) -> list[list[int] | None]:
    """``keys[k]``: the anagram keys of every multiset of ``k`` tiles the rack can lay, or None
    when there are too many for lookups to pay or ``k`` is over ``most`` (the tiles a move may
    place).

    A blank stands for a letter only where no real tile of that letter is left
    over: the real tile would score more, so that multiset is never the top,
    and this way every word comes from exactly one multiset.
    """
    real = sorted(c for c in rack if c != BLANK)
    kinds = len(letters.letters)
    parts: dict[int, set] = {}
    for k in range(len(real) + 1):
        parts[k] = {tuple(combo) for combo in combinations(real, k)}
    keys: list[list[int] | None] = [None] * (len(rack) + 1)
    for k in range(1, min(len(rack), most) + 1):
        estimate = sum(len(parts.get(k - b, ())) * kinds**b for b in range(min(blanks, k) + 1))
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
                spare = [c for c in letters.letters if counts[c] == part.count(c)]
                for extra in combinations_with_replacement(spare, b):
                    k2 = key
                    for c in extra:
                        k2 *= PRIMES[c]
                    found.append(k2)
        keys[k] = found
    return keys


def lookup(search, slot: Slot) -> None:
    """The slot's words are anagrams of its board letters plus ``k`` rack tiles.

    ``search`` is the running ``walk.SlotSearch``: its rack, cross-checks and
    anagram index are read, the candidate words per key are remembered in it,
    and every word that fits is handed to its ``complete``.
    """
    squares = LINES[slot.horizontal][slot.line]
    cells = search.cells
    start = slot.start
    empties = slot.empties
    fixed = [
        (i - start, cells[squares[i]] & LETTER_MASK) for i in range(start, slot.end + 1) if cells[squares[i]]
    ]
    key = 1
    for _, letter in fixed:
        key *= PRIMES[letter]
    k = len(empties)
    words = search.candidates.get((key, k))
    if words is None:
        words = []
        index = search.anagrams
        for sub in search.subset_keys[k]:
            found = index.get(key * sub)
            if found is None:
                continue
            if found.__class__ is bytes:  # the one word of its multiset
                words.append(found)
            else:
                words.extend(found)
        search.candidates[(key, k)] = words
    if not words:
        return
    mask = search.checks[slot.horizontal].mask
    masks = [mask[squares[p]] for p in empties]
    offsets = [p - start for p in empties]
    weights = slot.weights
    original = search.original
    const = slot.const
    values = search.tile_values
    for word in words:
        if any(word[i] != letter for i, letter in fixed):
            continue
        placed = [word[i] for i in offsets]
        if any(not m >> letter & 1 for m, letter in zip(masks, placed)):
            continue
        upper = const + sum(values[c] * w for c, w in zip(placed, weights) if original[c])
        search.complete(slot, squares, placed, upper)
