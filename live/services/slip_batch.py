"""The phones' slips stored together: every slip waiting in a web process goes into one transaction
and one commit.  In the last seconds of a round every phone sends at once, and a commit (a flush to
the disk) costs far more than the rows it writes: one commit per slip would leave the slips queued
for seconds.

Group commit, with no thread of its own: a request thread that finds no batch being written takes
every slip waiting (its own among them) and writes them; the slips arriving meanwhile wait, and the
first of them to wake takes them all for the next batch.  The players' slips are stored together,
a few statements for the whole batch (``slips.submissions_store_new``: the players' rows held and
their slips' rows locked in one statement, the first slips inserted in one, a later sending's
replacing its row, each refusal decided in Python); any other (two slips of a player in the batch,
a round closed meanwhile, a row another process inserted first) is stored in a savepoint of
the batch's transaction (``slips.submission_store``: its own checks, its own refusal), so that one
refusal or one database error spoils no other slip; each request is answered once the batch holding
its slip is committed: "received" is only ever said of a row the database holds.  The batch's slips
are taken in the order of their players' ids, so that two processes' batches lock the same rows in
the same order (PostgreSQL: no deadlock between them).

The batch's transaction is ``server.writes.writing``'s: on SQLite it queues behind this process's
other writers (the arbiter's screens) and takes the write lock the moment it is free.  The grading
and the reading of each slip are done before, by the request's own thread
(``slips.submission_prepare``).  A caller inside a transaction of its own (a test's) stores its slip
in it at once: another thread's batch could not see that transaction's rows.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone

from live.services.slips import submission_prepare, submission_store, submissions_store_new
from server import arrival
from server.writes import ServiceError, writing
from tournaments.models import Player, Round, Submission

#: The sizes of the last batches written by this process (newest last): the load benchmark and the
#: tests read them.
RECENT_BATCHES = 200


@dataclass(eq=False)
class _Slip:
    player: Player
    round_id: int
    text: str
    request_id: str
    now: datetime
    fields: dict
    order: int
    done: bool = False
    stored: Submission | None = None
    failure: BaseException | None = None
    batch: int = field(default=0)


class _Batches:
    def __init__(self):
        self.ready = threading.Condition()
        self.waiting: list[_Slip] = []
        self.writing = False
        self.numbers = itertools.count(1)
        self.orders = itertools.count()
        #: (batch number, slips in it, committed) of the last batches.
        self.recent: deque[tuple[int, int, bool]] = deque(maxlen=RECENT_BATCHES)

    def store(self, slip: _Slip) -> None:
        """Until ``slip`` is done: written by this thread (with whatever waits) or by another's batch."""
        with self.ready:
            self.waiting.append(slip)
            while not slip.done and self.writing:
                self.ready.wait()
            if slip.done:
                return
            self.writing = True
            batch, self.waiting = self.waiting, []
        try:
            self.write(batch)
        finally:
            with self.ready:
                self.writing = False
                self.ready.notify_all()

    def write(self, batch: list[_Slip]) -> None:
        number = next(self.numbers)
        batch.sort(key=lambda slip: (slip.player.pk, slip.order))
        committed = False
        try:
            with writing():
                together = submissions_store_new(batch)
                for slip, done in zip(batch, together, strict=True):
                    slip.batch = number
                    if isinstance(done, Submission):
                        slip.stored = done
                        continue
                    if isinstance(done, ServiceError):
                        slip.failure = done
                        continue
                    try:
                        slip.stored = submission_store(
                            player=slip.player, round_id=slip.round_id, text=slip.text,
                            request_id=slip.request_id, now=slip.now, fields=slip.fields,
                        )  # fmt: skip
                    except Exception as failure:  # its savepoint rolled back: the others go on
                        slip.failure = failure
                        if isinstance(failure, (OperationalError, InterfaceError)):
                            # The connection itself: the batch's transaction is lost with it (Django
                            # would roll it back on leaving the block without a word).
                            raise
            if connection.connection is None:  # dropped inside the transaction: nothing committed
                raise OperationalError("the connection was lost before the batch's commit")
            committed = True
        except BaseException as failure:  # the commit, or the connection: none of the batch is stored
            for slip in batch:
                slip.stored, slip.failure = None, failure
            if not isinstance(failure, Exception):
                raise
        finally:
            self.recent.append((number, len(batch), committed))
            for slip in batch:
                slip.done = True


_batches = _Batches()


def submission_record_batched(
    *, player: Player, round_id: int, text: str, request_id: str = "", now: datetime
) -> Submission:
    """``slips.submission_record``, the slip stored in the batch of every slip waiting in this process
    (one commit for them all).  Returns once the slip is committed; raises its refusal
    (``ServiceError``), or the database's error that kept its batch from being committed."""
    fields = submission_prepare(player=player, round_id=round_id, text=text, now=now)
    slip = _Slip(player, round_id, text, request_id, now, fields, next(_batches.orders))
    if connection.in_atomic_block:
        _batches.write([slip])
    else:
        _batches.store(slip)
    if slip.failure is not None:
        raise slip.failure
    return slip.stored


def recent_batches() -> list[tuple[int, int, bool]]:
    """(number, slips, committed) of this process's last batches, oldest first."""
    with _batches.ready:
        return list(_batches.recent)


#: How often a late retry looks again for its first try (``first_try``).
FIRST_TRY_LOOK_SECONDS = 0.1


def first_try(player: Player, round_id: int, request_id: str) -> Submission | None:
    """The first try of a retry just told "too late": the same sending (``request_id``), sent in time,
    whose answer the phone lost, may still wait in a queue (another web process's at scale, this
    one's on the laptop) while its retry, sent later, was handled first.  The retry then waits for it
    as long as a slip stamped by the cutoff may still be waiting (``server.arrival``: the queue wait
    the web processes told, or the laptop's slips not yet answered; 30 s at most): found, the retry
    is answered "received", as the first try would have been (a slip sent in time is never answered
    "too late", retries included).  None when it never comes."""
    if not request_id:
        return None
    row = Round.objects.filter(pk=round_id).values("deadline", "game__tournament__grace_seconds").first()
    if row is None or row["deadline"] is None:
        return None
    cutoff = row["deadline"] + timedelta(seconds=row["game__tournament__grace_seconds"])
    give_up = cutoff + timedelta(seconds=arrival.MAX_WAIT_SECONDS)
    mine = Submission.objects.filter(round_id=round_id, player_id=player.pk, request_id=request_id)
    while True:
        found = mine.first()
        if found is not None:
            return found
        now = timezone.now()
        may_wait = now < arrival.close_may_wait_until(cutoff) or arrival.slips_waiting_since(cutoff)
        if not may_wait or now > give_up:
            # The first try may have been stored and answered between the look above and this
            # moment: one last look, then none.
            return mine.first()
        time.sleep(FIRST_TRY_LOOK_SECONDS)
