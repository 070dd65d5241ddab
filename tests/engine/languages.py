"""Small word lists made by the tests for the Spanish, Catalan and English sets, quicker to build than
the shipped ones (those are tested in ``test_shipped_lists.py``).

A list is written as people write words (accents, ``ll``, ``l·l``, lower case) so that reading it
exercises the set's spelling rule: every two-tile word of a vowel and another tile, and a few
thousand longer words drawn from the bag's tiles, with words holding each tile of several
characters.  Seeded: the same list every run.
"""

from __future__ import annotations

import random

from engine.alphabet import LetterSet
from engine.lettersets import CATALAN, ENGLISH, SPANISH
from engine.lexicon import Lexicon

#: Words written as a language writes them, with the set's tiles of several characters.
REAL_WORDS = {
    "es": ["coche", "ocho", "calle", "llama", "carro", "perro", "niño", "año", "chico", "lluvia", "mañana"],
    "ca": ["col·legi", "al·lot", "any", "nyap", "quan", "quatre", "plaça", "força", "cel·la", "queixa"],
    "en": ["quiz", "jazz", "fox", "whisky", "naïve", "café", "zebra", "kayak", "python", "rhythm"],
}
SETS = {"es": SPANISH, "ca": CATALAN, "en": ENGLISH}


def written(tiles, letters: LetterSet, rng: random.Random) -> str:
    """A word's tiles as a person writes them: lower case, accents here and there, ``L.L`` or
    ``L·L`` for the Catalan tile."""
    out = []
    for c in tiles:
        name = letters.names[c]
        if name == "L·L":
            name = rng.choice(["L·L", "L.L", "\u013fL"])
        elif name in "AEIOU" and rng.random() < 0.1:
            name = {"A": "á", "E": "é", "I": "í", "O": "ó", "U": "ú"}[name]
        out.append(name)
    return "".join(out).lower()


def word_list(code: str, seed: int = 35, count: int = 4000) -> list[str]:
    letters = SETS[code]
    rng = random.Random(seed)
    vowels = sorted(letters.vowels)
    others = [c for c in letters.letters if c not in letters.vowels]
    pool = [c for c in letters.letters for _ in range(letters.counts[c])]
    words = set(REAL_WORDS[code])
    for v in vowels:
        for c in letters.letters:
            words.add(written((v, c), letters, rng))
            words.add(written((c, v), letters, rng))
    while len(words) < count:
        length = rng.choice((3, 3, 4, 4, 5, 5, 6, 7, 8))
        tiles = []
        for i in range(length):
            tiles.append(
                rng.choice(vowels if i % 2 == rng.randrange(2) else others)
                if rng.random() < 0.6
                else rng.choice(pool)
            )
        words.add(written(tiles, letters, rng))
    return sorted(words)


def lexicon(code: str, seed: int = 35, count: int = 4000) -> Lexicon:
    return Lexicon.from_words(word_list(code, seed, count), name=f"{code}-test", letters=SETS[code])
