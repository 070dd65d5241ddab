"""The independent scorer: placing one move, its problems and its score (rules §1.3, §2)."""

from __future__ import annotations

import json

import pytest

from engine.alphabet import BLANK_FLAG
from engine.board import Board
from engine.notation import parse_ref, parse_word, rack_tiles
from engine.play import Play
from engine.scoring import Illegal, Reason, apply, evaluate, word_placements
from tests.conftest import REFERENCE_GAMES
from tests.helpers import tiny


def tiles_of(text: str) -> list[int]:
    """Board tiles of a typed word: lower case is a blank."""
    typed = parse_word(text)
    return [c | BLANK_FLAG if low else c for c, low in zip(typed.letters, typed.lower, strict=True)]


def board_with(*words: tuple[str, str]) -> Board:
    """A board holding the given (reference, word) pairs, written straight into the cells."""
    board = Board()
    for ref_text, text in words:
        ref = parse_ref(ref_text)
        step = 1 if ref.horizontal else 15
        for i, tile in enumerate(tiles_of(text) if len(text) > 1 else _single(text)):
            board.cells[ref.square + i * step] = tile
    return board


def _single(ch: str) -> list[int]:
    code = ord(ch.upper()) - 64
    return [code | BLANK_FLAG if ch.islower() else code]


def score_of(board, lexicon, ref, text, rack=None) -> Play | Illegal:
    racked = rack_tiles(rack) if rack is not None else None
    tiles = tiles_of(text) if len(text) > 1 else _single(text)
    return evaluate(board, lexicon, parse_ref(ref), tiles, racked)


def legal(result) -> Play:
    assert isinstance(result, Play), [p.message.text("en") for p in result.problems]
    return result


def illegal(result) -> Illegal:
    assert isinstance(result, Illegal), f"expected a problem, got {result}"
    return result


# -- scoring -----------------------------------------------------------------


def test_first_move_through_center_is_doubled():
    play = legal(score_of(Board(), tiny("MOT"), "H7", "MOT"))
    # (M2 + O1 + T1) x2 for the star H8 = 8
    assert play.score == 8
    assert play.word == "MOT"
    assert play.tiles == ((111, 13), (112, 15), (113, 20))


def test_letter_premium_applies_before_word_premium():
    play = legal(score_of(Board(), tiny("ZESTE"), "H4", "ZESTE"))
    # (Z10 x2 on the DL H4 + E1 + S1 + T1 + E1) x2 for H8 = 24 x2 = 48
    assert play.score == 48


def test_triple_letter_counts_for_a_new_tile():
    board = board_with(("G10", "A"))
    play = legal(score_of(board, tiny("BAS"), "10F", "BAS"))
    # B3 x3 on the TL F10 + A1 (already there) + S1 = 11
    assert play.score == 11
    assert play.tiles == ((5 * 15 + 9, 2), (7 * 15 + 9, 19))


def test_premium_already_covered_does_not_count():
    board = board_with(("F10", "B"))
    play = legal(score_of(board, tiny("BAS"), "10F", "BAS"))
    # B3 on the TL F10 covered earlier + A1 + S1 = 5
    assert play.score == 5


def test_two_double_words_multiply_by_four():
    board = board_with(("E8", "E"))
    play = legal(score_of(board, tiny("BATEAUX"), "E5", "BATEAUX"))
    # DW E5 and E11: (B3 + A1 + T1 + E1 + A1 + U1 + X10) x4 = 18 x4 = 72, six new tiles so no bonus
    assert play.score == 72


def test_two_triple_words_multiply_by_nine():
    board = board_with(("A4", "TT"))
    play = legal(score_of(board, tiny("ABATTAGE"), "A1", "ABATTAGE"))
    # TW A1 and A8: (A1 + B3 + A1 + T1 + T1 + A1 + G2 + E1) x9 = 11 x9 = 99
    assert play.score == 99


def test_new_tile_letter_premium_counts_in_main_and_cross_word():
    board = board_with(("E6", "E"))
    play = legal(score_of(board, tiny("AX", "EX"), "F5", "AX"))
    # main AX: A1 + X10 x3 on the TL F6 = 31; cross EX (6E): E1 + X10 x3 = 31; total 62
    assert play.score == 62


def test_new_tile_word_premium_counts_in_main_and_cross_word():
    board = board_with(("D5", "O"))
    play = legal(score_of(board, tiny("NU", "ON"), "E5", "NU"))
    # main NU: (N1 + U1) x2 for the DW E5 = 4; cross ON (5D): (O1 + N1) x2 = 4; total 8
    assert play.score == 8


