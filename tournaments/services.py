"""Every write: keyword-only functions named ``<entity>_<action>``.  Rules are the engine's
(``../shared/rules/duplicate.md``); these functions load rows, call the engine, and store results."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import logging
import random
import secrets
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

import tournaments.messages  # noqa: F401 - registers the sentences of ServiceError
from engine import draw as engine_draw
from engine import record as engine_record
from engine.alphabet import BLANK_FLAG
from engine.board import Board
from engine.choice import ranked
from engine.grading import Grade, Mode, grade_text
from engine.messages import LANGUAGES, Message
from engine.movegen import Position, find_tops
from engine.notation import NotationError, Ref, parse_rack, parse_ref, parse_slip, parse_word, rack_text
from engine.play import Play
from engine.scoring import Illegal, apply, evaluate
from tournaments import arrival, player_reads, selectors
from tournaments.lexicons import engine_lexicon, engine_lexicon_from_path
from tournaments.models import (
    Game,
    LexiconList,
    Player,
    Round,
    Submission,
    SubmissionChange,
    Tournament,
)

logger = logging.getLogger(__name__)


#: On SQLite one transaction writes at a time, and a connection that finds the database locked sleeps
#: in steps of up to 100 ms before it tries again: in the last seconds of a round, slips waited far
#: longer than the write they waited for (scripts/loadbench.py).  The web process's threads
#: therefore queue here and take the lock the moment it is free.  Reentrant: a service may call
#: another inside its transaction.  Other processes (a management command) still meet SQLite's wait.
_SQLITE_WRITER = threading.RLock()
#: After this long the thread stops queueing and lets SQLite's own timeout decide.
_WRITER_WAIT_SECONDS = 20


@contextlib.contextmanager
def _writing():
    """A write transaction (``transaction.atomic``), queued behind this process's other writers on
    SQLite."""
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    queued = _SQLITE_WRITER.acquire(timeout=_WRITER_WAIT_SECONDS)
    try:
        with transaction.atomic():
            yield
    finally:
        if queued:
            _SQLITE_WRITER.release()


class ServiceError(Exception):
    """A request the rules or the round's state refuse; ``message`` says why (French, English)."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))

    @classmethod
    def because(cls, code: str, reason: Message) -> ServiceError:
        """A refusal whose reason is an engine message, kept in every language."""
        return cls(code, **{f"reason_{lang}": reason.text(lang) for lang in LANGUAGES})


# -- lexicons, tournaments, players ----------------------------------------------------------


def lexicon_upload(*, name: str, data: bytes) -> LexiconList:
    """Store a club's word list (any encoding a French list comes in) and load it once."""
    folder = settings.MEDIA_ROOT / "lexicons"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.txt"
    path.write_bytes(data)
    lexicon = engine_lexicon_from_path(path, name)
    if lexicon.word_count == 0:
        raise ServiceError("lexicon_empty")
    row, _ = LexiconList.objects.get_or_create(
        sha256=lexicon.sha256, defaults={"name": name, "word_count": lexicon.word_count, "path": str(path)}
    )
    return row


def tournament_create(*, created_by, lexicon: LexiconList, **fields) -> Tournament:
    return Tournament.objects.create(created_by=created_by, lexicon=lexicon, **fields)


def player_register(
    *, tournament: Tournament, name: str, table_number: int | None = None, **fields
) -> Player:
    """A player, on the next free table unless one is given.  Registering after rounds were played
    is allowed: the rounds before count zero for them (§3.4)."""
    name = name.strip()
    if not name:
        raise ServiceError("player_no_name")
    if table_number is None:
        used = set(tournament.players.values_list("table_number", flat=True))
        table_number = next(n for n in range(1, len(used) + 2) if n not in used)
    elif tournament.players.filter(table_number=table_number).exists():
        raise ServiceError("player_table_taken", table=table_number)
    return Player.objects.create(tournament=tournament, name=name, table_number=table_number, **fields)


CSV_FIELDS = ("name", "club", "licence", "series", "category", "table_number")
_CSV_HEADERS = {
    "nom": "name", "name": "name", "club": "club", "licence": "licence", "license": "licence",
    "série": "series", "serie": "series", "series": "series", "catégorie": "category",
    "categorie": "category", "category": "category", "table": "table_number",
}  # fmt: skip


