"""Slips: a player's slip stored before the deadline (§3.3.3), and the arbiter's paper slips and
corrections, logged and undone step by step."""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, connection
from django.utils import timezone

from engine.alphabet import FRENCH, LetterSet
from engine.grading import Grade
from engine.notation import NotationError, parse_slip
from live import room
from live.services import slip_rows
from live.tried import claims_moved
from server import memo
from server.prepared import Prepared
from server.writes import ServiceError, writing
from tournaments.models import COUNTED, Player, Round, Submission, SubmissionChange, TriedSlip
from tournaments.selectors import current_round
from tournaments.services.grading import grade, grade_fields, store_grade
from tournaments.services.registration import player_held
from tournaments.services.tops import position_of

#: The states of a round whose clock has started: a slip for it can be graded.
RUN = (Round.Status.RUNNING, Round.Status.CLOSED, Round.Status.PLACED)
#: Sendings of one slip kept in its history (a phone that resends in a loop must not grow it forever).
HISTORY_KEPT = 50


def submission_record(
    *, player: Player, round_id: int, text: str, request_id: str = "", now=None
) -> Submission:
    """Store a player's slip; the last one before the deadline counts (§3.3.3).  The server's clock
    decides, with the tournament's grace window.  The player is told the slip was received and how
    it was understood, never whether the word is valid or what it scores (§3.4).

    The slip is graded here already, before the write lock is taken (the top is known once the clock
    runs): the grade is kept hidden until the round closes, and closing the round then has almost
    nothing left to grade, so the ranking is ready as the deadline passes.

    ``now`` is when the slip reached the server (``server.arrival``).  A slip that reached it by the
    cutoff but waited in a queue while the round closed is stored all the same, graded at once, and
    the round's version moved so that the phones and the rankings show it: the server's queue is
    not the player's fault.

    ``player`` may be a memo's (``room.player_by_token_recent``), read before the arbiter removed
    them in another process: their row is held while the slip is stored (``player_held``), and a
    player who is gone is refused (``slip_player_removed``), nothing stored."""
    now = now or timezone.now()
    fields = submission_prepare(player=player, round_id=round_id, text=text, now=now)
    return submission_store(
        player=player, round_id=round_id, text=text, request_id=request_id, now=now, fields=fields
    )


def submission_prepare(*, player: Player, round_id: int, text: str, now) -> dict:
    """What ``submission_record`` does before any lock: the slip read (refused when unreadable) and
    graded early, as the fields its row will hold."""
    slip = parse_slip_text(text, player.tournament.letter_set)
    fields = {
        "ref": str(slip.ref) if slip.ref else "",
        "word": str(slip.word),
        "claimed": slip.score,
        "received_at": now,
    }
    # Not graded yet (the round not seen running): a replaced slip's earlier grade must not stay, and
    # the close grades what has no grade.
    fields.update(_grade_early(player, round_id, Submission(**fields).slip_text()) or {"graded_at": None})
    return fields


def submission_store(
    *, player: Player, round_id: int, text: str, request_id: str, now, fields: dict
) -> Submission:
    """What ``submission_record`` does under the write lock, ``fields`` from ``submission_prepare``: in
    a transaction of its own, or in a savepoint of the caller's (``live.slipgate`` stores the
    slips waiting in a process together, one commit for them all)."""
    try:
        return _record(player, round_id, text, request_id, now, fields)
    except IntegrityError:
        # The slip's row points to a player who is gone all the same (a removal that did not hold
        # the player's row: a whole tournament deleted): nothing was stored, the phone is told why.
        if not Player.objects.filter(pk=player.pk).exists():
            raise ServiceError("slip_player_removed") from None
    # Else the player's first slip came twice at once (two web processes), and the other sending's
    # row was committed between this one's look and its insert: this one replaces it, as any later
    # sending does (§3.3.3).
    return _record(player, round_id, text, request_id, now, fields)


def _record(player: Player, round_id: int, text: str, request_id: str, now, fields: dict) -> Submission:
    with writing():
        if not player_held(player):
            raise ServiceError("slip_player_removed")
        rnd = _round_for_slip(round_id)
        existing = _existing_slip(round_id, player.pk)
        if request_id and existing is not None and existing[1] == request_id:
            # The same sending retried after its answer was lost: stored once, and told so even if
            # the retry itself came after the cutoff.
            return Submission.objects.get(pk=existing[0])
        if existing is not None:
            existing = Submission.objects.get(pk=existing[0])
        if _check_open(rnd, player, now):
            _reopen_for(rnd)
        if existing is None:
            sub = _new_row(rnd.pk, player, text, request_id, now, fields)
            sub.save(force_insert=True)
            return sub
        return _replace(existing, text, request_id, now, fields)


