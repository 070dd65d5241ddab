"""The French tile set (rules §1.1) and the board with its premium squares (§1.2)."""

from __future__ import annotations

import pytest

from engine import alphabet
from engine.alphabet import BLANK, BLANK_FLAG, FRENCH, char, code, tile_value
from engine.board import CELLS, CENTER, EMPTY, LETTER_MULT, SIZE, WORD_MULT, Board, square, square_name

ALL_LETTERS = FRENCH.all_letters
VALUES, COUNTS = FRENCH.values[: BLANK + 1], FRENCH.counts[: BLANK + 1]
VOWELS, CONSONANTS, FLEXIBLE = FRENCH.vowels, FRENCH.consonants, FRENCH.flexible

# §1.1, transcribed from the rules: letter -> (value, count).
TILE_TABLE = {
    "A": (1, 9), "B": (3, 2), "C": (3, 2), "D": (2, 3), "E": (1, 15), "F": (4, 2), "G": (2, 2),
    "H": (4, 2), "I": (1, 8), "J": (8, 1), "K": (10, 1), "L": (1, 5), "M": (2, 3), "N": (1, 6),
    "O": (1, 6), "P": (3, 2), "Q": (8, 1), "R": (1, 6), "S": (1, 6), "T": (1, 6), "U": (1, 6),
    "V": (4, 2), "W": (10, 1), "X": (10, 1), "Y": (10, 1), "Z": (10, 1), "?": (0, 2),
}  # fmt: skip

# §1.2, transcribed from the rules.
PREMIUMS = {
    "TW": "A1 A8 A15 H1 H15 O1 O8 O15",
    "DW": "B2 C3 D4 E5 K11 L12 M13 N14 B14 C13 D12 E11 K5 L4 M3 N2 H8",
    "TL": "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    "DL": "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12",
}


def cell(name: str) -> int:
    return (ord(name[0]) - ord("A")) * SIZE + int(name[1:]) - 1


def kind_of(sq: int) -> str | None:
    """The premium the engine gives a square, named as in §1.2."""
    kinds = {(1, 3): "TW", (1, 2): "DW", (3, 1): "TL", (2, 1): "DL", (1, 1): None}
    return kinds[LETTER_MULT[sq], WORD_MULT[sq]]


# -- tiles (§1.1) ----------------------------------------------------------------


def test_bag_holds_102_tiles_two_of_them_blanks():
    assert sum(COUNTS) == 102
    assert COUNTS[BLANK] == 2
    assert len(COUNTS) == len(VALUES) == BLANK + 1


@pytest.mark.parametrize("letter", list(TILE_TABLE))
def test_each_tile_has_the_value_and_count_of_the_table(letter):
    assert (VALUES[code(letter)], COUNTS[code(letter)]) == TILE_TABLE[letter]


def test_tiles_total_197_points():
    assert sum(value * count for value, count in TILE_TABLE.values()) == 197
    assert sum(VALUES[c] * COUNTS[c] for c in range(len(VALUES))) == 197


def test_blank_is_worth_nothing_wherever_it_lies():
    k = code("K")
    assert tile_value(k) == 10
    assert tile_value(k | BLANK_FLAG) == 0
    assert VALUES[BLANK] == 0


def test_vowels_consonants_and_flexible_tiles_split_the_set():
    assert {char(c) for c in VOWELS} == set("AEIOU")
    assert {code("Y"), BLANK} == FLEXIBLE
    assert len(CONSONANTS) == 20
    assert set(range(1, 28)) == VOWELS | CONSONANTS | FLEXIBLE
    assert not (VOWELS & CONSONANTS or VOWELS & FLEXIBLE or CONSONANTS & FLEXIBLE)


def test_all_letters_mask_has_one_bit_per_letter():
    assert sum(1 << c for c in range(1, 27)) == ALL_LETTERS


# -- codes and characters ----------------------------------------------------------


def test_every_rack_code_round_trips_through_its_character():
    for c in range(1, BLANK + 1):
        assert code(char(c)) == c
    assert char(BLANK) == "?"
    assert [char(c) for c in range(1, 27)] == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def test_blank_on_the_board_prints_in_lower_case():
    for c in range(1, 27):
        tile = c | BLANK_FLAG
        assert char(tile) == char(c).lower()
        assert alphabet.letter_of(tile) == c
        assert alphabet.is_blank(tile)
        assert not alphabet.is_blank(c)


