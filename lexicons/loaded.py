"""The engine's lexicons inside the process: one loaded graph per word list, shared by requests.

The shipped list stays loaded (every tournament may use it, and ``warm_up`` loads it before the first
request).  The lists clubs upload are kept on a least-recently-used basis, at most
``LEXICONS_IN_MEMORY`` of them (a setting, 3 by default): each costs tens of megabytes once its
anagram index is built, and a process must not grow with every list ever sent.  A list put aside
is read back from its file and its graph from the disk cache the next time a game asks for it
(0.06 to 0.2 s for a list of ODS's size; its anagram index, about a second, is built again at its
first search).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings

from engine.alphabet import code
from engine.board import Board
from engine.lettersets import letter_set
from engine.lexicon import Lexicon
from engine.movegen import Position, find_tops
from lexicons.files import SHIPPED, lexicon_file, shipped_file
from lexicons.models import LexiconList
from server.writes import ServiceError

#: Uploaded lists kept loaded when the setting does not say.
LEXICONS_IN_MEMORY = 3

_pinned: dict[str, Lexicon] = {}
_recent: OrderedDict[str, Lexicon] = OrderedDict()
_lock = threading.Lock()


def lexicon_default_row(letters: str = "fr") -> LexiconList | None:
    """The free list shipped for the letter set ``letters`` (``engine.lexicon.SHIPPED``), its row made
    on first use; None when no list of that set is shipped."""
    file = shipped_file(letters)
    if file is None:
        return None
    path = SHIPPED + file.name
    found = LexiconList.objects.filter(path=path, letters=letters).first()
    if found:
        return found
    lexicon = Lexicon.shipped(letter_set(letters))
    row, _ = LexiconList.objects.get_or_create(
        sha256=lexicon.sha256,
        letters=letters,
        defaults={"name": lexicon.name, "word_count": lexicon.word_count, "path": path},
    )
    lexicon_keep(lexicon, key=row.key, pinned=True)
    return row


def engine_lexicon(row: LexiconList) -> Lexicon:
    """The engine's lexicon for a stored list: kept loaded, or read back from its file (the graph
    from the disk cache).  A list whose file is not on this installation (an evening resumed from a
    copy without its ``media/``) is a ``ServiceError`` naming it: the club sends it again."""
    key = row.key
    with _lock:
        found = _pinned.get(key) or _recent.get(key)
        if key in _recent:
            _recent.move_to_end(key)
    if found is None:
        path = lexicon_file(row.path)
        if not path.is_file():
            raise ServiceError("lexicon_missing", name=row.name, sha256=row.sha256[:12])
        loaded = Lexicon.from_file(path, row.name, letters=letter_set(row.letters))
        found = lexicon_keep(loaded, key=key, pinned=row.path.startswith(SHIPPED))
    return found


def lexicon_keep(lexicon: Lexicon, *, key: str | None = None, pinned: bool = False) -> Lexicon:
    """Keep ``lexicon`` loaded under ``key`` (its row's ``key``; its sha256 by default), the least
    recently used uploaded list put aside past the limit; if another thread loaded it first, that
    one."""
    key = key or lexicon.sha256
    with _lock:
        if pinned:
            return _pinned.setdefault(key, lexicon)
        kept = _pinned.get(key) or _recent.setdefault(key, lexicon)
        if key in _recent:
            _recent.move_to_end(key)
        limit = max(1, getattr(settings, "LEXICONS_IN_MEMORY", LEXICONS_IN_MEMORY))
        while len(_recent) > limit:
            _recent.popitem(last=False)
        return kept


def lexicons_loaded() -> list[str]:
    """The key of every list loaded now (``LexiconList.key``), the shipped ones first, then the
    least recently used."""
    with _lock:
        return [*_pinned, *_recent]


def warm_up() -> None:
    """The shipped list's graph and the search's anagram index in memory: the first rack would wait
    about a second for them."""
    lexicon = engine_lexicon(lexicon_default_row())
    find_tops(Position(Board(), tuple(code(c) for c in "AEINRST"), lexicon, first_move=True))