def submissions_store_new(slips: list) -> list:
    """The slips of a batch, one per player, stored with a few statements for the whole batch: in the
    last seconds of a round every phone sends, and a savepoint, three reads and an insert each
    (``_record``) cost more than the rows.  ``slips``: what ``submission_store`` takes, as objects with
    ``player``, ``round_id``, ``text``, ``request_id``, ``now`` and ``fields``; to be called inside the
    batch's transaction (``services.slip_batch``).  A first slip is inserted with the others' in one
    statement; a later sending replaces the player's slip (one update); the same sending retried after
    its answer was lost is answered with the row it stored.

    Returns, for each slip, its row (stored), its refusal (``ServiceError``: a removed player, a
    slip not in time, decided as ``_record`` decides them), or None: for ``submission_store`` to
    store one by one, as it does whatever else (two slips of a player in the batch, a round closed
    meanwhile, a row another process inserted first: ``ON CONFLICT DO NOTHING``, no savepoint).
    The players' rows are held and their slips' rows locked as ``_record`` does, for all of them in
    one statement."""
    out: list = [None] * len(slips)
    if not connection.features.can_return_rows_from_bulk_insert:  # SQLite before 3.35
        return out
    per_player = Counter(slip.player.pk for slip in slips)
    alone = [i for i, slip in enumerate(slips) if per_player[slip.player.pk] == 1]
    if not alone:
        return out
    rounds = {}
    for round_id in {slips[i].round_id for i in alone}:
        with suppress(Round.DoesNotExist):  # gone: one by one, which says so
            rounds[round_id] = _round_for_slip(round_id)
    held, existing = slip_rows.held_and_slips([slips[i].player.pk for i in alone], list(rounds) or [0])
    new, again, replacing = [], [], []
    for i in alone:
        slip, rnd = slips[i], rounds.get(slips[i].round_id)
        if rnd is None:
            continue
        if slip.player.pk not in held:
            out[i] = ServiceError("slip_player_removed")
            continue
        mine = existing.get((slip.round_id, slip.player.pk))
        if mine is not None and slip.request_id and mine[1] == slip.request_id:
            # The same sending retried after its answer was lost: stored once, told so even past
            # the cutoff (as ``_record``).
            again.append((i, mine[0]))
            continue
        try:
            if _check_open(rnd, slip.player, slip.now):
                continue  # closed while it waited: one by one, which moves the round's version
        except ServiceError as refusal:
            out[i] = refusal
            continue
        if mine is not None:
            replacing.append((i, mine[0]))  # a later sending replaces the slip (§3.3.3)
            continue
        new.append((i, _new_row(rnd.pk, slip.player, slip.text, slip.request_id, slip.now, slip.fields)))
    for i, row in slip_rows.insert_new(new):
        out[i] = row
    if again or replacing:
        rows = slip_rows.rows_by_id([pk for _i, pk in again + replacing])
        for i, pk in again:
            out[i] = rows[pk]
        replaced = []
        for i, pk in replacing:
            slip, row = slips[i], rows[pk]
            replaced.append((row, _replaced(row, slip.text, slip.request_id, slip.now, slip.fields)))
            out[i] = row
        slip_rows.update_all(replaced)
    return out


def _sent(text: str, now) -> dict:
    """A sending as the slip's history keeps it (what the phone sent, when)."""
    return {"slip": text.strip()[:80], "at": now.isoformat()}


def _new_row(round_id: int, player: Player, text: str, request_id: str, now, fields: dict) -> Submission:
    """The player's first slip of the round, not saved yet."""
    return Submission(
        round_id=round_id, player=player, request_id=request_id, history=[_sent(text, now)], **fields
    )


def _replace(existing: Submission, text: str, request_id: str, now, fields: dict) -> Submission:
    """The player's slip of the round replaced by a later sending (§3.3.3), saved."""
    existing.save(update_fields=_replaced(existing, text, request_id, now, fields))
    return existing


def _replaced(existing: Submission, text: str, request_id: str, now, fields: dict) -> list[str]:
    """The player's slip of the round replaced by a later sending (§3.3.3), not saved: the fields
    to save."""
    for key, value in fields.items():
        setattr(existing, key, value)
    existing.revision += 1
    existing.request_id = request_id
    existing.history = [*existing.history, _sent(text, now)][-HISTORY_KEPT:]
    return [*fields, "revision", "request_id", "history"]


