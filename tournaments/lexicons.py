"""The engine's lexicons inside the web process: one loaded graph per word list, shared by requests."""

from __future__ import annotations

import gc
import logging
import threading
from pathlib import Path

from engine.lexicon import DEFAULT_NAME, DEFAULT_PATH, Lexicon
from tournaments.models import LexiconList

logger = logging.getLogger(__name__)
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
    """Before the first phone: the shipped list's graph and the search's anagram index in memory (the
    first rack would wait about a second for them), then everything loaded so far set aside from the
    garbage collector's full passes (``gc.freeze``): a full pass over the loaded application took
    about 40 ms, every server thread stopped meanwhile."""
    from engine.alphabet import code
    from engine.board import Board
    from engine.movegen import Position, find_tops

    try:
        lexicon = engine_lexicon(lexicon_default_row())
        find_tops(Position(Board(), tuple(code(c) for c in "AEINRST"), lexicon, first_move=True))
    except Exception:  # the database not there yet, say: the list is then loaded on first use
        logger.warning("warm-up failed: the word list will be loaded on first use", exc_info=True)
    gc.collect()
    gc.freeze()
