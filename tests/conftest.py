"""Shared fixtures: the full lexicon once per session, tiny inline lexicons for unit tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.lexicon import Lexicon

REFERENCE_GAMES = Path(__file__).resolve().parent / "data" / "reference-games"


@pytest.fixture(scope="session", autouse=True)
def _cache_in_tmp(tmp_path_factory):
    """Lexicon caches go to a folder of the test session, never the user's."""
    os.environ["ARBITER_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def french() -> Lexicon:
    return Lexicon.default()
