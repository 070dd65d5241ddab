"""What every phone of a room shows in common, made once per change of the room, and each phone's own
result at a round's close, made once for the whole room.

A hall's phones all show the same rack, clock, top and board; only the name, the slip and the result
are each phone's own.  So the common part is drawn once per state key and language (``common_html``),
and at scale it is pushed (``server.push``) to the room's channel of each language as one message
(``room_message``: that part's HTML, the board as 225 letters, the seconds left), which the phone
draws itself (``player.js``): no request per phone per change.  At a round's close, each player's own
result (``live.own``) goes on the player's own channel, which the phone listens to on the
same connection (``own_messages``).  A phone without push (the laptop) polls, and its answer is made
of the same parts: the common HTML remembered, the own part written in Python.

The messages go out from the push thread of the process that committed the change (``_announce``),
so neither the arbiter's request nor the phone's that closed the round waits for them."""

from __future__ import annotations

import json
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from engine import alphabet
from engine.alphabet import FRENCH, LetterSet
from engine.board import CELLS
from live import room
from live.closed_results import Shared, results_of, worker_coming
from live.own import languages, note_language
from live.phone import Phase, Screen, room_screen
from server import memo, push
from server.language import interface_language
from server.writes import BROKER_DOWN, task
from tournaments import marks
from tournaments.models import Game, Round
from tournaments.selectors import round_key

log = logging.getLogger(__name__)

#: Where the common part leaves room for the own part (``with_own``).
OWN_SLOT = '<div class="own"></div>'
#: The common part under its (state key, language): a few rooms' current states.
_common: memo.Kept[str] = memo.Kept(256)  # under the state key, language, rack and top


def common_html(screen: Screen, lang: str) -> str:
    """The status's common part (``_player_common.html``) of ``screen``'s state, in ``lang``, drawn
    once per state key.  Its clock says what it said when drawn; the phone's script counts down from
    the seconds the answer carries; while the clock runs it is drawn afresh."""
    rnd = screen.round
    # The state key names the round's state; its rack and top too, so that a database emptied and
    # filled again (tests, a resumed copy) never shows another evening's.
    top = (screen.top or {}).get("ref"), (screen.top or {}).get("word"), tuple(screen.top_words)
    key = (screen.signature, lang, rnd.game_id if rnd else 0, tuple(rnd.tiles) if rnd else (), top)
    html = _common.get(key) if screen.remaining is None else None
    if html is None:
        with translation.override(lang):
            html = render_to_string("live/partials/_player_common.html", {"screen": screen})
        if screen.remaining is None:  # a running clock's text is drawn afresh
            _common.put(key, html)
    return html


def with_own(common: str, own: str) -> str:
    return common.replace(OWN_SLOT, f'<div class="own">{own}</div>', 1) if own else common


def round_no(screen: Screen, lang: str) -> str:
    """ " · coup 3" after the table in the phone's heading ("" before the first draw)."""
    if screen.round is None:
        return ""
    with translation.override(lang):
        return f" · {gettext('coup')} {screen.round.number}"


def board_text(board: list[int], letters: LetterSet = FRENCH) -> str | list[str]:
    """The game's board for the phone's script (``player_room.js``): 225 characters, ``.`` an empty
    square, a letter in upper case, a joker's letter in lower case; in a set with tiles of several
    letters (Spanish CH), the 225 squares as a list of those texts instead."""
    out = []
    for sq in range(CELLS):
        tile = board[sq] if sq < len(board) else 0
        if not tile:
            out.append(".")
            continue
        letter = alphabet.char(tile, letters).upper()
        out.append(letter.lower() if alphabet.is_blank(tile) else letter)
    return "".join(out) if all(len(text) == 1 for text in out) else out


def room_message(screen: Screen, lang: str, at: float = 0.0, own_key: str = "") -> str:
    """The room's state as every phone of ``lang`` draws it (``player_room.js``); ``at``: when the
    change was committed (seconds since the epoch: the load benchmark measures from it); ``own_key``:
    the digest of the results a closed round's phones show with it (``room_results``)."""
    return compact_json(room_state(screen, lang, at, own_key))


def compact_json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def room_state(screen: Screen, lang: str, at: float = 0.0, own_key: str = "") -> dict:
    rnd = screen.round
    return {
        "k": screen.signature,
        "o": own_key,
        "at": round(at, 3),
        "r": str(rnd.pk) if rnd else "",
        "ph": screen.phase,
        "rem": None if screen.remaining is None else round(screen.remaining, 1),
        "sp": screen.spoken,
        "rn": round_no(screen, lang),
        "html": common_html(screen, lang),
        "b": board_text(screen.board, screen.letters),
        "l": [sq for sq, _tile in screen.last_tiles or []],
        "pl": bool(rnd is not None and rnd.placed),
    }