def players_import_csv(*, tournament: Tournament, data: bytes) -> list[Player]:
    """Players from a spreadsheet's CSV (comma or semicolon, UTF-8 or Latin-1); all or nothing."""
    with _writing():
        return _players_import(tournament, data)


def _players_import(tournament: Tournament, data: bytes) -> list[Player]:
    text = _decode_csv(data)
    dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    reader = csv.reader(io.StringIO(text), dialect)
    rows = [row for row in reader if any(cell.strip() for cell in row)]
    if not rows:
        raise ServiceError("csv_empty")
    header = [_CSV_HEADERS.get(cell.strip().lower()) for cell in rows[0]]
    if "name" not in header:
        header, body = ["name", "club", "licence", "series", "category", "table_number"], rows
    else:
        body = rows[1:]
    players = []
    for line, row in enumerate(body, 2 if body is not rows else 1):
        fields = {key: cell.strip() for key, cell in zip(header, row) if key}
        table = fields.pop("table_number", "")
        if table and not table.isdigit():
            raise ServiceError("csv_table", line=line, value=table)
        players.append(
            player_register(tournament=tournament, table_number=int(table) if table else None, **fields)
        )
    return players


def _decode_csv(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


# -- games and rounds ----------------------------------------------------------------------------


def game_start(
    *, tournament: Tournament, prepared: bytes | str | None = None, seed: int | None = None
) -> Game:
    """A new game: random racks by the rules, or a prepared game's racks replayed (§5).  A prepared
    game that does not replay is refused with the round and the reason."""
    record = None
    if prepared is not None:
        try:
            record = engine_record.parse(prepared)
            engine_record.check(record, engine_lexicon(tournament.lexicon))
        except engine_record.RecordError as error:
            raise ServiceError.because("game_prepared_invalid", error.message) from None
    number = (tournament.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return Game.objects.create(
        tournament=tournament,
        number=number,
        source=Game.Source.PREPARED if record else Game.Source.RANDOM,
        seed=seed if seed is not None else secrets.randbelow(2**62),
        prepared=engine_record.to_dict(record) if record else None,
        bag=list(engine_draw.Bag.full().tiles()),
        board=Board().cells,
    )


def _reliquat(last: Round | None) -> tuple[int, ...]:
    """The tiles the last round's top left on the rack (§3.1.2)."""
    if last is None:
        return ()
    used = play_from_json(last.placed).rack_used if last.placed else ()
    return engine_draw.remaining_after(last.tiles, used)


@dataclass(frozen=True)
class DrawOutcome:
    round: Round | None
    #: Why the game ended instead of drawing (an engine EndReason value), or "".
    ended: str = ""


def round_draw(*, game_id: int, expected_number: int, typed: str | None = None) -> DrawOutcome:
    """Draw the rack of round ``expected_number`` (§3.1); the arbiter's screen sends the number it
    shows, so a second tab or a double click draws nothing more."""
    try:
        with _writing():
            game = Game.objects.select_for_update().get(pk=game_id)
            outcome = _draw_locked(game, expected_number, typed)
    except IntegrityError:
        # Another request drew this round between our read and our write.
        outcome = DrawOutcome(selectors.current_round(game_id))
    if outcome.round and outcome.round.top_state == Round.TopState.PENDING:
        _queue_top(outcome.round.pk)
    return outcome


def _draw_locked(game: Game, expected_number: int, typed: str | None) -> DrawOutcome:
    last = selectors.current_round(game.pk)
    number = (last.number + 1) if last else 1
    if game.status == Game.Status.ENDED:
        return DrawOutcome(None, game.end_reason)
    if last and last.status != Round.Status.PLACED:
        return DrawOutcome(last)  # this round is not over: nothing to draw
    if number != expected_number:
        return DrawOutcome(last)  # already drawn by another tab
    attempt = 1 + game.rounds.filter(number=number).count()
    return _draw_new(game, number, attempt, typed, _reliquat(last))


def _draw_new(game: Game, number: int, attempt: int, typed: str | None, reliquat) -> DrawOutcome:
    bag = engine_draw.Bag(game.bag)
    if game.source == Game.Source.PREPARED:
        result = _draw_prepared(game, number, reliquat, bag)
    elif typed is not None:
        result = _draw_typed(typed, reliquat, bag, number)
    else:
        rng = random.Random(f"{game.seed}:{game.draws}")
        result = engine_draw.draw_rack(reliquat, bag, number, rng, _has_move(game, number))
        game.draws += 1
    if result.end:
        game.status, game.end_reason = Game.Status.ENDED, result.end.value
        game.save(update_fields=["status", "end_reason", "draws"])
        return DrawOutcome(None, result.end.value)
    game.bag = list(bag.tiles())
    game.save(update_fields=["bag", "draws"])
    new = Round.objects.create(
        game=game,
        number=number,
        attempt=attempt,
        rack=result.rack_text,
        tiles=list(result.tiles),
        rejections=[rack_text(r) for r in result.rejections],
    )
    return DrawOutcome(new)


def _draw_typed(text: str, reliquat, bag: engine_draw.Bag, number: int) -> engine_draw.Draw:
    """A rack the arbiter typed: the new letters must be in the bag (§3.1)."""
    try:
        rack = parse_rack(text)
    except NotationError as error:
        raise ServiceError.because("rack_typed_invalid", error.message) from None
    new = _without(rack.tiles, reliquat)
    problems = engine_draw.check_typed_rack(reliquat, tuple(new), bag, number)
    if problems:
        raise ServiceError.because("rack_typed_invalid", problems[0])
    bag.take(new)
    return engine_draw.Draw(reliquat=tuple(reliquat), new=tuple(new))


def _draw_prepared(game: Game, number: int, reliquat, bag: engine_draw.Bag) -> engine_draw.Draw:
    rounds = game.prepared["rounds"]
    if number > len(rounds):
        return engine_draw.Draw(reliquat=tuple(reliquat), end=engine_draw.EndReason.ALL_PLAYED)
    rack = parse_rack(rounds[number - 1]["rack"])
    if rack.rejected:
        bag.put_back(reliquat)
        reliquat = ()
    new = _without(rack.tiles, reliquat)
    bag.take(new)
    return engine_draw.Draw(reliquat=tuple(reliquat), new=tuple(new), rejected=rack.rejected)


def _without(tiles, kept) -> list[int]:
    """A written rack's new tiles: its tiles less the reliquat, in the order written."""
    new = list(tiles)
    for tile in kept:
        if tile in new:
            new.remove(tile)
    return new


def _has_move(game: Game, number: int):
    lexicon = engine_lexicon(game.tournament.lexicon)
    board = Board(game.board)

    def has_move(tiles) -> bool:
        return bool(find_tops(Position(board, tuple(tiles), lexicon, first_move=number == 1)).plays)

    return has_move


def _queue_top(round_id: int) -> None:
    """Compute the top while players think: in a worker when a broker is set (after commit, so the
    worker sees the round), else right here, the draw's transaction being already committed."""
    from tournaments.tasks import round_compute_top_task

    if settings.CELERY_TASK_ALWAYS_EAGER:
        round_compute_top_task.delay(round_id)
    else:
        transaction.on_commit(lambda: _send_top(round_id))


def _send_top(round_id: int) -> None:
    """A broker that does not answer fails the top at once: the arbiter's screen says so and offers
    to compute it on the laptop (``round_compute_top``) instead of waiting for a worker."""
    from tournaments.tasks import BROKER_DOWN, round_compute_top_task

    try:
        round_compute_top_task.delay(round_id)
    except BROKER_DOWN:
        logger.exception("The top of round %s could not be queued: the broker does not answer.", round_id)
        Round.objects.filter(pk=round_id, top_state=Round.TopState.PENDING).update(
            top_state=Round.TopState.FAILED
        )


def round_requeue_top(*, round_id: int, now=None) -> bool:
    """Queue again a top still pending ``TOP_REQUEUE_SECONDS`` after the draw (``selectors.top_overdue``):
    its worker died in the search (Redis would hand the message out again only after its visibility
    timeout) or the web process died before queuing it.  At most once per ``TOP_REQUEUE_SECONDS``
    (a mark in the cache, shared by the web processes with Redis); a duplicate costs nothing,
    ``round_compute_top`` returning at once when the top is ready.  Called by the arbiter's screen on
    its polls; True when queued."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    rnd = Round.objects.get(pk=round_id)
    if not selectors.top_overdue(rnd, now or timezone.now()):
        return False
    try:
        first = cache.add(f"top-requeued:{round_id}", 1, timeout=settings.TOP_REQUEUE_SECONDS)
    except Exception:  # the cache is Redis and Redis is down: queuing fails too, and says so
        first = True
    if not first:
        return False
    logger.warning("The top of round %s is still pending: queued again.", round_id)
    _queue_top(round_id)
    return True


def round_compute_top(*, round_id: int) -> Round:
    """Every tied top of the round's rack, the proposed one first (§3.3.4, §3.3.5)."""
    rnd = Round.objects.select_related("game__tournament__lexicon").get(pk=round_id)
    if rnd.top_state == Round.TopState.READY:
        return rnd
    game = rnd.game
    position = _position(game, rnd)
    tops = find_tops(position)
    order = ranked(tops.plays, tuple(rnd.tiles), tuple(game.bag))
    if game.source == Game.Source.PREPARED:
        order = _prepared_first(game, position, rnd.number, order)
    Round.objects.filter(pk=rnd.pk).update(
        tops=[play_json(p) for p in order], top_score=tops.score, top_state=Round.TopState.READY
    )
    rnd.refresh_from_db()
    return rnd


def _prepared_first(game: Game, position: Position, number: int, order: list[Play]) -> list[Play]:
    """§5: a prepared game puts the same top on every centre's board, read as the record writes it
    (a one-tile move has two readings); if the record's move is not a top here, the order stands."""
    written = game.prepared["rounds"][number - 1]
    typed = parse_word(written["word"])
    tiles = [c | BLANK_FLAG if low else c for c, low in zip(typed.letters, typed.lower, strict=True)]
    play = evaluate(position.board, position.lexicon, parse_ref(written["ref"]), tiles, position.rack)
    if isinstance(play, Illegal):
        return order
    same = next((i for i, top in enumerate(order) if set(top.tiles) == set(play.tiles)), None)
    if same is None:
        return order
    return [play, *order[:same], *order[same + 1 :]]


def _position(game: Game, rnd: Round) -> Position:
    """The board the round was played on: a slip corrected after its top (or later tops) went on the
    board is graded on the board the players saw."""
    lexicon = engine_lexicon(game.tournament.lexicon)
    return Position(_board_before(game, rnd), tuple(rnd.tiles), lexicon, first_move=rnd.number == 1)


def _board_before(game: Game, rnd: Round) -> Board:
    if rnd.status != Round.Status.PLACED:
        # Its top is not on the board yet, so no later round has been drawn: the board is as it is.
        return Board(game.board)
    cells = list(game.board)
    later = game.rounds.filter(status=Round.Status.PLACED, number__gte=rnd.number).values_list(
        "placed", flat=True
    )
    for placed in later:
        for sq, _tile in placed["tiles"]:
            cells[sq] = 0
    return Board(cells)


def round_start(*, round_id: int) -> Round:
    """Start the clock: only once the top is known and a move exists (§3.1.5)."""
    with _writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament").get(pk=round_id)
        if rnd.status == Round.Status.RUNNING:
            return rnd
        if rnd.status != Round.Status.DRAWN:
            raise ServiceError("round_not_drawn")
        if rnd.top_state != Round.TopState.READY or not rnd.tops:
            raise ServiceError("round_top_not_ready")
        now = timezone.now()
        rnd.started_at = now
        rnd.deadline = now + timedelta(seconds=rnd.game.tournament.round_seconds)
        rnd.status = Round.Status.RUNNING
        rnd.version += 1
        rnd.save(update_fields=["started_at", "deadline", "status", "version"])
    _queue_close(rnd)
    return rnd


def _queue_close(rnd: Round) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # no broker: rounds close when the next request sees the deadline passed
    grace = rnd.game.tournament.grace_seconds
    eta = rnd.deadline + timedelta(seconds=grace)
    transaction.on_commit(lambda: _send_close(rnd.pk, eta))


def _send_close(round_id: int, eta) -> None:
    """Without the broker the round still closes on time: any request past the deadline closes it."""
    from tournaments.tasks import BROKER_DOWN, round_close_task

    try:
        round_close_task.apply_async((round_id,), eta=eta)
    except BROKER_DOWN:
        logger.warning("The close of round %s could not be queued: the next request closes it.", round_id)


# -- slips --------------------------------------------------------------------------------------


def submission_record(
    *, player: Player, round_id: int, text: str, request_id: str = "", now=None
) -> Submission:
    """Store a player's slip; the last one before the deadline counts (§3.3.3).  The server's clock
    decides, with the tournament's grace window.  The player is told the slip was received and how
    it was understood, never whether the word is valid or what it scores (§3.4).

    The slip is graded here already, before the write lock is taken (the top is known once the clock
    runs): the grade is kept hidden until the round closes, and closing the round then has almost
    nothing left to grade, so the ranking is ready as the deadline passes."""
    now = now or timezone.now()
    slip = _parse_player_slip(text)
    fields = {
        "ref": str(slip.ref) if slip.ref else "",
        "word": str(slip.word),
        "claimed": slip.score,
        "received_at": now,
    }
    # Not graded yet (the round not seen running): a replaced slip's earlier grade must not stay, and
    # the close grades what has no grade.
    fields.update(_grade_early(player, round_id, Submission(**fields).slip_text()) or {"graded_at": None})
    with _writing():
        rnd = Round.objects.select_related("game__tournament").get(pk=round_id)
        _check_open(rnd, player, now)
        existing = Submission.objects.select_for_update().filter(round=rnd, player=player).first()
        if existing is None:
            sub = Submission.objects.create(round=rnd, player=player, request_id=request_id, **fields)
        elif request_id and existing.request_id == request_id:
            sub = existing  # the same request retried after a dropped answer: stored once
        else:
            for key, value in fields.items():
                setattr(existing, key, value)
            existing.revision += 1
            existing.request_id = request_id
            existing.save(update_fields=[*fields, "revision", "request_id"])
            sub = existing
    return sub


def _grade_early(player: Player, round_id: int, slip_text: str) -> dict:
    """The grade of a slip for a running round, as the fields to store; nothing when the round is not
    running (the service then refuses the slip anyway).  The round is read as the phones' polls
    remember it (``player_reads.current_round_recent``, read only): its rack, board and top do not
    change while it runs, and the last seconds' slips need no query for it."""
    rnd = player_reads.current_round_recent(player.tournament_id)
    if rnd is None or rnd.pk != round_id:
        rnd = Round.objects.select_related("game__tournament__lexicon").filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.RUNNING or rnd.top_state != Round.TopState.READY:
        return {}
    return _grade_fields(_grade(rnd, _position(rnd.game, rnd), slip_text))


def _grade(rnd: Round, position: Position, slip_text: str) -> Grade:
    """A slip graded by the tournament's setting against the round's top (§3.4)."""
    return grade_text(position, slip_text, Mode(rnd.game.tournament.grading), top=rnd.top_score)


def _parse_player_slip(text: str):
    try:
        return parse_slip(text)
    except NotationError as error:
        raise ServiceError.because("slip_unreadable", error.message) from None


def _check_open(rnd: Round, player: Player, now) -> None:
    if player.tournament_id != rnd.game.tournament_id:
        raise ServiceError("slip_wrong_tournament")
    if rnd.status in (Round.Status.CLOSED, Round.Status.PLACED):
        # The round the phone showed has ended (another screen's poll closed it a moment ago):
        # the player is late, and is told so with the time it ended.
        raise _late(rnd)
    if rnd.status != Round.Status.RUNNING:
        raise ServiceError("slip_round_not_running")
    grace = timedelta(seconds=rnd.game.tournament.grace_seconds)
    if now > rnd.deadline + grace:
        raise _late(rnd)


def _late(rnd: Round) -> ServiceError:
    return ServiceError("slip_late", deadline=timezone.localtime(rnd.deadline).strftime("%H:%M:%S"))


def round_close_if_due(*, round_id: int, now=None) -> Round:
    """Close a running round whose deadline and grace have passed (any request may call this: the
    round closes on time even with no worker and after a restart), once the slips that reached the
    server in time are stored (``arrival``)."""
    now = now or timezone.now()
    rnd = Round.objects.select_related("game__tournament").get(pk=round_id)
    if rnd.status != Round.Status.RUNNING:
        return rnd
    cutoff = rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    # Slips that reached this server by the cutoff but wait for a thread are still to be stored.
    if now > cutoff and arrival.wait_is_over(cutoff, now):
        return round_close(round_id=round_id, now=now)
    return rnd


def round_close(*, round_id: int, now=None) -> Round:
    """End the round and grade every slip (§3.4)."""
    now = now or timezone.now()
    with _writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament__lexicon").get(pk=round_id)
        if rnd.status != Round.Status.RUNNING:
            return rnd
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = now
        rnd.version += 1
        rnd.save(update_fields=["status", "closed_at", "version"])
        _grade_all(rnd)
    return rnd


def _grade_all(rnd: Round) -> None:
    if rnd.top_state != Round.TopState.READY:
        rnd = round_compute_top(round_id=rnd.pk)
    position = _position(rnd.game, rnd)
    grades: dict[str, Grade] = {}  # many players hand in the same slip (the top): grade it once
    for sub in rnd.submissions.filter(graded_at__isnull=True):
        text = sub.slip_text()
        if text not in grades:
            grades[text] = _grade(rnd, position, text)
        _store_grade(sub, grades[text])


def _grade_fields(result: Grade) -> dict:
    return {
        "paid": result.paid,
        "sanction": result.sanction.value,
        "reason": result.reason.value if result.reason else "",
        "message": result.message.text("fr")[:300],
        "message_en": result.message.text("en")[:300],
        "graded_at": timezone.now(),
    }


def _store_grade(sub: Submission, result: Grade) -> None:
    fields = _grade_fields(result)
    for key, value in fields.items():
        setattr(sub, key, value)
    sub.save(update_fields=list(fields))


def submission_correct(*, round_id: int, player: Player, text: str, user) -> Submission:
    """The arbiter enters or corrects a slip after the round (a paper slip, a typing slip); the
    change is logged with who and when, and the slip graded again."""
    slip = _parse_player_slip(text)
    with _writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament").get(pk=round_id)
        if rnd.status not in (Round.Status.CLOSED, Round.Status.PLACED):
            raise ServiceError("correct_round_open")
        sub = Submission.objects.filter(round=rnd, player=player).first()
        before = _slip_json(sub) if sub else None
        fields = {"ref": str(slip.ref) if slip.ref else "", "word": str(slip.word), "claimed": slip.score}
        if sub is None:
            sub = Submission.objects.create(
                round=rnd,
                player=player,
                received_at=rnd.deadline or timezone.now(),
                entered_by=user,
                **fields,
            )
        else:
            for key, value in fields.items():
                setattr(sub, key, value)
            sub.entered_by = user
            sub.save(update_fields=[*fields, "entered_by"])
        _store_grade(sub, _grade(rnd, _position(rnd.game, rnd), sub.slip_text()))
        SubmissionChange.objects.create(submission=sub, changed_by=user, before=before, after=_slip_json(sub))
        rnd.version += 1  # saved, not updated: the phones' memo hears of it (tournaments/memo.py)
        rnd.save(update_fields=["version"])
    return sub


def _slip_json(sub: Submission) -> dict:
    return {"slip": sub.slip_text(), "paid": sub.paid, "sanction": sub.sanction, "reason": sub.reason}


def round_place_top(*, round_id: int, index: int = 0) -> Round:
    """Place one of the tied tops on the board (the proposed one by default, §3.3.5)."""
    with _writing():
        rnd = Round.objects.select_for_update().select_related("game").get(pk=round_id)
        if rnd.status == Round.Status.PLACED:
            return rnd
        if rnd.status != Round.Status.CLOSED:
            raise ServiceError("place_round_open")
        if not 0 <= index < len(rnd.tops):
            raise ServiceError("place_no_such_top")
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        board = Board(game.board)
        apply(board, play_from_json(rnd.tops[index]))
        game.board = board.cells
        game.save(update_fields=["board"])
        rnd.placed = rnd.tops[index]
        rnd.status = Round.Status.PLACED
        rnd.version += 1
        rnd.save(update_fields=["placed", "status", "version"])
    return rnd


def round_cancel(*, round_id: int) -> DrawOutcome:
    """Cancel a round (§3.1.6): its scores are void, all its tiles go back, a different rack is drawn;
    if none can be, the game ends."""
    with _writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament").get(pk=round_id)
        if rnd.status in (Round.Status.PLACED, Round.Status.CANCELLED):
            raise ServiceError("cancel_not_possible")
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        bag = engine_draw.Bag(game.bag)
        rng = random.Random(f"{game.seed}:{game.draws}")
        result = engine_draw.cancel_round(tuple(rnd.tiles), bag, rnd.number, rng, _has_move(game, rnd.number))
        game.draws += 1
        rnd.status = Round.Status.CANCELLED
        rnd.version += 1
        rnd.save(update_fields=["status", "version"])
        if result.end:
            game.bag = list(bag.tiles())
            game.status, game.end_reason = Game.Status.ENDED, result.end.value
            game.save(update_fields=["bag", "status", "end_reason", "draws"])
            return DrawOutcome(None, result.end.value)
        game.bag = list(bag.tiles())
        game.save(update_fields=["bag", "draws"])
        new = Round.objects.create(
            game=game,
            number=rnd.number,
            attempt=rnd.attempt + 1,
            rack=result.rack_text,
            tiles=list(result.tiles),
        )
    _queue_top(new.pk)
    return DrawOutcome(new)


# -- plays as JSON -------------------------------------------------------------------------------


def play_json(play: Play) -> dict:
    return {
        "ref": str(play.ref),
        "word": play.word,
        "tiles": [list(t) for t in play.tiles],
        "score": play.score,
    }


def play_from_json(data: dict) -> Play:
    ref: Ref = parse_ref(data["ref"])
    return Play(ref, data["word"], tuple((sq, tile) for sq, tile in data["tiles"]), data["score"])


# -- the arbiter's screens (appended with the arbiter's views) -----------------------------------


def _register_arbiter_messages() -> None:
    from engine.messages import register

    register(
        {
            "slip_no_such_table": {
                "fr": "Aucun joueur à la table {table}.",
                "en": "No player at table {table}.",
            },
            "undo_nothing": {
                "fr": "Aucune correction à annuler pour ce coup.",
                "en": "No correction to undo for this round.",
            },
        }
    )


_register_arbiter_messages()


def tournament_create_with_list(
    *, created_by, lexicon: LexiconList | None, list_file: tuple[str, bytes] | None = None, **fields
) -> Tournament:
    """A tournament on a stored word list, or on a list the arbiter uploads with the form."""
    with _writing():
        if list_file is not None:
            name, data = list_file
            lexicon = lexicon_upload(name=name, data=data)
        return tournament_create(created_by=created_by, lexicon=lexicon, **fields)


def submission_enter(*, round_id: int, table_number: int, text: str, user) -> Submission:
    """A paper slip or a correction typed by the arbiter for the player at ``table_number``."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    player = Player.objects.filter(tournament_id=rnd.game.tournament_id, table_number=table_number).first()
    if player is None:
        raise ServiceError("slip_no_such_table", table=table_number)
    return submission_correct(round_id=round_id, player=player, text=text, user=user)


def submission_correction_undo(*, round_id: int, user) -> Submission | None:
    """Undo the round's last correction: the slip before it is graded again (the undo is logged
    like any correction), or, when the arbiter had typed a slip where there was none, it is removed."""
    change = (
        SubmissionChange.objects.filter(submission__round_id=round_id)
        .select_related("submission__player")
        .order_by("-changed_at", "-id")
        .first()
    )
    if change is None:
        raise ServiceError("undo_nothing")
    sub = change.submission
    if change.before is not None:
        return submission_correct(round_id=round_id, player=sub.player, text=change.before["slip"], user=user)
    with _writing():
        rnd = Round.objects.select_for_update().get(pk=round_id)
        if rnd.status not in (Round.Status.CLOSED, Round.Status.PLACED):
            raise ServiceError("correct_round_open")
        sub.delete()
        rnd.version += 1  # saved, not updated: the phones' memo hears of it (tournaments/memo.py)
        rnd.save(update_fields=["version"])
    return None
