"""Reads of the live room that are more than a ``.get()``: querysets, or plain data for a screen."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils.translation import gettext_lazy as _

from engine.draw import EndReason
from engine.messages import Message
from server.language import interface_language
from tournaments.models import (
    Game,
    Round,
    Submission,
    Tournament,
)  # fmt: skip


def tournament_list():
    return Tournament.objects.select_related("lexicon").order_by("-date", "-id")


def tables_in_use(tournament: Tournament) -> set[int]:
    """The table numbers the tournament's players hold."""
    return set(tournament.players.values_list("table_number", flat=True))


def games_under_way(clubs):
    """The games of these clubs not ended yet, the latest first: where a deputy enters slips."""
    return (
        Game.objects.filter(tournament__owner__in=clubs, status=Game.Status.PLAYING)
        .select_related("tournament")
        .order_by("-tournament__date", "-id")
    )


def tournament_games(tournament: Tournament):
    """The tournament's games with how many rounds have their top placed."""
    placed = Count("rounds", filter=Q(rounds__status=Round.Status.PLACED))
    return tournament.games.annotate(rounds_placed=placed).order_by("number")


def current_round(game_id: int) -> Round | None:
    """The round the game is at: the last one drawn and not cancelled, with its game and tournament
    (every screen reads the tournament's settings and letter set)."""
    return (
        Round.objects.select_related("game__tournament")
        .filter(game_id=game_id)
        .exclude(status=Round.Status.CANCELLED)
        .order_by("-number", "-attempt")
        .first()
    )


def slips_received(rnd: Round) -> int:
    return Submission.objects.filter(round=rnd).count()


def slips_counted(round_id: int) -> int:
    """``slips_received`` in one indexed count, its SQL written here: the screens' polls count them
    every second while a round runs (``live.pulse``), and the ORM's compiler cost more than
    the count."""
    table = connection.ops.quote_name(Submission._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {table} WHERE round_id = %s", [round_id])
        return cursor.fetchone()[0]


def top_overdue(rnd: Round, now: datetime) -> bool:
    """The top still not computed ``TOP_REQUEUE_SECONDS`` after the draw: no worker seems to take it
    (Redis up, no Celery worker running), and the arbiter is offered to compute it on the laptop."""
    return (
        rnd.status == Round.Status.DRAWN
        and rnd.top_state == Round.TopState.PENDING
        and rnd.drawn_at is not None
        and now - rnd.drawn_at >= timedelta(seconds=settings.TOP_REQUEUE_SECONDS)
    )


def seconds_left(rnd: Round, now: datetime) -> float:
    if rnd.status != Round.Status.RUNNING or rnd.deadline is None:
        return 0.0
    return max(0.0, (rnd.deadline - now).total_seconds())


def top_so_far(game: Game) -> int:
    """The game's top: the sum of the tops placed on the board."""
    placed = game.rounds.filter(status=Round.Status.PLACED).aggregate(total=Sum("top_score"))
    return placed["total"] or 0


def clock(seconds: float) -> str:
    """Time left as the room reads it: ``2:57`` (whole seconds, rounded up)."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def last_placed(game: Game) -> dict | None:
    rnd = game.rounds.filter(status=Round.Status.PLACED).order_by("-number").only("placed").first()
    return rnd.placed if rnd else None


SANCTIONS = {
    "none": "",
    "warning": _("avertissement"),
    "penalty": _("−5"),
    "zero": _("zéro"),
}


#: ``Game.end_reason`` when the arbiter ended the game (``services.games.ENDED_BY_ARBITER``).
ENDED_BY_ARBITER = "arbiter"


def end_text(game: Game) -> str:
    """Why the game ended (or was abandoned), in the interface's language."""
    if game.status == Game.Status.ABANDONED:
        return Message("game_abandoned").text(interface_language())
    if not game.end_reason:
        return ""
    if game.end_reason == ENDED_BY_ARBITER:
        return Message("game_ended_by_arbiter").text(interface_language())
    return EndReason(game.end_reason).message.text(interface_language())


def round_key(rnd: Round | None) -> str:
    """What every screen following the room compares on its poll (the phones, the projector, the
    arbiter's screen): the round, its version (bumped on every change players see), and whether its
    game has ended.  Digits, letters and dots: the phone sends it back in its poll's URL."""
    if rnd is None:
        return "0.0.p"
    ended = "e" if rnd.game.status == Game.Status.ENDED else "p"
    return f"{rnd.pk}.{rnd.version}.{ended}"
