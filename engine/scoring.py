"""One move placed and scored, independently of the move generator (rules §1.3, §2).

``evaluate`` takes a reference and the whole main word as board tiles and
returns either a ``Play`` (legal, scored) or an ``Illegal`` listing every
problem found.  It is written for clarity: the fast generator in ``movegen``
is checked against it on every move it produces, and grading uses
``word_placements`` to find where a player's word fits and what it scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from engine.alphabet import BLANK, BLANK_FLAG, LETTER_MASK, RACK_SIZE, LetterSet, letter_of, tile_value
from engine.board import CENTER, LETTER_MULT, SIZE, WORD_MULT, Board, square_name
from engine.lexicon import Lexicon
from engine.messages import Message, register
from engine.notation import Ref, format_word
from engine.play import Play

#: Placing every tile of a full rack ("scrabble", §2); 7 tiles of 8 in seven among eight.
BINGO_BONUS = 50


class Reason(Enum):
    """Why a placement is not a legal move; the value is the message code's suffix."""

    OFF_BOARD = "off_board"
    CONTRADICTS_BOARD = "contradicts_board"
    NOT_WHOLE_WORD = "not_whole_word"
    NO_NEW_TILE = "no_new_tile"
    FIRST_NOT_ON_CENTER = "first_not_on_center"
    NOT_CONNECTED = "not_connected"
    NO_WORD = "no_word"
    NOT_IN_RACK = "not_in_rack"
    WORD_NOT_IN_LEXICON = "word_not_in_lexicon"
    CROSSWORD_NOT_IN_LEXICON = "crossword_not_in_lexicon"
    #: More tiles than a move may take from the rack (seven among eight: 8 of 8).
    TOO_MANY_TILES = "too_many_tiles"

    @property
    def code(self) -> str:
        return f"move_{self.value}"


_REASON_ORDER = {reason: i for i, reason in enumerate(Reason)}


@dataclass(frozen=True, slots=True)
class Problem:
    reason: Reason
    message: Message


def _problem(reason: Reason, **params) -> Problem:
    return Problem(reason, Message(reason.code, params))


@dataclass(frozen=True, slots=True)
class Illegal:
    """A placement that is not a legal move, with every problem found (in ``Reason`` order)."""

    problems: tuple[Problem, ...]

    @property
    def reasons(self) -> frozenset[Reason]:
        return frozenset(p.reason for p in self.problems)

    def first(self, order: Sequence[Reason]) -> Problem:
        """The problem whose reason comes first in ``order``; reasons not listed come last."""
        rank = {reason: i for i, reason in enumerate(order)}
        return min(self.problems, key=lambda p: rank.get(p.reason, len(rank)))


# -- geometry -----------------------------------------------------------------


def _neighbour(sq: int, horizontal: bool, delta: int) -> int | None:
    """The square ``delta`` steps along the line (None past the edge)."""
    row, col = divmod(sq, SIZE)
    if horizontal:
        col += delta
    else:
        row += delta
    if 0 <= row < SIZE and 0 <= col < SIZE:
        return row * SIZE + col
    return None


def _word_squares(ref: Ref, length: int) -> list[int] | None:
    """The squares a word of ``length`` letters covers from ``ref``, or None if it leaves the board."""
    last_row = ref.row + (0 if ref.horizontal else length - 1)
    last_col = ref.col + (length - 1 if ref.horizontal else 0)
    if not (0 <= ref.row <= last_row < SIZE and 0 <= ref.col <= last_col < SIZE):
        return None
    step = 1 if ref.horizontal else SIZE
    return [ref.square + i * step for i in range(length)]


def _run(cells: Sequence[int], sq: int, horizontal: bool) -> list[int]:
    """The squares of the unbroken line of tiles through ``sq`` (``sq`` itself counted as covered)."""
    start = sq
    while (before := _neighbour(start, horizontal, -1)) is not None and cells[before]:
        start = before
    squares = [start]
    while (after := _neighbour(squares[-1], horizontal, 1)) is not None and (after == sq or cells[after]):
        squares.append(after)
    return squares


def _ref_of(sq: int, horizontal: bool) -> Ref:
    row, col = divmod(sq, SIZE)
    return Ref(row, col, horizontal)


# -- checks -----------------------------------------------------------------


def _check_codes(tiles: Sequence[int], letters: LetterSet) -> None:
    if not tiles:
        raise ValueError("a word has at least one letter")
    for t in tiles:
        if t & ~(LETTER_MASK | BLANK_FLAG) or not _is_letter(letter_of(t), letters):
            raise ValueError(f"not a board tile code: {t!r}")


