"""Slip grading (rules §3.3.3, §3.4): FISF and computed settings, and how typed slips are read.

The board of most tests holds MOT at H7 (M on H7, O on the star H8, T on H9).
TAXE then fits only down from the T: 9H TAXE = T1 + A1x2 (DL I9) + X10 + E1 = 14;
across from H9 it would read MOTAXE.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.alphabet import BLANK_FLAG, word_codes
from engine.board import Board
from engine.grading import (
    Grade,
    Mode,
    Sanction,
    WarningKind,
    ZeroReason,
    end_penalty,
    grade,
    grade_text,
)
from engine.messages import LANGUAGES, Message
from engine.movegen import Position
from engine.notation import parse_ref, parse_slip, parse_word, rack_tiles
from engine.scoring import apply, evaluate
from tests.conftest import REFERENCE_GAMES
from tests.helpers import tiny

LEX = tiny("MOT", "MOTS", "TAXE", "AN", "TETE", "RELAX")
GRADED_SLIPS = Path(__file__).with_name("data") / "graded_slips.json"


def board_with_mot() -> Board:
    board = Board()
    apply(board, evaluate(board, LEX, parse_ref("H7"), word_codes("MOT")))
    return board


def position(rack: str, board: Board | None = None) -> Position:
    return Position(board_with_mot() if board is None else board, rack_tiles(rack), LEX)


def first_round(rack: str) -> Position:
    return Position(Board(), rack_tiles(rack), LEX)


def assert_renders(message: Message) -> None:
    """Both languages have a sentence, every placeholder filled (what the player typed aside)."""
    texts = [message.text(lang) for lang in LANGUAGES]
    for text in texts:
        for value in message.params.values():
            text = text.replace(str(value), "")
        assert "{" not in text and "}" not in text
    assert all(texts) and len(set(texts)) == len(texts)


def checked(result: Grade) -> Grade:
    """Every grade speaks both languages and opens with the points paid."""
    assert_renders(result.message)
    if result.detail is not None:
        assert_renders(result.detail)
    assert result.message.text("fr").startswith(f"{result.paid} — ")
    return result


def fisf(pos: Position, slip: str, **kwargs) -> Grade:
    return checked(grade_text(pos, slip, Mode.FISF, **kwargs))


def computed(pos: Position, slip: str, **kwargs) -> Grade:
    return checked(grade_text(pos, slip, Mode.COMPUTED, **kwargs))


def assert_grade(result: Grade, paid: int, sanction: Sanction, reason=None, warning=None) -> None:
    assert (result.paid, result.sanction, result.reason, result.warning_kind) == (
        paid,
        sanction,
        reason,
        warning,
    ), result.message.text("en")


# -- FISF: paid as handed in -------------------------------------------------------


def test_exact_slip_is_paid_its_score_without_sanction():
    result = fisf(position("AXEIRSU"), "9H TAXE 14")
    assert_grade(result, 14, Sanction.NONE)
    assert str(result.play) == "9H TAXE 14"


def test_valid_move_below_the_top_is_paid_its_own_score():
    # MOTS (H7, S on H10) = 2 + 1 + 1 + 1 = 5, below the top TAXE 14.
    assert_grade(fisf(position("AXEIRSU"), "H7 MOTS 5", top=14), 5, Sanction.NONE)


# -- FISF: zeros and the order of their reasons ---------------------------------------


def test_missing_slip_scores_zero():
    result = checked(grade(position("AXEIRSU"), None, Mode.FISF))
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.MISSING)


def test_late_slip_scores_zero_even_when_correct():
    result = fisf(position("AXEIRSU"), "9H TAXE 14", late=True)
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.LATE)


def test_late_is_reported_before_a_word_not_in_the_lexicon():
    result = fisf(position("AXEIRSU"), "A1 ZZZ 12", late=True)
    assert result.reason is ZeroReason.LATE


def test_word_not_in_the_lexicon_scores_zero_before_any_place_reason():
    # XAT at A1 would also be unconnected and use a T the rack lacks.
    result = fisf(position("AXEIRSU"), "A1 XAT 12")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.WORD)
    assert result.message.text("fr") == "0 — le mot XAT n'est pas dans le dictionnaire."


def test_invalid_cross_word_scores_zero_and_names_it():
    # AN on G8-G9 sits on O and T: AO and NT down.
    result = fisf(position("ANEIRSU"), "G8 AN 4")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.CROSSWORD)
    assert "AO (8G)" in result.message.text("fr")


def test_cross_word_reason_comes_before_letters_not_in_the_rack():
    result = fisf(position("AEIRSUL"), "G8 AN 4")
    assert result.reason is ZeroReason.CROSSWORD


def test_letters_not_in_the_rack_score_zero():
    result = fisf(position("AEIRSUL"), "9H TAXE 14")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.RACK)
    assert result.message.text("fr") == "0 — lettres absentes du tirage : X."


def test_letters_not_in_the_rack_come_before_a_place_that_touches_nothing():
    result = fisf(position("AEIRSUL"), "A1 TAXE 14")
    assert result.reason is ZeroReason.RACK


def test_move_that_cannot_be_placed_scores_zero_and_says_why():
    result = fisf(position("TAXEIRS"), "A1 TAXE 40")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.PLACE)
    assert result.detail.code == "move_not_connected"


def test_lower_case_letter_the_rack_lacks_with_no_blank_is_letters_not_in_the_rack():
    result = fisf(position("AEIRSUL"), "9H TAxE 4")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.RACK)


def test_claim_above_the_top_scores_zero():
    result = fisf(position("AXEIRSU"), "9H TAXE 20", top=14)
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.ABOVE_TOP)


def test_top_defaults_to_the_best_move_of_the_position():
    # With this lexicon the top of AXEIRSU is 9H TAXE 14.
    result = fisf(position("AXEIRSU"), "9H TAXE 15")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.ABOVE_TOP)


def test_claim_above_the_top_leaves_an_earlier_zero_reason_in_place():
    result = fisf(position("AEIRSUL"), "9H TAXE 90", top=14)
    assert result.reason is ZeroReason.RACK


# -- FISF: score and reference faults -----------------------------------------------


def test_correct_place_with_wrong_score_is_paid_the_true_score_with_a_warning():
    result = fisf(position("AXEIRSU"), "9H TAXE 12")
    assert_grade(result, 14, Sanction.WARNING, warning=WarningKind.SCORE)
    assert result.message.text("fr").startswith("14 — avertissement : score annoncé 12")


def test_correct_place_without_score_is_paid_the_true_score_with_a_warning():
    assert_grade(fisf(position("AXEIRSU"), "9H TAXE"), 14, Sanction.WARNING, warning=WarningKind.SCORE)


def test_wrong_reference_with_the_right_score_pays_five_points_less():
    result = fisf(position("AXEIRSU"), "9G TAXE 14")
    assert_grade(result, 9, Sanction.PENALTY)
    assert str(result.play.ref) == "9H"
    assert result.message.text("fr").startswith("9 — pénalité de 5 points : référence erronée")


def test_missing_reference_with_the_right_score_pays_five_points_less():
    assert_grade(fisf(position("AXEIRSU"), "TAXE 14"), 9, Sanction.PENALTY)
    assert_grade(fisf(position("AXEIRSU"), "- TAXE 14"), 9, Sanction.PENALTY)


def test_wrong_reference_on_a_move_claimed_at_four_or_less_scores_zero():
    # 9H TAxE with the blank as X = 1 + 2 + 0 + 1 = 4.
    result = fisf(position("AE?IRSU"), "9G TAxE 4")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.PLACE)


def test_wrong_reference_on_a_move_claimed_at_five_pays_nothing_but_is_a_penalty():
    assert_grade(fisf(position("AXEIRSU"), "A1 MOTS 5"), 0, Sanction.PENALTY)


def test_wrong_reference_and_a_score_of_no_placement_score_zero():
    result = fisf(position("AXEIRSU"), "9G TAXE 13")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.PLACE)
    assert result.message.code == "grade_zero_no_solution"


def test_missing_reference_and_missing_score_score_zero():
    assert_grade(fisf(position("AXEIRSU"), "TAXE"), 0, Sanction.ZERO, ZeroReason.PLACE)


def test_right_first_cell_in_the_wrong_orientation_is_a_reversed_reference_warning():
    result = fisf(position("AXEIRSU"), "H9 TAXE 14")
    assert_grade(result, 14, Sanction.WARNING, warning=WarningKind.REFERENCE)
    assert "H9 au lieu de 9H" in result.message.text("fr")


def test_word_that_fits_both_ways_is_taken_as_written():
    # MOTS down from H7: 2 + O1x2 (DL I7) + 1 + 1 = 6; across from H7 it is 5.
    pos = position("OTSAEIR")
    assert_grade(fisf(pos, "7H MOTS 6"), 6, Sanction.NONE)
    assert_grade(fisf(pos, "H7 MOTS 5"), 5, Sanction.NONE)


def test_transposed_cell_is_a_wrong_place_not_a_reversed_reference():
    # 9H transposed is I8 (8I down): another cell, where TAXE would read OTAXE.
    assert_grade(fisf(position("AXEIRSU"), "8I TAXE 14"), 9, Sanction.PENALTY)
    assert_grade(fisf(position("AXEIRSU"), "I8 TAXE 14"), 9, Sanction.PENALTY)


# -- FISF: blanks --------------------------------------------------------------------


def test_correctly_marked_blank_is_paid_without_warning():
    assert_grade(fisf(position("AE?IRSU"), "9H TAxE 4"), 4, Sanction.NONE)


def test_unmarked_letter_the_rack_lacks_is_read_as_the_blank_with_a_warning():
    result = fisf(position("AE?IRSU"), "9H TAXE 4")
    assert_grade(result, 4, Sanction.WARNING, warning=WarningKind.BLANK)
    assert result.play.word == "TAxE"
    assert "joker non indiqué" in result.message.text("fr")


def test_unmarked_letter_the_rack_holds_stays_a_real_tile_beside_a_blank():
    result = fisf(position("AXE?IRS"), "9H TAXE 14")
    assert_grade(result, 14, Sanction.NONE)
    assert result.play.blanks == 0


def test_blank_marked_on_the_wrong_letter_is_paid_with_the_blank_where_it_must_be():
    result = fisf(position("AE?IRSU"), "9H TaXE 4")
    assert_grade(result, 4, Sanction.WARNING, warning=WarningKind.BLANK)
    assert result.play.word == "TAxE"
    assert "joker mal indiqué" in result.message.text("fr")


def test_lower_case_letter_without_a_blank_in_the_rack_is_a_wrong_marking_warning():
    result = fisf(position("AXEIRSU"), "9H TAxE 14")
    assert_grade(result, 14, Sanction.WARNING, warning=WarningKind.BLANK)
    assert result.play.blanks == 0


def test_letters_already_on_the_board_may_be_typed_in_either_case():
    assert_grade(fisf(position("AXEIRSU"), "9H tAXE 14"), 14, Sanction.NONE)


def test_blank_on_a_board_letter_keeps_its_place_whatever_the_case_typed():
    board = Board()
    apply(board, evaluate(board, LEX, parse_ref("H7"), [13, 15 | BLANK_FLAG, 20]))
    # The O on H8 is a blank: 9H TAXE is unchanged, and MOTS across = 2 + 0 + 1 + 1 = 4.
    assert_grade(fisf(position("AXEIRSU", board), "H7 MOTS 4"), 4, Sanction.NONE)
    assert_grade(fisf(position("AXEIRSU", board), "H7 MoTS 4"), 4, Sanction.NONE)


def test_unmarked_blank_that_could_be_either_of_two_letters_is_paid_the_better_reading():
    # TETE down from H9 with one E and a blank: the blank on I9 (DL) gives 1+0+1+1 = 3,
    # on K9 gives 1+2+1+0 = 4.
    result = fisf(position("ET?ARSU"), "9H TETE 3")
    assert_grade(result, 4, Sanction.WARNING, warning=WarningKind.BLANK)
    assert result.play.word == "TETe"


def test_marked_blank_among_two_equal_letters_is_taken_as_marked():
    assert_grade(fisf(position("ET?ARSU"), "9H TeTE 3"), 3, Sanction.NONE)


# -- FISF: one warning at most -------------------------------------------------------


def test_several_faults_earn_a_single_warning_reference_first():
    result = fisf(position("AE?IRSU"), "H9 TAXE 3")
    assert_grade(result, 4, Sanction.WARNING, warning=WarningKind.REFERENCE)


def test_blank_fault_is_the_warning_given_when_the_score_is_also_wrong():
    result = fisf(position("AE?IRSU"), "9H TAXE 3")
    assert_grade(result, 4, Sanction.WARNING, warning=WarningKind.BLANK)


def test_unmarked_blank_claimed_at_the_real_letter_value_above_the_top_scores_zero():
    # The top of AE?IRSU is H7 MOTS 5; TAXE counted with a real X claims 14.
    result = fisf(position("AE?IRSU"), "9H TAXE 14")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.ABOVE_TOP)


def test_penalty_carries_no_warning_for_a_wrong_blank_marking():
    result = fisf(position("AXEIRSU"), "9G TAxE 14")
    assert_grade(result, 9, Sanction.PENALTY)


def test_zero_carries_no_warning():
    result = fisf(position("AXEIRSU"), "9H TAXE 40", top=14)
    assert result.warning_kind is None and result.sanction is Sanction.ZERO


# -- FISF: round 1 -------------------------------------------------------------------


def test_first_round_ignores_the_reference_and_pays_the_best_place():
    # RELAX from H8: (1+1+1+1 + X10x2 on the DL H12) x2 = 48; from H4 it is only 30.
    for slip in ("H8 RELAX 48", "RELAX 48", "A1 RELAX 48", "8H RELAX 48"):
        result = fisf(first_round("RELAXIO"), slip)
        assert_grade(result, 48, Sanction.NONE)
        assert str(result.play.ref) == "H8"


def test_first_round_claim_below_the_best_score_is_a_warning():
    result = fisf(first_round("RELAXIO"), "H4 RELAX 30")
    assert_grade(result, 48, Sanction.WARNING, warning=WarningKind.SCORE)


def test_first_round_word_without_its_letters_scores_zero_for_the_rack():
    assert_grade(fisf(first_round("RELAIOU"), "RELAX 48"), 0, Sanction.ZERO, ZeroReason.RACK)


def test_first_round_forced_blank_goes_where_the_word_scores_best():
    # RELAx: from H4 (R on the DL) (2+1+1+1+0) x2 = 10; from H8 only 8.
    result = fisf(first_round("RELA?IO"), "RELAX 10")
    assert_grade(result, 10, Sanction.WARNING, warning=WarningKind.BLANK)
    assert str(result.play) == "H4 RELAx 10"


def test_first_round_blank_marked_on_a_letter_the_rack_holds_is_kept_as_played():
    # rELAX from H8: (0 + 1 + 1 + 1 + X10x2) x2 = 46, not the 48 of real tiles.
    assert_grade(fisf(first_round("RELAX?O"), "rELAX 46"), 46, Sanction.NONE)


# -- computed grading ------------------------------------------------------------------


def test_computed_pays_the_computed_score_whatever_is_claimed():
    pos = position("AXEIRSU")
    assert_grade(computed(pos, "9H TAXE"), 14, Sanction.NONE)
    assert_grade(computed(pos, "9H TAXE 12"), 14, Sanction.NONE)
    assert_grade(computed(pos, "9H TAXE 99", top=14), 14, Sanction.NONE)


def test_computed_wrong_place_scores_zero_even_with_the_right_score():
    assert_grade(computed(position("AXEIRSU"), "9G TAXE 14"), 0, Sanction.ZERO, ZeroReason.PLACE)


def test_computed_missing_reference_scores_zero():
    result = computed(position("AXEIRSU"), "TAXE 14")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.PLACE)
    assert result.message.code == "grade_zero_no_ref"


def test_computed_reversed_reference_is_paid_without_warning():
    assert_grade(computed(position("AXEIRSU"), "H9 TAXE"), 14, Sanction.NONE)


def test_computed_forced_blank_is_read_without_warning():
    result = computed(position("AE?IRSU"), "9H TAXE")
    assert_grade(result, 4, Sanction.NONE)
    assert result.play.word == "TAxE"


def test_computed_wrong_blank_marking_is_paid_without_warning():
    assert_grade(computed(position("AXEIRSU"), "9H TAxE"), 14, Sanction.NONE)


def test_computed_first_round_pays_the_best_place_without_reference():
    assert_grade(computed(first_round("RELAXIO"), "RELAX"), 48, Sanction.NONE)


def test_computed_zero_reasons_follow_the_same_order():
    pos = position("AEIRSUL")
    assert computed(pos, "9H TAXE").reason is ZeroReason.RACK
    assert computed(pos, "G8 AN").reason is ZeroReason.CROSSWORD
    assert computed(pos, "9H TAXE", late=True).reason is ZeroReason.LATE
    assert computed(pos, "9H XAT").reason is ZeroReason.WORD


# -- typed text -----------------------------------------------------------------------


def test_slip_text_is_graded_like_the_parsed_slip():
    pos = position("AE?IRSU")
    slip = parse_slip("H9 TAXE 14")
    assert grade_text(pos, "H9 TAXE 14", Mode.FISF) == grade(pos, slip, Mode.FISF)


def test_unreadable_word_scores_zero_for_the_word():
    result = fisf(position("AXEIRSU"), "9H TA3E 14")
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.WORD)
    assert result.detail.code == "word_char"


@pytest.mark.parametrize("text", ["Z99 TAXE 14", "9H TAXE 1 4", "", "   ", "x" * 300])
def test_unreadable_slip_scores_zero_for_the_place(text):
    result = fisf(position("AXEIRSU"), text)
    assert_grade(result, 0, Sanction.ZERO, ZeroReason.PLACE)
    assert result.detail is not None


def test_unreadable_late_slip_is_late():
    assert fisf(position("AXEIRSU"), "??", late=True).reason is ZeroReason.LATE


_SLIPLIKE = st.text(alphabet="HIG789 TAXEtaxeMOS?-1234", max_size=20)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=40), _SLIPLIKE), mode=st.sampled_from(Mode))
def test_any_text_gets_a_grade_never_an_exception(text, mode):
    result = checked(grade_text(position("AE?IRSU"), text, mode, top=5))
    assert result.paid >= 0
    assert (result.sanction is Sanction.ZERO) == (result.reason is not None)
    assert result.warning_kind is None or result.sanction is Sanction.WARNING


# -- end of the game ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("warnings", "threshold", "expected"),
    [(0, 3, 0), (3, 3, 0), (4, 3, 5), (7, 3, 20), (6, 5, 5), (5, 5, 0)],
)
def test_end_penalty_is_five_points_per_warning_beyond_the_threshold(warnings, threshold, expected):
    assert end_penalty(warnings, threshold) == expected


def test_end_penalty_value_is_a_setting():
    assert end_penalty(5, 3, 10) == 20


# -- held-out slips on the reference games ---------------------------------------------


def _reference_position(game: str, number: int, lexicon) -> Position:
    rounds = json.loads((REFERENCE_GAMES / game).read_text())["rounds"]
    board = Board()
    for entry in rounds[: number - 1]:
        typed = parse_word(entry["word"])
        tiles = [c | BLANK_FLAG if low else c for c, low in zip(typed.letters, typed.lower, strict=True)]
        apply(board, evaluate(board, lexicon, parse_ref(entry["ref"]), tiles))
    return Position(board, rack_tiles(rounds[number - 1]["rack"]), lexicon, first_move=number == 1)


def test_held_out_slips_are_graded_as_worked_out_by_hand(french):
    cases = json.loads(GRADED_SLIPS.read_text())
    assert len(cases) >= 30
    wrong = []
    for case in cases:
        pos = _reference_position(case["game"], case["round"], french)
        mode = Mode(case["mode"])
        late = case.get("late", False)
        if case["slip"] is None:
            result = grade(pos, None, mode, late=late)
        else:
            result = grade_text(pos, case["slip"], mode, late=late)
        checked(result)
        got = {
            "paid": result.paid,
            "sanction": result.sanction.value,
            "reason": result.reason.value if result.reason else None,
            "warning": result.warning_kind.value if result.warning_kind else None,
        }
        expected = {key: case[key] for key in got}
        if got != expected:
            wrong.append(f"{case['game']} round {case['round']} {case['slip']!r} ({case['why']}): {got}")
    assert not wrong, "\n".join(wrong)
