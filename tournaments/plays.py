"""A ``Play`` (the engine's placement) as stored in JSON columns: a round's tops and the top placed."""

from __future__ import annotations

from engine.notation import Ref, parse_ref
from engine.play import Play


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
