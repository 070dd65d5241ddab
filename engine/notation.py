"""Text at the edge of the engine (rules §1.3): references, racks, words, slips, boards.

Parsers accept what people type (spaces, lower case where case means nothing,
``h4``) and raise ``NotationError`` with a sentence saying what is wrong.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine import alphabet, tiletext
from engine.alphabet import BLANK_FLAG, FRENCH, RACK_SIZE, LetterSet
from engine.board import CELLS, EMPTY, SIZE, Board
from engine.board import board_text as board_text  # re-exported: boards read and written here
from engine.messages import Message
from engine.tiletext import TileTextError

MAX_INPUT = 200


class NotationError(ValueError):
    """A text that cannot be read; ``message`` says why in words a player understands."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))

    @classmethod
    def of(cls, error: TileTextError) -> NotationError:
        return cls(error.message.code, **error.message.params)


@dataclass(frozen=True, slots=True)
class Ref:
    """A move's reference: the cell of its first letter and its direction."""

    row: int
    col: int
    horizontal: bool

    @property
    def square(self) -> int:
        return self.row * SIZE + self.col

    def __str__(self) -> str:
        row, col = chr(65 + self.row), str(self.col + 1)
        return row + col if self.horizontal else col + row

    def reversed(self) -> Ref:
        """The same first cell read in the other direction."""
        return Ref(self.row, self.col, not self.horizontal)


def _squash(text: str) -> str:
    if not isinstance(text, str):
        raise NotationError("not_text")
    if len(text) > MAX_INPUT:
        raise NotationError("too_long", limit=MAX_INPUT)
    return "".join(text.split())


# Any ASCII letter is read as a row so that ``Z4`` is told "row out of range", not
# "unreadable"; ``[0-9]`` rather than ``\d``, which also matches other scripts' digits.
_REF_H = re.compile(r"([A-Za-z])([0-9]{1,2})")
_REF_V = re.compile(r"([0-9]{1,2})([A-Za-z])")
_ROWS = "ABCDEFGHIJKLMNO"


def parse_ref(text: str) -> Ref:
    """``H4`` (row first: horizontal) or ``4H`` (column first: vertical)."""
    raw = _squash(text)
    if not raw:
        raise NotationError("ref_empty")
    m = _REF_H.fullmatch(raw)
    if m:
        row, col, horizontal = m.group(1), m.group(2), True
    else:
        m = _REF_V.fullmatch(raw)
        if not m:
            raise NotationError("ref_syntax", ref=raw)
        col, row, horizontal = m.group(1), m.group(2), False
    if row.upper() not in _ROWS:
        raise NotationError("ref_row", ref=raw)
    c = int(col)
    if not 1 <= c <= SIZE:
        raise NotationError("ref_column", ref=raw)
    return Ref(_ROWS.index(row.upper()), c - 1, horizontal)


@dataclass(frozen=True, slots=True)
class RackText:
    """A rack as written on records: reliquat, ``+``, new tiles; ``-`` after a rejection."""

    reliquat: tuple[int, ...]
    new: tuple[int, ...]
    rejected: bool = False
    #: The set the tiles belong to: a tile of several characters is written in brackets.
    letter_set: LetterSet = FRENCH

    @property
    def tiles(self) -> tuple[int, ...]:
        return self.reliquat + self.new

    def __str__(self) -> str:
        new = rack_text(self.new, self.letter_set)
        if self.reliquat:
            return rack_text(self.reliquat, self.letter_set) + "+" + new
        return ("-" if self.rejected else "") + new


_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def parse_rack(text: str, letters: LetterSet = FRENCH, most: int = RACK_SIZE) -> RackText:
    """``AEI+BLRN``, ``-BBNOORS`` or ``VDFIR?A``; at most 7 tiles (``most``: the game's rack size,
    8 in seven among eight), ``?`` for a blank; in another set, a tile of several characters in
    brackets (``-[CH]?CORÑO``)."""
    raw = _squash(text)
    rejected = raw.startswith("-")
    if rejected:
        raw = raw[1:]
    if raw.count("+") > 1:
        raise NotationError("rack_plus")
    kept, plus, new = raw.partition("+")
    if rejected and plus:
        raise NotationError("rack_reject_reliquat")
    if not plus:
        kept, new = "", kept
    codes = []
    for part in (kept, new):
        if letters is not FRENCH:
            try:
                codes.append(tiletext.rack_codes(part, letters))
            except TileTextError as e:
                raise NotationError.of(e) from None
            continue
        seq = []
        for ch in part:
            # Test the typed character itself: ``"ß".upper()`` is ``"SS"``, two letters.
            if ch == "?" or ch in _ASCII_LETTERS:
                seq.append(alphabet.code(ch.upper()))
            else:
                raise NotationError("rack_char", char=ch)
        codes.append(tuple(seq))
    size = len(codes[0]) + len(codes[1])
    if size > most:
        if most == RACK_SIZE:
            raise NotationError("rack_size", size=size)
        raise NotationError("rack_size_most", size=size, most=most)
    return RackText(codes[0], codes[1], rejected, letters)


def rack_tiles(text: str, letters: LetterSet = FRENCH) -> tuple[int, ...]:
    """Just the tiles of a rack text, marks ignored."""
    return parse_rack(text, letters).tiles


