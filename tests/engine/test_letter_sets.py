"""Letter sets as values (letters.md): their tables, their spelling rules, their tiles as text."""

from __future__ import annotations

import random

import pytest

from engine.alphabet import BLANK, BLANK_FLAG, FRENCH
from engine.board import Board, board_text
from engine.draw import Bag, meets_minimum
from engine.lettersets import CATALAN, ENGLISH, SETS, SPANISH, UnknownLetterSet, letter_set
from engine.lexicon import Lexicon
from engine.notation import NotationError, parse_board, parse_rack, parse_word, rack_text


def names(letters, tiles) -> list[str]:
    return [letters.names[t] for t in tiles]


# -- the tables ---------------------------------------------------------------------------


def test_each_shipped_set_holds_the_tiles_of_its_table():
    assert {code: s.tile_count for code, s in SETS.items()} == {
        "fr": 102, "es": 100, "ca": 100, "en": 100, "it": 120, "pt": 120, "nl": 102, "de": 102,
    }  # fmt: skip
    assert [SPANISH.names[c] for c in SPANISH.letters][:5] == ["A", "B", "C", "CH", "D"]
    assert len(SPANISH.letters) == 28 and SPANISH.counts[BLANK] == 2


@pytest.mark.parametrize(
    ("letters", "name", "points", "count"),
    [
        (SPANISH, "CH", 5, 1), (SPANISH, "LL", 8, 1), (SPANISH, "RR", 8, 1), (SPANISH, "Ñ", 8, 1),
        (SPANISH, "Z", 10, 1), (SPANISH, "A", 1, 12), (CATALAN, "Ç", 10, 1), (CATALAN, "L·L", 10, 1),
        (CATALAN, "NY", 10, 1), (CATALAN, "QU", 8, 1), (CATALAN, "E", 1, 13), (ENGLISH, "Q", 10, 1),
        (ENGLISH, "K", 5, 1), (ENGLISH, "E", 1, 12), (FRENCH, "K", 10, 1), (FRENCH, "E", 1, 15),
    ],
)  # fmt: skip
def test_a_tile_has_the_points_and_count_of_letters_md(letters, name, points, count):
    c = letters.by_name[name]
    assert (letters.values[c], letters.counts[c]) == (points, count)


def test_a_set_lacks_the_tiles_its_language_has_not():
    assert "K" not in SPANISH.by_name and "W" not in SPANISH.by_name
    assert not {"K", "W", "Y", "Q"} & set(CATALAN.by_name)


def test_codes_past_26_skip_the_blank_and_keep_the_alphabetical_order():
    codes = [SPANISH.by_name[n] for n in ("X", "Y", "Z")]
    assert codes == [26, 28, 29] and BLANK not in SPANISH.letters
    assert sorted(SPANISH.letters) == list(SPANISH.letters)


def test_a_set_is_found_by_its_code_and_an_unknown_code_is_said():
    assert letter_set("es") is SPANISH
    with pytest.raises(UnknownLetterSet) as caught:
        letter_set("ro")
    assert "ro" in caught.value.message.text("fr") and "es" in caught.value.message.text("en")


def test_vowels_and_the_rack_rule_follow_the_set():
    # Y counts as either in French (§1.1), not in Spanish unless the setting says so.
    y = SPANISH.by_name["Y"]
    a, b = SPANISH.by_name["A"], SPANISH.by_name["B"]
    assert not meets_minimum((b, y), 1, SPANISH)
    assert meets_minimum((b, y), 1, SPANISH.with_flexible(["Y"]))
    assert meets_minimum((a, b), 1, SPANISH)
    assert meets_minimum((FRENCH.by_name["B"], FRENCH.by_name["Y"]), 1)
    assert SPANISH.with_flexible(["Y"]) != SPANISH
    assert len(Bag.full(SPANISH)) == 100


# -- the spelling rule ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("letters", "word", "tiles"),
    [
        (SPANISH, "COCHE", ["C", "O", "CH", "E"]),
        (SPANISH, "carro", ["C", "A", "RR", "O"]),
        (SPANISH, "Llama", ["LL", "A", "M", "A"]),
        (SPANISH, "niño", ["N", "I", "Ñ", "O"]),
        (SPANISH, "pingüino", ["P", "I", "N", "G", "U", "I", "N", "O"]),
        (SPANISH, "camión", ["C", "A", "M", "I", "O", "N"]),
        (SPANISH, "LLLL", ["LL", "LL"]),
        (CATALAN, "col·legi", ["C", "O", "L·L", "E", "G", "I"]),
        (CATALAN, "COL.LEGI", ["C", "O", "L·L", "E", "G", "I"]),
        (CATALAN, "coŀlegi", ["C", "O", "L·L", "E", "G", "I"]),
        (CATALAN, "llibre", ["L", "L", "I", "B", "R", "E"]),
        (CATALAN, "plaça", ["P", "L", "A", "Ç", "A"]),
        (CATALAN, "any", ["A", "NY"]),
        (CATALAN, "quan", ["QU", "A", "N"]),
        (CATALAN, "àvia", ["A", "V", "I", "A"]),
        (ENGLISH, "naïve", ["N", "A", "I", "V", "E"]),
    ],
)
def test_a_word_is_cut_into_tiles_by_the_spelling_rule(letters, word, tiles):
    assert names(letters, letters.spell(word)) == tiles
    assert letters.key_of(letters.fold(word)) == letters.key(letters.spell(word))