def own_messages(results: Shared, at: float = 0.0):
    """Each player's own result, in every language, for the player's own channel."""
    for player_id, html in results.every_own():
        yield own_room(player_id), compact_json({"o": results.digest, "at": round(at, 3), **html})


def push_room(tournament_id: int, lang: str) -> str:
    """The room's name for ``server.push``, one per language."""
    return f"t{tournament_id}-{lang}"


def own_room(player_id: int) -> str:
    return f"p{player_id}"


def listen_path(player) -> str:
    """Where this player's phone listens: its room's channel in the interface's language and its own,
    on one connection; "" where nothing is pushed (the laptop)."""
    lang = interface_language()
    note_language(player.tournament, lang)
    return push.listen_path(push_room(player.tournament_id, lang), own_room(player.pk))


def messages(tournament_id: int, key: str, at: float = 0.0):
    """Everything to push for the room's state ``key`` (committed at ``at``): the common state in
    each language, naming the results it goes with, then each player's result when they changed (a
    close, a correction; not a top placed: the phones keep theirs)."""
    screen = room_screen(tournament_id, pushed=key)
    closed = screen.phase in (Phase.CLOSED, Phase.ENDED)
    results = results_of(screen, marks.players_mark(tournament_id), pusher=True) if closed else None
    own_key = results.digest if results else ""
    for lang in languages(screen.round.game.tournament if screen.round else None):
        yield push_room(tournament_id, lang), room_message(screen, lang, at, own_key)
    if results is None or _results_sent(tournament_id) == results.digest:
        return
    yield from own_messages(results, at)
    try:  # every process that pushes the room (web, Celery) knows what its phones hold
        cache.set(f"room-results:{tournament_id}", results.digest, RESULTS_SENT_SECONDS)
    except Exception:
        log.warning("cache unreachable: the room's results will be sent again", exc_info=True)


#: How long the shared cache remembers the results a room's phones were sent last: an evening.
RESULTS_SENT_SECONDS = 12 * 3600


def _results_sent(tournament_id: int) -> str | None:
    try:
        return cache.get(f"room-results:{tournament_id}")
    except Exception:
        return None


# -- the room's changes, pushed as they are committed ---------------------------------------------

_game_rooms: memo.Kept[int] = memo.Kept(20_000)
#: The key this process pushed last, per room, and when: a transaction saving a round three times
#: pushes once.  Only for a few seconds: a database emptied and filled again (tests) gives the same
#: room number and key to another evening.
_pushed: memo.Kept[tuple[str, float]] = memo.Kept(5000)
PUSHED_ONCE_SECONDS = 5.0


def _announce(tournament_id: int) -> None:
    key = round_key(room.current_round(tournament_id))
    last = _pushed.get(tournament_id)
    if last is not None and last[0] == key and time.monotonic() - last[1] < PUSHED_ONCE_SECONDS:
        return
    _pushed.put(tournament_id, (key, time.monotonic()))
    at = time.time()
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        # A Celery worker makes and sends them (1,500 results at a close: a good part of a second of
        # CPU and as many messages): not the web process, whose threads answer the round's last slips
        # then.
        try:
            task(BROADCAST_TASK).apply_async((tournament_id, key, at), expires=60)
            return
        except BROKER_DOWN:
            log.warning("The broker is down: room %s's state is pushed from this process.", tournament_id)
    push.publish_built(lambda: messages(tournament_id, key, at))


BROADCAST_TASK = "live.tasks.room_broadcast_task"


def publish_now(tournament_id: int, key: str, at: float) -> int:
    """Make and send the room's messages for state ``key`` here and now (a Celery worker's task), on
    this process's kept-alive connections to nchan, side by side; how many were taken."""
    pairs = ((push.channel(name), message) for name, message in messages(tournament_id, key, at))
    return push.send_all(pairs)


def _changed(sender, instance, **_kwargs) -> None:
    """A round or a game was saved: once committed, its room's phones are sent the new state."""
    if not push.enabled():
        return
    if sender is Game:
        tournament_id = instance.tournament_id
    else:
        game_id = instance.game_id
        tournament_id = _game_rooms.get(game_id)
        if tournament_id is None:
            tournament_id = Game.objects.filter(pk=game_id).values_list("tournament_id", flat=True).first()
            if tournament_id is None:
                return
            _game_rooms.put(game_id, tournament_id)
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        worker_coming(tournament_id)  # now, before the commit makes the state seen
    transaction.on_commit(lambda: _announce(tournament_id))


for _model in (Round, Game):
    post_save.connect(_changed, sender=_model, dispatch_uid=f"push-{_model._meta.label}")
