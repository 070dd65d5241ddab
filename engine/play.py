"""``Play``: a legal placement on the board with its score.

Kept apart from whatever a player hands in (the application's submission),
which may be anything.  Two plays are the same placement when they put the
same tiles on the same squares; a one-tile play forms words both ways but is
one placement.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import alphabet
from engine.notation import Ref


@dataclass(frozen=True, slots=True)
class Play:
    ref: Ref
    #: The whole main word as read on the board, blanks (new or old) in lower case.
    word: str
    #: ``(square, tile)`` for each newly placed tile, in reading order.
    tiles: tuple[tuple[int, int], ...]
    score: int

    @property
    def key(self) -> frozenset:
        """The placement's identity: the tiles it puts down, wherever they are read from."""
        return frozenset(self.tiles)

    @property
    def blanks(self) -> int:
        return sum(1 for _, t in self.tiles if alphabet.is_blank(t))

    @property
    def rack_used(self) -> tuple[int, ...]:
        """The rack codes the play consumes (``BLANK`` for each blank)."""
        return tuple(alphabet.BLANK if alphabet.is_blank(t) else t for _, t in self.tiles)

    def __str__(self) -> str:
        return f"{self.ref} {self.word} {self.score}"