@pytest.mark.parametrize(
    ("letters", "word"),
    [(SPANISH, "kiwi"), (SPANISH, "whisky"), (CATALAN, "qi"), (CATALAN, "yoga"), (ENGLISH, "don't")],
)
def test_a_word_the_set_cannot_spell_is_not_cut(letters, word):
    assert letters.spell(word) is None
    assert letters.key_of(letters.fold(word)) is None


def test_the_fast_reading_of_a_list_cuts_as_the_spelling_rule_does():
    rng = random.Random(35)
    for letters in (SPANISH, CATALAN, ENGLISH):
        pieces = [*letters.by_name, "K", "W", "-", "é", "ñ", "ç", "·", "l"]
        for _ in range(3000):
            word = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
            tiles = letters.spell(word)
            expected = letters.key(tiles) if tiles is not None and 2 <= len(tiles) <= 15 else None
            assert letters.key_of(letters.fold(word)) == expected, word


def test_a_list_counts_the_lines_its_set_cannot_spell():
    lexicon = Lexicon.from_words(["coche", "kiwi", "a", "Ñandú", "", "abcdefghijklmnop"], letters=SPANISH)
    assert lexicon.word_count == 2
    assert lexicon.unspellable == 3
    assert lexicon.unspellable_examples == ("kiwi", "a", "abcdefghijklmnop")
    assert "COCHE" in lexicon and "ÑANDU" in lexicon and "KIWI" not in lexicon
    assert SPANISH.spell("coche") in lexicon


