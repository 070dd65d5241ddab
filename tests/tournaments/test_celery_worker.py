"""The top search runs for real in a Celery worker through Redis (no mock of the broker)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import worker_game
from tests.live_services import REDIS_DATABASES, shared_database_url, use_broker, wait_for
from tournaments import services
from tournaments.models import Round

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def broker(settings, redis_server):
    """A database of the session's own Redis server (tests/conftest.py)."""
    with use_broker(settings, f"{redis_server}/{REDIS_DATABASES['worker']}") as url:
        yield url


@pytest.fixture
def worker(broker, transactional_db):
    env = {**os.environ, "REDIS_URL": broker, "DATABASE_URL": shared_database_url()}
    command = [sys.executable, "-m", "celery", "-A", "arbiter", "worker", "--pool=solo", "--loglevel=INFO"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.mark.django_db(transaction=True)
def test_the_top_is_computed_by_a_real_worker_through_redis(worker, tournament):
    game = worker_game(tournament)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    # Queued to Redis after commit: this process does not compute it.
    assert Round.objects.get(pk=rnd.pk).top_state == Round.TopState.PENDING

    def ready() -> bool:
        return Round.objects.get(pk=rnd.pk).top_state == Round.TopState.READY

    if not wait_for(ready):
        worker.terminate()
        pytest.fail("the worker did not compute the top:\n" + worker.stdout.read().decode(errors="replace"))
    rnd.refresh_from_db()
    assert rnd.top_score > 0 and rnd.tops
    assert services.round_start(round_id=rnd.pk).status == Round.Status.RUNNING


@pytest.mark.django_db(transaction=True)
def test_a_printout_is_built_by_a_real_worker_which_reports_its_progress(worker, tournament, players):
    from results import services as result_services
    from results.models import Printout

    game = services.game_start(tournament=tournament, seed=3)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    assert wait_for(lambda: Round.objects.get(pk=rnd.pk).top_state == Round.TopState.READY)
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    printout = result_services.printout_request(tournament=tournament, kind=Printout.Kind.BUNDLE, game=game)
    assert (printout.status, printout.pdf) == (Printout.Status.QUEUED, None)  # not built in this process

    def built() -> bool:
        return Printout.objects.get(pk=printout.pk).status == Printout.Status.DONE

    if not wait_for(built):
        worker.terminate()
        pytest.fail(
            "the worker did not build the printout:\n" + worker.stdout.read().decode(errors="replace")
        )
    done = Printout.objects.get(pk=printout.pk)
    assert done.done == done.total == 2 + len(players) and bytes(done.pdf).startswith(b"%PDF")