def _fold(ch: str) -> str:
    """One typed character to a letter, keeping its case: accents dropped, œ/æ split."""
    low = {"œ": "oe", "æ": "ae", "Œ": "OE", "Æ": "AE"}.get(ch)
    if low:
        return low
    base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
    return base


@dataclass(frozen=True, slots=True)
class TypedWord:
    """A word as a player typed it: letter codes and, per letter, whether it was lower case."""

    letters: tuple[int, ...]
    lower: tuple[bool, ...]
    letter_set: LetterSet = FRENCH

    def __str__(self) -> str:
        return format_word(
            (c | BLANK_FLAG if low else c for c, low in zip(self.letters, self.lower)), self.letter_set
        )


def parse_word(text: str, letters: LetterSet = FRENCH) -> TypedWord:
    """A word of 2 to 15 tiles; lower case marks a blank, accents are dropped (``é`` is E) except
    where the set keeps them (``Ñ``); in another set, a tile of several characters in brackets or
    cut by the set's spelling rule (``COCHE`` is C O CH E)."""
    raw = _squash(text)
    if not raw:
        raise NotationError("word_empty")
    if letters is not FRENCH:
        return _parse_set_word(raw, letters)
    letters, lower = [], []
    for ch in raw:
        for f in _fold(ch):
            if "A" <= f <= "Z":
                letters.append(ord(f) - 64)
                lower.append(False)
            elif "a" <= f <= "z":
                letters.append(ord(f) - 96)
                lower.append(True)
            else:
                raise NotationError("word_char", char=ch)
    if not 2 <= len(letters) <= SIZE:
        raise NotationError("word_length", length=len(letters))
    return TypedWord(tuple(letters), tuple(lower))


def _parse_set_word(raw: str, letters: LetterSet) -> TypedWord:
    try:
        codes, lower = tiletext.word_tiles(raw, letters)
    except TileTextError as e:
        raise NotationError.of(e) from None
    if not 2 <= len(codes) <= SIZE:
        raise NotationError("word_length", length=len(codes))
    return TypedWord(codes, lower, letters)


def format_word(tiles, letters: LetterSet = FRENCH) -> str:
    """Board tiles of a word as text, blanks in lower case, a tile of several characters in brackets."""
    if letters is FRENCH:
        return "".join(alphabet.char(t) for t in tiles)
    return tiletext.tiles_text(tiles, letters)


@dataclass(frozen=True, slots=True)
class SlipText:
    """A slip as handed in: reference (None if missing), the word as typed, claimed score."""

    ref: Ref | None
    word: TypedWord
    score: int | None


_SCORE = re.compile(r"[0-9]{1,4}")


def parse_slip(text: str, letters: LetterSet = FRENCH) -> SlipText:
    """``H4 CALFEUTRE 40``; ``- WORD [SCORE]`` (or just ``WORD``) for a slip without reference."""
    if not isinstance(text, str):
        raise NotationError("not_text")
    if len(text) > MAX_INPUT:
        raise NotationError("too_long", limit=MAX_INPUT)
    parts = text.split()
    if not parts:
        raise NotationError("slip_empty")
    score = None
    if len(parts) > 1 and _SCORE.fullmatch(parts[-1]):
        score = int(parts.pop())
    if len(parts) == 1:
        return SlipText(None, parse_word(parts[0], letters), score)
    if len(parts) != 2:
        raise NotationError("slip_syntax")
    head, word = parts
    ref = None if head in ("-", "?") else parse_ref(head)
    return SlipText(ref, parse_word(word, letters), score)


def parse_board(text: str, letters: LetterSet = FRENCH) -> Board:
    """Read ``board_text`` back (the header line is optional)."""
    if not isinstance(text, str):
        raise NotationError("not_text")
    if letters is not FRENCH:
        return _parse_set_board(text, letters)
    rows = [ln.split()[-1] for ln in text.strip().splitlines() if ln.strip()]
    rows = [r for r in rows if len(r) == SIZE and not r.isdigit()]
    if len(rows) != SIZE:
        raise NotationError("board_rows")
    cells = [EMPTY] * CELLS
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            if "A" <= ch <= "Z":
                cells[r * SIZE + c] = ord(ch) - 64
            elif "a" <= ch <= "z":
                cells[r * SIZE + c] = (ord(ch) - 96) | BLANK_FLAG
            else:
                raise NotationError("board_char", char=ch)
    return Board(cells)


def _parse_set_board(text: str, letters: LetterSet) -> Board:
    try:
        lines = [ln.split()[-1] for ln in text.strip().splitlines() if ln.strip()]
        rows = [tiletext.board_row(line, letters) for line in lines if not line.isdigit()]
    except TileTextError as e:
        raise NotationError.of(e) from None
    rows = [r for r in rows if len(r) == SIZE]
    if len(rows) != SIZE:
        raise NotationError("board_rows")
    return Board(cell for row in rows for cell in row)


def rack_text(tiles, letters: LetterSet = FRENCH) -> str:
    """Rack codes as text (``?`` for blanks), in the given order."""
    if letters is FRENCH:
        return "".join(alphabet.char(c) for c in tiles)
    return tiletext.tiles_text(tiles, letters)
