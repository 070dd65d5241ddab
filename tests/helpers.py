"""Small builders shared by the engine tests."""

from __future__ import annotations

from engine.lexicon import Lexicon


def tiny(*words: str) -> Lexicon:
    """An inline lexicon for unit tests."""
    return Lexicon.from_words(words, name="tiny")
