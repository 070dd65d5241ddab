"""The Italian, Portuguese, Dutch and German sets (``engine.lettersets``, their tables from the
sources each ``source`` names): their totals, the accented letters kept as tiles of their own, and a
short game in each with a small seeded word list, every move scored as the independent scorer does."""

from __future__ import annotations

import random

import pytest

from engine import record, scoring
from engine.alphabet import BLANK
from engine.cli import play_game
from engine.lettersets import DUTCH, GERMAN, ITALIAN, PORTUGUESE, SETS, letter_set
from engine.lexicon import Lexicon
from engine.movegen import all_plays
from tests.engine.languages import written
from tests.engine.test_languages import _positions, _word_tiles

NEW = {"it": ITALIAN, "pt": PORTUGUESE, "nl": DUTCH, "de": GERMAN}


def names(letters, tiles) -> list[str]:
    return [letters.names[t] for t in tiles]


# -- the tables ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("letters", "tiles", "blanks", "kinds", "points"),
    [
        # The sources' totals (tiles with the blanks); ``points``: the sum over the table's tiles.
        (ITALIAN, 120, 2, 21, 293),
        (PORTUGUESE, 120, 3, 24, 204),
        (DUTCH, 102, 2, 26, 230),
        (GERMAN, 102, 2, 29, 202),
    ],
)
def test_each_new_set_has_its_published_totals(letters, tiles, blanks, kinds, points):
    assert letters.tile_count == tiles and letters.counts[BLANK] == blanks
    assert len(letters.letters) == kinds
    assert sum(letters.values[c] * letters.counts[c] for c in letters.letters) == points
    assert letters.source and SETS[letters.code] is letters and letter_set(letters.code.upper()) is letters


@pytest.mark.parametrize(
    ("letters", "name", "points", "count"),
    [
        (ITALIAN, "O", 1, 15), (ITALIAN, "Q", 10, 1), (ITALIAN, "U", 3, 5), (ITALIAN, "Z", 8, 2),
        (PORTUGUESE, "Ç", 3, 2), (PORTUGUESE, "A", 1, 14), (PORTUGUESE, "Q", 6, 1), (PORTUGUESE, "J", 5, 2),
        (DUTCH, "E", 1, 18), (DUTCH, "N", 1, 10), (DUTCH, "C", 5, 2), (DUTCH, "Q", 10, 1), (DUTCH, "Z", 4, 2),
        (GERMAN, "E", 1, 15), (GERMAN, "Ä", 6, 1), (GERMAN, "Ö", 8, 1), (GERMAN, "Ü", 6, 1),
        (GERMAN, "Y", 10, 1),
    ],
)  # fmt: skip
def test_a_tile_has_the_points_and_count_of_its_source(letters, name, points, count):
    c = letters.by_name[name]
    assert (letters.values[c], letters.counts[c]) == (points, count)


def test_a_set_lacks_the_tiles_its_table_has_not():
    assert not {"J", "K", "W", "X", "Y"} & set(ITALIAN.by_name)
    assert not {"K", "W", "Y"} & set(PORTUGUESE.by_name)
    assert "IJ" not in DUTCH.by_name and "ß" not in GERMAN.by_name


def test_the_kept_letters_are_the_sets_accented_tiles_and_the_umlauts_are_vowels():
    assert (ITALIAN.kept, DUTCH.kept) == (frozenset(), frozenset())
    assert PORTUGUESE.kept == {"Ç"} and GERMAN.kept == {"Ä", "Ö", "Ü"}
    assert sorted(GERMAN.names[c] for c in GERMAN.vowels) == ["A", "E", "I", "O", "U", "Ä", "Ö", "Ü"]
    for letters in (ITALIAN, PORTUGUESE, DUTCH):
        assert sorted(letters.names[c] for c in letters.vowels) == ["A", "E", "I", "O", "U"]
    assert all(letters.flexible == {BLANK} for letters in NEW.values())


