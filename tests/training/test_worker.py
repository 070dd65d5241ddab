"""Training's searches in the worker process (``training.worker``): a game asked for is being prepared,
then the same game as searched inline; no more than ``WAITING`` searches wait, one more is told to try
again in a moment."""

from __future__ import annotations

import pytest

from review.rounds import best_placements
from server.writes import ServiceError
from tests.live_services import wait_for
from tournaments.plays import play_json
from training import games, services, worker
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
    # The worker searches at a lower priority (nice 10): while the whole suite keeps both cores busy
    # its games take minutes, alone seconds.
    assert wait_for(lambda: all(_ready(seed) for seed in seeds), 300)
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


def test_the_clock_waits_for_the_game_and_a_slip_sent_meanwhile_is_graded_as_of_its_sending(db, started):
    source = {"kind": "random", "seed": 4243, "lexicon": None}
    state = services.training_start(source=source, seconds=60, topping=False, now=1000.0)
    assert state.started == 0.0  # being prepared: no clock yet
    assert wait_for(lambda: _ready(4243), 300)
    game = services.game_of(state)
    services.training_ready(state, game, now=2000.0)
    assert state.started == 2000.0 and not state.done
    # The game forgotten (a server restarted), a slip sent meanwhile waits in the state for it.
    worker.store().clear()
    with pytest.raises(worker.Preparing):
        services.game_of(state)
    top = game.plays[0]
    state.pending, state.pending_at = f"{top.ref} {top.word} {top.score}", 2010.0
    assert wait_for(lambda: _ready(4243), 300)
    services.training_ready(state, services.game_of(state), now=2100.0)
    assert state.done and state.results[0].paid == top.score and state.results[0].seconds == 10.0
    assert not state.pending
