"""The interface's language as the message catalogue (``engine.messages``) names it."""

from __future__ import annotations

from django.utils.translation import get_language


def interface_language() -> str:
    """The engine message language matching the active interface language (French unless English)."""
    return "en" if (get_language() or "fr").startswith("en") else "fr"
