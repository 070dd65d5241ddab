"""Slips a phone tried to send while the server did not answer.

``POST /j/<token>/essai/``, sent by the phone's script once the server answers again, with the
fields ``round`` (the id of the round the phone showed), ``slip``, ``claimed`` (the FISF claimed
score, may be empty), ``request_id`` and ``tried_at`` (the phone's ``Date.now()`` at its first try, in
milliseconds).  The server's clock decides (§3.3.3): a slip that reaches it in time is stored as any
slip and answered 200; one that reaches it late is kept for the arbiter (``services.tried``) and
answered 202.  Either answer is one ``<p class="tried">`` sentence in the interface's language; a
refusal is one ``<p class="error">`` sentence (400, 429 past ``tried.PER_ROUND``), a link that names
no player is answered as the other phone views answer it (404, or 410 for a removed player).

The arbiter accepts or refuses a claim from the round's slips panel (``for_deputy``: the club's
arbiters and deputies, who settle slips)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.html import escape
from django.views.decorators.http import require_POST

from engine.messages import Message
from live import phone, room, tried
from live import services as live_services
from live.services.slips import parse_slip_text
from live.services.tried import tried_accept as accept_claim
from live.services.tried import tried_record
from live.services.tried import tried_refuse as refuse_claim
from live.views.game import _after_slip
from live.views.player import _removed, _request_id, unknown_token
from server import arrival
from server.language import interface_language
from server.writes import ServiceError
from tournaments.access import for_deputy
from tournaments.models import Grading, Round

#: Rounds a phone may have shown and sent a slip for: their clock started.
_PLAYED = (Round.Status.RUNNING, Round.Status.CLOSED, Round.Status.PLACED)


def _said(message: Message, status: int) -> HttpResponse:
    """One sentence in the interface's language, where the phone's script reads it: a refusal as the
    slip's refusals are (``<p class="error">``), else ``<p class="tried">``."""
    text = escape(message.text(interface_language()))
    if status >= 400:
        return HttpResponse(f'<p class="error" role="alert">{text}</p>', status=status)
    return HttpResponse(f'<p class="tried" role="status">{text}</p>', status=status)


@require_POST
def player_tried(request, token: str):
    player = room.player_by_token_recent(token)
    if player is None:
        return unknown_token(request, token)
    now = arrival.received_at(request)
    try:
        sent = tried.sent_read(request.POST, now)
    except tried.Refused as refusal:
        return _said(refusal.message, 400)
    rounds = Round.objects.filter(pk=sent.round_id, game__tournament_id=player.tournament_id)
    rnd = rounds.only("id", "number", "status", "started_at").first()
    if rnd is None:
        return _said(Message("tried_round_unknown"), 400)
    if rnd.status not in _PLAYED or rnd.started_at is None:
        return _said(Message("tried_round_not_played", {"number": rnd.number}), 400)
    letters = player.tournament.letter_set
    text = phone.slip_text(
        sent.slip, sent.claimed, fisf=player.tournament.grading == Grading.FISF, letters=letters
    )
    request_id = _request_id({"request_id": sent.request_id}, text)
    try:
        parse_slip_text(text, letters)
        stored = live_services.submission_record(
            player=player, round_id=rnd.pk, text=text, request_id=request_id, now=now
        )
    except ServiceError as refusal:
        if refusal.message.code != "slip_late":
            return _refused(request, player, refusal)
    else:
        return _said(Message("tried_in_time", {"slip": stored.slip_text()}), 200)
    try:
        claim = tried_record(
            player=player, round_id=rnd.pk, text=text, tried_at=sent.tried_at, request_id=request_id, now=now
        )
    except ServiceError as refusal:
        return _refused(request, player, refusal)
    return _said(Message("tried_kept", {"time": tried.clock_text(claim.tried_at)}), 202)


def _refused(request, player, refusal: ServiceError) -> HttpResponse:
    code = refusal.message.code
    if code == "slip_player_removed":  # removed meanwhile: said as the other phone views say it
        return _removed(request, player.token, code)
    return _said(refusal.message, 429 if code == "tried_too_many" else 400)


@for_deputy("round")
@require_POST
def tried_accept(request, pk: int, claim: int):
    """The claim taken as the player's paper slip, handed in late: graded and logged; the panel says
    how it was read, as after a paper slip typed."""
    rnd = get_object_or_404(Round.objects.select_related("game__tournament"), pk=pk)
    try:
        sub = accept_claim(claim_id=claim, round_id=rnd.pk, user=request.user)
    except ServiceError as error:
        return _after_slip(request, rnd, error.text())
    read = {"table": sub.player.table_number, "slip": sub.slip_text(), "paid": sub.paid}
    read["why"] = sub.said(interface_language()) if sub.sanction not in ("", "none") else ""
    return _after_slip(request, rnd, read=read)


@for_deputy("round")
@require_POST
def tried_refuse(request, pk: int, claim: int):
    """The claim refused: nothing counts, the refusal logged."""
    rnd = get_object_or_404(Round.objects.select_related("game__tournament"), pk=pk)
    try:
        refuse_claim(claim_id=claim, round_id=rnd.pk, user=request.user)
    except ServiceError as error:
        return _after_slip(request, rnd, error.text())
    return _after_slip(request, rnd)
