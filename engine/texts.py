"""What a text taken from a file (a game record, a word list's name, a player list, a club's results
file) may hold before it is stored or shown: no control character (NUL among them, which PostgreSQL
refuses) and no lone surrogate (which no encoding writes, so a page or a file holding one cannot be
sent); and how such a text is quoted back in a refusal."""

from __future__ import annotations

import re

#: The control characters (Unicode category Cc) and the surrogates (Cs).
_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: How much of a refused value a refusal quotes.
QUOTE_LIMIT = 40


def forbidden_char(text: str) -> str | None:
    """The first character ``text`` may not hold, or None."""
    found = _FORBIDDEN.search(text)
    return found.group() if found else None


def codepoint(char: str) -> str:
    """``U+0000``: how a refusal names a character it cannot show."""
    return f"U+{ord(char):04X}"


def replaced(text: str, by: str) -> str:
    """``text`` with each character it may not hold replaced by ``by``."""
    return _FORBIDDEN.sub(by, text)


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as a refusal quotes it: short, its forbidden characters shown as "�"."""
    text = _FORBIDDEN.sub("\N{REPLACEMENT CHARACTER}", str(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"
