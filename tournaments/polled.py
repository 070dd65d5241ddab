"""A polling phone told of a change with the messages a pushed phone gets (issue 24).

Where nothing is pushed (the laptop, a proxy that drops server-sent events) each phone asks every 2 s
what changed; after a change the whole room asks within those 2 s: 1,000 phones from one Python
process on the laptop.  Rendering each phone's page (its status, board and receipt through Django's
templates) cost 2.8 ms of CPU a phone.  Instead, the phone's script (``player_room.js``, which says
so with its page's language, ``d``) is answered by ``tournaments.slipgate`` before Django with the
room's state as pushed (``broadcast.room_state``: the common part's HTML, the board as 225 letters,
the seconds left) and, after a close, its own result (``own.own_html``), and draws them itself, as
on a pushed phone.  The room's part and the closed round's results are made once per state and
moment for the whole room (``POLL_MEMO_SECONDS``; a save in this process forgets them); each phone's
own line is written for it (its language only).

The answer is a JSON list: its own result first (when the round is closed), then the room's state.
Its ``at`` is 0: a polled state was not pushed (the load benchmark counts the poll's own time)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from server import memo
from tournaments.broadcast import compact_json, languages, room_results, room_state
from tournaments.own import own_html
from tournaments.phone import Phase, Screen, room_screen


@dataclass(frozen=True)
class Polled:
    """A room's state as its polling phones draw it."""

    key: str
    rooms: dict[str, dict]  # language -> the room's state, as pushed
    results: dict[int, Screen] | None  # player id -> the player's own part of a closed round
    digest: str
    solo_value: int


_polled: memo.Recent[Polled] = memo.Recent()
# One thread makes a room's state while the others asking for it wait, then take it: at a close the
# whole room asks at once.
_making = threading.Lock()


def _make(tournament_id: int, key: str) -> Polled:
    screen = room_screen(tournament_id, pushed=key)
    results = room_results(screen) if screen.phase in (Phase.CLOSED, Phase.ENDED) else None
    digest = results.digest if results else ""
    rooms = {lang: room_state(screen, lang, 0.0, digest) for lang in languages()}
    own = None if results is None else {s.player.pk: s for s in results.screens}
    solo_value = screen.round.game.tournament.solo_value if screen.round else 0
    return Polled(screen.signature, rooms, own, digest, solo_value)


def answer(tournament_id: int, player_id: int, key: str, lang: str, remaining: float | None) -> bytes | None:
    """The messages that bring a phone of ``lang`` showing an older state to the room's state
    ``key`` (``remaining``: its clock's seconds now), or None when only Django's page can (a player
    the closed round's results do not hold: registered since)."""
    if lang not in languages():
        return None
    with _making:
        state = _polled.get((tournament_id, key), lambda: _make(tournament_id, key))
    room = state.rooms[lang]
    if room["ph"] == Phase.RUNNING and remaining is not None:
        room = {**room, "rem": round(remaining, 1)}
    messages = [room]
    if state.results is not None:
        own = state.results.get(player_id)
        if own is None:
            return None
        messages.insert(0, {"o": state.digest, "at": 0, lang: own_html(own, lang, state.solo_value)})
    return compact_json(messages).encode()
