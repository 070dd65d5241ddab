"""The search's input and output values: a ``Position`` in, its ``Tops`` out."""

from __future__ import annotations

from dataclasses import dataclass

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

    @property
    def is_first_move(self) -> bool:
        return self.board.is_empty() if self.first_move is None else self.first_move


@dataclass(frozen=True, slots=True)
class Tops:
    """The best score and every distinct placement reaching it (empty when no move exists)."""

    score: int
    plays: tuple[Play, ...]