@pytest.mark.parametrize("text", ["a", "@", "[", "", "AB", "SS", "é", " "])
def test_code_rejects_anything_but_one_capital_or_question_mark(text):
    with pytest.raises(ValueError):
        code(text)


def test_words_round_trip_through_codes():
    assert alphabet.word_codes("CALFEUTRE") == (3, 1, 12, 6, 5, 21, 20, 18, 5)
    assert alphabet.codes_word(alphabet.word_codes("CALFEUTRE")) == "CALFEUTRE"
    assert alphabet.codes_word([code("L") | BLANK_FLAG]) == "L"


# -- premium squares (§1.2) ------------------------------------------------------


def test_premium_squares_match_the_rules_exactly():
    expected = {cell(name): kind for kind, names in PREMIUMS.items() for name in names.split()}
    actual = {sq: kind_of(sq) for sq in range(CELLS) if kind_of(sq)}
    assert actual == expected


def test_premium_counts_by_kind():
    counts = {kind: sum(1 for sq in range(CELLS) if kind_of(sq) == kind) for kind in PREMIUMS}
    assert counts == {"TW": 8, "DW": 17, "TL": 12, "DL": 24}
    assert sum(1 for sq in range(CELLS) if kind_of(sq) is None) == CELLS - 61


def test_centre_star_is_h8_and_a_double_word():
    assert CENTER == cell("H8") == square(7, 7)
    assert square_name(CENTER) == "H8"
    assert kind_of(CENTER) == "DW"


SYMMETRIES = {
    "identity": lambda r, c: (r, c),
    "quarter turn": lambda r, c: (c, SIZE - 1 - r),
    "half turn": lambda r, c: (SIZE - 1 - r, SIZE - 1 - c),
    "three quarters": lambda r, c: (SIZE - 1 - c, r),
    "mirror left-right": lambda r, c: (r, SIZE - 1 - c),
    "mirror top-bottom": lambda r, c: (SIZE - 1 - r, c),
    "main diagonal": lambda r, c: (c, r),
    "other diagonal": lambda r, c: (SIZE - 1 - c, SIZE - 1 - r),
}


@pytest.mark.parametrize("symmetry", list(SYMMETRIES))
def test_premium_layout_is_unchanged_by_each_symmetry_of_the_square(symmetry):
    move = SYMMETRIES[symmetry]
    images = {move(r, c) for r in range(SIZE) for c in range(SIZE)}
    assert len(images) == CELLS
    for r in range(SIZE):
        for c in range(SIZE):
            assert kind_of(square(r, c)) == kind_of(square(*move(r, c))), square_name(square(r, c))


def test_square_names_round_trip():
    names = [square_name(sq) for sq in range(CELLS)]
    assert len(set(names)) == CELLS
    assert all(cell(name) == sq for sq, name in enumerate(names))
    assert names[0] == "A1" and names[14] == "A15" and names[-1] == "O15"


# -- the board ---------------------------------------------------------------------


def test_new_board_is_empty():
    board = Board()
    assert board.cells == [EMPTY] * CELLS
    assert board.is_empty()
    assert board.tile_count() == 0


def test_placing_tiles_fills_their_squares():
    board = Board()
    board.place([(CENTER, code("M")), (CENTER + 1, code("O") | BLANK_FLAG)])
    assert board.cells[CENTER] == code("M")
    assert board.cells[CENTER + 1] == code("O") | BLANK_FLAG
    assert board.tile_count() == 2
    assert not board.is_empty()


def test_placing_on_a_covered_square_is_refused():
    board = Board()
    board.place([(CENTER, code("M"))])
    with pytest.raises(ValueError, match="H8"):
        board.place([(CENTER, code("A"))])


def test_copy_is_independent_and_equal():
    board = Board()
    board.place([(CENTER, code("M"))])
    twin = board.copy()
    assert twin == board
    twin.place([(0, code("A"))])
    assert twin != board
    assert board.cells[0] == EMPTY


@pytest.mark.parametrize("size", [0, CELLS - 1, CELLS + 1])
def test_board_of_the_wrong_size_is_refused(size):
    with pytest.raises(ValueError):
        Board([EMPTY] * size)
