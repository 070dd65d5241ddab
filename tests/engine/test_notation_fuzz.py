"""Hostile input to the parsers of what people type (references, racks, words, slips) and to
``grade_text``: odd Unicode, huge texts and values of the wrong type give a value or a
``NotationError`` with a sentence in both languages; ``grade_text`` gives a grade, never an exception."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.grading import Mode, Sanction, grade_text
from engine.messages import LANGUAGES
from engine.movegen import Position
from engine.notation import NotationError, parse_rack, parse_ref, parse_slip, parse_word, rack_tiles
from tests.helpers import tiny

PARSERS = (parse_ref, parse_rack, parse_word, parse_slip)

# Characters known to break text handling: combining marks, bidirectional controls, NUL and other
# controls, lone surrogates, emoji (with a joiner and a skin tone), ligatures that fold or
# upper-case to two letters, full-width letters and digits, other scripts' digits.
_ODD = st.sampled_from(
    [
        *"\u0301\u0327\u0308\u20dd",
        *"\u202e\u202d\u200f\u200e\u2066\u2069\u05d0\u0627",
        *"\x00\x01\x1b\x7f\x85\u2028\u2029\ufeff\u200b",
        *"\ud800\udfff\udc00",
        "\U0001f600",
        "\U0001f469\u200d\U0001f4bb",
        "\U0001f44d\U0001f3fd",
        *"œæŒÆßﬁﬂﬀﬃĳǆ",
        *"ＡＢＣｈ４１５０",
        *"٤٠߁",
    ]
)
_PLAIN = st.sampled_from([*"AEIOUHhT48 +-?", "H4", "4H", "CALFEUTRE", "40", "MOT"])
_HOSTILE_TEXT = st.one_of(
    st.lists(st.one_of(_ODD, _PLAIN), max_size=20).map("".join),
    st.text(st.characters(categories=["Mn", "Me", "Cc", "Cf", "Cs", "Co", "So"]), max_size=30),
    st.text(st.characters(min_codepoint=0xFF01, max_codepoint=0xFF5E), max_size=20),
    # Huge: a piece repeated up to 100 kB.
    st.tuples(st.one_of(_ODD, _PLAIN), st.integers(1, 100_000)).map(lambda pair: pair[0] * pair[1]),
)
_WRONG_TYPES = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.binary(max_size=20),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(["H4", "CALFEUTRE"]),
)


def _parsed_or_refused(parse, value) -> None:
    try:
        result = parse(value)
    except NotationError as error:
        for lang in LANGUAGES:
            assert error.message.text(lang)
    else:
        assert result is not None


@settings(max_examples=200, deadline=None)
@given(_HOSTILE_TEXT)
@example("H4 CALFEUTRE 40" + " " * 100_000)
@example("Ｈ４ ＣＡＬＦＥＵＴＲＥ ４０")
@example("H4 C\u0301ALFEUTRE")
@example("H4 \u202eERTUEFLAC")
@example("\x00")
@example("H4 \ud800\udc00")
@example("H4 CŒUR 12")
@example("AEﬁ+BL")
def test_any_hostile_text_gives_a_value_or_a_notation_error(text):
    for parse in PARSERS:
        _parsed_or_refused(parse, text)


@settings(max_examples=100, deadline=None)
@given(_WRONG_TYPES)
def test_a_value_that_is_not_text_is_a_notation_error(value):
    for parse in PARSERS:
        with pytest.raises(NotationError) as refused:
            parse(value)
        assert refused.value.message.code == "not_text"


@settings(max_examples=100, deadline=None)
@given(_HOSTILE_TEXT)
def test_a_word_read_from_hostile_text_has_2_to_15_plain_letters(text):
    try:
        word = parse_word(text)
    except NotationError:
        return
    assert 2 <= len(word.letters) <= 15
    assert all(1 <= letter <= 26 for letter in word.letters)
    assert str(word).isascii() and str(word).isalpha()


def test_ligatures_fold_to_two_letters_and_full_width_letters_are_refused():
    assert str(parse_word("cœur")) == "coeur"
    assert str(parse_word("ÆTHER")) == "AETHER"
    with pytest.raises(NotationError):
        parse_word("ＭＯＴ")
    with pytest.raises(NotationError):
        parse_rack("ﬁ")


_POSITION = Position(Board(), rack_tiles("AE?IRSU"), tiny("MOT", "TAXE", "AIRES"))


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(_HOSTILE_TEXT, _WRONG_TYPES), mode=st.sampled_from(Mode))
def test_grade_text_grades_hostile_input_and_never_raises(text, mode):
    result = grade_text(_POSITION, text, mode)
    assert result.paid >= 0
    assert (result.sanction is Sanction.ZERO) == (result.reason is not None)
    for lang in LANGUAGES:
        assert result.message.text(lang)
        if result.detail is not None:
            assert result.detail.text(lang)
