"""The games one trains on, all read as game records (formats/game-record.md) and replayed by the
engine: a finished game of the club, a prepared game file, or a new random game drawn by the rules
from a seed (the seed is shown, so friends play the same game)."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, replace
from functools import cached_property

from engine import record as engine_record
from engine.board import Board
from engine.lexicon import Lexicon
from engine.movegen import Position
from engine.notation import RackText
from engine.play import Play
from lexicons.files import lexicon_file
from lexicons.loaded import engine_lexicon, lexicon_default_row
from lexicons.models import LexiconList
from results.exports import game_record
from server.writes import ServiceError
from tournaments.models import Game
from training import searches, worker

#: A seed as people write it: up to 9 digits.
MAX_SEED = 999_999_999
#: Rounds of a training game (its state is a cookie: a whole game's slips must fit in it).
MAX_ROUNDS = 40


@dataclass(frozen=True)
class TrainingGame:
    """A game replayed: each round's rack and the move placed after it (the top, for the club's and
    random games; the record's move for a prepared file, §5)."""

    title: str
    record: engine_record.GameRecord
    plays: tuple[Play, ...]
    lexicon: Lexicon
    seed: int | None = None
    #: The word list's file, name and letter set (the worker loads it from there).
    words: tuple[str, str, str] = ("", "", "fr")
    #: Each round's best placements as JSON (``training.searches``), once searched.
    best: tuple[list[dict], ...] | None = None
    #: The tiles each round put on the board (``engine.record.ReplayedGame.placed``): a joker game's
    #: blank swapped for its letter is that letter.  Empty: each play's own tiles.
    placed: tuple[tuple[tuple[int, int], ...], ...] = ()

    @cached_property
    def key(self) -> str:
        """Names the game for the caches: its record and its word list."""
        text = json.dumps(engine_record.to_dict(self.record), sort_keys=True) + self.lexicon.sha256
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    @property
    def rounds(self) -> int:
        return len(self.plays)

    def rack(self, number: int) -> RackText:
        return self.record.rounds[number - 1].rack

    def board_before(self, number: int) -> Board:
        board = Board()
        for tiles in (self.placed or tuple(play.tiles for play in self.plays))[: number - 1]:
            board.place(tiles)
        return board

    def board_tiles(self, number: int) -> tuple[tuple[int, int], ...]:
        """The tiles round ``number``'s move put on the board (``placed``)."""
        return self.placed[number - 1] if self.placed else self.plays[number - 1].tiles

    def position(self, number: int) -> Position:
        """Round ``number``'s position, in the record's variant (how many tiles a move places)."""
        return Position(
            self.board_before(number), self.rack(number).tiles, self.lexicon, first_move=number == 1,
            **self.record.variant.limits,
        )  # fmt: skip


def _replayed(
    data: dict | bytes | str, row: LexiconList, title: str, seed: int | None = None
) -> TrainingGame:
    lexicon = engine_lexicon(row)
    try:
        record = engine_record.parse(data)
        replay = engine_record.check(record, lexicon)
    except engine_record.RecordError as error:
        raise ServiceError.because("training_file_invalid", error.message) from None
    if len(record.rounds) > MAX_ROUNDS:
        raise ServiceError("training_too_long", rounds=MAX_ROUNDS)
    return TrainingGame(
        record.title or title, record, replay.plays, lexicon, seed, _words(row), placed=replay.placed
    )


def _words(row: LexiconList) -> tuple[str, str, str]:
    return (str(lexicon_file(row.path)), row.name, row.letters)


def club_game(game_id: int) -> TrainingGame:
    """A finished game of a club, as its record (who may train on it: ``training.access``)."""
    game = Game.objects.select_related("tournament__lexicon").filter(pk=game_id).first()
    if game is None:
        raise ServiceError("training_game_gone")
    if game.status != Game.Status.ENDED:
        raise ServiceError("training_game_not_over")
    try:
        data = game_record(game)
    except ServiceError:
        raise ServiceError("training_game_gone") from None
    return _replayed(data, game.tournament.lexicon, str(game))


def new_seed() -> int:
    return random.SystemRandom().randint(1, MAX_SEED)


def random_game(seed: int, row: LexiconList | None = None) -> TrainingGame:
    """The game drawn by the rules from ``seed`` (``python -m engine play --seed``) with its best
    placements, searched by the worker (``worker.Preparing`` until then) and kept."""
    row = row or lexicon_default_row()
    key = f"training-game:{row.key}:{seed}"
    found = worker.prepared(key, searches.random_record, seed, *_words(row))
    return replace(_replayed(found["record"], row, "", seed), best=tuple(found["best"]))


def with_best(game: TrainingGame) -> TrainingGame:
    """``game`` with its rounds' best placements, searched by the worker (``worker.Preparing`` until
    then) and kept under the game's key."""
    if game.best is not None:
        return game
    record = engine_record.to_dict(game.record)
    found = worker.prepared(f"training-best:{game.key}", searches.best_lists, record, *game.words)
    return replace(game, best=tuple(found))


def keep_file(record: dict) -> str:
    """A prepared game file's record kept with training's searches (``worker.store``, as long as the
    player's state) under its checksum, which the player's cookie carries instead of the whole record."""
    key = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:32]
    worker.store().set(f"training-file:{key}", record, worker.KEPT_SECONDS)
    return key


def file_game(data: bytes | str | dict, row: LexiconList | None = None) -> TrainingGame:
    """A prepared game file (its bytes, its record, or the checksum ``keep_file`` gave), replayed with
    the chosen list."""
    if isinstance(data, str) and len(data) == 32 and not data.lstrip().startswith("{"):
        kept = worker.store().get(f"training-file:{data}")
        if kept is None:
            raise ServiceError("training_game_gone")
        data = kept
    return _replayed(data, row or lexicon_default_row(), "")