@dataclass(frozen=True, slots=True)
class SlipRound:
    """What deciding on a slip reads of its round: its state and deadline, and its tournament's grace
    (§3.3.3).  A plain object, not three model instances (the round, its game and
    tournament): building them would be a good share of a slip's CPU in the last seconds' rush
    (measured: docs/developer/benchmarks.md)."""

    pk: int
    status: str
    deadline: datetime | None
    tournament_id: int
    grace_seconds: int


def _round_for_slip(round_id: int) -> SlipRound:
    """What deciding on a slip needs of its round (its state, deadline, tournament's grace), not its
    rack, board and tops: in the last seconds of a round every phone's slip reads it, in one
    query whose SQL is written once (``server.prepared``)."""
    row = _ROUND_READ.one(round_id=round_id)
    if row is None:
        raise Round.DoesNotExist(round_id)
    return SlipRound(round_id, *row)


def _existing_slip(round_id: int, player_id: int) -> tuple[int, str] | None:
    """The id and request id of the player's slip of the round, its row locked (PostgreSQL) until the
    transaction ends; None when there is none."""
    return _SLIP_READ.one(round_id=round_id, player_id=player_id)


_ROUND_READ = Prepared(
    lambda round_id: Round.objects.filter(pk=round_id).values_list(
        "status", "deadline", "game__tournament_id", "game__tournament__grace_seconds"
    ),
    round_id=-1,
)
_SLIP_READ = Prepared(
    lambda round_id, player_id: (
        Submission.objects.select_for_update()
        .filter(round_id=round_id, player_id=player_id)
        .values_list("pk", "request_id")
    ),
    round_id=-1,
    player_id=-2,
)


def _grade_early(player: Player, round_id: int, slip_text: str) -> dict:
    """The grade of a slip for a round that has run, as the fields to store (a slip handled after its
    round closed is stored only if it arrived in time); nothing before the clock started (the
    service then refuses the slip anyway).  The round is read as the phones' polls
    remember it (``room.current_round_recent``, read only): its rack, board and top do not
    change while it runs, and the last seconds' slips need no query for it."""
    rnd = room.current_round_recent(player.tournament_id)
    if rnd is None or rnd.pk != round_id:
        rnd = Round.objects.select_related("game__tournament__lexicon").filter(pk=round_id).first()
    if rnd is None or rnd.status not in RUN or rnd.top_state != Round.TopState.READY:
        return {}
    if rnd.status == Round.Status.PLACED:  # its board is the game's without the later tops
        return grade_fields(grade(rnd, position_of(rnd.game, rnd), slip_text))
    key = _grade_key(rnd, slip_text)
    graded = _grades.get(key)
    if graded is None:
        graded = grade(rnd, position_of(rnd.game, rnd), slip_text)
        _grades.put(key, graded)
    return grade_fields(graded)


#: The grades of the slips of the rounds being played, under what decides them (``_grade_key``): a
#: hall's players hand in the same few slips (the top, a handful of other moves), each graded once
#: per process, as the close grades the room's slips (``grading.grade_all``): grading each slip afresh
#: would be a share of a slip's CPU in the last seconds' rush (measured: docs/developer/benchmarks.md).
_grades: memo.Kept[Grade] = memo.Kept(4096)


def _grade_key(rnd: Round, slip_text: str) -> tuple:
    """Everything a running or closed round's slip's grade depends on (``grading.grade`` on
    ``tops.position_of``): the round's state, rack and top, the board it is played on (the game's,
    its top not placed yet), the lexicon and the tournament's grading, and the slip."""
    tournament = rnd.game.tournament
    return (
        rnd.pk, rnd.version, rnd.number, rnd.top_score, tuple(rnd.tiles), tuple(rnd.game.board),
        tournament.grading, tournament.lexicon.sha256, slip_text,
    )  # fmt: skip


def parse_slip_text(text: str, letters: LetterSet = FRENCH):
    """The slip read in the tournament's letter set; ``slip_unreadable`` when it cannot be."""
    try:
        return parse_slip(text, letters)
    except NotationError as error:
        raise ServiceError.because("slip_unreadable", error.message) from None


