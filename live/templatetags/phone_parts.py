"""The phone's status as the page and the poll draw it: the room's common part, drawn once per state
and language (``broadcast.common_html``), with this player's own part written in (``live.own``)."""

from __future__ import annotations

from django import template
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from live import broadcast, receipt
from live.own import own_html

register = template.Library()


@register.simple_tag
def player_common(screen) -> SafeString:
    lang = translation.get_language() or "fr"
    solo_value = screen.round.game.tournament.solo_value if screen.round is not None else 0
    own = own_html(screen, lang, solo_value)
    return mark_safe(broadcast.with_own(broadcast.common_html(screen, lang), own))


@register.simple_tag(takes_context=True)
def player_receipt(context, screen, oob=False) -> SafeString:
    """The receipt (``receipt.receipt_html``, the slip's answer's own markup), with the page's
    refusal (``error``) and whether a slip was just stored (``sent``)."""
    html = receipt.receipt_html(
        screen, error=context.get("error"), sent=bool(context.get("sent")), oob=bool(oob)
    )
    return mark_safe(html)


#: A word of each set's language for the slip field's example: typed as a player types it.
EXAMPLE_WORDS = {"fr": "CALFEUTRE", "es": "CAMINOS", "ca": "CAMINAR", "en": "QUARTZ"}


@register.filter
def example_word(letters) -> str:
    """The slip field's example word in the tournament's letter set (``screen.letters``)."""
    return EXAMPLE_WORDS.get(getattr(letters, "code", "fr"), EXAMPLE_WORDS["fr"])
