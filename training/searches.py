"""What training asks of the engine that takes time: a game played from a seed by the rules (a tenth
of a second to most of one), and the best placements of every round of a game (a few milliseconds a
round).  Plain data in, plain data out, no Django: ``training.worker`` runs them in a process of its
own, at a low priority, so that a stranger's training never holds the live room's threads."""

from __future__ import annotations

from pathlib import Path

from engine import record as engine_record
from engine.board import Board
from engine.cli import play_game
from engine.draw import bag_left
from engine.lettersets import letter_set
from engine.lexicon import Lexicon
from engine.movegen import Position, find_best
from tournaments.plays import play_json

#: Placements listed for each round: the top and the nine next (review.rounds.BEST_COUNT).
BEST_COUNT = 10

#: The lists this process has loaded, by file: each worker process keeps its own.
_lexicons: dict[tuple[str, str, str], Lexicon] = {}


def lexicon_at(path: str, name: str, letters: str = "fr") -> Lexicon:
    """The word list in ``path``, of the letter set ``letters``, loaded once per process (the graph
    from the disk cache)."""
    key = (path, name, letters)
    if key not in _lexicons:
        _lexicons[key] = Lexicon.from_file(Path(path), name, letters=letter_set(letters))
    return _lexicons[key]


def random_record(seed: int, path: str, name: str, letters: str = "fr") -> dict:
    """The game drawn by the rules from ``seed`` with the list in ``path``, as a game record, and the
    best placements of each of its rounds: ``{"record": ..., "best": [[play, ...], ...]}``."""
    lexicon = lexicon_at(path, name, letters)
    record = engine_record.to_dict(play_game(seed, lexicon))
    return {"record": record, "best": best_of_rounds(record, lexicon)}


def best_lists(record: dict, path: str, name: str, letters: str = "fr") -> list[list[dict]]:
    """The best placements of each round of the game ``record`` (checked by the caller)."""
    return best_of_rounds(record, lexicon_at(path, name, letters))


def best_of_rounds(record: dict, lexicon: Lexicon) -> list[list[dict]]:
    """Each round's best placements (``find_best``, the bag left counted as §3.3.4 says), as JSON, on
    the board of the moves placed before it, in the record's variant."""
    game = engine_record.parse(record)
    replay = engine_record.check(game, lexicon)
    variant = game.variant
    board, out = Board(), []
    for number, round_ in enumerate(game.rounds, 1):
        rack = round_.rack.tiles
        bag = bag_left([tile for tile in board.cells if tile], rack, lexicon.letters)
        position = Position(board.copy(), rack, lexicon, first_move=number == 1, **variant.limits)
        found = find_best(position, BEST_COUNT, bag=bag, variant=variant)
        out.append([play_json(p) for p in found])
        board = replay.board_after(number)  # a joker game's blank swapped: its letter
    return out
