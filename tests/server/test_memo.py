"""``server.memo.Recent``: one thread reads a stale value for all the threads that need it meanwhile
(in the last seconds of a round every thread of a web process finds the room's round stale at once,
and each would read it again); a read begun before a forget is not given to those who ask after it,
and a read that fails leaves the others to read for themselves."""

from __future__ import annotations

import threading
import time

import pytest

from server import memo

THREADS = 8


@pytest.fixture
def recent(settings):
    settings.POLL_MEMO_SECONDS = 60
    made = memo.Recent()
    yield made
    memo._memos.remove(made)


def _ask(recent, key, compute, out: list, entered: list | None = None) -> threading.Thread:
    def run():
        if entered is not None:
            entered.append(1)
        try:
            out.append(recent.get(key, compute))
        except Exception as failure:  # the test reads what each thread got
            out.append(failure)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _wait_for(condition, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end
        time.sleep(0.01)


def test_threads_that_find_a_value_stale_together_wait_for_one_read(recent):
    reads, release, got, entered = [], threading.Event(), [], []

    def compute():
        reads.append(1)
        release.wait(10)
        return "round 7"

    threads = [_ask(recent, "room", compute, got, entered) for _ in range(THREADS)]
    _wait_for(lambda: len(entered) == THREADS)
    time.sleep(0.2)  # every thread inside get, all but one waiting
    release.set()
    for thread in threads:
        thread.join(10)
    assert got == ["round 7"] * THREADS and len(reads) == 1
    assert recent.get("room", lambda: "read again") == "round 7"  # kept for the window


def test_a_read_begun_before_a_forget_is_not_given_to_a_thread_asking_after_it(recent):
    release, first = threading.Event(), []

    def before():
        release.wait(10)
        return "before the save"

    thread = _ask(recent, "room", before, first)
    _wait_for(lambda: "room" in recent._readings)
    recent.clear()  # a save in this process: what was read before it is not shown after it
    assert recent.get("room", lambda: "after the save") == "after the save"
    release.set()
    thread.join(10)
    assert first == ["before the save"]
    assert recent.get("room", lambda: "read again") == "after the save"  # the older read not kept


def test_when_the_one_read_fails_the_waiting_threads_read_for_themselves(recent):
    release, got, entered = threading.Event(), [], []
    reads = []

    def compute():
        reads.append(1)
        if len(reads) == 1:
            release.wait(10)
            raise ConnectionError("the database went away")
        return "read again"

    threads = [_ask(recent, "room", compute, got, entered) for _ in range(3)]
    _wait_for(lambda: len(entered) == 3)
    time.sleep(0.2)
    release.set()
    for thread in threads:
        thread.join(10)
    failures = [g for g in got if isinstance(g, Exception)]
    assert len(failures) == 1 and sorted(g for g in got if isinstance(g, str)) == ["read again"] * 2
