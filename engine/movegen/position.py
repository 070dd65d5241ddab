"""The search's input and output values: a ``Position`` in, its ``Tops`` out."""

from __future__ import annotations

from dataclasses import dataclass

from engine.alphabet import RACK_SIZE
from engine.board import Board
from engine.lexicon import Lexicon
from engine.play import Play


@dataclass(frozen=True, slots=True)
class Position:
    """Everything the search needs, in one value: no module state."""

    board: Board
    rack: tuple[int, ...]
    lexicon: Lexicon
    #: The first move of a game: through H8, horizontal (§3.3.4).  None: the board is empty.
    first_move: bool | None = None
    #: The most tiles a move takes from the rack: no move with more is ever generated (seven among
    #: eight's racks hold 8).  ``Position(..., **variant.limits)`` sets it and ``bingo_size``.
    played_max: int = RACK_SIZE
    #: Tiles a move places to earn the 50-point bonus.
    bingo_size: int = RACK_SIZE

    @property
    def is_first_move(self) -> bool:
        return self.board.is_empty() if self.first_move is None else self.first_move


@dataclass(frozen=True, slots=True)
class Tops:
    """The best score and every distinct placement reaching it (empty when no move exists)."""

    score: int
    plays: tuple[Play, ...]
