"""Training's searches away from the live room's threads.

On the laptop the server is one Python process: a random game played in one of its threads (a tenth of
a second of CPU to most of one) holds the interpreter, and every phone of the room waits behind it (a
few strangers starting games in a loop make the phones' polls wait many times longer).  So each web
process that serves (``manage.py serve``, each gunicorn worker: the room's ``warm_up``) keeps a pool of
ONE worker process at a low priority (``NICENESS``; on Windows the below-normal class), started at the
first search, which plays the random games and finds the best placements (``training.searches``).  A
request that needs one is answered at once: the page says the game is being prepared and asks again a
second later, by when the result is kept.  At most ``WAITING`` searches wait for the worker in a web
process; one more is told to try again in a moment (503, ``Retry-After``).  Without the pool (tests, a
shell, ``ARBITER_TRAINING_WORKER=false``) the searches run in the calling thread.

What the searches found is kept in the ``training`` cache (``settings.CACHES``), apart from the room's:
on the laptop a memory of its own with a bounded number of entries, so that games started by strangers
never push out the room's rankings or the join-link counters; with Redis, shared by every web process,
for ``KEPT_SECONDS``.  A key being searched is claimed in that cache, so that two web processes asked
for the same game do not both search it."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.core.cache import caches

from server.writes import ServiceError

#: Searches waiting for the worker in one web process (a search takes 0.1 to 0.9 s).
WAITING = 4
#: A game's searches are kept as long as the player's state (training.state.MAX_AGE): two days.
KEPT_SECONDS = 2 * 24 * 3600
#: A claim on a search lapses after this (a worker that died), and another process searches again.
CLAIM_SECONDS = 60
#: The worker's niceness (POSIX): the room's web process always runs first.  On Linux the worker
#: also runs under SCHED_IDLE: it gets a core only when nothing else wants one (at nice 10 alone, its
#: copies behind a gunicorn take a share of the cores from the last seconds' slips).
NICENESS = 19
#: Windows' BELOW_NORMAL_PRIORITY_CLASS.
BELOW_NORMAL = 0x4000
#: Seconds the preparing page waits before asking again, and the busy answer's Retry-After.
RETRY_SECONDS = 1

logger = logging.getLogger(__name__)


class Preparing(Exception):
    """The search is under way in the worker: the page asks again in a moment."""


_pool: ProcessPoolExecutor | None = None
_waiting: dict[str, Future] = {}
_lock = threading.Lock()


def store():
    """Where the searches' results are kept."""
    return caches["training"]


def start() -> None:
    """Searches from now on go to the worker process (started at the first one)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = _new_pool()


def stop() -> None:
    """Back to searching in the calling thread (the worker, if started, ends)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
        _waiting.clear()
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def running() -> bool:
    return _pool is not None


def lower_priority() -> None:
    """The worker's initializer: it gives way to the room's process, and ends with it (its queue's
    pipe never closes while the worker itself holds both ends, so it would outlive a web process
    stopped or killed).  Ctrl+C, which the terminal sends to the whole group, is its web process's
    to handle: the worker ends when that process closes the pool, not with a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # a system that refuses it: nice alone
            logger.info("training worker: SCHED_IDLE refused, nice %s only", NICENESS)
    elif sys.platform == "win32":  # pragma: no cover - Windows only
        import ctypes

        kernel32 = ctypes.windll.kernel32
        kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), BELOW_NORMAL)


def _end_with(parent) -> None:
    parent.join()
    os._exit(0)


def _new_pool() -> ProcessPoolExecutor:
    # "spawn" everywhere: forking a process whose other threads hold locks (waitress's, gunicorn's,
    # the database driver's) may leave the child stuck; spawn is also the only way on Windows.
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=lower_priority)


def prepared(key: str, job: Callable, *args):
    """What ``job(*args)`` returns, kept under ``key``: from the cache, or searched now in this thread
    (no worker), or else queued for the worker, and ``Preparing`` raised (``training_busy``, a
    ServiceError, when ``WAITING`` searches already wait)."""
    found = store().get(key)
    if found is not None:
        return found
    if _pool is None:
        value = job(*args)
        store().set(key, value, KEPT_SECONDS)
        return value
    _queue(key, job, args)
    raise Preparing


def _queue(key: str, job: Callable, args: tuple) -> None:
    global _pool
    with _lock:
        if key in _waiting or _pool is None:
            return
        if len(_waiting) >= WAITING:
            raise ServiceError("training_busy")
        if not store().add(f"{key}:claimed", os.getpid(), CLAIM_SECONDS):
            return  # another web process searches it
        try:
            future = _pool.submit(job, *args)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one next time
            logger.warning("training worker gone: starting another")
            _pool = _new_pool()
            store().delete(f"{key}:claimed")
            raise ServiceError("training_busy") from None
        _waiting[key] = future
    future.add_done_callback(lambda done: _done(key, done))


def _done(key: str, future: Future) -> None:
    with _lock:
        _waiting.pop(key, None)
    try:
        if not future.cancelled():
            store().set(key, future.result(), KEPT_SECONDS)
    except Exception:
        logger.exception("training search %s failed", key)
    finally:
        store().delete(f"{key}:claimed")
