"""The board and the rack as every screen draws them: one builder of the 225 cells for the arbiter's
laptop, the projector and the phone (premiums, tiles, the last top, the player's slip), the slip's
preview, the words a placement forms, and the rack's tiles."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import alphabet
from engine.alphabet import FRENCH, LetterSet
from engine.board import CELLS, CENTER, LETTER_MULT, SIZE, WORD_MULT, square_name
from engine.notation import NotationError, parse_rack, parse_slip
from tournaments.models import Round

#: (word multiplier, letter multiplier) -> the square's class.
_PREMIUM = {(3, 1): "tw", (2, 1): "dw", (1, 3): "tl", (1, 2): "dl"}


def premium_class(sq: int) -> str:
    """The square's premium as a CSS class: ``star``, ``tw``, ``dw``, ``tl``, ``dl`` or ``""``."""
    if sq == CENTER:
        return "star"
    return _PREMIUM.get((WORD_MULT[sq], LETTER_MULT[sq]), "")


_PREMIUMS = tuple(premium_class(sq) for sq in range(CELLS))


@dataclass
class Cell:
    """One square as drawn: its premium, the tile on it (the letter in upper case, ``blank`` for a
    joker, its value), and the marks of the last top and of the player's slip."""

    sq: int
    premium: str
    letter: str = ""
    blank: bool = False
    value: int = 0
    #: ``mine``: a letter of the player's slip on an empty square; ``over``: the slip goes through a
    #: letter already on the board; ``clash``: the slip names another letter than the one there.
    mark: str = ""
    last: bool = False

    @property
    def name(self) -> str:
        """``H8``: the square's coordinate, row letter first."""
        return square_name(self.sq)

    @property
    def row_label(self) -> str:
        """The row's letter, on the first cell of each row only."""
        return "" if self.sq % SIZE else chr(65 + self.sq // SIZE)


@dataclass
class Preview:
    """The player's slip as understood, square by square (empty when it names no place)."""

    squares: dict[int, tuple[int, bool]] = field(default_factory=dict)
    ref: str = ""
    horizontal: bool = True


def slip_preview(cells: list[int], ref: str, word: str, letters: LetterSet = FRENCH) -> Preview:
    """Where the slip's tiles go: from the reference's cell, one tile per square in its direction
    (a tile of several letters, Spanish CH, on one square), cut at the board's edge.  Only the form
    is read here, never the lexicon."""
    if not ref:
        return Preview()
    try:
        slip = parse_slip(f"{ref} {word}", letters)
    except NotationError:
        return Preview()
    if slip.ref is None:
        return Preview()
    ref = slip.ref
    step = 1 if ref.horizontal else SIZE
    squares = {}
    for i, (letter, lower) in enumerate(zip(slip.word.letters, slip.word.lower)):
        if (ref.col if ref.horizontal else ref.row) + i >= SIZE:
            break
        squares[ref.square + i * step] = (letter, lower)
    return Preview(squares, str(ref), ref.horizontal)


def board_cells(
    cells: list[int], preview: Preview | None = None, last: list | None = None, letters: LetterSet = FRENCH
) -> list[Cell]:
    """The 225 cells to draw: premiums, the tops placed, the player's slip and the last top's tiles
    (``last``: its ``[square, tile]`` pairs), each tile named and valued by ``letters``."""
    preview = preview or Preview()
    last_squares = {sq for sq, _ in (last or [])}
    out = []
    for sq in range(CELLS):
        cell = Cell(sq, _PREMIUMS[sq], last=sq in last_squares)
        tile = cells[sq] if sq < len(cells) else 0
        if tile:
            cell.letter, cell.blank = alphabet.char(tile, letters).upper(), alphabet.is_blank(tile)
            cell.value = alphabet.tile_value(tile, letters)
        if sq in preview.squares:
            letter, lower = preview.squares[sq]
            if tile:
                cell.mark = "over" if alphabet.letter_of(tile) == letter else "clash"
            else:
                cell.letter, cell.blank, cell.mark = alphabet.char(letter, letters), lower, "mine"
        out.append(cell)
    return out


def words_formed(cells: list[int], tiles: list, horizontal: bool, letters: LetterSet = FRENCH) -> list[str]:
    """The main word and each cross word a placement forms (blanks in lower case)."""
    board = list(cells)
    new = {sq: tile for sq, tile in tiles}
    for sq, tile in new.items():
        board[sq] = tile
    words = []
    if new:
        words.append(_run(board, min(new), horizontal, letters))
    for sq in sorted(new):
        cross = _run(board, sq, not horizontal, letters)
        if cross:
            words.append(cross)
    return [w for w in words if w]


def _run(board: list[int], sq: int, horizontal: bool, letters: LetterSet) -> str:
    """The word of two tiles or more through ``sq`` in that direction ("" for a lone tile): a tile
    of several letters counts once."""
    step = 1 if horizontal else SIZE
    row, col = divmod(sq, SIZE)

    def inside(s: int) -> bool:
        return 0 <= s < CELLS and (s // SIZE == row if horizontal else s % SIZE == col)

    start = sq
    while inside(start - step) and board[start - step]:
        start -= step
    names = []
    s = start
    while inside(s) and board[s]:
        names.append(alphabet.char(board[s], letters))
        s += step
    return "".join(names) if len(names) >= 2 else ""


@dataclass(frozen=True)
class Tile:
    letter: str
    value: int
    blank: bool
    new: bool = False
    #: The first new tile after a reliquat: a ``+`` goes before it, as on records.
    after_plus: bool = False


def rack_tiles(rnd: Round, letters: LetterSet = FRENCH) -> list[Tile]:
    """The rack as tiles, reliquat first, new tiles marked (for large display); read as long as the
    round's tiles are (eight in seven among eight)."""
    try:
        rack = parse_rack(rnd.rack, letters, max(alphabet.RACK_SIZE, len(rnd.tiles or ())))
    except NotationError:
        return []
    kept = [_rack_tile(t, letters) for t in rack.reliquat]
    new = [_rack_tile(t, letters, new=True, after_plus=bool(kept) and i == 0) for i, t in enumerate(rack.new)]
    return kept + new


def _rack_tile(code: int, letters: LetterSet, *, new: bool = False, after_plus: bool = False) -> Tile:
    blank = code == alphabet.BLANK
    value = 0 if blank else alphabet.tile_value(code, letters)
    return Tile("" if blank else alphabet.char(code, letters), value, blank, new, after_plus)


def round_top(rnd: Round, board: list[int]) -> tuple[dict | None, list[str]]:
    """The round's top as the room is told it: the one the arbiter placed, and the words it forms on
    ``board`` (the game's board now); none before it is placed (of tied tops the arbiter may place
    another than the proposed one, and a centre of a live simultaneous places the lead's choice), none
    for a cancelled round."""
    top = rnd.placed if rnd.status == Round.Status.PLACED else None
    if not top:
        return None, []
    horizontal = top["ref"][0].isalpha()
    # The top is on the board already: its words are read with its own tiles taken off.
    board = list(board)
    for sq, _tile in top["tiles"]:
        board[sq] = 0
    return top, words_formed(board, top["tiles"], horizontal, rnd.game.tournament.letter_set)