def _is_letter(c: int, letters: LetterSet) -> bool:
    return c != BLANK and bool(letters.names[c])


def _contradictions(
    board: Board, squares: list[int], tiles: Sequence[int], letters: LetterSet
) -> list[Problem]:
    """A letter of the word that differs from the board's (a blank's flag does not matter)."""
    return [
        _problem(
            Reason.CONTRADICTS_BOARD,
            square=square_name(sq),
            board=letters.name(letter_of(board.cells[sq])),
            given=letters.name(letter_of(t)),
        )
        for sq, t in zip(squares, tiles, strict=True)
        if board.cells[sq] and letter_of(board.cells[sq]) != letter_of(t)
    ]


def _extension_problems(
    board: Board, ref: Ref, squares: list[int], read: list[int], letters: LetterSet
) -> list[Problem]:
    """A tile right before or after the word makes the word read on the board longer (§1.3)."""
    problems = []
    for end, delta in ((squares[0], -1), (squares[-1], 1)):
        beyond = _neighbour(end, ref.horizontal, delta)
        if beyond is not None and board.cells[beyond]:
            cells = list(board.cells)
            for sq, t in zip(squares, read, strict=True):
                cells[sq] = t
            whole = format_word((cells[sq] for sq in _run(cells, squares[0], ref.horizontal)), letters)
            problems.append(_problem(Reason.NOT_WHOLE_WORD, square=square_name(beyond), read=whole))
    return problems


def _connection_problems(board: Board, squares: list[int], new: dict[int, int]) -> list[Problem]:
    """The first move covers H8; later ones touch the board, through it or beside it (§2)."""
    if not new:
        return [_problem(Reason.NO_NEW_TILE)]
    if board.is_empty():
        return [] if CENTER in squares else [_problem(Reason.FIRST_NOT_ON_CENTER)]
    if len(new) < len(squares):
        return []
    for sq in new:
        for horizontal in (True, False):
            for delta in (-1, 1):
                near = _neighbour(sq, horizontal, delta)
                if near is not None and board.cells[near]:
                    return []
    return [_problem(Reason.NOT_CONNECTED)]


def _rack_problems(new_tiles: Iterable[int], rack: Sequence[int], letters: LetterSet) -> list[Problem]:
    """Each new tile takes its letter from the rack, or a blank if it is played as one."""
    left = Counter(rack)
    missing = []
    for t in new_tiles:
        need = BLANK if t & BLANK_FLAG else t
        if left[need]:
            left[need] -= 1
        else:
            missing.append(letters.name(need))
    if not missing:
        return []
    return [_problem(Reason.NOT_IN_RACK, letters=", ".join(missing))]


def _cross_words(board: Board, horizontal: bool, new: dict[int, int]) -> list[list[int]]:
    """For each new tile, the perpendicular word through it when it has 2 letters or more."""
    words = []
    for sq in new:
        squares = _run(board.cells, sq, not horizontal)
        if len(squares) > 1:
            words.append(squares)
    return words


def _letters(board: Board, squares: list[int], new: dict[int, int]) -> tuple[int, ...]:
    return tuple(letter_of(new.get(sq) or board.cells[sq]) for sq in squares)


def _crossword_problems(
    board: Board, lexicon: Lexicon, horizontal: bool, crosses: list[list[int]], new: dict[int, int]
) -> list[Problem]:
    problems = []
    for squares in crosses:
        letters = _letters(board, squares, new)
        if letters not in lexicon:
            word, ref = lexicon.letters.word(letters), str(_ref_of(squares[0], horizontal))
            problems.append(_problem(Reason.CROSSWORD_NOT_IN_LEXICON, word=word, ref=ref))
    return problems


# -- scoring ------------------------------------------------------------------


def _word_score(board: Board, squares: list[int], new: dict[int, int], letters: LetterSet) -> int:
    """Letter premiums of new tiles first, then word premiums of newly covered squares (§2)."""
    total, multiplier = 0, 1
    for sq in squares:
        if sq in new:
            total += tile_value(new[sq], letters) * LETTER_MULT[sq]
            multiplier *= WORD_MULT[sq]
        else:
            total += tile_value(board.cells[sq], letters)
    return total * multiplier


def _score(
    board: Board,
    main: list[int],
    crosses: list[list[int]],
    new: dict[int, int],
    letters: LetterSet,
    bingo_size: int = RACK_SIZE,
) -> int:
    score = _word_score(board, main, new, letters) if len(main) > 1 else 0
    score += sum(_word_score(board, squares, new, letters) for squares in crosses)
    return score + (BINGO_BONUS if len(new) == bingo_size else 0)


