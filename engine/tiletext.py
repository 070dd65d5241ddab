"""Tiles of any letter set as text (game-record.md, version 2): brackets around a tile whose name has
several characters (``[CH]``, ``[ch]`` for a blank standing for it), one character for the others.

Racks are read tile by character outside brackets (a Spanish rack ``CH`` is the C and H tiles);
only a rack that cannot be read so, because a character is no tile by itself (Catalan ``QU``,
``NY``, ``L·L``: there is no Q, Y or · tile), is cut by the set's spelling rule, which then reads
it one way.  A word may also be written without brackets, and is then cut by the spelling rule
(``COCHE`` is C O CH E).  ``notation`` calls these for every set but
the French one, whose text keeps its own faster path.
"""

from __future__ import annotations

from engine.alphabet import BLANK, BLANK_FLAG, LetterSet
from engine.messages import Message, register


class TileTextError(ValueError):
    """A text that holds no tile of the set where one is needed; ``message`` says which."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))


def tile_text(c: int, letters: LetterSet) -> str:
    """A rack code or board tile as written: ``A``, ``[CH]``, ``[ch]`` (a blank), ``?``."""
    name = letters.name(c)
    return f"[{name}]" if len(name) > 1 else name


def tiles_text(tiles, letters: LetterSet) -> str:
    return "".join(tile_text(t, letters) for t in tiles)


def _pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` as pieces: ``(name, True)`` for a bracketed tile, ``(character, False)`` otherwise."""
    pieces = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            end = text.find("]", i + 1)
            if end < 0:
                raise TileTextError("tiles_bracket", text=text[i : i + 8])
            pieces.append((text[i + 1 : end], True))
            i = end + 1
        elif ch == "]":
            raise TileTextError("tiles_bracket", text=text[max(0, i - 4) : i + 1])
        else:
            pieces.append((ch, False))
            i += 1
    return pieces


def _unknown(tile: str, letters: LetterSet) -> TileTextError:
    known = " ".join(tile_text(c, letters) for c in letters.letters)
    return TileTextError("tiles_not_in_set", tile=tile[:12], set=letters.code, known=known)


def _named(name: str, letters: LetterSet) -> int:
    """The code of a tile written as its name (any case, accents as the set keeps them)."""
    c = letters.by_name.get(letters.fold(name))
    if c is None:
        raise _unknown(name, letters)
    return c


def rack_codes(text: str, letters: LetterSet) -> tuple[int, ...]:
    """The tiles of a rack's text (no ``+`` or ``-``): ``?`` a blank, brackets around long names."""
    codes: list[int] = []
    run: list[str] = []
    for piece, bracketed in [*_pieces(text), (None, True)]:
        if not bracketed:
            run.append(piece)
            continue
        codes.extend(_rack_run("".join(run), letters))
        run.clear()
        if piece is not None:
            codes.append(_named(piece, letters))
    return tuple(codes)


def _rack_run(run: str, letters: LetterSet) -> list[int]:
    """Characters typed without brackets: a tile each, or, when one of them is no tile, the
    spelling rule's cut."""
    try:
        return [BLANK if ch == "?" else _named(ch, letters) for ch in run]
    except TileTextError:
        codes: list[int] = []
        for part in run.split("?"):
            if part:
                _cut_run(part.upper(), letters, codes, [])
            codes.append(BLANK)
        return codes[:-1]


def word_tiles(text: str, letters: LetterSet) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The tiles of a word and, per tile, whether it was written in lower case (a blank)."""
    codes: list[int] = []
    lower: list[bool] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            _cut_run("".join(run), letters, codes, lower)
            run.clear()

    for piece, bracketed in _pieces(text):
        if not bracketed:
            run.append(piece)
            continue
        flush()
        codes.append(_named(piece, letters))
        lower.append(_case(piece, piece))
    flush()
    return tuple(codes), tuple(lower)


def _case(written: str, tile: str) -> bool:
    """Whether a tile was written in lower case; ``Ch`` says neither."""
    cased = [ch for ch in written if ch.isalpha()]
    if cased and all(ch.islower() for ch in cased):
        return True
    if all(ch.isupper() for ch in cased):
        return False
    raise TileTextError("tiles_case", tile=tile)


def _cut_run(run: str, letters: LetterSet, codes: list[int], lower: list[bool]) -> None:
    """Cut letters written without brackets by the set's spelling rule, keeping each tile's case."""
    folded = []
    origin = []  # for each folded character, the written character it came from
    for ch in run:
        for f in letters.fold(ch):
            folded.append(f)
            origin.append(ch)
    text = "".join(folded)
    i = 0
    while i < len(text):
        for name, c in letters.cutting:
            if text.startswith(name, i):
                written = "".join(dict.fromkeys(origin[i : i + len(name)]))
                codes.append(c)
                lower.append(_case(written, run))
                i += len(name)
                break
        else:
            raise _unknown(origin[i], letters)


def board_row(row: str, letters: LetterSet) -> list[int]:
    """The cells of one row of a board's text: ``.`` empty, tiles as in a word."""
    cells = []
    for piece, bracketed in _pieces(row):
        if piece == "." and not bracketed:
            cells.append(0)
            continue
        c = _named(piece, letters)
        cells.append(c | BLANK_FLAG if _case(piece, piece) else c)
    return cells


register(
    {
        "tiles_bracket": {
            "fr": "Crochets mal fermés vers « {text} » : une tuile de plusieurs lettres s'écrit [CH].",
            "en": "Unbalanced brackets near '{text}': a tile of several letters is written [CH].",
        },
        "tiles_not_in_set": {
            "fr": "« {tile} » n'est pas une tuile du jeu « {set} » ({known}).",
            "en": "'{tile}' is not a tile of the '{set}' set ({known}).",
        },
        "tiles_case": {
            "fr": "« {tile} » mêle majuscules et minuscules dans une même tuile : majuscules pour une "
            "tuile, minuscules pour un joker.",
            "en": "'{tile}' mixes upper and lower case within one tile: upper case for a tile, lower "
            "case for a blank.",
        },
    }
)