def test_the_same_file_read_for_two_sets_gives_two_graphs_in_one_process(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words.txt"
    path.write_text("coche\nchal\ncarro\n", encoding="utf-8")
    spanish = Lexicon.from_file(path, letters=SPANISH)
    french = Lexicon.from_file(path)
    assert spanish.letters is SPANISH and french.letters is FRENCH
    assert SPANISH.spell("COCHE") in spanish and "COCHE" in french
    assert len(SPANISH.spell("COCHE")) == 4
    # Read again: each from its own cache file.
    again = Lexicon.from_file(path, letters=SPANISH)
    assert again.letters is SPANISH and again.sha256 == spanish.sha256 and again.word_count == 3
    assert len(list((tmp_path / "cache" / "lexicons").glob("*.dawg"))) == 2


# -- tiles as text ------------------------------------------------------------------------


def test_a_rack_writes_a_tile_of_several_characters_in_brackets():
    rack = parse_rack("-[CH]?CORÑO", SPANISH)
    assert names(SPANISH, rack.tiles) == ["CH", "?", "C", "O", "R", "Ñ", "O"]
    assert rack.rejected and str(rack) == "-[CH]?CORÑO"
    kept = parse_rack("D+ZOCEI[ch]", SPANISH)
    assert names(SPANISH, kept.reliquat) == ["D"] and str(kept) == "D+ZOCEI[CH]"
    assert rack_text(rack.tiles, SPANISH) == "[CH]?CORÑO"


def test_a_rack_is_never_cut_by_the_spelling_rule():
    # Unbracketed CH in a rack is the C and H tiles.
    assert names(SPANISH, parse_rack("CHAO", SPANISH).tiles) == ["C", "H", "A", "O"]


@pytest.mark.parametrize(("letters", "text", "tile"), [(SPANISH, "KAOS", "K"), (CATALAN, "Q", "Q")])
def test_a_rack_with_a_tile_the_set_lacks_is_refused_with_the_set_named(letters, text, tile):
    with pytest.raises(NotationError) as caught:
        parse_rack(text, letters)
    assert caught.value.message.code == "tiles_not_in_set"
    assert f"« {tile} »" in caught.value.message.text("fr")
    assert letters.code in caught.value.message.text("en")


def test_a_word_is_read_with_or_without_brackets_one_way():
    typed = parse_word("COCHE", SPANISH)
    assert typed == parse_word("CO[CH]E", SPANISH) == parse_word("coche".upper(), SPANISH)
    assert str(typed) == "CO[CH]E" and len(typed.letters) == 4


def test_a_blank_standing_for_a_tile_of_two_letters_is_written_in_lower_case():
    typed = parse_word("CO[ch]E", SPANISH)
    assert typed.lower == (False, False, True, False)
    assert parse_word("COchE", SPANISH) == typed
    assert str(typed) == "CO[ch]E"
    with pytest.raises(NotationError) as caught:
        parse_word("COChE", SPANISH)
    assert caught.value.message.code == "tiles_case"


def test_a_catalan_word_reads_every_spelling_of_l_l():
    for text in ("COL·LEGI", "COL.LEGI", "CO[L·L]EGI", "COĿLEGI", "col·legi"):
        word = parse_word(text, CATALAN)
        assert names(CATALAN, word.letters) == ["C", "O", "L·L", "E", "G", "I"], text
    assert str(parse_word("CO[L.L]EGI", CATALAN)) == "CO[L·L]EGI"


def test_a_word_of_fifteen_tiles_may_have_more_letters():
    word = parse_word("CH" * 15, SPANISH)
    assert len(word.letters) == 15
    with pytest.raises(NotationError):
        parse_word("CH" * 16, SPANISH)


def test_french_text_reads_as_before():
    assert parse_word("CHOSE") == parse_word("CHOSE", FRENCH)
    assert len(parse_word("CHOSE").letters) == 5
    assert str(parse_rack("AEI+BLRN")) == "AEI+BLRN"


def test_a_board_with_two_letter_tiles_reads_back():
    board = Board()
    ch, o = SPANISH.by_name["CH"], SPANISH.by_name["O"]
    board.place([(7 * 15 + 7, ch), (7 * 15 + 8, o), (8 * 15 + 7, SPANISH.by_name["LL"] | BLANK_FLAG)])
    text = board_text(board, SPANISH)
    assert "[CH]O" in text and "[ll]" in text
    assert parse_board(text, SPANISH) == board


def test_a_list_may_write_its_tiles_of_several_characters_in_brackets():
    lexicon = Lexicon.from_words(["CO[CH]E", "[ll]ama", "CO[XX]E"], letters=SPANISH)
    assert lexicon.word_count == 2 and lexicon.unspellable == 1
    assert "COCHE" in lexicon and "LLAMA" in lexicon


def test_the_end_of_the_game_follows_the_sets_vowels():
    # {B, Y} goes on in French (Y takes the missing role, §3.2) but is all consonants in Spanish.
    from engine.draw import EndReason, game_over

    assert game_over((FRENCH.by_name["B"], FRENCH.by_name["Y"])) is None
    assert (
        game_over((SPANISH.by_name["B"], SPANISH.by_name["Y"]), SPANISH) is EndReason.NO_VOWEL_OR_NO_CONSONANT
    )
    assert game_over((SPANISH.by_name["B"], BLANK), SPANISH) is None


def test_a_catalan_rack_typed_without_brackets_reads_the_one_way_it_can():
    # There is no Q, Y or · tile: QU, NY and L·L typed plainly can only be those tiles.
    rack = parse_rack("qua?l·lny", CATALAN)
    assert names(CATALAN, rack.tiles) == ["QU", "A", "?", "L·L", "NY"]
    assert str(rack) == "[QU]A?[L·L][NY]"


def test_a_typed_rack_below_the_minimum_names_the_tiles_counting_as_either():
    from engine.draw import check_typed_rack

    spanish = [SPANISH.by_name[n] for n in ("B", "C", "D", "F", "G", "Y", "A")]
    problems = check_typed_rack((), spanish, Bag.full(SPANISH), 1)
    assert [p.code for p in problems] == ["draw_below_minimum_blank"]
    assert "Y" not in problems[0].text("fr") and "joker" in problems[0].text("fr")
    french = [FRENCH.by_name[n] for n in ("B", "C", "D", "F", "G", "H", "A")]
    assert [p.code for p in check_typed_rack((), french, Bag.full(), 1)] == ["draw_below_minimum"]


def test_a_spanish_record_with_a_rack_below_the_minimum_loads_with_a_warning():
    from engine import record
    from engine.movegen import Position, find_tops

    lexicon = Lexicon.from_words(["bcdfgya"], letters=SPANISH)
    rack = parse_rack("BCDFGYA", SPANISH)
    top = find_tops(Position(Board(), rack.tiles, lexicon)).plays[0]
    game = record.check(record.from_plays("x", [rack], [top]), lexicon)
    assert [w.params["reason_fr"] for w in game.warnings if w.code == "record_in_round"] == [
        "ce tirage n'a pas au moins 2 voyelle(s) et 2 consonne(s), le joker comptant pour l'une ou "
        "l'autre : il doit être rejeté."
    ]
