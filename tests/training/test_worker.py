"""Training's searches in the worker process (``training.worker``): a game asked for is being prepared,
then the same game as searched inline; no more than ``WAITING`` searches wait, one more is told to try
again in a moment."""

from __future__ import annotations

import pytest

from review.rounds import best_placements
from server.writes import ServiceError
from tests.live_services import wait_for
from tournaments.plays import play_json
from training import games, worker
from training.worker import WAITING


@pytest.fixture
def started():
    worker.store().clear()
    worker.start()
    yield
    worker.stop()
    worker.store().clear()


def _ready(seed: int):
    try:
        return games.random_game(seed)
    except worker.Preparing:
        return None


def test_the_worker_prepares_the_same_games_and_queues_no_more_than_its_limit(db, started):
    seeds = range(101, 101 + WAITING)
    for seed in seeds:
        with pytest.raises(worker.Preparing):
            games.random_game(seed)
    with pytest.raises(ServiceError) as busy:
        games.random_game(999)
    assert busy.value.message.code == "training_busy"
    assert wait_for(lambda: all(_ready(seed) for seed in seeds), 120)
    prepared = [games.random_game(seed) for seed in seeds]
    worker.stop()
    worker.store().clear()
    inline = [games.random_game(seed) for seed in seeds]
    assert [(g.key, g.best) for g in prepared] == [(g.key, g.best) for g in inline]
    # The best placements are the review's (the same search, the bag left counted alike).
    game = prepared[0]
    for number in (1, 2, game.rounds):
        position = game.position(number)
        found = best_placements(f"test:{number}", position.board, position.rack, game.lexicon, number == 1)
        assert game.best[number - 1] == [play_json(play) for play in found]
