"""Tiles as small ints, and the letter set that names and values them (rules §1.1, letters.md).

Engine code never handles tiles as text: text crosses only here and in
``notation``.  A ``LetterSet`` is a value (code, tile names, points, counts,
vowels and consonants, spelling rule); it travels with the lexicon
(``Lexicon.letters``) into every search, score, draw and record, so games of
several sets run in one process.  Codes, the same scheme in every set:

* ``1..31`` except 27: a set's tiles in its alphabetical order (A is 1; a set of
  more than 26 tiles goes on at 28, so sorting codes sorts tiles);
* ``BLANK`` (27): a blank in a rack or a bag (``?``);
* on the board, a blank played as tile ``L`` is ``L | BLANK_FLAG``.

Cross-check masks use bit ``code`` for each tile (``LetterSet.all_letters``).
A tile's name may have several characters (Spanish CH, Catalan L·L): a word of
15 tiles may have more letters.

The module constants below (``VALUES``, ``COUNTS``, ``VOWELS`` …) and the
functions' default ``letters`` are the French set's, for callers that play
French only; ``lettersets`` holds the others.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

A, Z = 1, 26
BLANK = 27
BLANK_FLAG = 32
LETTER_MASK = 31
#: Every code a tile may have, in order: a set of n tiles uses the first n.
TILE_CODES = (*range(1, BLANK), *range(BLANK + 1, BLANK_FLAG))
RACK_SIZE = 7
_LIGATURES = str.maketrans({"œ": "OE", "Œ": "OE", "æ": "AE", "Æ": "AE"})


@dataclass(frozen=True, eq=False)
class LetterSet:
    """A language's tiles: built by ``LetterSet.make`` from its table.

    Per-code tables have 32 entries (index ``BLANK`` is the blank; codes a set
    does not use are worth 0, count 0 and have the name ``""``).
    """

    code: str
    #: ``names[code]``: the tile as written, upper case (``"CH"``, ``"Ñ"``); ``"?"`` for the blank.
    names: tuple[str, ...]
    values: tuple[int, ...]
    counts: tuple[int, ...]
    #: The tiles' codes in the set's alphabetical order.
    letters: tuple[int, ...]
    vowels: frozenset[int]
    consonants: frozenset[int]
    #: Tiles counting as a vowel or a consonant (§3.1.3): the blank always, Y in French.
    flexible: frozenset[int]
    #: Other ways of writing a tile, upper case (``"L.L"`` and ``"ĿL"`` for ``"L·L"``).
    spellings: dict[str, int] = field(default_factory=dict)
    #: Accented characters that are tiles of their own (``Ñ``, ``Ç``); other accents are dropped.
    kept: frozenset[str] = frozenset()
    #: The source of the table, for people.
    source: str = ""
    # Derived once, in ``__post_init__``: the search reads them in its inner loops.
    #: The cross-check mask allowing every tile.
    all_letters: int = field(init=False, repr=False)
    #: ``tile_values[tile]`` for any board or rack code (0..63): a blank is worth 0 (§2).
    tile_values: tuple[int, ...] = field(init=False, repr=False)
    #: Tile name (upper case, or another spelling of it) -> code.
    by_name: dict[str, int] = field(init=False, repr=False)
    #: Every way of writing a tile, longest first: how a word is cut.
    cutting: tuple[tuple[str, int], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_name = {n: c for c, n in enumerate(self.names) if n and c != BLANK}
        by_name.update(self.spellings)
        tile_values = tuple(
            0 if t & BLANK_FLAG or t == BLANK else self.values[t & LETTER_MASK] for t in range(64)
        )
        derived = {
            "all_letters": sum(1 << c for c in self.letters),
            "tile_values": tile_values,
            "by_name": by_name,
            "cutting": tuple(sorted(by_name.items(), key=lambda item: -len(item[0]))),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @classmethod
    def make(cls, code, table, vowels="AEIOU", flexible=(), blanks=2, spellings=None, source=""):
        """``table``: ``(name, points, count)`` per tile in alphabetical order."""
        if len(table) > len(TILE_CODES):
            raise ValueError(f"a set has at most {len(TILE_CODES)} tiles")
        names, values, counts = [""] * BLANK_FLAG, [0] * BLANK_FLAG, [0] * BLANK_FLAG
        names[BLANK], counts[BLANK] = "?", blanks
        by_name = {}
        for c, (name, points, count) in zip(TILE_CODES, table):
            names[c], values[c], counts[c] = name, points, count
            by_name[name] = c
        letters = TILE_CODES[: len(table)]
        flex = frozenset({BLANK, *(by_name[n] for n in flexible)})
        vow = frozenset(by_name[n] for n in vowels if n in by_name) - flex
        alt = {text: by_name[name] for text, name in (spellings or {}).items()}
        kept = frozenset(n for n in names if len(n) == 1 and not n.isascii())
        cons = frozenset(letters) - vow - flex
        return cls(
            code, tuple(names), tuple(values), tuple(counts), letters, vow, cons, flex, alt, kept, source
        )

    # -- derived tables (cheap, computed once per set) -------------------------------

    @property
    def tile_count(self) -> int:
        return sum(self.counts)

    def with_flexible(self, names) -> LetterSet:
        """The same set with these tiles also counting as a vowel or a consonant (§3.1.3): the rack
        rule's setting where a federation says nothing."""
        codes = frozenset(self.by_name[n] for n in names)
        flexible = frozenset({BLANK}) | codes
        letters = frozenset(self.letters)
        named = frozenset(c for c in self.letters if self.names[c] in ("A", "E", "I", "O", "U"))
        vowels = (self.vowels | named) - flexible  # the set's own vowels kept (German Ä Ö Ü)
        return replace(self, vowels=vowels, consonants=letters - vowels - flexible, flexible=flexible)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LetterSet) and (other.code, other.flexible) == (self.code, self.flexible)

    def __hash__(self) -> int:
        return hash((self.code, self.flexible))

    def __repr__(self) -> str:
        return f"LetterSet({self.code!r})"

    # -- text ------------------------------------------------------------------------

    def name(self, c: int) -> str:
        """A rack code's or board tile's name, a blank in lower case (``?`` in a rack)."""
        if c == BLANK:
            return "?"
        name = self.names[c & LETTER_MASK] or "?"
        return name.lower() if c & BLANK_FLAG else name

    def fold(self, text: str) -> str:
        """``text`` upper case, ligatures split, accents dropped except on the set's own letters
        (``Ñ``, ``Ç``)."""
        text = text.strip()
        if text.isascii():
            return text.upper()
        text = unicodedata.normalize("NFC", text).translate(_LIGATURES).upper()
        hide, restore = self._tables["protect"]
        text = unicodedata.normalize("NFD", text.translate(hide)).translate(_MARKS)
        return text.translate(restore)

    def key_of(self, folded: str) -> str | None:
        """The graph key of a folded word of 2 to 15 tiles (``key`` of its ``cut``), or None: the
        fast way a word list is read."""
        pattern, long, table, valid = self._tables["keying"]
        if pattern is not None:
            folded = pattern.sub(lambda m: long[m.group()], folded)
        key = folded.translate(table)
        return key if valid.fullmatch(key) else None

    @property
    def _tables(self) -> dict:
        """Tables built once per set: ``protect`` hides the set's accented letters from the accent
        removal and brings them back; ``keying`` is a pattern of the tiles written with several
        characters (longest first: the same cut as ``cut``), the private character standing for
        each, a table turning tiles into key characters (anything else into ``!``) and the pattern
        of a whole key."""
        found = self.__dict__.get("_built")
        if found is not None:
            return found
        hidden = {ch: chr(_PRIVATE + i) for i, ch in enumerate(sorted(self.kept))}
        protect = (str.maketrans(hidden), str.maketrans({v: k for k, v in hidden.items()}))
        table = {chr(i): "!" for i in range(128)}
        long, texts = {}, []
        for text, c in self.cutting:
            if len(text) > 1:
                long[text] = chr(_PRIVATE + 64 + c)
                table[long[text]] = chr(64 + c)
                texts.append(re.escape(text))
            else:
                table[text] = chr(64 + c)
        pattern = re.compile("|".join(texts)) if texts else None
        keys = re.escape("".join(chr(64 + c) for c in self.letters))
        valid = re.compile(f"[{keys}]{{2,15}}")
        found = {"protect": protect, "keying": (pattern, long, str.maketrans(table), valid)}
        self.__dict__["_built"] = found
        return found

    def cut(self, text: str) -> tuple[int, ...] | None:
        """The tiles of a folded word, cut left to right, a tile of several characters always taken
        before its first letter alone (Spanish CH is never C and H); None if it cannot be cut."""
        names = self.cutting
        tiles = []
        i, n = 0, len(text)
        while i < n:
            for name, c in names:
                if text.startswith(name, i):
                    tiles.append(c)
                    i += len(name)
                    break
            else:
                return None
        return tuple(tiles)

    def spell(self, word: str) -> tuple[int, ...] | None:
        """The tiles of a word as written anywhere (accents, lower case), or None."""
        return self.cut(self.fold(word))

    def key(self, tiles) -> str:
        """The tiles as the lexicon's graph stores them: one character per tile (``chr(64 + code)``);
        for the French set this is the word itself."""
        return "".join(chr(64 + (t & LETTER_MASK)) for t in tiles)

    def word(self, tiles) -> str:
        """Tiles as plain text (``COCHE``), blanks in upper case too."""
        return "".join(self.names[t & LETTER_MASK] for t in tiles)


