"""A web process's batch of first slips stored in one statement
(``services.slips.submissions_store_new``), and what it leaves to be stored one by one; on SQLite
and on PostgreSQL (``./scripts/test`` runs tests/tournaments on both), with the real database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from live import services as live_services
from live.services import slip_batch, slip_rows, slips
from live.services.slips import submission_prepare, submissions_store_new
from tournaments import services
from tournaments.models import Player, Round, Submission

from .test_slipgate import _running, _top


@dataclass
class Slip:
    player: Player
    round_id: int
    text: str
    request_id: str
    now: object
    fields: dict


def _slip(player, rnd, text, now=None, request_id="") -> Slip:
    now = now or timezone.now()
    request_id = request_id or f"r-{player.pk}-{now.timestamp()}"
    fields = submission_prepare(player=player, round_id=rnd.pk, text=text, now=now)
    return Slip(player, rnd.pk, text, request_id, now, fields)


@pytest.fixture
def many(tournament):
    return [services.player_register(tournament=tournament, name=f"Joueur {i}") for i in range(8)]


def test_first_slips_are_stored_in_one_insert_graded_as_one_by_one(many, game):
    rnd = _running(game)
    batch = [_slip(player, rnd, _top(rnd)) for player in many]
    with transaction.atomic(), CaptureQueriesContext(connection) as seen:
        stored = submissions_store_new(batch)
    inserts = [q["sql"] for q in seen.captured_queries if q["sql"].upper().startswith("INSERT")]
    assert len(inserts) == 1 and len(seen.captured_queries) == 3  # the round, the players, the insert
    assert all(isinstance(row, Submission) and row.pk for row in stored)
    rows = {row.player_id: row for row in Submission.objects.filter(round=rnd)}
    assert set(rows) == {player.pk for player in many}
    for slip in batch:
        row = rows[slip.player.pk]
        assert row.request_id == slip.request_id and row.received_at == slip.now
        assert row.graded_at is not None and row.paid == rnd.tops[0]["score"]
        assert row.history == [{"slip": slip.text, "at": slip.now.isoformat()}] and row.revision == 1


def test_refusals_are_decided_and_the_rest_left_to_one_by_one(tournament, many, game):
    rnd = _running(game, deadline_in=0.2)
    cutoff = rnd.deadline + timedelta(seconds=tournament.grace_seconds)
    in_time = cutoff - timedelta(seconds=0.1)
    live_services.submission_record(
        player=many[0], round_id=rnd.pk, text=_top(rnd), now=in_time
    )  # a second slip
    gone = many[1]
    batch = [
        _slip(many[0], rnd, _top(rnd), now=in_time),  # has a row already: replaced
        _slip(gone, rnd, _top(rnd), now=in_time),  # removed: refused
        _slip(many[2], rnd, _top(rnd), now=cutoff + timedelta(seconds=1)),  # late: refused
        _slip(many[3], rnd, _top(rnd), now=in_time),  # twice in the batch: one by one, in order
        _slip(many[3], rnd, "H8 ZZZ", now=in_time),
        _slip(many[4], rnd, _top(rnd), now=in_time),  # plain: stored
        _slip(many[5], rnd, _top(rnd), now=in_time),
    ]
    Player.objects.filter(pk=gone.pk).delete()
    with transaction.atomic():
        out = submissions_store_new(batch)
    assert out[3] is None and out[4] is None
    assert (
        isinstance(out[0], Submission) and out[0].revision == 2 and out[0].request_id == batch[0].request_id
    )
    assert out[1].message.code == "slip_player_removed"
    assert out[2].message.code == "slip_late"
    assert isinstance(out[5], Submission) and isinstance(out[6], Submission)
    stored = set(Submission.objects.filter(round=rnd).values_list("player_id", flat=True))
    assert stored == {many[0].pk, many[4].pk, many[5].pk}


def test_a_round_closed_while_the_slips_waited_is_left_to_one_by_one_which_moves_its_version(many, game):
    rnd = _running(game, deadline_in=0.2)
    batch = [_slip(player, rnd, _top(rnd), now=timezone.now()) for player in many[:3]]
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    with transaction.atomic():
        assert submissions_store_new(batch) == [None, None, None]
    before = Round.objects.get(pk=rnd.pk).version
    for slip in batch:  # what the batch then does with each
        slips.submission_store(
            player=slip.player, round_id=slip.round_id, text=slip.text,
            request_id=slip.request_id, now=slip.now, fields=slip.fields,
        )  # fmt: skip
    assert Submission.objects.filter(round=rnd).count() == 3
    assert Round.objects.get(pk=rnd.pk).version > before


def test_a_row_inserted_meanwhile_leaves_the_batch_to_one_by_one_and_loses_nothing(many, game, monkeypatch):
    """Another process's first slip for one of the batch's players, committed between the batch's
    look and its insert: the insert leaves that one out (``ON CONFLICT DO NOTHING``: no error, no
    savepoint), the others are stored, and that one is stored one by one (the later sending replaces
    the other, §3.3.3)."""
    rnd = _running(game)
    batch = [
        slip_batch._Slip(*vars(_slip(p, rnd, _top(rnd))).values(), order=n) for n, p in enumerate(many[:4])
    ]
    check_open = slips._check_open
    other = {}

    def meanwhile(rnd_, player, now):
        if not other:
            other["row"] = Submission.objects.create(
                round_id=rnd.pk, player=many[2], word="ZZZ", received_at=timezone.now() - timedelta(seconds=1)
            )
        return check_open(rnd_, player, now)

    monkeypatch.setattr(slips, "_check_open", meanwhile)
    slip_batch._batches.write(batch)  # the batch as a web process writes it
    assert all(s.failure is None and isinstance(s.stored, Submission) for s in batch)
    rows = {row.player_id: row for row in Submission.objects.filter(round=rnd)}
    assert set(rows) == {player.pk for player in many[:4]}
    assert rows[many[2].pk].pk == other["row"].pk and rows[many[2].pk].request_id == batch[2].request_id
    assert [n for _, n, done in slip_batch.recent_batches()][-1] == 4


def test_a_later_sending_replaces_the_slip_and_a_retried_one_is_answered_with_its_row(tournament, many, game):
    """A player's second slip in a batch replaces the first (§3.3.3: revision, history, request id,
    grade), a sending retried after its answer was lost is answered with the row it stored (even past
    the cutoff), and neither takes a savepoint or reads one by one."""
    rnd = _running(game, deadline_in=0.2)
    cutoff = rnd.deadline + timedelta(seconds=tournament.grace_seconds)
    in_time = cutoff - timedelta(seconds=0.1)
    first = {
        p.pk: live_services.submission_record(
            player=p, round_id=rnd.pk, text="H8 ZZZ", now=in_time, request_id=f"a{p.pk}"
        )
        for p in many[:5]
    }
    gone = many[3]
    batch = [
        _slip(many[0], rnd, _top(rnd), now=in_time, request_id="b0"),  # replaces
        _slip(
            many[1], rnd, "H8 ZZZ", now=cutoff + timedelta(seconds=5), request_id=f"a{many[1].pk}"
        ),  # a retry
        _slip(many[2], rnd, _top(rnd), now=cutoff + timedelta(seconds=1), request_id="b2"),  # late: refused
        _slip(gone, rnd, _top(rnd), now=in_time, request_id="b3"),  # removed: refused
        _slip(many[5], rnd, _top(rnd), now=in_time),  # a first slip
    ]
    Player.objects.filter(pk=gone.pk).delete()
    with transaction.atomic(), CaptureQueriesContext(connection) as seen:
        out = submissions_store_new(batch)
    sql = [q["sql"].upper() for q in seen.captured_queries]
    # One statement for the batch's replacements (an executemany, logged "<n> times: UPDATE …").
    assert not any("SAVEPOINT" in q for q in sql) and sum(q.startswith("1 TIMES: UPDATE") for q in sql) == 1
    assert len(sql) == 5  # the round, the players and their slips, the insert, the rows replaced, the update
    replaced = Submission.objects.get(round=rnd, player=many[0])
    assert out[0].pk == replaced.pk == first[many[0].pk].pk
    assert (replaced.revision, replaced.request_id, replaced.paid) == (2, "b0", rnd.tops[0]["score"])
    assert [h["slip"] for h in replaced.history] == ["H8 ZZZ", _top(rnd)]
    assert out[1].pk == first[many[1].pk].pk and Submission.objects.get(pk=out[1].pk).revision == 1
    assert out[2].message.code == "slip_late" and out[3].message.code == "slip_player_removed"
    assert Submission.objects.get(round=rnd, player=many[2]).request_id == f"a{many[2].pk}"
    assert isinstance(out[4], Submission) and out[4].pk


def test_the_batchs_rows_are_read_and_written_as_the_orm_reads_and_saves_them(tournament, many, game):
    """``slip_rows``' SQL written once: the rows it reads are the ORM's (``in_bulk``: every column,
    SQLite's datetimes and the JSON history converted), and several replacements with different
    fields, saved in one statement each, hold what ``save(update_fields=…)`` would have stored."""
    rnd = _running(game)
    now = timezone.now()
    for player in many[:4]:
        live_services.submission_record(
            player=player, round_id=rnd.pk, text="H8 ZZZ", now=now, request_id="a"
        )
    pks = list(Submission.objects.filter(round=rnd).values_list("pk", flat=True))
    read, orm = slip_rows.rows_by_id(pks), Submission.objects.in_bulk(pks)
    names = [f.attname for f in Submission._meta.concrete_fields]
    assert set(read) == set(orm) == set(pks)
    for pk in pks:
        assert [getattr(read[pk], n) for n in names] == [getattr(orm[pk], n) for n in names]
        assert not read[pk]._state.adding and read[pk]._state.db == orm[pk]._state.db
    later = now + timedelta(seconds=1)
    graded = slips.submission_prepare(player=many[0], round_id=rnd.pk, text=_top(rnd), now=later)
    changes = [
        (read[pks[0]], "H8 ZZZ\x00", "b\x00", graded),  # a NUL, as every save drops it (server.text)
        (read[pks[1]], "8H ZZZ", "c", {"ref": "8H", "word": "ZZZ", "claimed": None, "received_at": later}),
    ]
    names = [f.attname for f in Submission._meta.concrete_fields]
    expected = {}
    with transaction.atomic():  # what the ORM's save would store, then taken back
        for row, text, request_id, fields in changes:
            twin = Submission.objects.get(pk=row.pk)
            twin.save(update_fields=slips._replaced(twin, text, request_id, later, fields))
            stored = Submission.objects.get(pk=row.pk)
            expected[row.pk] = [getattr(stored, n) for n in names]
        transaction.set_rollback(True)
    assert all(Submission.objects.get(pk=pk).revision == 1 for pk in expected)
    with transaction.atomic():
        done = [(row, slips._replaced(row, text, rid, later, fields)) for row, text, rid, fields in changes]
        slip_rows.update_all(done)
    for pk, values in expected.items():
        row = Submission.objects.get(pk=pk)
        assert [getattr(row, n) for n in names] == values
        assert row.revision == 2 and len(row.history) == 2 and "\x00" not in row.request_id
    assert Submission.objects.get(pk=pks[0]).paid == rnd.tops[0]["score"]
    assert Submission.objects.get(pk=pks[2]).revision == 1  # the others untouched
