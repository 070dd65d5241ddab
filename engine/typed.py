"""Racks drawn from a physical bag and typed by the arbiter (rules §3.1).

Many clubs draw real tiles.  After a round the reliquat stays on the rack and only the new letters
are typed (``BLRN``; the whole rack ``AEI+BLRN`` or ``AEIBLRN`` is read too).  A rack that misses the
minimum (§3.1.4) or allows no move (§3.1.5) is a rejection: every tile, reliquat included, goes back
to the bag and seven new tiles are drawn, typed with a leading ``-`` as the record writes them
(``-AAABBCC``).  After a rejection or a cancelled round (§3.1.6) the rack is seven new tiles: the
reliquat has gone back (``fresh``).  The game's variant sets the rack's size (eight tiles in seven
among eight) and, in the joker and explosive games, asks for the blank in every rack while one is
left; an explosive game's rack is typed as drawn, blank included, and ``draw.explode`` swaps it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.alphabet import FRENCH, LetterSet
from engine.draw import (
    Bag,
    HasMove,
    Rejection,
    check_typed_rack,
    drawable,
    rejection_for,
    required_minimum,
)
from engine.messages import Message, register
from engine.notation import RackText, parse_rack
from engine.variants import Variant


class TypedRackError(ValueError):
    """A typed rack the table cannot have drawn; ``message`` says why."""

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.text("en"))


@dataclass(frozen=True)
class TypedRack:
    """A typed rack read against the table: the reliquat kept, the new tiles, and whether it must be
    rejected (``rejection``), in which case every one of its tiles goes back to the bag."""

    reliquat: tuple[int, ...]
    new: tuple[int, ...]
    #: Drawn after every tile of an earlier rack went back: ``-`` on the record.
    rejected: bool
    rejection: Rejection | None = None
    letters: LetterSet = FRENCH

    @property
    def tiles(self) -> tuple[int, ...]:
        return self.reliquat + self.new

    @property
    def text(self) -> str:
        return str(RackText(self.reliquat, self.new, self.rejected, self.letters))


def read_typed_rack(
    text: str,
    reliquat: tuple[int, ...],
    bag: Bag,
    round_number: int,
    *,
    fresh: bool = False,
    has_move: HasMove | None = None,
    variant: Variant = Variant.CLASSIC,
) -> TypedRack:
    """What the arbiter typed for round ``round_number``, with the last round's ``reliquat`` still on
    the rack and ``bag`` as it is before this draw.  ``fresh``: the reliquat has gone back already
    (a rejection or a cancelled round), so the rack is seven new tiles (eight in seven among
    eight); ``variant``: the game's.  Raises ``TypedRackError``
    (or ``NotationError`` for text that is no rack) when the table cannot have drawn it.  The bag's
    letter set reads the text: a tile of several characters is typed in brackets (``[CH]``)."""
    letters = bag.letters
    rack = parse_rack(text, letters, variant.rack_size)
    if fresh and rack.reliquat:
        if variant.rack_size == 7:
            raise TypedRackError(Message("typed_all_new"))
        raise TypedRackError(Message("typed_all_new_most", {"most": variant.rack_size}))
    if fresh or rack.rejected:
        pool = Bag(bag.tiles() + tuple(reliquat), letters) if not fresh else bag
        kept, new, rejected = (), rack.tiles, True
    else:
        pool = bag
        in_bag = len(drawable(bag.tiles() + tuple(reliquat), variant)) - len(reliquat)
        kept, new = _split(rack, tuple(reliquat), in_bag, letters, variant.rack_size)
        rejected = False
    problems = check_typed_rack(kept, new, pool, variant=variant)
    if problems:
        raise TypedRackError(problems[0])
    tiles = kept + new
    minimum = required_minimum(round_number, pool.tiles() + kept, letters, variant)
    reason = rejection_for(tiles, minimum, letters)
    if reason is None and has_move is not None and not has_move(tiles):
        reason = Rejection.NO_MOVE
    return TypedRack(kept, new, rejected, reason, letters)


def _split(
    rack: RackText, reliquat: tuple[int, ...], in_bag: int, letters: LetterSet, rack_size: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(reliquat, new tiles) of a rack typed without ``-``: ``AEI+BLRN`` (the reliquat must be the
    table's), the new letters alone ``BLRN``, or the whole rack ``AEIBLRN``."""
    if rack.reliquat:
        if Counter(rack.reliquat) != Counter(reliquat):
            raise TypedRackError(
                Message(
                    "typed_reliquat",
                    {"typed": _word(rack.reliquat, letters), "kept": _word(reliquat, letters)},
                )
            )
        return reliquat, rack.new
    letters = rack.tiles
    drawn = min(rack_size - len(reliquat), in_bag)
    if reliquat and len(letters) == len(reliquat) + drawn and not Counter(reliquat) - Counter(letters):
        new = list(letters)  # the whole rack typed: its new tiles, in the order typed
        for tile in reliquat:
            new.remove(tile)
        return reliquat, tuple(new)
    return reliquat, letters


def _word(tiles, letters: LetterSet) -> str:
    return str(RackText((), tuple(tiles), False, letters)) or "—"


register(
    {
        "typed_all_new": {
            "fr": "Toutes les lettres sont revenues au sac : saisissez les sept nouvelles lettres, "
            "précédées de - (ex. -AEIBLRN).",
            "en": "Every tile went back to the bag: type the seven new tiles, after a - (e.g. -AEIBLRN).",
        },
        "typed_all_new_most": {
            "fr": "Toutes les lettres sont revenues au sac : saisissez les {most} nouvelles lettres, "
            "précédées de - (ex. -AEIBLRNS).",
            "en": "Every tile went back to the bag: type the {most} new tiles, after a - (e.g. -AEIBLRNS).",
        },
        "typed_reliquat": {
            "fr": "Le reliquat sur le chevalet est {kept}, pas {typed} : saisissez seulement les nouvelles "
            "lettres.",
            "en": "The reliquat on the rack is {kept}, not {typed}: type only the new tiles.",
        },
    }
)
