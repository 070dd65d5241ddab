"""The top of a round: searched while the players think (§3.3.4), every tied top kept with the
proposed one first (§3.3.5); queued to a worker when a broker is set, else computed in-process."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from engine.alphabet import BLANK_FLAG
from engine.board import Board
from engine.choice import ranked
from engine.movegen import Position, Tops, find_tops
from engine.notation import parse_ref, parse_word
from engine.scoring import Illegal, evaluate
from lexicons.loaded import engine_lexicon
from server.writes import BROKER_DOWN, task
from tournaments import selectors
from tournaments.follow import lead_entry
from tournaments.models import Game, Round
from tournaments.plays import board_tiles, play_json

logger = logging.getLogger(__name__)

#: The task that searches a round's top (``tournaments.tasks``).
TOP_TASK = "tournaments.tasks.round_compute_top_task"


def queue_top(round_id: int) -> None:
    """Compute the top while players think: in a worker when a broker is set (after commit, so the
    worker sees the round), else right here, the draw's transaction being already committed."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task(TOP_TASK).delay(round_id)
    else:
        transaction.on_commit(lambda: _send_top(round_id))


def _send_top(round_id: int) -> None:
    """A broker that does not answer fails the top at once: the arbiter's screen says so and offers
    to compute it on the laptop (``round_compute_top``) instead of waiting for a worker."""
    try:
        task(TOP_TASK).delay(round_id)
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
    queue_top(round_id)
    return True


def round_compute_top(*, round_id: int) -> Round:
    """Every tied top of the round's rack, the proposed one first (§3.3.4, §3.3.5)."""
    rnd = Round.objects.select_related("game__tournament__lexicon").get(pk=round_id)
    if rnd.top_state == Round.TopState.READY:
        return rnd
    game = rnd.game
    position = position_of(game, rnd)
    fields = top_fields(game, tuple(rnd.tiles), find_tops(position))
    if game.source == Game.Source.PREPARED:
        fields["tops"] = _prepared_first(game, position, rnd.number, fields["tops"])
    Round.objects.filter(pk=rnd.pk).update(**fields)
    rnd.refresh_from_db()
    return rnd


def top_fields(game: Game, tiles: tuple[int, ...], found: Tops) -> dict:
    """What a round stores of its top search: every tied top, the one proposed first (§3.3.5, which
    reads the bag after the draw and, in a joker game, the blank a top would bring back), and the
    top's score."""
    letters, variant = game.tournament.letter_set, game.engine_variant
    order = ranked(found.plays, tiles, tuple(game.bag), letters, variant)
    return {
        "tops": [play_json(p) for p in order],
        "top_score": found.score,
        "top_state": Round.TopState.READY,
    }


def _prepared_first(game: Game, position: Position, number: int, order: list[dict]) -> list[dict]:
    """§5: a prepared game puts the same top on every centre's board, read as the record writes it
    (a one-tile move has two readings); if the record's move is not a top here, or not told yet (a
    live centre's round before its close, ``tournaments.follow``), or the record ends before this
    round, the order stands."""
    written = lead_entry(game, number)
    if written is None or "word" not in written:
        return order
    typed = parse_word(written["word"], game.tournament.letter_set)
    tiles = [c | BLANK_FLAG if low else c for c, low in zip(typed.letters, typed.lower, strict=True)]
    play = evaluate(
        position.board, position.lexicon, parse_ref(written["ref"]), tiles, position.rack,
        played_max=position.played_max, bingo_size=position.bingo_size,
    )  # fmt: skip
    if isinstance(play, Illegal):
        return order
    same = next(
        (i for i, top in enumerate(order) if {tuple(t) for t in top["tiles"]} == set(play.tiles)), None
    )
    if same is None:
        return order
    return [play_json(play), *order[:same], *order[same + 1 :]]


def position_of(game: Game, rnd: Round) -> Position:
    """The board the round was played on: a slip corrected after its top (or later tops) went on the
    board is graded on the board the players saw; the game's variant sets how many tiles a move
    may place and which earn the bonus (``Variant.limits``)."""
    lexicon = engine_lexicon(game.tournament.lexicon)
    board, tiles, limits = _board_before(game, rnd), tuple(rnd.tiles), game.engine_variant.limits
    return Position(board, tiles, lexicon, first_move=rnd.number == 1, **limits)


def _board_before(game: Game, rnd: Round) -> Board:
    if rnd.status != Round.Status.PLACED:
        # Its top is not on the board yet, so no later round has been drawn: the board is as it is.
        return Board(game.board)
    cells = list(game.board)
    later = game.rounds.filter(status=Round.Status.PLACED, number__gte=rnd.number).values_list(
        "placed", flat=True
    )
    for placed in later:
        for sq, _tile in board_tiles(placed):
            cells[sq] = 0
    return Board(cells)
