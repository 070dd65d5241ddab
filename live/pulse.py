"""The arbiter's game screen and the projector asking every second whether anything changed, answered
before the session, the user and the views: "nothing new" (204) costs no more than the phones' poll.

Each screen polls its address with the key it shows (``v``, ``screens.pulse_key``) and a ticket
(``t``) its page was given: a keyed digest of the screen, the game, its tournament and the browser's
session, so only the browser that was shown the screen is answered here.  The current key is made from
what the process keeps for the phones' polls (``room.current_round_recent``: the room's round read
at most half a second ago, a save in this process forgets it), the round's slips counted (one
indexed count while it runs) and the game's mark of tried slips (``tried.pending_key``).  When it is
the one the screen shows, 204.  Anything else goes to Django's views untouched, which check the
account and draw the screen: a changed key, a round due to close or a top overdue (the view acts on
them), a game that is not the room's current one, a ticket that does not verify (another session:
logged out, or another browser), a failing database or cache.

The ticket gives no more than the view's own 204 would: that the key named is still the screen's.
Through the view that answer costs milliseconds of a web process's CPU (the session and the user
read, the user's clubs, the round with its game, tournament and word list, the slips counted; measured:
docs/developer/benchmarks.md), every second for each screen: with a simultaneous's hundred rooms,
cores of a server doing nothing."""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from live import room, tried
from live.screens import pulse_key
from tournaments.models import Round
from tournaments.selectors import slips_counted, top_overdue

log = logging.getLogger(__name__)

#: The screens' polls (``urls.py``: ``game_poll``, ``projector_poll``), by the kind of screen.
_POLLS = re.compile(r"/(parties|projecteur)/([0-9]{1,18})/etat/\Z")
_KINDS = {"parties": "game", "projecteur": "projector"}
_SALT = "live.pulse"
_TICKET = re.compile(r"([0-9]{1,18})-([0-9a-f]{32})\Z")


def _digest(kind: str, game_id: int, tournament_id: int, session_key: str) -> str:
    return salted_hmac(
        _SALT, f"{kind}:{game_id}:{tournament_id}:{session_key}", algorithm="sha256"
    ).hexdigest()[:32]


def ticket(request, kind: str, game) -> str:
    """What the screen ``kind`` ("game", "projector") of ``game`` sends with its polls, for this
    browser's session ("" without one: its polls go to the view)."""
    session_key = request.session.session_key if hasattr(request, "session") else None
    if not session_key:
        return ""
    return f"{game.tournament_id}-{_digest(kind, game.pk, game.tournament_id, session_key)}"


def _tournament_of(request, kind: str, game_id: int) -> int | None:
    """The tournament the poll's ticket names, if it is this screen's and this session's."""
    found = _TICKET.fullmatch(request.GET.get("t", ""))
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if found is None or not session_key:
        return None
    tournament_id = int(found.group(1))
    if not constant_time_compare(found.group(2), _digest(kind, game_id, tournament_id, session_key)):
        return None
    return tournament_id


def key_now(kind: str, game_id: int, tournament_id: int) -> str | None:
    """The key the screen would show now, made without the view (``game_poll``, ``projector_poll``);
    None when only the view may answer: the room is on another game (or none), its round is due to
    close or its top overdue (the view closes it, queues the top again)."""
    rnd = room.current_round_recent(tournament_id)
    if rnd is None or rnd.game_id != game_id:
        return None
    now = timezone.now()
    running = rnd.status == Round.Status.RUNNING
    if (running and now > rnd.deadline) or top_overdue(rnd, now):
        return None
    if kind == "projector":
        return pulse_key(rnd.game, rnd)
    slips = slips_counted(rnd.pk) if running else None
    return pulse_key(rnd.game, rnd, slips, now, tried.pending_key(game_id))


def nothing_new(request) -> HttpResponse | None:
    """204 for a screen's poll whose key is still the screen's, else None (the view answers)."""
    if request.method != "GET" or request.headers.get("HX-Request") != "true":
        return None
    found = _POLLS.fullmatch(request.path_info)
    if found is None:
        return None
    kind, game_id = _KINDS[found.group(1)], int(found.group(2))
    shown = request.GET.get("v")
    tournament_id = _tournament_of(request, kind, game_id)
    if tournament_id is None or not shown:
        return None
    try:
        now = key_now(kind, game_id, tournament_id)
    except Exception:  # the database or the cache failing: the view says it
        log.warning("A screen's poll could not be answered before the view", exc_info=True)
        return None
    if now != shown:
        return None
    return HttpResponse(status=204)


class ScreenPulseMiddleware:
    """``nothing_new`` before the session, the user and the views (``settings.MIDDLEWARE``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        answer = nothing_new(request)
        return answer if answer is not None else self.get_response(request)
