"""The free word lists shipped for each letter set (``engine/lexicon/data``; all but the French one made
by ``scripts/wordlists.py``): each loads by its set, its words cut into the set's tiles."""

from __future__ import annotations

import gzip
import hashlib

import pytest

from engine.alphabet import FRENCH, LetterSet
from engine.lettersets import CATALAN, ENGLISH, SETS, SPANISH
from engine.lexicon import DATA, DEFAULT_NAME, SHIPPED, Lexicon, shipped_path


def tiles(letters: LetterSet, *names: str) -> tuple[int, ...]:
    return tuple(letters.by_name[name] for name in names)


def test_every_set_has_a_shipped_list_with_its_notices():
    # The sets taken from published tile tables (Italian, Portuguese, Dutch, German) ship no list.
    assert set(SETS) - set(SHIPPED) == {"it", "pt", "nl", "de"} and set(SHIPPED) <= set(SETS)
    for code, name in SHIPPED.items():
        path = shipped_path(SETS[code])
        assert path.name == f"{name}.txt.gz" and path.is_file()
        assert path.stat().st_size < 5 * 1024 * 1024, name
        if code != "fr":
            assert (DATA / f"{name}.copyright").is_file(), name


def test_the_readme_describes_each_list_by_its_sha256():
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for code, name in SHIPPED.items():
        text = gzip.decompress(shipped_path(SETS[code]).read_bytes())
        assert f"# {name}" in readme and hashlib.sha256(text).hexdigest() in readme, name


def test_a_set_without_a_shipped_list_is_refused():
    klingon = LetterSet.make("tlh", (("A", 1, 10), ("B", 2, 10)))
    with pytest.raises(LookupError):
        Lexicon.shipped(klingon)


def test_the_french_list_is_the_default_unchanged(french):
    shipped = Lexicon.shipped(FRENCH)
    assert shipped.name == french.name == DEFAULT_NAME == "fr-wfrench"
    assert shipped.identity == Lexicon.default(letters=FRENCH).identity == french.identity
    assert shipped.sha256 == "aef5dec11010168ed0ce7273f7f9db3b71bf23e066b9758bc1ee13f214d479c5"
    assert shipped.word_count == 317790 and shipped.letters is FRENCH


@pytest.mark.slow
def test_the_spanish_list_cuts_ch_ll_rr_and_keeps_n_tilde():
    lexicon = Lexicon.shipped(SPANISH)
    assert (lexicon.name, lexicon.word_count, lexicon.unspellable) == ("es-hunspell", 536961, 0)
    assert lexicon.letters is SPANISH
    coche = SPANISH.spell("coche")
    assert coche == tiles(SPANISH, "C", "O", "CH", "E") and lexicon.dawg.contains(coche)
    assert not lexicon.dawg.contains(tiles(SPANISH, "C", "O", "C", "H", "E"))
    for word, names in [
        ("año", ("A", "Ñ", "O")),
        ("calle", ("C", "A", "LL", "E")),
        ("carro", ("C", "A", "RR", "O")),
    ]:
        assert SPANISH.spell(word) == tiles(SPANISH, *names) and word.upper() in lexicon, word
    # Every conjugated form, accents dropped; no pronoun joined to a verb; no K or W tile.
    for word in ("COMIÉRAMOS", "COMIESE", "HABLÁBAMOS", "COCHES"):
        assert word in lexicon, word
    for word in ("COMERLO", "COMIÉNDOLO", "HABLARTE", "KIWI"):
        assert word not in lexicon, word


@pytest.mark.slow
def test_the_catalan_list_has_its_tiles_of_two_letters():
    lexicon = Lexicon.shipped(CATALAN)
    assert (lexicon.name, lexicon.word_count, lexicon.unspellable) == ("ca-hunspell", 772563, 0)
    cases = [
        ("col·lecció", ("C", "O", "L·L", "E", "C", "C", "I", "O")),
        ("paral·lel", ("P", "A", "R", "A", "L·L", "E", "L")),
        ("any", ("A", "NY")),
        ("canya", ("C", "A", "NY", "A")),
        ("quatre", ("QU", "A", "T", "R", "E")),
        ("plaça", ("P", "L", "A", "Ç", "A")),
        ("llibre", ("L", "L", "I", "B", "R", "E")),
    ]
    for word, names in cases:
        spelled = CATALAN.spell(word)
        assert spelled == tiles(CATALAN, *names) and lexicon.dawg.contains(spelled), word
    assert "COL.LECCIÓ" in lexicon and "COL·LECCIONS" in lexicon
    for word in ("L'HOME", "DONAR-LO", "KIWI", "SIQUIERA"):
        assert word not in lexicon, word


def test_the_english_list_holds_quiz_and_both_spellings():
    lexicon = Lexicon.shipped(ENGLISH)
    assert (lexicon.name, lexicon.word_count, lexicon.unspellable) == ("en-scowl", 248129, 0)
    quiz = ENGLISH.spell("quiz")
    assert quiz == tiles(ENGLISH, "Q", "U", "I", "Z") and lexicon.dawg.contains(quiz)
    for word in ("QUIZZES", "COLOUR", "COLOR", "REALISE", "REALIZE", "QI", "ZA", "XU"):
        assert word in lexicon, word
    for word in ("AARDVARK'S", "KG", "LONDON"):
        assert word not in lexicon, word
    assert Lexicon.shipped(ENGLISH).identity == lexicon.identity  # read again from the cache
