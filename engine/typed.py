"""Racks drawn from a physical bag and typed by the arbiter (rules §3.1).

Many clubs draw real tiles.  After a round the reliquat stays on the rack and only the new letters
are typed (``BLRN``; the whole rack ``AEI+BLRN`` or ``AEIBLRN`` is read too).  A rack that misses the
minimum (§3.1.4) or allows no move (§3.1.5) is a rejection: every tile, reliquat included, goes back
to the bag and seven new tiles are drawn, typed with a leading ``-`` as the record writes them
(``-AAABBCC``).  After a rejection or a cancelled round (§3.1.6) the rack is seven new tiles: the
reliquat has gone back (``fresh``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.alphabet import FRENCH, RACK_SIZE, LetterSet
from engine.draw import (
    Bag,
    HasMove,
    Rejection,
    check_typed_rack,
    rejection_for,
    required_minimum,
)
from engine.messages import Message, register
from engine.notation import RackText, parse_rack


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
) -> TypedRack:
    """What the arbiter typed for round ``round_number``, with the last round's ``reliquat`` still on
    the rack and ``bag`` as it is before this draw.  ``fresh``: the reliquat has gone back already
    (a rejection or a cancelled round), so the rack is seven new tiles.  Raises ``TypedRackError``
    (or ``NotationError`` for text that is no rack) when the table cannot have drawn it.  The bag's
    letter set reads the text: a tile of several characters is typed in brackets (``[CH]``)."""
    letters = bag.letters
    rack = parse_rack(text, letters)
    if fresh and rack.reliquat:
        raise TypedRackError(Message("typed_all_new"))
    if fresh or rack.rejected:
        pool = Bag(bag.tiles() + tuple(reliquat), letters) if not fresh else bag
        kept, new, rejected = (), rack.tiles, True
    else:
        pool = bag
        kept, new = _split(rack, tuple(reliquat), len(bag), letters)
        rejected = False
    problems = check_typed_rack(kept, new, pool)
    if problems:
        raise TypedRackError(problems[0])
    tiles = kept + new
    reason = rejection_for(tiles, required_minimum(round_number, pool.tiles() + kept, letters), letters)
    if reason is None and has_move is not None and not has_move(tiles):
        reason = Rejection.NO_MOVE
    return TypedRack(kept, new, rejected, reason, letters)


def _split(
    rack: RackText, reliquat: tuple[int, ...], in_bag: int, letters: LetterSet
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
    drawn = min(RACK_SIZE - len(reliquat), in_bag)
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
        "typed_reliquat": {
            "fr": "Le reliquat sur le chevalet est {kept}, pas {typed} : saisissez seulement les nouvelles "
            "lettres.",
            "en": "The reliquat on the rack is {kept}, not {typed}: type only the new tiles.",
        },
    }
)
