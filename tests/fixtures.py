"""Fixtures for the application's rooms: an arbiter, a tournament on the shipped list, players, a game.
Each room's ``conftest.py`` takes them all (``__all__`` names the autouse ones too)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from lexicons.loaded import lexicon_default_row
from tournaments import services

__all__ = [
    "_empty_cache",
    "_polls_read_afresh",
    "_printouts_in_request",
    "arbiter",
    "arbiter_client",
    "game",
    "players",
    "tournament",
]


@pytest.fixture
def arbiter(db) -> User:
    return User.objects.create_user("arbitre", password="secret-123")


@pytest.fixture
def arbiter_client(client, arbiter):
    """The test client logged in as the arbiter."""
    client.force_login(arbiter)
    return client


@pytest.fixture
def tournament(arbiter):
    return services.tournament_create(
        created_by=arbiter,
        lexicon=lexicon_default_row(),
        name="Coupe du club",
        date=datetime.date(2026, 11, 20),
        place="Salle des fêtes",
    )


@pytest.fixture
def players(tournament):
    return [services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno", "Chloé")]


@pytest.fixture
def game(tournament):
    return services.game_start(tournament=tournament, seed=42)


@pytest.fixture(autouse=True)
def _printouts_in_request(settings):
    """Printouts are built inside the request that asks for them, so a test sees the PDF at once."""
    settings.PRINTOUTS_IN_THREAD = False


@pytest.fixture(autouse=True)
def _polls_read_afresh(settings):
    """The phones' polls read the round state afresh: tests move deadlines by hand (the memo has
    its own tests in test_views_player.py)."""
    settings.POLL_MEMO_SECONDS = 0
    settings.ROOM_MEMO_SECONDS = 0
    settings.PUBLIC_RESULTS_SECONDS = 0


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rolled-back tests reuse ids, so a ranking cached by one test must not be found by the next,
    nor a round state remembered by the phones' poll."""
    from django.core.cache import cache

    from server import memo

    def forget():
        cache.clear()
        memo.forget_everything()

    forget()
    yield
    forget()


REFERENCE_GAME = Path(__file__).resolve().parent / "data" / "reference-games" / "game-001.json"


def worker_game(tournament):
    """A game whose tops are queued to a worker: a prepared game (§5).  A random draw's top is found
    by the draw's own no-move check (§3.1.5), in the request, and is never queued."""
    return services.game_start(tournament=tournament, prepared=REFERENCE_GAME.read_bytes())


def calls_to(monkeypatch, owner, name: str) -> list[tuple]:
    """Each call of ``owner.name`` from now on, as the tuple of its arguments; the call itself made."""
    calls: list[tuple] = []
    real = getattr(owner, name)

    def recorded(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, recorded)
    return calls
