"""One round seen again: the position before it, its top and the words the top formed, the best
placements, and a player's slip as sent and as graded, the player's own move marked among the best.
Built from plain data (a board, a rack, the top), so that a club's game (``review.reads``) and a
training game (``training``) are reviewed alike."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.core.cache import cache

from engine.alphabet import FRENCH, LetterSet
from engine.board import Board
from engine.draw import bag_left
from engine.grading import Grade
from engine.lexicon import Lexicon
from engine.movegen import Position, find_best
from engine.play import Play
from engine.ranking import percent, rounded
from engine.variants import Variant
from tournaments.boards import Cell, board_cells, words_formed
from tournaments.plays import board_tiles, play_from_json, play_json

#: Placements listed for each round (the ten best), every tie at the last score with them.
BEST_COUNT = 10
#: The best placements of a position never change: kept a day, so a room reviewing at once pays once.
BEST_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Placement:
    """One of the best placements, as listed."""

    ref: str
    word: str
    score: int
    #: The top placed on the board this round.
    placed: bool = False
    #: The player's own move (the slip as graded).
    mine: bool = False


@dataclass(frozen=True)
class Slip:
    """A player's slip: as sent, and what it was paid (and why)."""

    sent: str
    paid: int
    sanction: str
    #: Why it was paid so, in the reader's language.
    said: str


@dataclass(frozen=True)
class RoundView:
    number: int
    rack: str
    #: Rejected racks before this one, with why (§3.1.4).
    rejections: list[tuple[str, str]]
    #: The board the players saw (the tops of the rounds before), this round's top on it, marked.
    board: list[Cell]
    top: dict
    top_words: list[str]
    best: list[Placement]
    slip: Slip | None = None
    #: The player's paid score as a percentage of the round's top.
    percent: Decimal | None = None
    #: The player's move is among the best listed.
    listed: bool = False

    @property
    def found_top(self) -> bool:
        return self.slip is not None and self.slip.paid == self.top["score"]


def best_placements(
    key: str,
    board: Board,
    rack: tuple[int, ...],
    lexicon: Lexicon,
    first: bool,
    variant: Variant = Variant.CLASSIC,
) -> list[Play]:
    """The best placements of a position (``engine.movegen.find_best``) in the game's ``variant``,
    kept in the cache under ``key``, which must name the position (a round's id, a record's checksum
    and round)."""
    stored = cache.get(key)
    if stored is not None:
        return [play_from_json(data) for data in stored]
    board_tiles = [tile for tile in board.cells if tile]
    bag = bag_left(board_tiles, rack, lexicon.letters)
    position = Position(board, rack, lexicon, first_move=first, **variant.limits)
    found = find_best(position, BEST_COUNT, bag=bag, variant=variant)
    cache.set(key, [play_json(play) for play in found], BEST_SECONDS)
    return found


def round_view(
    *,
    number: int,
    rack: str,
    rejections: list[tuple[str, str]],
    board: Board,
    top: dict,
    best: list[Play],
    grade: Grade | None = None,
    slip: Slip | None = None,
    letters: LetterSet = FRENCH,
) -> RoundView:
    """The round as reviewed.  ``grade``: the player's slip graded on this position (its ``play``
    marks the player's own move among the best); ``slip``: how it was sent and paid."""
    top_play = play_from_json(top)
    mine = grade.play.key if grade is not None and grade.play is not None else None
    listed = [
        Placement(str(p.ref), p.word, p.score, placed=p.key == top_play.key, mine=p.key == mine) for p in best
    ]
    horizontal = top["ref"][0].isalpha()
    after = list(board.cells)
    for sq, tile in board_tiles(top):  # a joker game's blank swapped for its letter: the letter
        after[sq] = tile
    return RoundView(
        number=number,
        rack=rack,
        rejections=rejections,
        board=board_cells(after, last=top["tiles"], letters=letters),
        top=top,
        top_words=words_formed(board.cells, top["tiles"], horizontal, letters),
        best=listed,
        slip=slip,
        percent=rounded(percent(slip.paid, top["score"])) if slip is not None else None,
        listed=any(p.mine for p in listed),
    )
