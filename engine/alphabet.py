"""Letters as small ints, tile values and the French distribution (rules §1.1).

Engine code never handles letters as text: text crosses only here and in
``notation``.  Codes:

* ``1..26``: the letters A..Z;
* ``BLANK`` (27): a blank in a rack or a bag (``?``);
* on the board, a blank played as letter ``L`` is ``L | BLANK_FLAG``.

Cross-check masks use bit ``code`` for each letter, so ``ALL_LETTERS`` has
bits 1..26 set.
"""

from __future__ import annotations

A, Z = 1, 26
BLANK = 27
BLANK_FLAG = 32
LETTER_MASK = 31
ALL_LETTERS = ((1 << 27) - 1) & ~1

_VALUE_COUNT = {
    "A": (1, 9),
    "B": (3, 2),
    "C": (3, 2),
    "D": (2, 3),
    "E": (1, 15),
    "F": (4, 2),
    "G": (2, 2),
    "H": (4, 2),
    "I": (1, 8),
    "J": (8, 1),
    "K": (10, 1),
    "L": (1, 5),
    "M": (2, 3),
    "N": (1, 6),
    "O": (1, 6),
    "P": (3, 2),
    "Q": (8, 1),
    "R": (1, 6),
    "S": (1, 6),
    "T": (1, 6),
    "U": (1, 6),
    "V": (4, 2),
    "W": (10, 1),
    "X": (10, 1),
    "Y": (10, 1),
    "Z": (10, 1),
}

#: ``VALUES[code]`` for codes 0..27 (0 and the blank are worth nothing).
VALUES: tuple[int, ...] = (0, *(_VALUE_COUNT[chr(64 + c)][0] for c in range(A, Z + 1)), 0)
#: ``COUNTS[code]``: how many tiles of each kind the 102-tile bag holds.
COUNTS: tuple[int, ...] = (0, *(_VALUE_COUNT[chr(64 + c)][1] for c in range(A, Z + 1)), 2)
RACK_SIZE = 7

VOWELS = frozenset(ord(ch) - 64 for ch in "AEIOU")
#: Y and the blank may count as a vowel or a consonant (§1.1).
FLEXIBLE = frozenset({ord("Y") - 64, BLANK})
CONSONANTS = frozenset(range(A, Z + 1)) - VOWELS - FLEXIBLE


def code(ch: str) -> int:
    """Code of an upper-case letter ``A``..``Z`` or ``?``."""
    if ch == "?":
        return BLANK
    if not isinstance(ch, str) or len(ch) != 1:
        raise ValueError(f"not a letter: {ch!r}")
    c = ord(ch) - 64
    if not A <= c <= Z:
        raise ValueError(f"not a letter: {ch!r}")
    return c


def char(c: int) -> str:
    """Text of a rack code (``?`` for the blank) or of a board tile (blank in lower case)."""
    if c == BLANK:
        return "?"
    letter = chr(64 + (c & LETTER_MASK))
    return letter.lower() if c & BLANK_FLAG else letter


def tile_value(tile: int) -> int:
    """Value of a board tile: a blank is worth 0 wherever it lies (§2)."""
    return 0 if tile & BLANK_FLAG else VALUES[tile]


def letter_of(tile: int) -> int:
    return tile & LETTER_MASK


def is_blank(tile: int) -> bool:
    return bool(tile & BLANK_FLAG)


def word_codes(word: str) -> tuple[int, ...]:
    """Codes of an upper-case word (no blanks)."""
    return tuple(ord(ch) - 64 for ch in word)


def codes_word(codes) -> str:
    return "".join(chr(64 + (c & LETTER_MASK)) for c in codes)
