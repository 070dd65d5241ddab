"""The engine's lexicons inside the process: one loaded graph per word list, shared by requests."""

from __future__ import annotations

import threading
from pathlib import Path

from engine.alphabet import code
from engine.board import Board
from engine.lexicon import DEFAULT_NAME, DEFAULT_PATH, Lexicon
from engine.movegen import Position, find_tops
from lexicons.models import LexiconList

_loaded: dict[str, Lexicon] = {}
_lock = threading.Lock()


def lexicon_default_row() -> LexiconList:
    """The shipped free list's row, made on first use."""
    found = LexiconList.objects.filter(name=DEFAULT_NAME, path=str(DEFAULT_PATH)).first()
    if found:
        return found
    lexicon = engine_lexicon_from_path(DEFAULT_PATH, DEFAULT_NAME)
    row, _ = LexiconList.objects.get_or_create(
        sha256=lexicon.sha256,
        defaults={"name": DEFAULT_NAME, "word_count": lexicon.word_count, "path": str(DEFAULT_PATH)},
    )
    return row


def engine_lexicon_from_path(path: Path, name: str) -> Lexicon:
    lexicon = Lexicon.from_file(path, name)
    with _lock:
        return _loaded.setdefault(lexicon.sha256, lexicon)


def engine_lexicon(row: LexiconList) -> Lexicon:
    """The engine's lexicon for a stored list, loaded once per process."""
    found = _loaded.get(row.sha256)
    if found is None:
        found = engine_lexicon_from_path(Path(row.path), row.name)
    return found


def warm_up() -> None:
    """The shipped list's graph and the search's anagram index in memory: the first rack would wait
    about a second for them."""
    lexicon = engine_lexicon(lexicon_default_row())
    find_tops(Position(Board(), tuple(code(c) for c in "AEINRST"), lexicon, first_move=True))