#: The combining marks of Latin accents (U+0300..U+036F), dropped once a text is decomposed.
_MARKS = dict.fromkeys(range(0x300, 0x370))
#: Private-use characters standing for a letter or a tile while a text is worked on.
_PRIVATE = 0xE000

FRENCH = LetterSet.make(
    "fr",
    (
        ("A", 1, 9), ("B", 3, 2), ("C", 3, 2), ("D", 2, 3), ("E", 1, 15), ("F", 4, 2), ("G", 2, 2),
        ("H", 4, 2), ("I", 1, 8), ("J", 8, 1), ("K", 10, 1), ("L", 1, 5), ("M", 2, 3), ("N", 1, 6),
        ("O", 1, 6), ("P", 3, 2), ("Q", 8, 1), ("R", 1, 6), ("S", 1, 6), ("T", 1, 6), ("U", 1, 6),
        ("V", 4, 2), ("W", 10, 1), ("X", 10, 1), ("Y", 10, 1), ("Z", 10, 1),
    ),
    flexible=("Y",),
    source="duplicate.md §1.1 (FISF)",
)  # fmt: skip


def code(ch: str, letters: LetterSet = FRENCH) -> int:
    """Code of a tile's upper-case name (``A``, ``CH``) or ``?``."""
    if ch == "?":
        return BLANK
    if not isinstance(ch, str) or not ch:
        raise ValueError(f"not a letter: {ch!r}")
    c = letters.by_name.get(ch)
    if c is None:
        raise ValueError(f"not a letter: {ch!r}")
    return c


def char(c: int, letters: LetterSet = FRENCH) -> str:
    """Text of a rack code (``?`` for the blank) or of a board tile (blank in lower case)."""
    return letters.name(c)


def tile_value(tile: int, letters: LetterSet = FRENCH) -> int:
    """Value of a board tile: a blank is worth 0 wherever it lies (§2)."""
    return 0 if tile & BLANK_FLAG else letters.values[tile]


def letter_of(tile: int) -> int:
    return tile & LETTER_MASK


def is_blank(tile: int) -> bool:
    return bool(tile & BLANK_FLAG)


def word_codes(word: str) -> tuple[int, ...]:
    """Codes of an upper-case French word (no blanks)."""
    return tuple(ord(ch) - 64 for ch in word)


def codes_word(codes, letters: LetterSet = FRENCH) -> str:
    """Tiles as plain upper-case text (``COCHE``)."""
    return letters.word(codes)