# -- the public API ---------------------------------------------------------


def evaluate(
    board: Board,
    lexicon: Lexicon,
    ref: Ref,
    tiles: Sequence[int],
    rack: Sequence[int] | None = None,
    *,
    played_max: int = RACK_SIZE,
    bingo_size: int = RACK_SIZE,
) -> Play | Illegal:
    """Place the whole main word ``tiles`` (board tile codes) at ``ref``; score it or say what is wrong.

    On a covered square the board's tile counts (a blank there stays a blank);
    the squares newly covered get the given tiles.  With ``rack`` (rack codes),
    the new tiles must come from it.  A one-letter main word is no word: it is
    neither scored nor looked up, and the move must then form a cross word.
    A move places at most ``played_max`` tiles and earns the bonus for ``bingo_size``
    (``Variant.limits``: 7 and 7 in every variant, seven among eight's racks holding 8).
    """
    tiles = tuple(tiles)
    letters = lexicon.letters
    _check_codes(tiles, letters)
    problems = []
    # The main word is looked up whatever the geometry, so grading can report it first (§3.4).
    if len(tiles) > 1 and tuple(letter_of(t) for t in tiles) not in lexicon:
        problems.append(_problem(Reason.WORD_NOT_IN_LEXICON, word=letters.word(tiles)))
    squares = _word_squares(ref, len(tiles))
    if squares is None:
        return _illegal([_problem(Reason.OFF_BOARD, ref=str(ref)), *problems])
    clashes = _contradictions(board, squares, tiles, letters)
    if clashes:
        return _illegal(clashes + problems)
    read = [board.cells[sq] or t for sq, t in zip(squares, tiles, strict=True)]
    new = {sq: t for sq, t in zip(squares, tiles, strict=True) if not board.cells[sq]}
    problems += _extension_problems(board, ref, squares, read, letters)
    problems += _connection_problems(board, squares, new)
    crosses = _cross_words(board, ref.horizontal, new)
    if len(squares) < 2 and not crosses:
        problems.append(_problem(Reason.NO_WORD))
    if rack is not None:
        problems += _rack_problems(new.values(), rack, letters)
    if len(new) > played_max:
        problems.append(_problem(Reason.TOO_MANY_TILES, most=played_max, count=len(new)))
    problems += _crossword_problems(board, lexicon, not ref.horizontal, crosses, new)
    if problems:
        return _illegal(problems)
    score = _score(board, squares, crosses, new, letters, bingo_size)
    return Play(ref, format_word(read, letters), tuple(new.items()), score)


def _illegal(problems: list[Problem]) -> Illegal:
    return Illegal(tuple(sorted(problems, key=lambda p: _REASON_ORDER[p.reason])))


def apply(board: Board, play: Play) -> None:
    """Put the play's new tiles on the board."""
    board.place(play.tiles)


def word_placements(
    board: Board,
    lexicon: Lexicon,
    letters: Sequence[int],
    rack: Sequence[int],
    *,
    first_move: bool = False,
    refs: Iterable[Ref] | None = None,
    played_max: int = RACK_SIZE,
    bingo_size: int = RACK_SIZE,
) -> list[Play]:
    """Every legal placement of the word ``letters`` (tile codes of the lexicon's set) with tiles
    from ``rack``.

    Every reference in both directions (only horizontal for the first move,
    §3.3.4), and every choice of new letters played with blanks, whether or
    not the rack holds the real letter.  A one-tile placement that reads the
    word both ways appears once per direction (same ``key``, two references).
    ``refs`` limits the search to those references (the placements found there
    are the same): grading a slip at its own reference needs no other.  A placement of more than
    ``played_max`` tiles is no move (seven among eight); ``bingo_size`` tiles earn the bonus.
    """
    letters = tuple(letters)
    rack = tuple(rack)
    if any(not 0 < c < BLANK_FLAG or not _is_letter(c, lexicon.letters) for c in letters):
        raise ValueError("the word is given as plain tile codes of the lexicon's set")
    most = lexicon.letters.counts[BLANK]
    if rack.count(BLANK) > most:
        raise ValueError(f"a rack holds at most {most} blanks")
    if len(letters) < 2 or letters not in lexicon:
        return []
    if refs is None:
        refs = _centre_refs(len(letters)) if first_move and board.is_empty() else _refs(first_move)
    else:
        refs = [r for r in refs if _allowed(r, first_move)]
    plays = []
    for ref in refs:
        free = _free_positions(board, ref, letters, min(len(rack), played_max))
        if free is None:
            continue
        for blanks in _blank_choices(letters, free, rack):
            tiles = [c | BLANK_FLAG if i in blanks else c for i, c in enumerate(letters)]
            result = evaluate(board, lexicon, ref, tiles, rack, played_max=played_max, bingo_size=bingo_size)
            if isinstance(result, Illegal):
                # Geometry and words do not depend on the blanks: no other choice can succeed.
                break
            plays.append(result)
    return plays


