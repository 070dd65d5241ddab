"""Reading the reference games into positions (shared by engine tests)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from engine import record
from engine.movegen import Position
from engine.scoring import apply


def reference_positions(folder: Path, lexicon) -> Iterator[tuple[str, int, Position, dict]]:
    """``(file name, round number, position, recorded round)`` for every round of every game; the
    board of each round holds the earlier tops, replayed and checked by ``engine.record``."""
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        game = record.check(record.parse(data), lexicon)
        board = game.board_after(0)
        for number, (recorded, play) in enumerate(zip(data["rounds"], game.plays), 1):
            tiles = game.record.rounds[number - 1].rack.tiles
            yield path.name, number, Position(board.copy(), tiles, lexicon, first_move=number == 1), recorded
            apply(board, play)
