"""Reading the reference games into positions (shared by engine tests and benchmarks)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from engine.alphabet import BLANK_FLAG
from engine.board import SIZE, Board
from engine.movegen import Position
from engine.notation import parse_ref, rack_tiles


def place_recorded(board: Board, ref: str, word: str) -> None:
    """Put a recorded top on the board: lower case marks a blank (§1.3)."""
    r = parse_ref(ref)
    step = 1 if r.horizontal else SIZE
    for i, ch in enumerate(word):
        sq = r.square + i * step
        if not board.cells[sq]:
            board.cells[sq] = (ord(ch.upper()) - 64) | (BLANK_FLAG if ch.islower() else 0)


def reference_positions(folder: Path, lexicon) -> Iterator[tuple[str, int, Position, dict]]:
    """``(file name, round number, position, recorded round)`` for every round of every game."""
    for path in sorted(folder.glob("*.json")):
        game = json.loads(path.read_text(encoding="utf-8"))
        board = Board()
        for number, recorded in enumerate(game["rounds"], 1):
            rack = rack_tiles(recorded["rack"])
            yield path.name, number, Position(board.copy(), rack, lexicon, first_move=number == 1), recorded
            place_recorded(board, recorded["ref"], recorded["word"])