def _check_open(rnd: SlipRound, player: Player, now) -> bool:
    """Refuse a slip that is not in time; True when it is, though its round has closed meanwhile."""
    if player.tournament_id != rnd.tournament_id:
        raise ServiceError("slip_wrong_tournament")
    in_time = rnd.deadline is not None and now <= rnd.deadline + timedelta(seconds=rnd.grace_seconds)
    if rnd.status in (Round.Status.CLOSED, Round.Status.PLACED):
        # Arrived in time, handled after the close (it waited in the server's queue): stored.  Else
        # the round the phone showed has ended: the player is late, told so with the time it ended.
        if in_time:
            return True
        raise _late(rnd)
    if rnd.status != Round.Status.RUNNING:
        raise ServiceError("slip_round_not_running")
    if not in_time:
        raise _late(rnd)
    return False


def _reopen_for(rnd: SlipRound) -> None:
    """The round closed while this slip, sent in time (and graded already, ``_grade_early``), waited:
    move the round's version, so the phones, the screens and the rankings take it in."""
    closed = Round.objects.select_for_update().only("version", "game_id").get(pk=rnd.pk)
    closed.version += 1  # saved, not updated: the phones' memo hears of it (server/memo.py)
    closed.save(update_fields=["version"])


def _late(rnd: SlipRound) -> ServiceError:
    return ServiceError("slip_late", deadline=timezone.localtime(rnd.deadline).strftime("%H:%M:%S"))


def submission_correct(*, round_id: int, player: Player, text: str, user) -> Submission:
    """The arbiter enters or corrects a slip after the round (a paper slip, a typing slip): of any
    graded round, the last one, one whose next round is drawn or running, or any once the game is
    over (ux.md, the arbiter's laptop).  The change is logged with who and when, and the slip graded
    again on its own round's board, rack and top (§3.4).

    The slip is graded before the write lock is taken (``_graded_early``): on the laptop the lock
    holds every writer, the running round's slips too, and a slip without a reference is searched
    over the whole board."""
    return submission_correct_logged(round_id=round_id, player=player, text=text, user=user).submission


def submission_correct_logged(*, round_id: int, player: Player, text: str, user) -> SubmissionChange:
    """``submission_correct``, answering the correction it logged (its ``submission`` the slip)."""
    slip = parse_slip_text(text, player.tournament.letter_set)
    early = _graded_early(round_id, _slip_fields(slip))
    with writing():
        _hold(player)  # before the round, as a slip does: a removal waiting for one waits for neither
        rnd = _round_over(round_id)
        sub, before = _apply(rnd, player, slip, user, early)
        return _log(rnd, player, sub, user, before)


def _slip_fields(slip) -> dict:
    return {"ref": str(slip.ref) if slip.ref else "", "word": str(slip.word), "claimed": slip.score}


def _graded_early(round_id: int, fields: dict) -> tuple[str, Grade] | None:
    """A corrected slip's grade worked out before the write lock, with the round's state it was
    graded in: a graded round's rack and top never change, and its board is the one its players saw
    (``position_of``) whatever was placed since, unless the round is placed meanwhile (its state
    then differs, and ``_apply`` grades it again)."""
    rnd = Round.objects.select_related("game__tournament__lexicon").filter(pk=round_id).first()
    if rnd is None or rnd.status not in COUNTED or rnd.top_state != Round.TopState.READY:
        return None
    return rnd.status, grade(rnd, position_of(rnd.game, rnd), Submission(**fields).slip_text())


def _round_over(round_id: int) -> Round:
    rnd = Round.objects.select_for_update().select_related("game__tournament").get(pk=round_id)
    if rnd.status not in (Round.Status.CLOSED, Round.Status.PLACED):
        raise ServiceError("correct_round_open")
    return rnd


def _apply(rnd: Round, player: Player, slip, user, early=None) -> tuple[Submission, dict | None]:
    """The slip written in, graded (``early``: as ``_graded_early`` found it); and what it was before
    (None: no slip).  The player's row held meanwhile: one removed since the arbiter's screen showed
    them is refused, nothing stored."""
    _hold(player)
    sub = Submission.objects.filter(round=rnd, player=player).first()
    before = _slip_json(sub) if sub else None
    fields = _slip_fields(slip)
    if sub is None:
        sub = Submission.objects.create(
            round=rnd, player=player, received_at=rnd.deadline or timezone.now(), entered_by=user, **fields
        )
    else:
        for key, value in fields.items():
            setattr(sub, key, value)
        sub.entered_by = user
        sub.save(update_fields=[*fields, "entered_by"])
    if early is not None and early[0] == rnd.status:
        result = early[1]
    else:
        result = grade(rnd, position_of(rnd.game, rnd), sub.slip_text())
    store_grade(sub, result)
    return sub, before


def _hold(player: Player) -> None:
    if not player_held(player):
        raise ServiceError("player_gone", name=player.name)