def test_blank_on_double_word_is_worth_zero_but_still_doubles():
    play = legal(score_of(Board(), tiny("MOT"), "H7", "MoT"))
    # (M2 + blank 0 + T1) x2 for H8 = 6
    assert play.score == 6
    assert play.word == "MoT"
    assert play.blanks == 1


def test_blank_already_on_board_is_worth_zero():
    board = board_with(("H8", "As"))
    lexicon = tiny("ASE")
    # A1 + blank s 0 + E1 = 2; the DW H8 was covered earlier
    for typed in ("ASE", "AsE", "aSE"):
        play = legal(score_of(board, lexicon, "H8", typed))
        assert (play.score, play.word) == (2, "AsE")


def test_seven_new_tiles_earn_the_fifty_point_bonus():
    play = legal(score_of(Board(), tiny("BATEAUX"), "H2", "BATEAUX"))
    # (B3 + A1 + T1 x2 on the DL H4 + E1 + A1 + U1 + X10) x2 for H8 = 19 x2 = 38, + 50 = 88
    assert play.score == 88


def test_one_tile_move_scores_its_cross_word_alone():
    board = board_with(("H8", "O"))
    play = legal(score_of(board, tiny("DO"), "G8", "D"))
    # the one-letter main word counts nothing; cross DO (8G): D2 + O1 = 3
    assert play.score == 3
    assert play.tiles == ((6 * 15 + 7, 4),)


def test_apply_puts_the_new_tiles_on_the_board():
    board = board_with(("H8", "O"))
    play = legal(score_of(board, tiny("MOT"), "H7", "MOt"))
    apply(board, play)
    assert board == board_with(("H7", "MOt"))


# -- problems -----------------------------------------------------------------


def test_word_running_off_the_board_is_reported():
    result = illegal(score_of(Board(), tiny("MOTS"), "H13", "MOTS"))
    assert result.reasons == {Reason.OFF_BOARD}
    assert result.problems[0].message.text("fr") == "Le mot sort de la grille."


def test_letter_differing_from_the_board_is_reported_with_both_letters():
    board = board_with(("H5", "A"))
    result = illegal(score_of(board, tiny("MER"), "H4", "MER"))
    assert result.reasons == {Reason.CONTRADICTS_BOARD}
    assert result.problems[0].message.text("fr") == "En H5 la grille porte un A, pas un E."


def test_word_that_reads_longer_on_the_board_is_not_whole():
    board = board_with(("H7", "MOT"))
    result = illegal(score_of(board, tiny("MOT", "SE"), "H10", "SE"))
    assert result.reasons == {Reason.NOT_WHOLE_WORD}
    assert result.problems[0].message.text("fr") == (
        "La case H9 est occupée : sur la grille le mot se lirait MOTSE."
    )


def test_move_placing_no_tile_is_reported():
    board = board_with(("H7", "MOT"))
    result = illegal(score_of(board, tiny("MOT"), "H7", "MOT"))
    assert result.reasons == {Reason.NO_NEW_TILE}


def test_first_move_off_the_center_is_reported():
    result = illegal(score_of(Board(), tiny("MOT"), "A1", "MOT"))
    assert result.reasons == {Reason.FIRST_NOT_ON_CENTER}
    assert result.problems[0].message.text("fr") == "Le premier coup doit passer par la case centrale H8."


def test_vertical_first_move_is_not_the_scorers_business():
    play = legal(score_of(Board(), tiny("MOT"), "8G", "MOT"))
    # G8 and I8 are plain: (M2 + O1 + T1) x2 for H8 = 8
    assert play.score == 8


def test_move_touching_nothing_is_reported():
    board = board_with(("H7", "MOT"))
    result = illegal(score_of(board, tiny("MOT"), "A1", "MOT"))
    assert result.reasons == {Reason.NOT_CONNECTED}
    assert result.problems[0].message.text("fr") == "Le mot ne touche aucune lettre déjà posée."


def test_letters_missing_from_the_rack_are_named():
    result = illegal(score_of(Board(), tiny("MOT"), "H7", "MOT", rack="MAEIRSU"))
    assert result.reasons == {Reason.NOT_IN_RACK}
    assert result.problems[0].message.text("fr") == "Lettres absentes du tirage : O, T."


def test_a_real_letter_is_not_taken_from_a_blank():
    result = illegal(score_of(Board(), tiny("MOT"), "H7", "MOT", rack="MT?"))
    assert result.problems[0].message.params["letters"] == "O"


