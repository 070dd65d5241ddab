"""Original games ("parties originales"): the variant of duplicate a game is played in, as a value.

A ``Variant`` travels like the letter set: into every draw, search, score, grade and record that
depends on it, the classic game being the default everywhere.  Rules and sources:
``docs/rules/variants.md``.

* ``CLASSIC``: the rules of ``duplicate.md``.
* ``JOKER``: every rack holds one blank, taken from the bag's own blanks while one is left; a blank
  the top plays as a letter still in the bag is swapped for that letter, which goes on the board,
  and comes back to the rack (``after_top``).
* ``EXPLOSIVE``: racks drawn as in the joker game; a new blank is swapped at the draw for the
  letter it stands for in the best move with the rack, when that letter is in the bag
  (``draw.explode``); otherwise it stays an ordinary blank.
* ``SEVEN_OF_EIGHT``: racks of 8 tiles, moves of at most 7, the bonus for 7.

This module imports no other rule module (``draw``, ``choice`` and the search import it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.alphabet import BLANK, LETTER_MASK, RACK_SIZE, is_blank
from engine.messages import Message, register
from engine.play import Play


class UnknownVariant(ValueError):
    """A variant's code the engine does not know; ``message`` names the ones it does."""

    def __init__(self, code: object):
        known = ", ".join(v.value for v in Variant)
        self.message = Message("variant_unknown", {"code": str(code)[:40], "known": known})
        super().__init__(self.message.text("en"))


class Variant(Enum):
    """The game's variant; the value is its code in records and settings."""

    CLASSIC = "classic"
    JOKER = "joker"
    EXPLOSIVE = "explosive"
    SEVEN_OF_EIGHT = "7of8"

    @classmethod
    def parse(cls, code: object) -> Variant:
        """The variant of that code (any case, spaces around); ``UnknownVariant`` otherwise."""
        if isinstance(code, str):
            for variant in cls:
                if variant.value == code.strip().lower():
                    return variant
        raise UnknownVariant(code)

    @property
    def rack_size(self) -> int:
        """Tiles a rack holds while the bag lasts (§3.1.2): 8 in seven among eight, else 7."""
        return 8 if self is Variant.SEVEN_OF_EIGHT else RACK_SIZE

    @property
    def played_max(self) -> int:
        """The most tiles one move may take from the rack: 7 in every variant."""
        return RACK_SIZE

    @property
    def bingo_size(self) -> int:
        """Tiles a move places to earn the 50-point bonus: 7 in every variant."""
        return RACK_SIZE

    @property
    def limits(self) -> dict[str, int]:
        """The search's and the scorer's keywords: ``Position(..., **variant.limits)``."""
        return {"played_max": self.played_max, "bingo_size": self.bingo_size}

    @property
    def original(self) -> bool:
        """An original game (the FISF's "partie originale"): every variant but the classic game."""
        return self is not Variant.CLASSIC

    @property
    def free_warnings(self) -> int:
        """Warnings free before the end-of-game penalty (§3.4): 5 in original games, else 3."""
        return 5 if self.original else 3

    @property
    def one_blank(self) -> bool:
        """Each rack holds one blank from the bag's own while one is left, never two."""
        return self in (Variant.JOKER, Variant.EXPLOSIVE)

    @property
    def recycles_blank(self) -> bool:
        """A blank the top plays is swapped for its letter from the bag and comes back to the rack."""
        return self is Variant.JOKER

    @property
    def explodes(self) -> bool:
        """A new blank is swapped at the draw for the letter of the best move (``draw.explode``)."""
        return self is Variant.EXPLOSIVE

    @property
    def message(self) -> Message:
        """The variant's name, for the screens and the sheets."""
        return Message(f"variant_{self.value}")


@dataclass(frozen=True)
class AfterTop:
    """What placing the top does in the game's variant: the application stores each part."""

    #: ``(square, tile)`` of each tile that goes on the board, in the play's order: the play's own
    #: tiles, except that a blank swapped for a real tile is that tile (no ``BLANK_FLAG``).
    tiles: tuple[tuple[int, int], ...]
    #: The rack's tiles left for the next round (§3.1.2), in announcement order, blanks back included.
    reliquat: tuple[int, ...]
    #: The bag once the top is placed (sorted): the swapped letters have left it.
    bag: tuple[int, ...]
    #: ``(square, letter)`` of each blank swapped for the bag's real letter.
    replaced: tuple[tuple[int, int], ...] = ()

    @property
    def unplayed(self) -> tuple[int, ...]:
        """The tiles not yet played, bag and reliquat: what the end of the game reads (§3.2)."""
        return self.bag + self.reliquat


def after_top(variant: Variant, rack: Sequence[int], play: Play, bag_tiles: Iterable[int]) -> AfterTop:
    """The top ``play`` placed from ``rack`` (rack codes, ``BLANK`` for a blank) with ``bag_tiles``
    in the bag (after the rack was drawn): the board's new tiles, the reliquat and the bag after.

    Classic, explosive and seven-among-eight games: the play's tiles, the rack minus them, the bag
    unchanged.  Joker game: each blank the play lays as a letter still in the bag (the bag proper,
    not the tiles on the rack) is swapped for that letter, taken from the bag; the letter goes on
    the board in the blank's place and the blank comes back to the reliquat.  The move's score is
    the play's (the blank scored 0); later words read the real letter at its face value.  A blank
    whose letter the bag no longer holds stays on the board as an ordinary blank.
    """
    bag = Counter(bag_tiles)
    left = Counter(rack)
    for _sq, tile in play.tiles:
        need = BLANK if is_blank(tile) else tile
        if not left[need]:
            raise ValueError(f"the play uses a tile the rack lacks: {need}")
        left[need] -= 1
    placed, replaced = [], []
    for sq, tile in play.tiles:
        letter = tile & LETTER_MASK
        if variant.recycles_blank and is_blank(tile) and bag[letter]:
            bag[letter] -= 1
            left[BLANK] += 1
            placed.append((sq, letter))
            replaced.append((sq, letter))
        else:
            placed.append((sq, tile))
    return AfterTop(
        tuple(placed), tuple(sorted(left.elements())), tuple(sorted(bag.elements())), tuple(replaced)
    )


register(
    {
        "variant_classic": {"fr": "Partie classique", "en": "Classic game"},
        "variant_joker": {"fr": "Partie joker", "en": "Joker game"},
        "variant_explosive": {"fr": "Partie explosive", "en": "Explosive game"},
        "variant_7of8": {"fr": "7 sur 8", "en": "Seven among eight"},
        "variant_unknown": {
            "fr": "Variante « {code} » inconnue : ce programme connaît {known}.",
            "en": "Unknown variant '{code}': this program knows {known}.",
        },
    }
)

__all__ = ["AfterTop", "UnknownVariant", "Variant", "after_top"]
