"""``{% resumed_banner %}``: after an evening was resumed on this laptop (issue 25, server/restore.py),
the address the phones must now open, large, with its QR code, on the arbiter's screens and the
projector."""

from __future__ import annotations

from django import template
from django.conf import settings

from server.network import public_base
from server.restore import resumed_recently
from tournaments.cards import qr_svg

register = template.Library()


@register.inclusion_tag("tournaments/partials/_resumed.html", takes_context=True)
def resumed_banner(context) -> dict:
    request = context.get("request")
    if request is None or resumed_recently(settings.VAR_DIR) is None:
        return {"shown": False}
    base, _loopback = public_base(request)
    url = base + "/moi/"  # a phone scanning it types its join code there (tournaments.codes)
    return {"shown": True, "url": url, "qr": qr_svg(url)}
