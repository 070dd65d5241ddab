"""A round's clock: started once its top is known, closed when its time and grace are over (§3.3),
its top placed on the board."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine.board import Board
from engine.variants import after_top
from server import arrival
from server.writes import BROKER_DOWN, ServiceError, task, writing
from tournaments.follow import follows_lead, record_move, waits_for_lead
from tournaments.models import Game, Round
from tournaments.plays import placed_json, play_from_json
from tournaments.services.games import game_end_if_over
from tournaments.services.grading import grade_all

logger = logging.getLogger(__name__)

#: The task that closes a round once its time and grace are over (``tournaments.tasks``).
CLOSE_TASK = "tournaments.tasks.round_close_task"


def round_start(*, round_id: int) -> Round:
    """Start the clock: only once the top is known and a move exists (§3.1.5)."""
    with writing():
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
    try:
        task(CLOSE_TASK).apply_async((round_id,), eta=eta)
    except BROKER_DOWN:
        logger.warning("The close of round %s could not be queued: the next request closes it.", round_id)


def round_close_if_due(*, round_id: int, now=None) -> Round:
    """Close a running round whose deadline and grace have passed (any request may call this: the
    round closes on time even with no worker and after a restart), once the slips that reached the
    server in time are stored (``arrival``)."""
    now = now or timezone.now()
    rnd = Round.objects.select_related("game__tournament").get(pk=round_id)
    if rnd.status != Round.Status.RUNNING:
        return rnd
    cutoff = rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    # Slips that reached this server by the cutoff but wait for a thread are still to be stored; behind
    # a proxy, the web processes' queues are waited out too.
    if now > cutoff and arrival.wait_is_over(cutoff, now) and now >= arrival.close_may_wait_until(cutoff):
        return round_close(round_id=round_id, now=now)
    return rnd


def round_close(*, round_id: int, now=None) -> Round:
    """End the round and grade every slip (§3.4)."""
    now = now or timezone.now()
    with writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament__lexicon").get(pk=round_id)
        if rnd.status != Round.Status.RUNNING:
            return rnd
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = now
        rnd.version += 1
        rnd.save(update_fields=["status", "closed_at", "version"])
        grade_all(rnd)
    return rnd


def round_place_top(*, round_id: int, index: int = 0) -> Round:
    """Place one of the tied tops on the board (the proposed one by default, §3.3.5); a centre of a
    live simultaneous places the lead centre's choice, once the lead has placed it, and a prepared
    game its record's move (§5).  In the game's variant (``engine.variants.after_top``): a joker
    game's blank played as a letter still in the bag is swapped for it, the letter on the board, the
    blank back in the next rack; an original game's round keeps both (``plays.placed_json``)."""
    with writing():
        rnd = Round.objects.select_for_update().select_related("game").get(pk=round_id)
        if rnd.status == Round.Status.PLACED:
            return rnd
        if rnd.status != Round.Status.CLOSED:
            raise ServiceError("place_round_open")
        if not 0 <= index < len(rnd.tops):
            raise ServiceError("place_no_such_top")
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        if follows_lead(game):
            # §5 live: every centre places the lead's choice, proposed first once told (services.follow).
            if waits_for_lead(game, rnd):
                raise ServiceError("place_waits_for_lead", number=rnd.number)
            if index != 0:
                raise ServiceError("place_leads_choice")
        elif index != 0 and record_move(game, rnd) is not None:
            # §5: a prepared game places its record's move; another tied top would leave another
            # reliquat, and the record's next rack could no longer be drawn.
            raise ServiceError("place_records_move")
        variant = game.engine_variant
        after = after_top(variant, rnd.tiles, play_from_json(rnd.tops[index]), game.bag)
        board = Board(game.board)
        board.place(after.tiles)
        game.board, game.bag = board.cells, list(after.bag)
        game.save(update_fields=["board", "bag"])
        rnd.placed = placed_json(rnd.tops[index], after if variant.original else None)
        rnd.status = Round.Status.PLACED
        rnd.version += 1
        rnd.save(update_fields=["placed", "status", "version"])
        game_end_if_over(game, rnd, after)
    return rnd


def rounds_close_overdue(*, tournament_id: int | None = None, now=None) -> int:
    """Close every round still running past its deadline and grace (of one tournament, or all):
    nobody's screen was open to close it (the laptop asleep, the server restarted).  The pages
    that show a tournament's games and results call it, and so does ``manage.py serve`` at start.
    How many were closed."""
    running = Round.objects.filter(status=Round.Status.RUNNING)
    if tournament_id is not None:
        running = running.filter(game__tournament_id=tournament_id)
    closed = 0
    for round_id in running.values_list("pk", flat=True):
        closed += round_close_if_due(round_id=round_id, now=now).status == Round.Status.CLOSED
    return closed
