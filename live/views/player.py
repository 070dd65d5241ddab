"""The player's phone: no account, recognised by the secret token of their join link.

Every view finds the player from the token in its own URL and shows that player's data only; the
session merely remembers the token so ``/moi/`` finds the way back (or takes the join code printed
on the card, ``live.codes``, from a phone that cannot scan it).  Before the deadline nothing
says whether a slip is valid or what it scores (§3.4)."""

from __future__ import annotations

import hashlib
import re
import uuid

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine.messages import Message
from live import broadcast, codes, phone, receipt, room
from live.services.slip_batch import first_try, submission_record_batched
from server import arrival, ratelimit
from server.language import interface_language
from server.writes import ServiceError
from tournaments import marks, services
from tournaments.models import Grading

SESSION_KEY = "player_token"
_REQUEST_ID = re.compile(r"[^A-Za-z0-9-]")


def _too_many(request, title: str = "token_guesses_title", text: str = "token_guesses_too_many"):
    """The 429 page, in the interface's language, with the seconds to wait (``server.ratelimit``)."""
    lang = interface_language()
    seconds = ratelimit.WINDOW_SECONDS
    context = {
        "title": Message(title).text(lang),
        "text": Message(text, {"seconds": seconds}).text(lang),
    }
    response = render(request, "live/player_too_many.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _unknown(request, token: str = ""):
    if token and marks.player_removed(token):
        return _removed(request, token)
    if ratelimit.count_unknown(request):
        return _too_many(request)
    return render(request, "live/player_unknown.html", status=404)


def _removed(request, token: str, code: str = "player_removed"):
    """The link of a player the arbiter removed: said so (410, in the interface's language), not
    counted as a guess.  The phone's script, polling or sending a slip, is sent to its page, which
    says it and polls no more."""
    lang = interface_language()
    context = {"title": Message("player_removed_title").text(lang), "text": Message(code).text(lang)}
    response = render(request, "live/player_removed.html", context, status=410)
    if request.htmx:
        response["HX-Redirect"] = reverse("live:player_page", kwargs={"token": token})
    return response


#: For the other rooms' pages reached by a join link (the review): the same brake, the same 404.
unknown_token = _unknown


def token_guard(view):
    """The view itself, nothing before it: a link that names a player is always served, and the brake
    is ``unknown_token``'s alone (``server.ratelimit``).  The views that wear it are served as they are."""
    return view


def close_if_due(tournament_id: int, pushed: str = "") -> room.Signature:
    """Any screen showing a running round closes it once its time is up: no worker needed.  The
    service is called only when the clock says the round is due, so an idle poll stays cheap.
    ``pushed``: the state key a pushed change announced (``room.round_signature``)."""
    signature = room.round_signature(tournament_id, pushed=pushed)
    if not signature.due:
        return signature
    services.round_close_if_due(round_id=signature.round_id)
    return room.round_signature(tournament_id)


#: The sentences ``player.js`` shows by itself (``data-text-*`` on the page): name -> catalogue code.
SCRIPT_TEXTS = {
    "no-answer": "phone_no_answer",
    "given-up": "phone_given_up",
    "server-lost": "phone_server_lost",
    "server-back": "phone_server_back",
    "kept-slip": "phone_kept_slip",
    "refused": "phone_refused",
    "tile-used": "phone_tile_used",
    "rack-no-blank": "phone_rack_no_blank",
    "rack-no-letter": "phone_rack_no_letter",
    "new-rack": "phone_new_rack",
    "thirty": "phone_thirty",
    "time-up": "phone_time_up",
    "across": "phone_across",
    "down": "phone_down",
}


#: What the script writes into its sentences itself (the time the server was lost, the join code, a
#: slip kept on the phone).
_SCRIPT_SLOTS = {"time": "{time}", "code": "{code}", "slip": "{slip}", "letter": "{letter}"}


def _script_texts(lang: str) -> dict[str, str]:
    return {name: Message(code, _SCRIPT_SLOTS).text(lang) for name, code in SCRIPT_TEXTS.items()}


def _context(player, submission=None, **extra) -> dict:
    screen = phone.player_screen(player, submission=submission)
    return {
        "screen": screen,
        "player": player,
        "fisf": player.tournament.grading == Grading.FISF,
        "request_id": uuid.uuid4().hex,
        "lang": interface_language(),
        **extra,
    }


def _page(request, context: dict) -> HttpResponse:
    """The whole page, with the sentences its script may have to show by itself."""
    texts = _script_texts(context["lang"])
    listen = broadcast.listen_path(context["player"])
    return render(request, "live/player_page.html", {**context, "script_texts": texts, "push": listen})


@require_GET
def player_page(request, token: str):
    player = room.player_by_token(token)
    if player is None:
        return _unknown(request, token)
    if request.session.get(SESSION_KEY) != player.token:
        request.session[SESSION_KEY] = player.token
    close_if_due(player.tournament_id)
    context = _context(player)
    if request.htmx:
        return _status_response(request, context)
    return _page(request, context)


@require_http_methods(["GET", "POST"])
def player_me(request):
    """``/moi/``: this phone's own page if it opened a join link before; else ask for the card, or
    its code (posted: ``_join_by_code``)."""
    if request.method == "POST":
        return _join_by_code(request)
    token = request.session.get(SESSION_KEY, "")
    player = room.player_by_token(token)
    if player is None:
        if marks.player_removed(token):
            return _removed(request, token)
        return render(request, "live/player_me.html")
    return redirect("live:player_page", token=player.token)


def _join_by_code(request):
    """A code typed on ``/moi/``: the player's page, remembered by the session as a join link is.
    A code that names no player counts as a guess of a link (``server.ratelimit``); past the limit
    the address is answered 429 whatever it types, until the minute is over: guessing a code is
    then as slow as guessing a link, and a phone at another address is never held up."""
    typed = request.POST.get("code", "")
    if not typed.strip():
        return _code_asked(request, "join_code_empty", status=200)
    if ratelimit.over_limit(request):
        return _too_many(request, "join_code_guesses_title", "join_code_too_many")
    code = codes.code_read(typed)
    player = codes.player_by_code(code) if code else None
    if player is not None:
        request.session[SESSION_KEY] = player.token
        return redirect("live:player_page", token=player.token)
    removed = marks.player_removed_code(code) if code else None
    if removed:
        return _removed(request, removed)
    if ratelimit.count_unknown(request):
        return _too_many(request, "join_code_guesses_title", "join_code_too_many")
    if code is None:
        return _code_asked(request, "join_code_malformed")
    return _code_asked(request, "join_code_unknown", code=codes.code_shown(code))


def _code_asked(request, said: str, status: int = 404, **params):
    """``/moi/`` again, saying why the code did not open a page (in the interface's language)."""
    error = Message(said, params).text(interface_language())
    return render(request, "live/player_me.html", {"error": error}, status=status)


@require_GET
def player_status(request, token: str):
    """The 2-second poll: 204 while nothing changed (with the seconds left, so the phone's countdown
    follows the server's clock, never its own), else the status area and the board.  The answer
    "nothing changed" reads nothing from the database, most of the time (``live.room``).
    Where changes are pushed (``server.push``) the phone asks when told, with the pushed key
    (``k``), and every 20 s besides."""
    ids = room.player_ids(token)
    if ids is None:
        return _unknown(request, token)
    signature = close_if_due(ids[1], pushed=request.GET.get("k", ""))
    # ``p``: the name and table the phone shows; another (renamed, moved, or drawn from a memo
    # older than the change) is redrawn, whatever the round.
    shown = request.GET.get("p", "")
    if request.GET.get("s") == signature.key and shown in ("", room.player_shown(token)):
        response = HttpResponse(status=204)
        if signature.remaining is not None:
            response["X-Remaining"] = f"{signature.remaining:.1f}"
        return response
    player = room.player_by_token_recent(token)
    if player is None:
        return _unknown(request, token)
    return _status_response(request, _context(player))


def _status_response(request, context) -> HttpResponse:
    """The status area, and the board and the receipt swapped out of band: one template.  The board
    (most of the answer's weight and of its making) and the receipt are left out when the phone says
    it shows them already (``b``, ``r``: the keys ``player.js`` reads off them)."""
    screen = context["screen"]
    context["send_board"] = request.GET.get("b") != screen.board_key
    context["send_receipt"] = request.GET.get("r") != screen.receipt_key
    return HttpResponse(render_to_string("live/partials/_player_poll.html", context, request))


def _slip_text(post, fisf: bool, letters) -> str:
    """The slip as one line: ``H4 JOINTA?`` typed in one field, the claimed score (FISF) in its own,
    read as the engine's ``H4 JOINTa 34`` (``phone.slip_text``) in the tournament's letter set."""
    return phone.slip_text(post.get("slip", ""), post.get("claimed", ""), fisf=fisf, letters=letters)


def _request_id(post, text: str) -> str:
    """The client's id for this sending, tied to what is sent: a retried request is stored once, and
    a different slip is never mistaken for a retry even if the phone failed to renew its id."""
    client = _REQUEST_ID.sub("", post.get("request_id", ""))[:40]
    if not client:
        return ""
    return f"{client}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"


@require_POST
def player_submit(request, token: str):
    player = room.player_by_token_recent(token)
    if player is None:
        return _unknown(request, token)
    return slip_answer(request, player)


def slip_answer(request, player):
    """The slip of ``player`` (found by the token of the URL) stored with the other slips waiting in
    this process, one commit for them all (``services.slip_batch``).  The phone's script (htmx) is
    answered with the receipt alone (``live.receipt``: no board, no screen; the slip stored
    in its ``data-slip-*``), a form sent without it with the page.  ``live.slipgate`` calls
    it before Django's middlewares."""
    fisf = player.tournament.grading == Grading.FISF
    text = _slip_text(request.POST, fisf, player.tournament.letter_set)
    error, round_id, stored = None, None, None
    request_id = _request_id(request.POST, text)
    now = arrival.received_at(request)
    try:
        round_id = room.round_of_tournament(player.tournament_id, request.POST.get("round", ""))
        if round_id is None:
            raise ServiceError("slip_round_not_running")
        stored = submission_record_batched(
            player=player,
            round_id=round_id,
            text=text,
            request_id=request_id,
            now=now,
        )
    except ServiceError as refusal:
        if refusal.message.code == "slip_player_removed":  # removed while the phone showed the round
            return _removed(request, player.token, refusal.message.code)
        if refusal.message.code == "slip_late" and round_id is not None:
            # A retry handled before its own first try, sent in time and still queued: received.
            stored = first_try(player, round_id, request_id)
        if stored is None:
            error = refusal.text()
            if round_id is not None:  # kept with the round's receipt: it stays beside the results
                phone.refusal_keep(round_id, player.pk, refusal.message, now, request_id)
    if not request.htmx:
        return _page(request, _context(player, stored, error=error, typed=request.POST, sent=error is None))
    screen = receipt.receipt_screen(player, stored, answered=error is None)
    return HttpResponse(receipt.receipt_html(screen, error=error, sent=error is None))
