"""The letter sets the engine ships, by code (``../shared/rules/letters.md``, rules §1.1).

``fr`` is ``alphabet.FRENCH``; ``es``, ``ca`` and ``en`` are letters.md's tables; ``it``, ``pt``,
``nl`` and ``de`` are the published tables each set's ``source`` names (Italian and Portuguese have
120 tiles, Portuguese with 3 blanks; Dutch and German 102).  Vowels are A E I O U in every set, and
German's Ä Ö Ü too; the blank counts as a vowel or a consonant everywhere, Y too in French (§1.1).
For the other sets the texts at hand say nothing about a tile counting as both, so none does;
``LetterSet.with_flexible`` makes the set where one does (a game setting).  Accents are dropped
except on the tiles of their own: Ñ (es), Ç (ca, pt), Ä Ö Ü (de).  No Romanian set: no complete
published table was found to cite.
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

ITALIAN = LetterSet.make(
    "it",
    (
        ("A", 1, 14), ("B", 5, 3), ("C", 2, 6), ("D", 5, 3), ("E", 1, 11), ("F", 5, 3), ("G", 8, 2),
        ("H", 8, 2), ("I", 1, 12), ("L", 3, 5), ("M", 3, 5), ("N", 3, 5), ("O", 1, 15), ("P", 5, 3),
        ("Q", 10, 1), ("R", 2, 6), ("S", 2, 6), ("T", 2, 6), ("U", 3, 5), ("V", 5, 3), ("Z", 8, 2),
    ),
    source="Italian (Spear's), 120 tiles: https://gtoal.com/scrabble/details/italian",
)  # fmt: skip

PORTUGUESE = LetterSet.make(
    "pt",
    (
        ("A", 1, 14), ("B", 3, 3), ("C", 2, 4), ("Ç", 3, 2), ("D", 2, 5), ("E", 1, 11), ("F", 4, 2),
        ("G", 4, 2), ("H", 4, 2), ("I", 1, 10), ("J", 5, 2), ("L", 2, 5), ("M", 1, 6), ("N", 3, 4),
        ("O", 1, 10), ("P", 2, 4), ("Q", 6, 1), ("R", 1, 6), ("S", 1, 8), ("T", 1, 5), ("U", 1, 7),
        ("V", 4, 2), ("X", 8, 1), ("Z", 8, 1),
    ),
    blanks=3,
    source="Portuguese, 120 tiles (3 blanks): http://scrabble3d.info/t2342f139-Default-rules.html",
)  # fmt: skip

DUTCH = LetterSet.make(
    "nl",
    (
        ("A", 1, 6), ("B", 3, 2), ("C", 5, 2), ("D", 2, 5), ("E", 1, 18), ("F", 4, 2), ("G", 3, 3),
        ("H", 4, 2), ("I", 1, 4), ("J", 4, 2), ("K", 3, 3), ("L", 3, 3), ("M", 3, 3), ("N", 1, 10),
        ("O", 1, 6), ("P", 3, 2), ("Q", 10, 1), ("R", 2, 5), ("S", 2, 5), ("T", 2, 5), ("U", 4, 3),
        ("V", 4, 2), ("W", 5, 2), ("X", 8, 1), ("Y", 8, 1), ("Z", 4, 2),
    ),
    source="Dutch (no IJ tile), 102 tiles: http://www.gtoal.com/wordgames/details/dutch/",
)  # fmt: skip

GERMAN = LetterSet.make(
    "de",
    (
        ("A", 1, 5), ("Ä", 6, 1), ("B", 3, 2), ("C", 4, 2), ("D", 1, 4), ("E", 1, 15), ("F", 4, 2),
        ("G", 2, 3), ("H", 2, 4), ("I", 1, 6), ("J", 6, 1), ("K", 4, 2), ("L", 2, 3), ("M", 3, 4),
        ("N", 1, 9), ("O", 2, 3), ("Ö", 8, 1), ("P", 4, 1), ("Q", 10, 1), ("R", 1, 6), ("S", 1, 7),
        ("T", 1, 6), ("U", 1, 6), ("Ü", 6, 1), ("V", 6, 1), ("W", 3, 1), ("X", 8, 1), ("Y", 10, 1),
        ("Z", 3, 1),
    ),
    vowels="AEIOUÄÖÜ",
    source="German, 102 tiles: https://www.liquisearch.com/scrabble_letter_distributions/german",
)  # fmt: skip

SETS: dict[str, LetterSet] = {
    s.code: s for s in (FRENCH, SPANISH, CATALAN, ENGLISH, ITALIAN, PORTUGUESE, DUTCH, GERMAN)
}


class UnknownLetterSet(ValueError):
    """A letter set's code the engine does not ship; ``message`` names the ones it does."""

    def __init__(self, code: object):
        self.message = Message("letters_unknown", {"code": str(code)[:40], "known": ", ".join(SETS)})
        super().__init__(self.message.text("en"))


def letter_set(code: str) -> LetterSet:
    """The set of that code (``fr``, ``es``, ``ca``, ``en``, ``it``, ``pt``, ``nl``, ``de``, in any
    case); ``UnknownLetterSet`` otherwise."""
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

__all__ = [
    "CATALAN",
    "DUTCH",
    "ENGLISH",
    "FRENCH",
    "GERMAN",
    "ITALIAN",
    "PORTUGUESE",
    "SETS",
    "SPANISH",
    "UnknownLetterSet",
    "letter_set",
]
