"""The letter sets the engine ships, by code (``../shared/rules/letters.md``, rules §1.1).

``fr`` is ``alphabet.FRENCH``.  Vowels are A E I O U in every set; the blank counts as a vowel or a
consonant everywhere, Y too in French (§1.1).  For ``es``, ``ca`` and ``en`` the federations' texts
at hand say nothing about a tile counting as both, so none does; ``LetterSet.with_flexible`` makes
the set where one does (a game setting).
"""

from __future__ import annotations

from engine.alphabet import FRENCH, LetterSet
from engine.messages import Message, register

SPANISH = LetterSet.make(
    "es",
    (
        ("A", 1, 12), ("B", 3, 2), ("C", 3, 4), ("CH", 5, 1), ("D", 2, 5), ("E", 1, 12), ("F", 4, 1),
        ("G", 2, 2), ("H", 4, 2), ("I", 1, 6), ("J", 8, 1), ("L", 1, 4), ("LL", 8, 1), ("M", 3, 2),
        ("N", 1, 5), ("Ñ", 8, 1), ("O", 1, 9), ("P", 3, 2), ("Q", 5, 1), ("R", 1, 5), ("RR", 8, 1),
        ("S", 1, 6), ("T", 1, 4), ("U", 1, 5), ("V", 4, 1), ("X", 8, 1), ("Y", 4, 1), ("Z", 10, 1),
    ),
    source="letters.md, Spanish (FISE), 100 tiles",
)  # fmt: skip

CATALAN = LetterSet.make(
    "ca",
    (
        ("A", 1, 12), ("B", 3, 2), ("C", 2, 3), ("Ç", 10, 1), ("D", 2, 3), ("E", 1, 13), ("F", 4, 1),
        ("G", 3, 2), ("H", 8, 1), ("I", 1, 8), ("J", 8, 1), ("L", 1, 4), ("L·L", 10, 1), ("M", 2, 3),
        ("N", 1, 6), ("NY", 10, 1), ("O", 1, 5), ("P", 3, 2), ("QU", 8, 1), ("R", 1, 8), ("S", 1, 8),
        ("T", 1, 5), ("U", 1, 4), ("V", 4, 1), ("X", 10, 1), ("Z", 8, 1),
    ),
    spellings={"L.L": "L·L", "\u013fL": "L·L", "L\u2027L": "L·L", "L\u2219L": "L·L"},
    source="letters.md, Catalan, 100 tiles",
)  # fmt: skip

ENGLISH = LetterSet.make(
    "en",
    (
        ("A", 1, 9), ("B", 3, 2), ("C", 3, 2), ("D", 2, 4), ("E", 1, 12), ("F", 4, 2), ("G", 2, 3),
        ("H", 4, 2), ("I", 1, 9), ("J", 8, 1), ("K", 5, 1), ("L", 1, 4), ("M", 3, 2), ("N", 1, 6),
        ("O", 1, 8), ("P", 3, 2), ("Q", 10, 1), ("R", 1, 6), ("S", 1, 4), ("T", 1, 6), ("U", 1, 4),
        ("V", 4, 2), ("W", 4, 2), ("X", 8, 1), ("Y", 4, 2), ("Z", 10, 1),
    ),
    source="letters.md, English, 100 tiles",
)  # fmt: skip

SETS: dict[str, LetterSet] = {s.code: s for s in (FRENCH, SPANISH, CATALAN, ENGLISH)}


class UnknownLetterSet(ValueError):
    """A letter set's code the engine does not ship; ``message`` names the ones it does."""

    def __init__(self, code: object):
        self.message = Message("letters_unknown", {"code": str(code)[:40], "known": ", ".join(SETS)})
        super().__init__(self.message.text("en"))


def letter_set(code: str) -> LetterSet:
    """The set of that code (``fr``, ``es``, ``ca``, ``en``, in any case); ``UnknownLetterSet``
    otherwise."""
    found = SETS.get(code.strip().lower()) if isinstance(code, str) else None
    if found is None:
        raise UnknownLetterSet(code)
    return found


register(
    {
        "letters_unknown": {
            "fr": "Jeu de lettres « {code} » inconnu : ce programme connaît {known}.",
            "en": "Unknown letter set '{code}': this program knows {known}.",
        },
    }
)

__all__ = ["CATALAN", "ENGLISH", "FRENCH", "SETS", "SPANISH", "UnknownLetterSet", "letter_set"]
