"""Notation (rules §1.3): references, racks, words, slips, boards, and the sentences of their errors."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.alphabet import BLANK, BLANK_FLAG, RACK_SIZE
from engine.board import CELLS, SIZE, Board
from engine.messages import LANGUAGES, Message
from engine.notation import (
    NotationError,
    RackText,
    Ref,
    SlipText,
    TypedWord,
    board_text,
    format_word,
    parse_board,
    parse_rack,
    parse_ref,
    parse_slip,
    parse_word,
    rack_text,
    rack_tiles,
)


def codes(word: str) -> tuple[int, ...]:
    return tuple(BLANK if ch == "?" else ord(ch.upper()) - 64 for ch in word)


def assert_renders(message: Message) -> None:
    """Both languages have a sentence for the code, every placeholder filled."""
    texts = [message.text(lang) for lang in LANGUAGES]
    for text in texts:
        assert text
        assert "{" not in text and "}" not in text
    assert len(set(texts)) == len(texts)


def rejection(parse, text, code: str) -> NotationError:
    """The error ``parse(text)`` raises, checked to carry ``code`` and to render."""
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.message.code == code
    assert_renders(info.value.message)
    return info.value


# -- references ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("H4", Ref(7, 3, True)),
        ("h4", Ref(7, 3, True)),
        (" H 4 ", Ref(7, 3, True)),
        ("4H", Ref(7, 3, False)),
        ("4h", Ref(7, 3, False)),
        ("15A", Ref(0, 14, False)),
        ("A15", Ref(0, 14, True)),
        ("O15", Ref(14, 14, True)),
        ("A1", Ref(0, 0, True)),
        ("8H", Ref(7, 7, False)),
        ("H04", Ref(7, 3, True)),
    ],
)
def test_reference_is_read_in_every_accepted_form(text, expected):
    assert parse_ref(text) == expected


def test_reference_prints_row_first_across_and_column_first_down():
    assert str(Ref(7, 3, True)) == "H4"
    assert str(Ref(7, 3, False)) == "4H"
    assert str(Ref(0, 14, False)) == "15A"


def test_reference_square_is_its_first_cell_and_reversed_keeps_it():
    ref = parse_ref("B10")
    assert ref.square == 1 * SIZE + 9
    assert ref.reversed() == Ref(1, 9, False)
    assert str(ref.reversed()) == "10B"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Z4", "ref_row"),
        ("P1", "ref_row"),
        ("4Z", "ref_row"),
        ("H0", "ref_column"),
        ("H16", "ref_column"),
        ("16H", "ref_column"),
        ("0A", "ref_column"),
        ("44", "ref_syntax"),
        ("HH", "ref_syntax"),
        ("H4H", "ref_syntax"),
        ("H115", "ref_syntax"),
        ("H٤", "ref_syntax"),
        ("", "ref_empty"),
        ("   ", "ref_empty"),
        ("H" * 300, "too_long"),
    ],
)
def test_bad_reference_is_rejected_saying_why(text, code):
    rejection(parse_ref, text, code)


def test_reference_error_quotes_what_was_typed():
    error = rejection(parse_ref, "H16", "ref_column")
    assert "H16" in error.message.text("fr")
    assert "H16" in str(error)


@pytest.mark.parametrize("value", [None, 4, b"H4", ["H", "4"]])
def test_reference_that_is_not_text_is_rejected(value):
    rejection(parse_ref, value, "not_text")


# -- racks --------------------------------------------------------------------


def test_rack_with_reliquat_keeps_both_parts():
    rack = parse_rack("AEI+BLRN")
    assert rack == RackText(codes("AEI"), codes("BLRN"), rejected=False)
    assert rack.tiles == codes("AEIBLRN")


def test_rack_after_rejection_is_marked_and_all_new():
    assert parse_rack("-BBNOORS") == RackText((), codes("BBNOORS"), rejected=True)


def test_rack_reads_question_mark_as_blank():
    rack = parse_rack("VDFIR?A")
    assert rack == RackText((), codes("VDFIR?A"))
    assert rack.tiles[5] == BLANK


@pytest.mark.parametrize("text", ["aei+blrn", " AEI + BLRN ", "aEi+BlRn", "A E I\t+ B L R N"])
def test_rack_ignores_case_and_spaces(text):
    assert parse_rack(text) == parse_rack("AEI+BLRN")


@pytest.mark.parametrize(
    ("text", "code", "shown"),
    [
        ("AEIBLRNS", "rack_size", "8"),
        ("AEI+BLRNS", "rack_size", "8"),
        ("AE+I+B", "rack_plus", None),
        ("-AE+BC", "rack_reject_reliquat", None),
        ("AE1", "rack_char", "1"),
        ("AE*", "rack_char", "*"),
        ("--AB", "rack_char", "-"),
        ("ß", "rack_char", "ß"),
        ("Aé", "rack_char", "é"),
        ("?" * 300, "too_long", "200"),
    ],
)
def test_bad_rack_is_rejected_saying_why(text, code, shown):
    error = rejection(parse_rack, text, code)
    if shown is not None:
        assert shown in error.message.text("fr")


@pytest.mark.parametrize("text", ["AEI+BLRN", "-BBNOORS", "VDFIR?A", "AEI+", "??+ABC", "-", "E"])
def test_rack_prints_back_as_written(text):
    assert str(parse_rack(text)) == text


def test_rack_prints_in_upper_case_whatever_was_typed():
    assert str(parse_rack(" aei + blrn ")) == "AEI+BLRN"


def test_rack_tiles_and_rack_text_round_trip():
    assert rack_tiles("AEI+BL?N") == codes("AEIBL?N")
    assert rack_text(rack_tiles("VDFIR?A")) == "VDFIR?A"


# -- words --------------------------------------------------------------------


def test_word_in_capitals_has_no_blank():
    word = parse_word("CALFEUTRE")
    assert word.letters == codes("CALFEUTRE")
    assert not any(word.lower)


def test_lower_case_letter_marks_a_blank():
    word = parse_word("DEFOUlER")
    assert word.letters == codes("DEFOULER")
    assert word.lower == (False,) * 5 + (True,) + (False,) * 2
    assert str(word) == "DEFOUlER"


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("ÉLÈVE", "ELEVE"),
        ("élève", "eleve"),
        ("ÉlÈVE", "ElEVE"),
        ("œuvre", "oeuvre"),
        ("ŒUVRE", "OEUVRE"),
        ("ÆGIDE", "AEGIDE"),
        ("MAÏS", "MAIS"),
        ("ÇA", "CA"),
        (" CAL FEUTRE ", "CALFEUTRE"),
    ],
)
def test_accents_are_dropped_keeping_case(text, printed):
    assert str(parse_word(text)) == printed


def test_word_length_is_two_to_fifteen_letters():
    assert len(parse_word("AB").letters) == 2
    assert len(parse_word("A" * 15).letters) == 15
    # œ is two letters: 14 characters here make 15 letters, then 16.
    assert len(parse_word("Œ" + "A" * 13).letters) == 15
    assert "16" in rejection(parse_word, "Œ" + "A" * 14, "word_length").message.text("en")
    assert "16" in rejection(parse_word, "A" * 16, "word_length").message.text("fr")
    rejection(parse_word, "A", "word_length")


NON_LETTERS = [("MOT2", "2"), ("L'ETE", "'"), ("A-B", "-"), ("MOT!", "!"), ("ßA", "ß")]


@pytest.mark.parametrize(("text", "char"), NON_LETTERS)
def test_word_with_a_non_letter_is_rejected_naming_it(text, char):
    error = rejection(parse_word, text, "word_char")
    assert f"« {char} »" in error.message.text("fr")
    assert f"'{char}'" in error.message.text("en")


@pytest.mark.parametrize(("value", "code"), [("", "word_empty"), ("  ", "word_empty"), (None, "not_text")])
def test_empty_or_missing_word_is_rejected(value, code):
    rejection(parse_word, value, code)


def test_format_word_prints_board_tiles_with_blanks_in_lower_case():
    tiles = [*codes("DEFOU"), codes("L")[0] | BLANK_FLAG, *codes("ER")]
    assert format_word(tiles) == "DEFOUlER"


# -- slips --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ref", "word", "score"),
    [
        ("H4 CALFEUTRE 40", Ref(7, 3, True), "CALFEUTRE", 40),
        ("  h4   CALFEUTRE\t40 ", Ref(7, 3, True), "CALFEUTRE", 40),
        ("- WORD 12", None, "WORD", 12),
        ("? WORD 12", None, "WORD", 12),
        ("- WORD", None, "WORD", None),
        ("WORD", None, "WORD", None),
        ("WORD 12", None, "WORD", 12),
        ("4H word", Ref(7, 3, False), "word", None),
        ("8H DEFOUlER 0", Ref(7, 7, False), "DEFOUlER", 0),
    ],
)
def test_slip_is_read(text, ref, word, score):
    assert parse_slip(text) == SlipText(ref, parse_word(word), score)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "slip_empty"),
        (" \t ", "slip_empty"),
        ("H4 CAL FEUTRE 40", "slip_syntax"),
        ("H4 WORD 40 50", "slip_syntax"),
        ("H4 WORD 40000", "slip_syntax"),
        ("Z4 WORD 40", "ref_row"),
        ("H16 WORD 40", "ref_column"),
        ("WORD H4 40", "ref_syntax"),
        ("H4 WORD2 40", "word_char"),
        ("H4 W 40", "word_length"),
        ("40", "word_char"),
        ("MOT ٤٠", "ref_syntax"),
        ("H4 " + "A" * 300, "too_long"),
        (None, "not_text"),
    ],
)
def test_malformed_slip_is_rejected_saying_why(text, code):
    rejection(parse_slip, text, code)


# -- boards -------------------------------------------------------------------


def calfeutre_board() -> Board:
    """H4 CALFEUTRE with the L a blank, a Z in A1 and a blank E in O15."""
    board = Board()
    board.place((7 * SIZE + 3 + i, t) for i, t in enumerate(codes("CALFEUTRE")))
    board.cells[7 * SIZE + 4] |= BLANK_FLAG
    board.place([(0, codes("Z")[0]), (CELLS - 1, codes("E")[0] | BLANK_FLAG)])
    return board


def test_board_text_shows_letters_blanks_and_empty_cells():
    lines = board_text(calfeutre_board()).splitlines()
    assert len(lines) == 1 + SIZE
    assert lines[0].split() == ["123456789012345"]
    assert lines[1] == "A  Z.............."
    assert lines[8] == "H  ...CaLFEUTRE..."
    assert lines[15] == "O  ..............e"


@pytest.mark.parametrize("board", [Board(), calfeutre_board()], ids=["empty", "with blanks"])
def test_board_text_round_trips(board):
    assert parse_board(board_text(board)) == board


def test_board_reads_without_its_header():
    text = "\n".join(board_text(calfeutre_board()).splitlines()[1:])
    assert parse_board(text) == calfeutre_board()


def test_bad_board_is_rejected_saying_why():
    lines = board_text(Board()).splitlines()
    rejection(parse_board, "\n".join(lines[:-1]), "board_rows")
    rejection(parse_board, "\n".join([*lines[:-1], "O  .......#......."]), "board_char")
    rejection(parse_board, None, "not_text")


def test_board_repr_shows_its_text():
    assert "CaLFEUTRE" in repr(calfeutre_board())


# -- any text: a value or a NotationError, nothing else -------------------------

# Pieces people type, and characters that trip text handling:
# ß and ﬀ upper-case to two letters, ٤ is a digit to ``\d``, U+0301 is a lone accent.
_PIECES = st.sampled_from(
    [*"Hh40Z+-?*.'{} \t\n\x00\x7féÉœÆßﬀ٤\u0301\u00a0\u3000", "15", "MOT", "CALFEUTRE", "40"]
)
ANY_TEXT = st.one_of(
    st.text(),
    st.text(max_size=4000),
    st.text(st.characters(codec="utf-8"), max_size=300),
    st.lists(_PIECES, max_size=12).map("".join),
    st.lists(st.one_of(_PIECES, st.characters()), max_size=12).map("".join),
)


@settings(max_examples=400)
@given(ANY_TEXT)
@example("ß")
@example("AEﬀ+B")
@example("H٤ MOT ٤٠")
@example("H4 CALFEUTRE 40 " * 300)
def test_any_text_gives_a_value_or_a_notation_error(text):
    for parse in (parse_ref, parse_rack, parse_word, parse_slip, parse_board):
        try:
            result = parse(text)
        except NotationError as error:
            for lang in LANGUAGES:
                assert error.message.text(lang)
        else:
            assert result is not None


# -- round trips over generated values ------------------------------------------

refs = st.builds(Ref, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.booleans())


@given(refs)
def test_any_reference_prints_and_reads_back(ref):
    assert parse_ref(str(ref)) == ref
    assert str(parse_ref(str(ref))) == str(ref)
    assert parse_ref(" " + " ".join(str(ref).lower()) + " ") == ref


tile = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ?")


def reliquat_and_new(kept: int):
    return st.tuples(st.text(tile, min_size=kept, max_size=kept), st.text(tile, max_size=RACK_SIZE - kept))


rack_texts = st.one_of(
    st.text(tile, max_size=RACK_SIZE),
    st.text(tile, max_size=RACK_SIZE).map("-".__add__),
    st.integers(1, RACK_SIZE).flatmap(reliquat_and_new).map("+".join),
)


@given(rack_texts)
def test_any_rack_prints_and_reads_back(text):
    rack = parse_rack(text)
    assert str(rack) == text
    assert parse_rack(text.lower()) == rack
    assert rack_text(rack.tiles) == text.lstrip("-").replace("+", "")


typed_words = st.integers(2, SIZE).flatmap(
    lambda n: st.builds(
        TypedWord,
        st.tuples(*[st.integers(1, 26)] * n),
        st.tuples(*[st.booleans()] * n),
    )
)


@given(typed_words, st.one_of(st.none(), refs), st.one_of(st.none(), st.integers(0, 9999)))
def test_any_slip_prints_and_reads_back(word, ref, score):
    assert parse_word(str(word)) == word
    text = f"{ref or '-'} {word}" + ("" if score is None else f" {score}")
    assert parse_slip(text) == SlipText(ref, word, score)
