"""A ``Play`` (the engine's placement) as stored in JSON columns: a round's tops and the top placed,
and what placing it did to the board and the rack (``Round.placed``)."""

from __future__ import annotations

from engine.alphabet import LetterSet
from engine.draw import remaining_after
from engine.notation import Ref, parse_ref
from engine.play import Play
from engine.variants import AfterTop


def play_json(play: Play) -> dict:
    return {
        "ref": str(play.ref),
        "word": play.word,
        "tiles": [list(t) for t in play.tiles],
        "score": play.score,
    }


def play_from_json(data: dict) -> Play:
    ref: Ref = parse_ref(data["ref"])
    return Play(ref, data["word"], tuple((sq, tile) for sq, tile in data["tiles"]), data["score"])


def placed_json(top: dict, after: AfterTop | None) -> dict:
    """The top as ``Round.placed`` keeps it: with what placing it did (``after``) in an original
    game, the top alone in a classic one (as rows made before the variants)."""
    if after is None:
        return dict(top)
    return {**top, "board": [list(t) for t in after.tiles], "reliquat": list(after.reliquat)}


def board_tiles(placed: dict) -> list:
    """The ``[square, tile]`` a placed top put on the board: a joker game's blank swapped for its
    letter is that letter (``placed_json``); else the top's own tiles."""
    return placed.get("board", placed["tiles"])


def reliquat_after(rack: list[int], placed: dict | None, letters: LetterSet) -> tuple[int, ...]:
    """The tiles a placed top left for the next rack (§3.1.2), the blank come back included in a joker
    game; ``placed`` None: the whole ``rack``."""
    if placed is None:
        return tuple(rack)
    if "reliquat" in placed:
        return tuple(placed["reliquat"])
    return remaining_after(rack, play_from_json(placed).rack_used, letters)
