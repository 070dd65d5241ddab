"""What every phone of a room asks for at the same moment, remembered by the web process for a moment.

300 phones poll every 2 seconds, and when a round changes state they all ask for the new screen
within those 2 seconds: the same current round, the same ranking key.  Each ``Recent`` memo keeps
such a value for ``settings.POLL_MEMO_SECONDS`` (half a second; a room's players, which change far
more rarely, ``ROOM_MEMO_SECONDS``), so a room costs a couple of queries a second instead of hundreds
(scripts/loadbench.py).

Nothing shown is older than that window: a save of a round, a game, a tournament, a player or a
correction in this process forgets every memo at once (the embedded server is a single process, so
its phones see the change on their next poll), and a change made by another process (a Celery
worker, another gunicorn worker) is read again once the window has passed.  A slip's save forgets
nothing: slips change neither the round state nor the ranking until the round closes, and the last
seconds of a round are when the memo matters most.

Values are shared between threads: they are read, never changed.  ``Kept`` holds what never goes
stale (a token's player, a ranking under the key naming its content).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save

T = TypeVar("T")

#: Entries a memo keeps before it starts again (a few tournaments' worth).
ENTRIES_KEPT = 5000

_memos: list[Recent] = []


#: How long a request waits for another thread's read of a value it needs before reading it itself.
READ_WAIT_SECONDS = 5.0


class _Reading:
    """A thread's read of a memo's value, which the threads that need it meanwhile wait for."""

    __slots__ = ("done", "generation", "ok", "value")

    def __init__(self, generation: int) -> None:
        self.done = threading.Event()
        self.generation = generation
        self.ok = False
        self.value = None


class Recent(Generic[T]):
    def __init__(self, window: str = "POLL_MEMO_SECONDS", *, forgotten_on_saves: bool = True) -> None:
        """``window``: the setting that says how long a value is kept, in seconds.
        ``forgotten_on_saves``: False for a memo whose values are kept under a mark that a save moves
        (``still_good``), so that a save of another kind (a round's, in the arbiter's process) does
        not make every phone's next request read it again."""
        self._window = window
        self._lock = threading.Lock()
        self._values: dict[Hashable, tuple[float, T]] = {}
        # Moved by every forget: a value read from the database before a forget is not kept after it.
        self._generation = 0
        self._readings: dict[Hashable, _Reading] = {}  # the reads under way, by key
        (_memos if forgotten_on_saves else _marked).append(self)

    def get(
        self, key: Hashable, compute: Callable[[], T], still_good: Callable[[T], bool] | None = None
    ) -> T:
        """The value remembered for ``key``, or ``compute()`` when it is older than the window or
        ``still_good`` says another process changed it (a pushed change names the new state).  One
        thread reads it for all: the others that find it stale meanwhile wait for that read (in the
        last seconds of a round every thread of a web process finds the round stale at once: each
        reading it again would read it several times as often as the window says)."""
        now = time.monotonic()
        hit = self._values.get(key)
        fresh = hit is not None and now - hit[0] < getattr(settings, self._window)
        if fresh and (still_good is None or still_good(hit[1])):
            return hit[1]
        with self._lock:
            generation = self._generation
            reading = self._readings.get(key)
            mine = reading is None or reading.generation != generation  # none, or begun before a forget
            if mine:
                reading = self._readings[key] = _Reading(generation)
        if not mine:
            waited = reading.done.wait(READ_WAIT_SECONDS) and reading.ok
            if waited and (still_good is None or still_good(reading.value)):
                return reading.value
            return self._read(key, compute, now, generation)  # it failed, or was not what is asked
        try:
            reading.value = self._read(key, compute, now, generation)
            reading.ok = True
        finally:
            with self._lock:
                if self._readings.get(key) is reading:
                    del self._readings[key]
            reading.done.set()
        return reading.value

    def _read(self, key: Hashable, compute: Callable[[], T], now: float, generation: int) -> T:
        value = compute()
        with self._lock:
            if generation == self._generation:
                if len(self._values) >= ENTRIES_KEPT:
                    self._values.clear()
                self._values[key] = (now, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._values.clear()


class Kept(Generic[T]):
    """Values that never go stale (a token's player, a ranking under the key naming its content), kept
    by the process until there are ``size`` of them, then all dropped."""

    def __init__(self, size: int) -> None:
        self._lock = threading.Lock()
        self._values: dict[Hashable, T] = {}
        self._size = size
        _kept.append(self)

    def get(self, key: Hashable) -> T | None:
        return self._values.get(key)

    def put(self, key: Hashable, value: T) -> None:
        with self._lock:
            if len(self._values) >= self._size:
                self._values.clear()
            self._values[key] = value

    def pop(self, key: Hashable) -> None:
        with self._lock:
            self._values.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


class Derived(Generic[T]):
    """Values made from an object the process keeps (a shared ranking's rows, their HTML), under the
    object's identity and what else names them (a language): made once while the object is the one
    shown.  The object is held with its value, so that its id stays its own."""

    def __init__(self, size: int) -> None:
        self._kept: Kept[tuple[tuple, T]] = Kept(size)

    def of(self, source: object, also: Hashable, make: Callable[[], T]) -> T:
        return self.of_all((source,), also, make)

    def of_all(self, sources: tuple, also: Hashable, make: Callable[[], T]) -> T:
        """``of`` for a value made from several kept objects: made again when any is another."""
        key = (tuple(id(source) for source in sources), also)
        kept = self._kept.get(key)
        if kept is not None and all(was is source for was, source in zip(kept[0], sources, strict=True)):
            return kept[1]
        value = make()
        self._kept.put(key, (sources, value))
        return value


_kept: list[Kept] = []
#: The ``Recent`` memos kept under a mark, not forgotten by a save (``forget_everything`` does).
_marked: list[Recent] = []


def forget_all() -> None:
    """Every ``Recent`` memo forgotten."""
    for memo in _memos:
        memo.clear()


def forget_everything() -> None:
    """Every ``Recent`` and ``Kept`` value forgotten (tests: rolled-back tests reuse the ids)."""
    forget_all()
    for memo in _marked:
        memo.clear()
    for kept in _kept:
        kept.clear()


def _forget(**_kwargs) -> None:
    # Now (the transaction's own reads) and once committed (a poll in between read the old state).
    forget_all()
    transaction.on_commit(forget_all)


def connect(*models) -> None:
    """Forget every memo when one of ``models`` is saved or deleted in this process."""
    for model in models:
        label = model._meta.label
        post_save.connect(_forget, sender=model, dispatch_uid=f"memo-forget-saved-{label}")
        post_delete.connect(_forget, sender=model, dispatch_uid=f"memo-forget-deleted-{label}")
