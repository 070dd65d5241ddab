"""The room as all its phones read it at once: a token's player, the current round and its signature,
remembered by the process for a moment (``server.memo``), so the 2-second poll that finds nothing new
costs no query."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection
from django.db.models.signals import post_delete
from django.utils import timezone

from live import tried
from live.selectors import SlipRow
from server import memo
from tournaments.marks import players_mark, read_mark, token_ok
from tournaments.models import Game, Player, Round, Submission, Tournament
from tournaments.selectors import round_key


def player_by_token(token: str) -> Player | None:
    """The player whose join link carries ``token`` (the secret is the whole sign-in)."""
    if not token_ok(token):
        return None
    return Player.objects.select_related("tournament").filter(token=token).first()


def _current(tournament_id: int):
    return (
        Round.objects.filter(game__tournament_id=tournament_id)
        .exclude(status=Round.Status.CANCELLED)
        .exclude(game__status=Game.Status.ABANDONED)
        .order_by("-game__number", "-number", "-attempt")
    )


def current_round(tournament_id: int) -> Round | None:
    """The round the room is on: the last draw of the last game that was not cancelled."""
    return _current(tournament_id).select_related("game__tournament__lexicon").first()


@dataclass(frozen=True)
class Signature:
    """The little a poll needs: which round, which version, and whether it must be closed now."""

    round_id: int
    key: str
    due: bool
    remaining: float | None


def round_signature(tournament_id: int, now=None, pushed: str = "") -> Signature:
    """The current round's id and version, the game's state, and the clock (no query while the
    round is remembered: ``current_round_recent``).  ``pushed``: the key a pushed change announced;
    a remembered round with another key is read again."""
    now = now or timezone.now()
    rnd = current_round_recent(tournament_id, pushed)
    if rnd is None:
        return Signature(0, round_key(None), False, None)
    running = rnd.status == Round.Status.RUNNING
    due = running and now > rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    remaining = max(0.0, (rnd.deadline - now).total_seconds()) if running else None
    return Signature(rnd.pk, round_key(rnd), due, remaining)


_rounds: memo.Recent[Round | None] = memo.Recent()


def current_round_recent(tournament_id: int, pushed: str = "") -> Round | None:
    """``current_round`` as read at most ``settings.POLL_MEMO_SECONDS`` ago (``server.memo``):
    the whole room asks for it at once.  Read it, never change it.  With ``pushed`` (a state key
    another process announced), a remembered round under another key is read again: the first
    phone to ask after the push reads it for the others."""
    still_good = (lambda rnd: round_key(rnd) == pushed) if _KEY.fullmatch(pushed or "") else None
    return _rounds.get(tournament_id, lambda: current_round(tournament_id), still_good)


#: An ended round's slips under its (id, version): a few rooms' last rounds.
_round_slips: memo.Kept[dict[int, Submission]] = memo.Kept(64)


def round_slips_kept(rnd: Round) -> dict[int, Submission]:
    """An ended round's slips by player, read once by each process for the whole room when every
    phone asks for its results at once.  Kept under the round's version, which names them: the close
    grades them in the transaction that moves it, and whatever changes a slip once the round is
    over (a correction, a paper slip, a slip handled after the close) moves it again."""
    key = (rnd.pk, rnd.version)
    slips = _round_slips.get(key)
    if slips is None:
        slips = {s.player_id: s for s in Submission.objects.filter(round_id=rnd.pk).defer("history")}
        _round_slips.put(key, slips)
    return slips


#: The slips panel's rows last made for a few rounds, from the players and slips they were made of.
_panel_rows: memo.Derived[list[SlipRow]] = memo.Derived(64)


def round_slips(rnd: Round) -> list[SlipRow]:
    """Every player of the tournament with their slip for the ended round ``rnd`` (None: no slip), by
    table, as the process keeps them: the room's players (``room_players``) and the round's slips
    (under its version, which every change of a slip moves).  The arbiter's slips panel asks at each
    close and each top placed, and reading a hall's 1,500 rows afresh each time is dear (measured:
    docs/developer/benchmarks.md).  The same list while neither was read again (the panel's rows are
    written once for it: ``templatetags.rows``)."""
    room = room_players(rnd.game.tournament_id)
    slips = round_slips_kept(rnd)
    claims = tried.round_claims_kept(rnd)

    def make() -> list[SlipRow]:
        players = sorted(room.values(), key=lambda p: (p.table_number, p.pk))
        return [SlipRow(p, slips.get(p.pk), rnd.deadline, claims.get(p.pk, ())) for p in players]

    return _panel_rows.of_all((room, slips, claims), (rnd.pk, rnd.deadline), make)


#: What ``selectors.round_key`` writes.
_KEY = re.compile(r"[0-9]{1,18}\.[0-9]{1,10}\.[ep]")


# -- the room's players: a change or a removal seen by every web process at once -----------------

#: The room's players as this process last read them, under the room's mark they were read with.
#: A save in this process moves the mark (``_players_changed``): no other save forgets them (a round's
#: close in the arbiter's process made that process read the hall's 1,500 players again).
_rooms: memo.Recent[tuple[str, dict[int, Player]]] = memo.Recent(
    "ROOM_MEMO_SECONDS", forgotten_on_saves=False
)


def _room(tournament_id: int) -> dict[int, Player]:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    players = {}
    for player in Player.objects.filter(tournament_id=tournament_id):
        player.tournament = tournament
        players[player.pk] = player
    return players


def room_players(tournament_id: int) -> dict[int, Player]:
    """The room's players by id, each with its tournament (the results sent at a round's close, the
    slips panel), as this process keeps them: read again, in one query for the whole room, when the
    room's mark moved (a player changed or removed, the tournament changed) or their number did (a
    player registered: the mark does not move for them).  Read it, never change it."""
    mark = read_mark(tournament_id)
    if mark is None:  # the cache does not answer: nothing kept is trusted
        return _room(tournament_id)
    count = _count(tournament_id)

    def still_good(kept: tuple[str, dict[int, Player]]) -> bool:
        return kept[0] == mark and len(kept[1]) == count

    return _rooms.get(tournament_id, lambda: (mark, _room(tournament_id)), still_good)[1]


def _count(tournament_id: int) -> int:
    """How many players the room has now: one indexed count, its SQL written here (the ORM's
    compiler costs more than the count)."""
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {table} WHERE tournament_id = %s", [tournament_id])
        return cursor.fetchone()[0]


#: How many players each room has, as counted at most ``settings.ROOM_MEMO_SECONDS`` ago.
_sizes: memo.Recent[int] = memo.Recent("ROOM_MEMO_SECONDS")


def room_size(tournament_id: int) -> int:
    """How many players the room has, counted lately: a room's size (a hall or a club), not its list
    (reading a hall's 1,500 players to count them would cost each web process a query of the whole
    room at every close)."""
    return _sizes.get(tournament_id, lambda: _count(tournament_id))


def player_by_token_recent(token: str, *, mark_recent: bool = False) -> Player | None:
    """``player_by_token`` as read at most ``settings.ROOM_MEMO_SECONDS`` ago and under the room's
    current mark (``players_mark``): when a round changes state every phone of the room asks for its
    new screen at once, and the room's players are read in one query for all of them; a player
    renamed, moved or removed by any process is read again: the mark is read afresh here (a new
    screen), only the poll that finds nothing new (``player_ids``) and the slip (``mark_recent``:
    it shows neither name nor table, and a removed player's slip is refused under the player's
    row lock, ``services.slips``) take it as remembered for half a second, as they do the round.
    Read it, never change it."""
    ids = player_ids(token)
    if ids is None:
        return None
    player_id, tournament_id = ids
    # Read before the players: a change after it moves it again.
    mark = players_mark(tournament_id) if mark_recent else read_mark(tournament_id)
    player = None
    if mark is not None:
        read = _rooms.get(tournament_id, lambda: (mark, _room(tournament_id)), lambda kept: kept[0] == mark)
        player = read[1].get(player_id)
    if player is None:
        player = player_by_token(token)  # registered since, or gone
        if player is None:
            _player_ids.pop(token)
    return player


#: A token's player and tournament never change: a few tournaments' players are remembered, each
#: under the room's mark it was read with (a player removed since is read again: gone), with the key
#: of the name and table their phone shows (``shown_key``; a player renamed is read again too).
_player_ids: memo.Kept[tuple[int, int, str | None, str]] = memo.Kept(20_000)


def shown_key(name: str, table_number: int) -> str:
    """What a phone shows of its player (name, table), in a few characters: the phone sends it back
    on its poll (``p``), and a phone showing another name or table is redrawn."""
    return hashlib.blake2s(f"{table_number}\x00{name}".encode(), digest_size=6).hexdigest()


def player_shown(token: str) -> str:
    """``shown_key`` of the token's player as ``player_ids`` last read it (call it after that): the
    row is read again whenever the room's mark moves, so a poll compares without a query."""
    known = _player_ids.get(token)
    return known[3] if known is not None else ""


