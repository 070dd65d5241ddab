"""A polling phone told of a change with the messages a pushed phone gets.

Where nothing is pushed (the laptop, a proxy that drops server-sent events) each phone asks every 2 s
what changed; after a change the whole room asks within those 2 s: 1,000 phones from one Python
process on the laptop.  Rendering each phone's page (its status, board and receipt through Django's
templates) would cost that process seconds of CPU at each change (measured:
docs/developer/benchmarks.md).  Instead, the phone's script (``player_room.js``, which says
so with its page's language, ``d``) is answered by ``live.slipgate`` before Django with the
room's state as pushed (``broadcast.room_state``: the common part's HTML, the board as 225 letters,
the seconds left) and, after a close, its own result (``own.own_html``), and draws them itself, as
on a pushed phone.  The room's part is made once per state for the whole room (kept under the
state's key and the room's players' mark; a save in this process forgets it); a closed round's
results once for the whole server (``closed_results``: made by the process that pushes them, read by
the others), each phone's own line from them.

The answer is a JSON list: its own result first (when the round is closed), then the room's state.
Its ``at`` is 0: a polled state was not pushed (the load benchmark counts the poll's own time)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from live.broadcast import compact_json, languages, room_state
from live.closed_results import Shared, results_of
from live.phone import Phase, room_screen
from live.room import players_mark
from server import memo


@dataclass(frozen=True)
class Polled:
    """A room's state as its polling phones draw it."""

    key: str
    rooms: dict[str, dict]  # language -> the room's state, as pushed
    results: Shared | None  # a closed round's results: each player's own part


#: Under the state's key and the room's players' mark, which name what it holds (a round's version moves
#: with its slips' grades, the mark with a player's or the tournament's change): kept while they stay (made
#: again every half second, a closed round's 1,500 results would be worked out afresh in each web process
#: twice a second while its phones poll).  Without a mark (the cache not answering): half a second.
_polled: memo.Recent[Polled] = memo.Recent("ROOM_MEMO_SECONDS")
_polled_briefly: memo.Recent[Polled] = memo.Recent()
# One thread makes a room's state while the others asking for it wait, then take it: at a close the
# whole room asks at once.
_making = threading.Lock()


def _make(tournament_id: int, key: str, mark: str | None) -> Polled:
    screen = room_screen(tournament_id, pushed=key)
    closed = screen.phase in (Phase.CLOSED, Phase.ENDED)
    results = results_of(screen, mark) if closed else None
    digest = results.digest if results else ""
    rooms = {
        lang: room_state(screen, lang, 0.0, digest)
        for lang in languages(screen.round.game.tournament if screen.round else None)
    }
    return Polled(screen.signature, rooms, results)


def answer(tournament_id: int, player_id: int, key: str, lang: str, remaining: float | None) -> bytes | None:
    """The messages that bring a phone of ``lang`` showing an older state to the room's state
    ``key`` (``remaining``: its clock's seconds now), or None when only Django's page can (a player
    the closed round's results do not hold: registered since)."""
    mark = players_mark(tournament_id)
    kept = _polled if mark is not None else _polled_briefly
    with _making:
        state = kept.get((tournament_id, key, mark), lambda: _make(tournament_id, key, mark))
    room = state.rooms.get(lang)
    if room is None:  # a language the room's phones did not read when it was made: Django's page
        return None
    if room["ph"] == Phase.RUNNING and remaining is not None:
        room = {**room, "rem": round(remaining, 1)}
    messages = [room]
    if state.results is not None:
        own = state.results.own(player_id, lang)
        if own is None:
            return None
        messages.insert(0, {"o": state.results.digest, "at": 0, lang: own})
    return compact_json(messages).encode()