def test_a_blank_marked_letter_needs_a_blank():
    result = illegal(score_of(Board(), tiny("MOT"), "H7", "MoT", rack="MOTAEIR"))
    assert result.reasons == {Reason.NOT_IN_RACK}
    assert result.problems[0].message.params["letters"] == "?"


def test_letters_already_on_the_board_are_not_taken_from_the_rack():
    board = board_with(("H8", "O"))
    play = legal(score_of(board, tiny("MOT"), "H7", "MOT", rack="MT"))
    # M2 + O1 + T1 = 4, the star already covered
    assert play.score == 4


def test_main_word_missing_from_the_lexicon_is_named():
    result = illegal(score_of(Board(), tiny("MOT"), "H3", "BIDULE"))
    assert result.reasons == {Reason.WORD_NOT_IN_LEXICON}
    assert result.problems[0].message.text("fr") == "Le mot BIDULE n'est pas dans le dictionnaire."


def test_cross_word_missing_from_the_lexicon_is_named():
    board = board_with(("E6", "E"))
    result = illegal(score_of(board, tiny("AX"), "F5", "AX"))
    assert result.reasons == {Reason.CROSSWORD_NOT_IN_LEXICON}
    assert result.problems[0].message.text("fr") == "Le mot croisé EX (6E) n'est pas dans le dictionnaire."
    assert result.problems[0].message.text("en") == "The cross word EX (6E) is not in the dictionary."


def test_one_letter_alone_forms_no_word():
    result = illegal(score_of(Board(), tiny("MOT"), "H8", "A"))
    assert result.reasons == {Reason.NO_WORD}


def test_several_problems_are_reported_together():
    board = board_with(("H7", "MOT"))
    result = illegal(score_of(board, tiny("MOT"), "A1", "ZZZ", rack="MOTSAEI"))
    assert result.reasons == {Reason.NOT_CONNECTED, Reason.NOT_IN_RACK, Reason.WORD_NOT_IN_LEXICON}
    missing = next(p for p in result.problems if p.reason is Reason.NOT_IN_RACK)
    assert missing.message.params["letters"] == "Z, Z, Z"


def test_word_off_the_board_is_still_looked_up():
    result = illegal(score_of(Board(), tiny("MOT"), "H15", "ZZ"))
    assert result.reasons == {Reason.OFF_BOARD, Reason.WORD_NOT_IN_LEXICON}


def test_first_picks_the_problem_by_the_callers_priority():
    board = board_with(("H7", "MOT"))
    result = illegal(score_of(board, tiny("MOT"), "A1", "ZZZ", rack="MOTSAEI"))
    assert result.first([Reason.WORD_NOT_IN_LEXICON, Reason.NOT_IN_RACK]).reason is Reason.WORD_NOT_IN_LEXICON
    assert result.first([Reason.NOT_IN_RACK, Reason.WORD_NOT_IN_LEXICON]).reason is Reason.NOT_IN_RACK
    # Reasons the order leaves out come after, in the order they were reported.
    assert result.first([Reason.OFF_BOARD]).reason is Reason.NOT_CONNECTED


def test_tile_codes_outside_the_alphabet_are_refused():
    with pytest.raises(ValueError):
        evaluate(Board(), tiny("MOT"), parse_ref("H8"), [13, 27])


# -- word_placements ------------------------------------------------------------


def test_first_move_placements_try_each_horizontal_ref_and_each_blank_choice():
    plays = word_placements(Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("MOT?"), first_move=True)
    # H6, H7, H8, each: no blank (2+1+1)x2 = 8, blank M (0+1+1)x2 = 4, blank O or T (2+0+1)x2 = 6
    assert len(plays) == 12
    assert {str(p.ref) for p in plays} == {"H6", "H7", "H8"}
    assert {p.word for p in plays} == {"MOT", "mOT", "MoT", "MOt"}
    assert sorted(p.score for p in plays) == [4] * 3 + [6] * 6 + [8] * 3


@pytest.mark.parametrize("word", ["MOT", "MOTS", "ZA", "ABRICOTS", "DEMONTRASSIEZ"])
def test_first_move_placements_on_the_empty_board_are_those_of_every_horizontal_ref(word):
    """Only the references covering H8 are tried on the empty board: the same placements as trying
    every horizontal reference and keeping the legal ones."""
    lexicon = tiny(word)
    rack = rack_tiles("??" + word[:5])
    found = word_placements(Board(), lexicon, tiles_of(word), rack, first_move=True)
    every = [ref for ref in (parse_ref(f"{chr(65 + r)}{c + 1}") for r in range(15) for c in range(15))]
    assert found == word_placements(Board(), lexicon, tiles_of(word), rack, first_move=True, refs=every)
    assert (len(word) > 7) == (found == [])


