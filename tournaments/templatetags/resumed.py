"""``{% resumed_banner %}``: after an evening was resumed on this laptop (server/restore.py), the
address the phones must now open, with its QR code, in a corner of the arbiter's screens (for the
hours after the resume, until the arbiter hides it) and of the projector (its first minutes only):
never over the board."""

from __future__ import annotations

import datetime

from django import template
from django.conf import settings

from server.network import public_base
from server.restore import resumed_recently
from tournaments.cards import qr_svg

register = template.Library()


#: How long after a resume the projector shows the new address (the phones come back within minutes).
PROJECTOR_MINUTES = 15


@register.inclusion_tag("tournaments/partials/_resumed.html", takes_context=True)
def resumed_banner(context, projector: bool = False) -> dict:
    request = context.get("request")
    marker = resumed_recently(settings.VAR_DIR) if request is not None else None
    if marker is None:
        return {"shown": False}
    at = str(marker.get("at", ""))
    if projector:
        since = datetime.datetime.now(datetime.UTC) - datetime.datetime.fromisoformat(at)
        if since > datetime.timedelta(minutes=PROJECTOR_MINUTES):
            return {"shown": False}
    base, _loopback = public_base(request)
    url = base + "/moi/"  # a phone scanning it types its join code there (live.codes)
    return {"shown": True, "url": url, "qr": qr_svg(url), "at": at, "projector": projector}
