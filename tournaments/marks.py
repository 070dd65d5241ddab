"""The room's players' mark: a value in the shared cache (Redis at scale, the process's memory on
the laptop) that moves whenever a player of the tournament is changed or removed, or the tournament
itself is changed.  What a process remembers of a room's players (the phones' room, the rankings) is
kept under the mark it was read with and read again once the mark has moved, in every web process at
once.  A removed player's join link and code are remembered too, so that their phone is told it was
removed rather than "unknown link"."""

from __future__ import annotations

import logging
import re
import uuid

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from server import memo
from tournaments.models import Player, Tournament

#: The characters of ``models.new_token``: anything else names no player and never reaches the
#: database (PostgreSQL refuses a NUL in a query: a 500 for ``/j/%00/``).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def token_ok(token) -> bool:
    """Whether ``token`` is written as a join link's token is (``models.new_token``)."""
    return isinstance(token, str) and _TOKEN.fullmatch(token) is not None


#: Each room's mark as this process last read it from the shared cache, for half a second at most.
_marks: memo.Recent[str | None] = memo.Recent()
#: How long the shared cache keeps a room's mark and a removed player's token: an evening and more.
MARK_SECONDS = 7 * 24 * 3600
log = logging.getLogger(__name__)


def read_mark(tournament_id: int) -> str | None:
    """The room's mark as the shared cache holds it now; None when the cache does not answer."""
    try:
        return cache.get(f"room-players:{tournament_id}", "")
    except Exception:  # the cache is Redis and Redis is down: no memo of the room's players is trusted
        log.warning("cache unreachable: the room's players are read afresh", exc_info=True)
        return None


def players_mark(tournament_id: int) -> str | None:
    """The room's mark in the shared cache (Redis at scale, this one process's memory on the laptop):
    "" until a player of the room is changed or removed, a new value at each change, written by the
    process that made it (``_players_changed``).  What a process remembers of the room's players is
    kept under the mark it was read with, and read again once the mark moved.  Read at most
    ``settings.POLL_MEMO_SECONDS`` ago; None when the cache does not answer."""
    return _marks.get(tournament_id, lambda: read_mark(tournament_id))


def player_removed(token: str) -> bool:
    """Whether ``token`` was the join link of a player the arbiter removed (``MARK_SECONDS`` ago at
    most, and the shared cache kept it): the phone is told so rather than "unknown link"."""
    if not token_ok(token):
        return False
    try:
        return cache.get(f"player-removed:{token}") is not None
    except Exception:
        log.warning("cache unreachable: a removed player's link is called unknown", exc_info=True)
        return False


def player_removed_code(code: str) -> str | None:
    """The join link's token of the removed player whose join code this was (``live.codes``:
    ``code`` as read), or None: its phone is told as the link would tell it."""
    try:
        return cache.get(f"player-removed-code:{code}")
    except Exception:
        log.warning("cache unreachable: a removed player's code is called unknown", exc_info=True)
        return None


def _set(key: str, value) -> None:
    try:
        cache.set(key, value, MARK_SECONDS)
    except Exception:
        log.warning("cache unreachable: a change of the room's players not told", exc_info=True)


def _players_changed(tournament_id: int) -> None:
    """A new mark for the room, now (a process reading the room meanwhile reads it again) and once
    committed (one that read it before the commit too)."""
    _set(f"room-players:{tournament_id}", uuid.uuid4().hex)
    transaction.on_commit(lambda: _set(f"room-players:{tournament_id}", uuid.uuid4().hex))


def _player_saved(instance: Player, created: bool = False, **_kwargs) -> None:
    if not created:  # a player registered is missing from no memo: it is read by its token
        _players_changed(instance.tournament_id)


def _tournament_saved(instance: Tournament, created: bool = False, **_kwargs) -> None:
    if not created:  # the players remembered carry their tournament
        _players_changed(instance.pk)


def _player_deleted(instance: Player, **_kwargs) -> None:
    _players_changed(instance.tournament_id)
    # Now: only a token that names no player is looked up, so a removal rolled back leaves no trace.
    _set(f"player-removed:{instance.token}", instance.tournament_id)
    _set(f"player-removed-code:{instance.join_code}", instance.token)


post_save.connect(_player_saved, sender=Player, dispatch_uid="mark-saved-player")
post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="mark-saved-tournament")
post_delete.connect(_player_deleted, sender=Player, dispatch_uid="mark-deleted-player")