def test_later_placements_try_both_directions():
    plays = word_placements(Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("MOT"))
    assert {str(p.ref) for p in plays} == {"H6", "H7", "H8", "8F", "8G", "8H"}


def test_blank_stands_for_a_letter_missing_from_the_rack():
    plays = word_placements(Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("MT?"), first_move=True)
    # (M2 + blank 0 + T1) x2 = 6 from each of H6, H7, H8
    assert [(p.word, p.score) for p in plays] == [("MoT", 6)] * 3


def test_two_blanks_can_both_be_forced():
    plays = word_placements(Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("M??"), first_move=True)
    # (M2 + 0 + 0) x2 = 4
    assert [(p.word, p.score) for p in plays] == [("Mot", 4)] * 3


def test_placements_through_the_board_use_its_letters():
    board = board_with(("H7", "MOT"))
    plays = word_placements(board, tiny("MOT", "MOTS"), tiles_of("MOTS"), rack_tiles("S?"))
    # M2 + O1 + T1 + S1 = 5 with the real S, 4 with a blank
    assert sorted((p.score, p.word, str(p.ref)) for p in plays) == [(4, "MOTs", "H7"), (5, "MOTS", "H7")]


def test_placements_whose_cross_word_is_not_a_word_are_left_out():
    board = board_with(("H8", "O"), ("G9", "A"))
    # H7 NOS forms AS (9G) below the A; 8G NOS forms NA (G8) beside it, which is no word here.
    plays = word_placements(board, tiny("NOS", "AS"), tiles_of("NOS"), rack_tiles("NS"))
    # main N1 + O1 + S1 = 3, cross A1 + S1 = 2; total 5
    assert [(str(p.ref), p.score) for p in plays] == [("H7", 5)]


def test_word_not_in_the_lexicon_has_no_placement():
    assert word_placements(Board(), tiny("MOT"), tiles_of("MIT"), rack_tiles("MIT")) == []


def test_placements_at_given_references_are_those_the_whole_search_finds_there():
    board = board_with(("H7", "MOT"))
    lexicon = tiny("MOT", "MOTS", "OS", "SOT")
    for word, rack, first in (("MOTS", "S?", False), ("SOT", "ST?", False), ("MOT", "MOT?", True)):
        everywhere = word_placements(
            board if not first else Board(), lexicon, tiles_of(word), rack_tiles(rack), first_move=first
        )
        assert everywhere
        for ref in {p.ref for p in everywhere} | {parse_ref("A1"), parse_ref("8H"), parse_ref("O15")}:
            at_ref = word_placements(
                board if not first else Board(),
                lexicon,
                tiles_of(word),
                rack_tiles(rack),
                first_move=first,
                refs=[ref],
            )
            assert at_ref == [p for p in everywhere if p.ref == ref]


def test_a_first_move_is_never_found_at_a_vertical_reference_even_when_asked():
    asked = word_placements(
        Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("MOT"), first_move=True, refs=[parse_ref("8H")]
    )
    assert asked == []
    assert word_placements(Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("MOT"), refs=[parse_ref("8H")])


def test_racks_with_more_blanks_than_the_set_are_refused():
    with pytest.raises(ValueError):
        word_placements(Board(), tiny("MOT"), tiles_of("MOT"), rack_tiles("???"))


# -- reference games -------------------------------------------------------------


def _reference_games():
    paths = sorted(REFERENCE_GAMES.glob("game-*.json"))
    assert paths, f"no reference games in {REFERENCE_GAMES}"
    return [(path.name, json.loads(path.read_text())["rounds"]) for path in paths]


def test_reference_games_replay_with_their_recorded_scores(french):
    replayed = 0
    for name, rounds in _reference_games():
        board = Board()
        for number, entry in enumerate(rounds, 1):
            where = f"{name} round {number} {entry['ref']} {entry['word']}"
            result = evaluate(
                board, french, parse_ref(entry["ref"]), tiles_of(entry["word"]), rack_tiles(entry["rack"])
            )
            play = legal(result)
            assert play.score == entry["score"], where
            assert play.word == entry["word"], where
            apply(board, play)
            replayed += 1
    assert replayed > 400


def test_reference_first_tops_are_the_best_their_word_can_make(french):
    for name, rounds in _reference_games():
        first = rounds[0]
        letters = parse_word(first["word"]).letters
        plays = word_placements(Board(), french, letters, rack_tiles(first["rack"]), first_move=True)
        assert max(p.score for p in plays) == first["score"], name
