"""Results sent from the laptop to a federation's server: a simultaneous played in a hall
without Internet.  The arbiter gives the event's public address and the club's token; the results
file (``exports.results_export``, rebuilt at each try so the latest correction goes) is sent at once
and, while the server cannot be reached, kept and tried again each time the game's results page is
open (every 30 seconds), and by the laptop server's chores (``server.background``), until the server
takes it or refuses it with a reason.

What leaves this computer is checked: the address is a public page of a simultaneous on
a public server (``server.outbound``: public addresses only, checked after the name's lookup and
connected to as checked, no redirect followed), the token is a club token as the server makes them
(it goes in a header); of an answer, only the federation server's own JSON is read, its refusal
shown cleaned and bounded, and anything else is one "unreachable" whatever it was.  A row that can
never go (kept before these checks) is marked refused with why; a try that fails in an unexpected way
marks the row too, rather than answering 500 or trying for ever."""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import re
import unicodedata

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from results import exports
from results.models import Outbox
from server import outbound
from server.language import interface_language
from server.writes import ServiceError, writing
from tournaments.models import Game

logger = logging.getLogger(__name__)

#: A try waits this long for each step (the arbiter's page waits with it) ...
TIMEOUT_SECONDS = 4
#: ... and this long in all.
DEADLINE_SECONDS = 10
#: A pending file is tried again after this long.
RETRY_SECONDS = 30
#: The event's public page: any prefix (a server under a path), then ``simultane/<public key>/``.
_EVENT_PATH = re.compile(r"(?:/[A-Za-z0-9._~-]+)*/simultane/[A-Za-z0-9_-]{1,24}/?")
#: A club token as the server makes it (``secrets.token_urlsafe``: clubs.models), with room to spare.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: How much of the server's refusal is shown.
REASON_LIMIT = 240


def event_address(url: str) -> outbound.Address:
    """``url`` as the event's public page on a public server, or ``ServiceError``."""
    try:
        address = outbound.parse_address(url.strip(), allow_private=settings.OUTBOX_ALLOW_PRIVATE)
    except outbound.AddressRefused:
        raise ServiceError("outbox_url") from None
    if not _EVENT_PATH.fullmatch(address.path):
        raise ServiceError("outbox_url")
    return address


def club_token(token: str) -> str:
    """``token`` as the server makes club tokens, or ``ServiceError``."""
    token = token.strip()
    if not _TOKEN.fullmatch(token):
        raise ServiceError("outbox_token")
    return token


def outbox_add(*, game: Game, url: str, token: str) -> Outbox:
    address, token = event_address(url), club_token(token)
    if not exports.placed_rounds(game):
        raise ServiceError("export_no_round")
    page = address.url.rstrip("/") + "/"
    with writing():
        row = Outbox.objects.create(game=game, url=page, token=token)
    return outbox_send(row)


def outbox_send(row: Outbox) -> Outbox:
    """One try: sent, refused (the server's reason, or why the row can never go), or still pending
    (unreachable)."""
    try:
        status, error = _try(row)
    except Exception:
        logger.exception("results outbox %s: the try failed", row.pk)
        status, error = Outbox.Status.REFUSED, ServiceError("outbox_failed").text()
    now = timezone.now()
    with writing():
        row.status, row.last_error, row.tried_at = status, error[:300], now
        row.attempts += 1
        if status == Outbox.Status.SENT:
            row.sent_at = now
        row.save(update_fields=["status", "last_error", "tried_at", "attempts", "sent_at"])
    return row


def _try(row: Outbox) -> tuple[str, str]:
    try:
        address = event_address(row.url)
    except ServiceError:
        return Outbox.Status.REFUSED, ServiceError("outbox_address_dropped").text()
    try:
        token = club_token(row.token)
    except ServiceError:
        return Outbox.Status.REFUSED, ServiceError("outbox_token_dropped").text()
    name, media_type, data = exports.results_file(row.game)
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": media_type,
        "X-File-Name": outbound.header_value(name),
        "Accept": "application/json",
    }
    upload = dataclasses.replace(address, path=address.path.rstrip("/") + "/envoi/")
    try:
        answer = outbound.post(
            upload, data, headers, allow_private=settings.OUTBOX_ALLOW_PRIVATE,
            timeout=TIMEOUT_SECONDS, deadline=DEADLINE_SECONDS,
        )  # fmt: skip
    except outbound.Unreachable:
        return Outbox.Status.PENDING, ServiceError("outbox_unreachable").text()
    return _outcome(answer)


def _outcome(answer: outbound.Answer) -> tuple[str, str]:
    """Sent when the federation's server says so; refused with its reason when it refuses (a 4xx
    with its JSON refusal); anything else, whatever it says, is "unreachable"."""
    said = _federation_json(answer)
    if said is not None and 200 <= answer.status < 300 and said.get("ok") is True:
        return Outbox.Status.SENT, ""
    if said is not None and 400 <= answer.status < 500 and said.get("ok") is False:
        reason = _reader_sentence(said)
        if isinstance(reason, str) and _cleaned(reason):
            return Outbox.Status.REFUSED, ServiceError("outbox_refused", reason=_cleaned(reason)).text()
    return Outbox.Status.PENDING, ServiceError("outbox_unreachable").text()


def _reader_sentence(said: dict) -> object:
    """The refusal in the interface's language when the server wrote it in that language; else, as the
    federation's server writes French and English only, English for a reader of neither (Spanish,
    Catalan), French for a French reader."""
    lang = interface_language()
    found = said.get(lang)
    if isinstance(found, str) and _cleaned(found):
        return found
    return said.get("fr" if lang == "fr" else "en") or said.get("fr")


def _federation_json(answer: outbound.Answer) -> dict | None:
    """The answer as the federation's upload address writes it (``simultaneous.views.event_upload``:
    ``{"ok": true, ...}`` or ``{"ok": false, "fr": ..., "en": ...}``), or None."""
    if answer.media_type != "application/json" or len(answer.body) >= outbound.MAX_ANSWER:
        return None
    try:
        said = json.loads(answer.body.decode("utf-8"))
    except ValueError:
        return None
    if not isinstance(said, dict) or not isinstance(said.get("ok"), bool):
        return None
    if said["ok"] is False and not all(isinstance(said.get(lang), str) for lang in ("fr", "en")):
        return None
    return said


def _cleaned(text: str) -> str:
    """A refusal's text as it may be shown: no control or format character, one line, bounded."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    kept = " ".join(kept.split())
    return kept if len(kept) <= REASON_LIMIT else kept[: REASON_LIMIT - 1] + "…"


def outbox_send_pending(game: Game) -> list[Outbox]:
    """The game's pending files not tried for ``RETRY_SECONDS``, tried again; all its rows."""
    outbox_send_due(game)
    return list(Outbox.objects.filter(game=game))


def outbox_send_due(game: Game | None = None) -> int:
    """The pending files (of ``game``, or all) never tried or not tried for ``RETRY_SECONDS``, tried
    again."""
    due = timezone.now() - datetime.timedelta(seconds=RETRY_SECONDS)
    rows = Outbox.objects.filter(Q(tried_at__isnull=True) | Q(tried_at__lt=due), status=Outbox.Status.PENDING)
    if game is not None:
        rows = rows.filter(game=game)
    tried = 0
    for row in rows.select_related("game"):
        outbox_send(row)
        tried += 1
    return tried