def _allowed(ref: Ref, first_move: bool) -> bool:
    """Whether ``_refs`` would give ``ref``."""
    return (ref.horizontal or not first_move) and 0 <= ref.row < SIZE and 0 <= ref.col < SIZE


def _centre_refs(length: int) -> list[Ref]:
    """On the empty board only a move covering H8 is legal (§2): the references of the word's length
    that cover it (the others would be tried and refused, 15 times as many)."""
    row, col = divmod(CENTER, SIZE)
    return [Ref(row, c, True) for c in range(max(0, col - length + 1), min(col, SIZE - length) + 1)]


def _refs(first_move: bool) -> Iterator[Ref]:
    for horizontal in (True, False) if not first_move else (True,):
        for row in range(SIZE):
            for col in range(SIZE):
                yield Ref(row, col, horizontal)


def _free_positions(board: Board, ref: Ref, letters: tuple[int, ...], most: int) -> list[int] | None:
    """Indexes in the word of the squares still empty, or None when the word cannot go there."""
    squares = _word_squares(ref, len(letters))
    if squares is None:
        return None
    free = []
    for i, (sq, c) in enumerate(zip(squares, letters, strict=True)):
        if not board.cells[sq]:
            free.append(i)
        elif letter_of(board.cells[sq]) != c:
            return None
    return free if 0 < len(free) <= most else None


def _blank_choices(letters: tuple[int, ...], free: list[int], rack: Sequence[int]) -> Iterator[frozenset]:
    """Sets of word indexes played with blanks such that the rack holds the other new letters."""
    have = Counter(rack)
    for k in range(min(have[BLANK], len(free)) + 1):
        for chosen in combinations(free, k):
            real = Counter(letters[i] for i in free if i not in chosen)
            if real <= have:
                yield frozenset(chosen)


_FR_EN = {
    Reason.OFF_BOARD: ("Le mot sort de la grille.", "The word runs off the board."),
    Reason.CONTRADICTS_BOARD: (
        "En {square} la grille porte un {board}, pas un {given}.",
        "On {square} the board holds {board}, not {given}.",
    ),
    Reason.NOT_WHOLE_WORD: (
        "La case {square} est occupée : sur la grille le mot se lirait {read}.",
        "Square {square} is covered: on the board the word would read {read}.",
    ),
    Reason.NO_NEW_TILE: (
        "Le coup ne pose aucune lettre nouvelle.",
        "The move places no new tile.",
    ),
    Reason.FIRST_NOT_ON_CENTER: (
        "Le premier coup doit passer par la case centrale H8.",
        "The first move must cover the centre square H8.",
    ),
    Reason.NOT_CONNECTED: (
        "Le mot ne touche aucune lettre déjà posée.",
        "The word touches no tile already on the board.",
    ),
    Reason.NO_WORD: (
        "Le coup ne forme aucun mot d'au moins deux lettres.",
        "The move forms no word of two letters or more.",
    ),
    Reason.NOT_IN_RACK: (
        "Lettres absentes du tirage : {letters}.",
        "Letters not in the rack: {letters}.",
    ),
    Reason.WORD_NOT_IN_LEXICON: (
        "Le mot {word} n'est pas dans le dictionnaire.",
        "The word {word} is not in the dictionary.",
    ),
    Reason.CROSSWORD_NOT_IN_LEXICON: (
        "Le mot croisé {word} ({ref}) n'est pas dans le dictionnaire.",
        "The cross word {word} ({ref}) is not in the dictionary.",
    ),
    Reason.TOO_MANY_TILES: (
        "Un coup pose au plus {most} lettres du tirage (ici {count}).",
        "A move places at most {most} tiles from the rack (here {count}).",
    ),
}

register({reason.code: {"fr": fr, "en": en} for reason, (fr, en) in _FR_EN.items()})


__all__ = [
    "BINGO_BONUS",
    "Illegal",
    "Problem",
    "Reason",
    "apply",
    "evaluate",
    "word_placements",
]
