"""Results sent from the laptop to a federation's server (issue 14): a simultaneous played in a hall
without Internet.  The arbiter gives the event's public address and the club's token; the results
file (``exports.results_export``, rebuilt at each try so the latest correction goes) is sent at once
and, while the server cannot be reached, kept and tried again each time the game's results page is
open (every 30 seconds), and by the laptop server's chores (``server.background``), until the server
takes it or refuses it with a reason."""

from __future__ import annotations

import datetime
import json
import re
import urllib.error
import urllib.request

from django.utils import timezone

from results import exports
from results.models import Outbox
from server.language import interface_language
from server.writes import ServiceError, writing
from tournaments.models import Game

#: A try waits this long for the server (the arbiter's page waits with it).
TIMEOUT_SECONDS = 4
#: A pending file is tried again after this long.
RETRY_SECONDS = 30
_EVENT_URL = re.compile(r"https?://[^/\s]+(/[^\s]*)?/simultane/[A-Za-z0-9_-]{1,24}/?")


def outbox_add(*, game: Game, url: str, token: str) -> Outbox:
    url, token = url.strip(), token.strip()
    if not _EVENT_URL.fullmatch(url):
        raise ServiceError("outbox_url")
    if not token or len(token) > 64:
        raise ServiceError("outbox_token")
    if not exports.placed_rounds(game):
        raise ServiceError("export_no_round")
    with writing():
        row = Outbox.objects.create(game=game, url=url.rstrip("/") + "/", token=token)
    return outbox_send(row)


def outbox_send(row: Outbox) -> Outbox:
    """One try: sent, refused (the server's reason, kept), or still pending (unreachable)."""
    name, media_type, data = exports.results_file(row.game)
    request = urllib.request.Request(
        row.url + "envoi/",
        data=data,
        method="POST",
        headers={"Authorization": f"Bearer {row.token}", "Content-Type": media_type, "X-File-Name": name},
    )
    status, error = Outbox.Status.PENDING, ""
    try:
        # The address was checked to be http(s) (``_EVENT_URL``): urlopen opens no file.
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            answer.read()
        status = Outbox.Status.SENT
    except urllib.error.HTTPError as refused:
        if refused.code in (400, 403, 404, 413):
            status, error = Outbox.Status.REFUSED, _reason(refused)
        else:
            error = ServiceError("outbox_unreachable", detail=f"HTTP {refused.code}").text()
    except (urllib.error.URLError, OSError) as unreachable:
        detail = str(getattr(unreachable, "reason", unreachable))[:120]
        error = ServiceError("outbox_unreachable", detail=detail).text()
    now = timezone.now()
    with writing():
        row.status, row.last_error, row.tried_at = status, error[:300], now
        row.attempts += 1
        if status == Outbox.Status.SENT:
            row.sent_at = now
        row.save(update_fields=["status", "last_error", "tried_at", "attempts", "sent_at"])
    return row


def _reason(refused: urllib.error.HTTPError) -> str:
    """The server's refusal in the interface's language (its JSON carries French and English)."""
    try:
        body = json.loads(refused.read(20_000).decode("utf-8"))
        return str(body.get(interface_language()) or body.get("fr") or refused.code)
    except (ValueError, AttributeError, OSError):
        return f"HTTP {refused.code}"


def outbox_send_pending(game: Game) -> list[Outbox]:
    """The game's pending files not tried for ``RETRY_SECONDS``, tried again; all its rows."""
    outbox_send_due(game)
    return list(Outbox.objects.filter(game=game))


def outbox_send_due(game: Game | None = None) -> int:
    """The pending files (of ``game``, or all) not tried for ``RETRY_SECONDS``, tried again."""
    due = timezone.now() - datetime.timedelta(seconds=RETRY_SECONDS)
    rows = Outbox.objects.filter(status=Outbox.Status.PENDING, tried_at__lt=due).select_related("game")
    if game is not None:
        rows = rows.filter(game=game)
    tried = 0
    for row in rows:
        outbox_send(row)
        tried += 1
    return tried