def player_ids(token: str) -> tuple[int, int] | None:
    """``(player id, tournament id)`` of a join link's token, or None when it names no player (or no
    longer).  The process remembers them, and the 2-second poll that finds nothing new costs no
    query while the room's mark stays (``players_mark``; a cache that does not answer moves nothing)."""
    if not token_ok(token):
        return None
    known = _player_ids.get(token)
    mark = None
    if known is not None:
        mark = players_mark(known[1])
        if mark is None or mark == known[2]:
            return known[0], known[1]
    rows = _room_rows(token)
    own = next((row for row in rows if row[0] == token), None)
    if own is None:
        _player_ids.pop(token)
        return None  # not remembered: the player may be registered in a moment
    if known is None:
        mark = players_mark(own[2])
    for other, pk, tid, name, table in rows:
        _player_ids.put(other, (pk, tid, mark, shown_key(name, table)))
    return own[1], own[2]


#: The most players of a room whose tokens are read at once (``_room_rows``).
_ROOM_ROWS_MAX = 5_000
_ROW = ("token", "pk", "tournament_id", "name", "table_number")


def _room_rows(token: str) -> list[tuple]:
    """The rows of every player of the token's room (none when it names no player), in one query:
    each web process meets each of a hall's phones for the first time in the last seconds of a round,
    and a query per phone and process would add thousands of queries to that rush (measured:
    docs/developer/benchmarks.md).  A room too big for that: the token's own row."""
    room_of = Player.objects.filter(token=token).values("tournament_id")[:1]
    rows = list(Player.objects.filter(tournament_id__in=room_of).values_list(*_ROW)[: _ROOM_ROWS_MAX + 1])
    if len(rows) > _ROOM_ROWS_MAX:
        rows = list(Player.objects.filter(token=token).values_list(*_ROW)[:1])
    return rows


def round_of_tournament(tournament_id: int, raw: str) -> int | None:
    """The id of the round a phone sent, if it is one of the player's tournament."""
    if not re.fullmatch(r"[0-9]{1,18}", raw or ""):
        return None
    current = current_round_recent(tournament_id)
    if current is not None and current.pk == int(raw):
        return current.pk  # the slip's usual round: no query
    rounds = Round.objects.filter(pk=int(raw), game__tournament_id=tournament_id)
    return rounds.values_list("pk", flat=True).first()


def _player_deleted(instance: Player, **_kwargs) -> None:
    _player_ids.pop(instance.token)


post_delete.connect(_player_deleted, sender=Player, dispatch_uid="forget-deleted-player")
