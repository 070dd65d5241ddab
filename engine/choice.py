"""Which of the tied tops goes on the board (rules §3.3.5).

The rules fix two preferences and leave the rest to the arbiter:

1. a move that uses no blank, if one exists (we extend it: fewest blanks first);
2. among those, a move that ends the game, if one exists;
3. otherwise the application proposes, deterministically: the move whose
   reference comes first in reading order (row A to O, then column 1 to 15,
   horizontal before vertical), then the word in alphabetical order.

The arbiter may always place another of the tied moves: ``ranked`` gives them
all, the proposal first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.alphabet import FRENCH, LetterSet
from engine.draw import game_over, remaining_after
from engine.play import Play
from engine.variants import Variant, after_top


def ends_game(
    play: Play,
    rack: Sequence[int],
    bag_tiles: Iterable[int],
    letters: LetterSet = FRENCH,
    variant: Variant = Variant.CLASSIC,
) -> bool:
    """Whether the game is over once ``play`` is placed: the tiles left unplayed
    (the bag and the reliquat) meet an end condition of §3.2 (vowels as ``letters`` says); in a
    joker game, once a played blank is swapped for its letter (``variants.after_top``)."""
    if variant.recycles_blank:
        unplayed = after_top(variant, rack, play, bag_tiles).unplayed
    else:
        unplayed = (*bag_tiles, *remaining_after(rack, play.rack_used, letters))
    return game_over(unplayed, letters, variant) is not None


def ranked(
    plays: Iterable[Play],
    rack: Sequence[int],
    bag_tiles: Iterable[int] | None,
    letters: LetterSet = FRENCH,
    variant: Variant = Variant.CLASSIC,
) -> list[Play]:
    """The tied tops in order of preference; the first is the proposal.

    ``bag_tiles`` None: the bag is not known, so the second rule (a move that
    ends the game) is left out and the others apply as they are.
    """
    bag = None if bag_tiles is None else tuple(bag_tiles)

    def preference(play: Play):
        ref = play.ref
        ends = bag is not None and ends_game(play, rack, bag, letters, variant)
        return (play.blanks, not ends, ref.row, ref.col, not ref.horizontal, play.word)

    return sorted(plays, key=preference)


def choose(
    plays: Iterable[Play],
    rack: Sequence[int],
    bag_tiles: Iterable[int],
    letters: LetterSet = FRENCH,
    variant: Variant = Variant.CLASSIC,
) -> Play | None:
    """The proposed top among tied moves, or None when there is none."""
    order = ranked(plays, rack, bag_tiles, letters, variant)
    return order[0] if order else None