def _log(rnd: Round, player: Player, sub: Submission | None, user, before, undoes=None) -> SubmissionChange:
    after = _slip_json(sub) if sub else None
    change = SubmissionChange.objects.create(
        round=rnd, player=player, submission=sub, changed_by=user, before=before, after=after, undoes=undoes
    )
    rnd.version += 1  # saved, not updated: the phones' memo hears of it (server/memo.py)
    rnd.save(update_fields=["version"])
    _redraw_followers(rnd)
    return change


def _redraw_followers(rnd: Round) -> None:
    """A correction of an earlier round (the next one drawn, or the game over): the phones, the
    projector and the game screens compare the round they follow (the room's, the game's), not this
    one.  That one's version moves too, so that the totals and rankings they show follow, but never
    a running round's: nothing shows a total while a round runs, its close moves it anyway, and its
    row is left alone while the room's slips come in."""
    following = {current_round(rnd.game_id), room.current_round(rnd.game.tournament_id)} - {None}
    ids = {other.pk for other in following} - {rnd.pk}
    shown = Round.objects.filter(pk__in=ids).exclude(status=Round.Status.RUNNING)
    for other in shown.select_for_update(no_key=True).only("id", "game_id", "version"):
        other.version += 1  # saved: the memo and the pushes hear of it
        other.save(update_fields=["version"])


def _slip_json(sub: Submission) -> dict:
    return {"slip": sub.slip_text(), "paid": sub.paid, "sanction": sub.sanction, "reason": sub.reason}


def submission_enter(*, round_id: int, table_number: int, text: str, user) -> Submission:
    """A paper slip or a correction typed by the arbiter for the player at ``table_number``."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    player = Player.objects.filter(tournament_id=rnd.game.tournament_id, table_number=table_number).first()
    if player is None:
        raise ServiceError("slip_no_such_table", table=table_number)
    return submission_correct(round_id=round_id, player=player, text=text, user=user)


def submission_correction_undo(*, round_id: int, user) -> Submission | None:
    """Take back the round's latest correction not taken back yet: pressed again, the one before it,
    and so on back to the slips as the players sent them.  The slip before the correction is graded
    again, or removed when the arbiter had typed one where there was none; each undo is logged.
    Any graded round's, as ``submission_correct``; the slip restored graded before the lock."""
    seen = _last_change(round_id)
    letters = Round.objects.select_related("game__tournament").get(pk=round_id).game.tournament.letter_set
    early = None
    if seen is not None and seen.before is not None:
        early = _graded_early(round_id, _slip_fields(parse_slip_text(seen.before["slip"], letters)))
    with writing():
        rnd = _round_over(round_id)
        change = _last_change(rnd.pk)
        if change is None:
            raise ServiceError("undo_nothing")
        if change.before is not None:
            slip = parse_slip_text(change.before["slip"], letters)
            same = seen is not None and change.pk == seen.pk
            sub, before = _apply(rnd, change.player, slip, user, early if same else None)
        else:
            sub = Submission.objects.filter(round=rnd, player=change.player).first()
            before = _slip_json(sub) if sub else None
            if sub is not None:
                sub.delete()
            sub = None
        _log(rnd, change.player, sub, user, before, undoes=change)
        _acceptance_undone(rnd, change)
    return sub


def _acceptance_undone(rnd: Round, change: SubmissionChange) -> None:
    """The correction taken back wrote in a slip tried during an outage that the arbiter accepted:
    the claim waits for the arbiter again (no screen says it accepted while its slip is gone).  A
    newer claim of the player pending meanwhile takes its sendings, as a newer sending replaces a
    pending claim (``services.tried``)."""
    claim = TriedSlip.objects.select_for_update().filter(change=change).first()
    if claim is None:
        return
    newer = TriedSlip.objects.filter(round=rnd, player_id=claim.player_id, status=TriedSlip.Status.PENDING)
    newer = newer.select_for_update().first()
    if newer is not None:
        newer.history = [*claim.history, *newer.history]
        newer.save(update_fields=["history"])
        claim.delete()
    else:
        claim.status, claim.decided_by, claim.decided_at = TriedSlip.Status.PENDING, None, None
        claim.change = None
        claim.save(update_fields=["status", "decided_by", "decided_at", "change"])
    claims_moved(rnd.game_id)


def _last_change(round_id: int) -> SubmissionChange | None:
    """The round's latest correction not taken back yet."""
    changes = SubmissionChange.objects.filter(round_id=round_id, undoes__isnull=True, undone_by__isnull=True)
    return changes.select_related("player").order_by("-changed_at", "-id").first()
