"""Join codes: each player's short code (``ABCD-EFGH``), printed on the table card beside the QR code
and shown on the phone, typed on ``/moi/`` where the link cannot be scanned (a laptop resumed at
another address).  Each player is given one at registration (``services.registration.codes_fresh``),
unique on the installation; the characters and length are the model's (``models.JOIN_CODE_ALPHABET``)."""

from __future__ import annotations

import re
import unicodedata

from tournaments.models import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, Player

#: What is typed longer than this names no code (read no further).
MAX_TYPED = 64
#: What a person may type between or around the characters: spaces, dashes of any kind, dots.
_SEPARATORS = re.compile(r"[\s\-‐-―−_.·/]+")
_CODE = re.compile(f"[{JOIN_CODE_ALPHABET}]{{{JOIN_CODE_LENGTH}}}")


def code_ok(value: object) -> bool:
    """Whether ``value`` is a code as stored: eight characters of the alphabet, in capitals."""
    return isinstance(value, str) and _CODE.fullmatch(value) is not None


def code_read(typed: object) -> str | None:
    """The code a person typed, as stored, or None when it cannot be one: any case, spaces, dashes,
    dots, full-width characters (a phone's Asian keyboard) accepted; never an exception."""
    if not isinstance(typed, str) or len(typed) > MAX_TYPED:
        return None
    plain = _SEPARATORS.sub("", unicodedata.normalize("NFKC", typed)).upper()
    return plain if code_ok(plain) else None


def code_shown(code: str) -> str:
    """``ABCDEFGH`` as printed and typed: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


def player_by_code(code: str) -> Player | None:
    """The player whose code this is (``code`` as ``code_read`` gives it)."""
    if not code_ok(code):
        return None
    return Player.objects.select_related("tournament").filter(join_code=code).first()
