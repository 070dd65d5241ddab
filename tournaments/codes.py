"""Join codes: each player's short code (``ABCD-EFGH``), printed on the table card beside the QR code
and shown on the phone, typed on ``/moi/`` where the link cannot be scanned (a laptop resumed at
another address, issue 25).  Unique on the installation; the characters and length are the model's
(``models.JOIN_CODE_ALPHABET``)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from tournaments.models import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, Player, new_join_code

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


def codes_fresh(count: int, *, avoid: Iterable[str] = ()) -> list[str]:
    """``count`` new codes, all different, held by no player of the installation nor in ``avoid``
    (codes about to be written beside them).  Random codes of 40 bits rarely meet: one query,
    another only for the few that did."""
    taken = set(avoid)
    codes: list[str] = []
    while len(codes) < count:
        batch = set()
        while len(batch) < count - len(codes):
            code = new_join_code()
            if code not in taken:
                batch.add(code)
        batch -= set(Player.objects.filter(join_code__in=batch).values_list("join_code", flat=True))
        codes += batch
        taken |= batch
    return codes