# -- spelling -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("letters", "word", "tiles"),
    [
        (GERMAN, "ÄRGER", ["Ä", "R", "G", "E", "R"]),
        (GERMAN, "Müller", ["M", "Ü", "L", "L", "E", "R"]),
        (GERMAN, "öl", ["Ö", "L"]),
        (GERMAN, "Café", ["C", "A", "F", "E"]),
        (GERMAN, "Straße", ["S", "T", "R", "A", "S", "S", "E"]),
        (PORTUGUESE, "AÇÃO", ["A", "Ç", "A", "O"]),
        (PORTUGUESE, "açúcar", ["A", "Ç", "U", "C", "A", "R"]),
        (PORTUGUESE, "bênção", ["B", "E", "N", "Ç", "A", "O"]),
        (ITALIAN, "città", ["C", "I", "T", "T", "A"]),
        (ITALIAN, "Ärger", ["A", "R", "G", "E", "R"]),
        (ITALIAN, "perché", ["P", "E", "R", "C", "H", "E"]),
        (DUTCH, "één", ["E", "E", "N"]),
        (DUTCH, "ijsvrij", ["I", "J", "S", "V", "R", "I", "J"]),
    ],
)
def test_a_word_keeps_its_sets_own_letters_and_drops_other_accents(letters, word, tiles):
    assert names(letters, letters.spell(word)) == tiles


@pytest.mark.parametrize(
    ("letters", "word"),
    [(ITALIAN, "kiwi"), (ITALIAN, "jazz"), (PORTUGUESE, "kiwi"), (PORTUGUESE, "yoga")],
)
def test_a_word_the_set_cannot_spell_is_not_cut(letters, word):
    assert letters.spell(word) is None


# -- a short game in each set ---------------------------------------------------------------


def word_list(letters, seed: int = 35, count: int = 1500) -> list[str]:
    """Every two-tile word of a vowel and another tile, and longer words drawn from the bag's tiles,
    written as people write them: the same list every run."""
    rng = random.Random(seed)
    vowels = sorted(letters.vowels)
    others = [c for c in letters.letters if c not in letters.vowels]
    pool = [c for c in letters.letters for _ in range(letters.counts[c])]
    words = set()
    for v in vowels:
        for c in letters.letters:
            words.add(written((v, c), letters, rng))
            words.add(written((c, v), letters, rng))
    while len(words) < count:
        length = rng.choice((3, 3, 4, 4, 5, 6, 7, 8))
        tiles = []
        for i in range(length):
            part = vowels if i % 2 == rng.randrange(2) else others
            tiles.append(rng.choice(part) if rng.random() < 0.6 else rng.choice(pool))
        words.add(written(tiles, letters, rng))
    return sorted(words)


@pytest.fixture(scope="module", params=sorted(NEW))
def game(request):
    letters = NEW[request.param]
    lexicon = Lexicon.from_words(word_list(letters), name=f"{letters.code}-test", letters=letters)
    played = play_game(11, lexicon)
    return lexicon, played, record.check(played, lexicon)


def test_a_game_in_each_new_set_is_played_and_every_move_scored_as_the_scorer_does(game):
    lexicon, played, replayed = game
    assert played.letters is lexicon.letters and len(played.rounds) >= 10
    assert sum(p.score for p in replayed.plays) == played.total
    checked = 0
    for _number, position in _positions(lexicon, replayed):
        for play in all_plays(position):
            tiles = _word_tiles(position.board, play)
            result = scoring.evaluate(position.board, lexicon, play.ref, tiles, position.rack)
            assert not isinstance(result, scoring.Illegal), (play, result)
            assert (result.key, result.score, result.word) == (play.key, play.score, play.word)
            checked += 1
    assert checked > 100


def test_a_german_game_plays_its_umlauts():
    lexicon = Lexicon.from_words(word_list(GERMAN), name="de-test", letters=GERMAN)
    played = play_game(11, lexicon)
    umlauts = {GERMAN.by_name[n] for n in ("Ä", "Ö", "Ü")}
    racks = [c for r in played.rounds for c in r.rack.tiles]
    assert umlauts & set(racks)


def test_a_tile_made_flexible_keeps_the_sets_own_vowels():
    from engine.lettersets import letter_set

    german = letter_set("de")
    umlauts = {german.by_name[name] for name in ("Ä", "Ö", "Ü")}
    flexible = german.with_flexible(("Y",))
    assert umlauts <= flexible.vowels and german.by_name["Y"] in flexible.flexible
    assert german.by_name["Y"] not in flexible.vowels | flexible.consonants
