"""``{% colon %}``: the colon after a label as the interface's language writes it ("Top : 5D" with a
non-breaking space in French, "Top: 5D" in English, Spanish and Catalan)."""

from __future__ import annotations

from django import template
from django.utils import translation

register = template.Library()


@register.simple_tag
def colon() -> str:
    return "\u00a0:" if (translation.get_language() or "fr").startswith("fr") else ":"
