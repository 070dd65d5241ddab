"""Games in Spanish, Catalan and English, made and checked here: the search against the scorer and a
brute force, golden positions with tiles of two letters, records of version 2."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import record, scoring
from engine.alphabet import BLANK, BLANK_FLAG, LETTER_MASK
from engine.board import SIZE, Board
from engine.cli import play_game
from engine.draw import Bag, draw_rack, remaining_after
from engine.grading import Mode, grade_text
from engine.lettersets import CATALAN, ENGLISH, SPANISH
from engine.lexicon import Lexicon
from engine.movegen import Position, all_plays, find_best, find_tops
from engine.notation import parse_board, parse_rack
from tests.engine import languages

CODES = ("es", "ca", "en")


@pytest.fixture(scope="module", params=CODES)
def game(request):
    """A whole game played by the rules with the test's word list: (lexicon, record, replayed)."""
    lexicon = languages.lexicon(request.param)
    played = play_game(7, lexicon)
    return lexicon, played, record.check(played, lexicon)


def _positions(lexicon: Lexicon, replayed: record.ReplayedGame):
    board = Board()
    for number, (r, play) in enumerate(zip(replayed.record.rounds, replayed.plays), 1):
        yield number, Position(board.copy(), r.rack.tiles, lexicon, first_move=number == 1)
        scoring.apply(board, play)


def _word_tiles(board: Board, play) -> list[int]:
    """The main word's tiles read on the board once the play is made (its text may be longer)."""
    new = dict(play.tiles)
    step = 1 if play.ref.horizontal else SIZE
    tiles, sq = [], play.ref.square
    while True:
        tile = new.get(sq) or board.cells[sq]
        if not tile:
            break
        tiles.append(tile)
        row, col = divmod(sq, SIZE)
        if (col if play.ref.horizontal else row) == SIZE - 1:
            break
        sq += step
    return tiles


def test_a_game_in_each_language_is_played_to_its_end_and_replays(game):
    lexicon, played, replayed = game
    assert len(played.rounds) >= 15
    assert played.letters is lexicon.letters
    assert sum(p.score for p in replayed.plays) == played.total


def test_the_scorer_agrees_with_the_generator_on_every_move_of_every_round(game):
    lexicon, _played, replayed = game
    checked = 0
    for _number, position in _positions(lexicon, replayed):
        plays = all_plays(position)
        for play in plays:
            tiles = _word_tiles(position.board, play)
            result = scoring.evaluate(position.board, lexicon, play.ref, tiles, position.rack)
            assert not isinstance(result, scoring.Illegal), (play, result)
            assert (result.key, result.score, result.word) == (play.key, play.score, play.word)
            checked += 1
        tops = find_tops(position)
        best = max((p.score for p in plays), default=0)
        assert tops.score == best
        assert {p.key for p in tops.plays} == {p.key for p in plays if p.score == best}
    assert checked > 1000


def test_the_top_search_agrees_with_a_brute_force_of_the_scorer_alone(game):
    """Each word of a small list tried everywhere by ``word_placements``: no move generator."""
    lexicon, _played, replayed = game
    letters = lexicon.letters
    words = [letters.spell(w) for w in languages.word_list(letters.code)]
    for number, position in _positions(lexicon, replayed):
        if number > 6:
            break
        found = {}
        for word in _makeable(words, position):
            for play in scoring.word_placements(
                position.board, lexicon, word, position.rack, first_move=position.is_first_move
            ):
                found[play.key] = play.score
        best = max(found.values(), default=0)
        tops = find_tops(position)
        assert tops.score == best
        assert {p.key for p in tops.plays} == {k for k, v in found.items() if v == best}


def _makeable(words, position: Position):
    """The words whose tiles the rack and the board hold at all (a blank for any one missing): the
    others cannot be placed, and trying them would only slow the brute force."""
    have = Counter(t & LETTER_MASK for t in position.board.cells if t) + Counter(position.rack)
    blanks = have.pop(BLANK, 0)
    return [w for w in words if (Counter(w) - have).total() <= blanks]


def test_the_best_placements_agree_with_the_exhaustive_generator(game):
    lexicon, _played, replayed = game
    for number, position in _positions(lexicon, replayed):
        if number % 5:
            continue
        listed = find_best(position, 8)
        scores = sorted((p.score for p in all_plays(position)), reverse=True)
        assert [p.score for p in listed][:8] == scores[: len(listed)][:8]


def test_a_record_of_version_2_writes_its_set_and_reads_back_the_same(game):
    lexicon, played, _replayed = game
    text = record.dumps(played)
    data = json.loads(text)
    assert data["format"] == "duplicate-game/2" and data["letters"] == lexicon.letters.code
    again = record.parse(text)
    assert again == played
    assert record.dumps(again) == text
    record.check(again, lexicon)


def test_a_word_without_brackets_is_read_by_the_spelling_rule_but_a_rack_never():
    lexicon = languages.lexicon("es")
    played = play_game(11, lexicon)
    data = record.to_dict(played)
    bracketed = next(i for i, r in enumerate(data["rounds"]) if "[" in r["word"])
    plain = json.loads(json.dumps(data))
    plain["rounds"][bracketed]["word"] = plain["rounds"][bracketed]["word"].replace("[", "").replace("]", "")
    assert record.parse(plain) == played
    with_rack = next(i for i, r in enumerate(data["rounds"]) if "[" in r["rack"])
    plain["rounds"][with_rack]["rack"] = plain["rounds"][with_rack]["rack"].replace("[", "").replace("]", "")
    with pytest.raises(record.RecordError):
        record.check(record.parse(plain), lexicon)


def test_a_record_checked_with_a_list_read_for_another_set_is_refused():
    lexicon = languages.lexicon("es")
    played = play_game(3, lexicon)
    french_reading = Lexicon.from_words(languages.word_list("es"), name="es-test")
    with pytest.raises(record.RecordError) as caught:
        record.check(played, french_reading)
    assert caught.value.reason.code == "record_letters_lexicon"
    assert "« es »" in caught.value.message.text("fr")


def test_french_and_spanish_games_play_at_once_in_one_process(french):
    spanish = languages.lexicon("es")
    board = Board()
    es_tops = find_tops(Position(board, parse_rack("COE[CH]AAA", SPANISH).tiles, spanish))
    fr_tops = find_tops(Position(board, parse_rack("COCHEAA").tiles, french))
    assert all("[" not in p.word for p in fr_tops.plays)
    assert es_tops.plays and fr_tops.plays
    assert all(SPANISH.by_name["CH"] in p.rack_used for p in es_tops.plays)
    fr_record = record.from_plays(french.name, [parse_rack("COCHEAA")], [fr_tops.plays[0]])
    es_record = record.from_plays(spanish.name, [parse_rack("COE[CH]AAA", SPANISH)], [es_tops.plays[0]])
    assert record.to_dict(fr_record)["format"] == "duplicate-game/1" and "letters" not in record.to_dict(
        fr_record
    )
    assert record.to_dict(es_record)["format"] == "duplicate-game/2"


# -- golden positions: tiles of two letters -----------------------------------------------------


def _tops(letters, words, rack, board=None):
    lexicon = Lexicon.from_words(words, name="golden", letters=letters)
    position = Position(board or Board(), parse_rack(rack, letters).tiles, lexicon)
    tops = find_tops(position)
    return tops.score, sorted(str(p) for p in tops.plays)


def test_coche_is_four_tiles_through_the_centre():
    # C3 O1 CH5 E1 = 10, doubled by H8; four tiles from H5 to H8 never reach H4's or H12's DL.
    score, plays = _tops(SPANISH, ["coche"], "COE[CH]AAA")
    assert score == 20
    assert plays == ["H5 CO[CH]E 20", "H6 CO[CH]E 20", "H7 CO[CH]E 20", "H8 CO[CH]E 20"]


def test_a_blank_standing_for_ch_scores_nothing_and_is_written_lower_case():
    score, plays = _tops(SPANISH, ["coche"], "COE?")
    assert score == 10
    assert plays == ["H5 CO[ch]E 10", "H6 CO[ch]E 10", "H7 CO[ch]E 10", "H8 CO[ch]E 10"]


def test_carro_and_nino_use_rr_and_n_tilde():
    # C3 A1 RR8 O1 = 13, doubled: four tiles, no DL reached.
    assert _tops(SPANISH, ["carro"], "CAO[RR]")[0] == 26
    # N1 I1 Ñ8 O1 = 11, doubled.
    assert _tops(SPANISH, ["niño"], "NIÑO")[0] == 22


def test_a_catalan_word_with_l_l_takes_the_double_letter_on_h12():
    # C2 O1 L·L10 E1 G3 I1 = 18; from H8 the G lies on H12 (DL): (18 + 3) x 2 = 42, one placement.
    assert _tops(CATALAN, ["col·legi"], "COEGIA[L·L]") == (42, ["H8 CO[L·L]EGI 42"])


def test_catalan_ny_and_qu_are_single_tiles():
    assert _tops(CATALAN, ["any"], "A[NY]") == (22, ["H7 A[NY] 22", "H8 A[NY] 22"])
    assert _tops(CATALAN, ["quan"], "AN[QU]") == (20, ["H6 [QU]AN 20", "H7 [QU]AN 20", "H8 [QU]AN 20"])


def test_a_two_tile_word_of_three_letters_across_a_tile_on_the_board():
    # CO[CH]E lies on H5..H8; the A on I7 (DL) under the CH makes [CH]A down: CH5 + A1x2 = 7.
    board = parse_board(
        "\n".join(["." * 15] * 7 + ["....CO[CH]E......."] + ["." * 15] * 7),
        SPANISH,
    )
    assert _tops(SPANISH, ["coche", "cha"], "A", board) == (7, ["7H [CH]A 7"])


def test_english_is_plain_letters_with_its_own_values():
    # Q10 U1 I1 Z10 = 22, doubled; four tiles from H5 to H8 never reach H4's or H12's DL.
    assert _tops(ENGLISH, ["quiz"], "QUIZ")[0] == 44


def test_a_slip_typed_coche_is_graded_as_c_o_ch_e():
    lexicon = Lexicon.from_words(["coche"], letters=SPANISH)
    position = Position(Board(), parse_rack("COE[CH]AAA", SPANISH).tiles, lexicon, first_move=True)
    result = grade_text(position, "H8 COCHE 20", Mode.FISF)
    assert result.paid == 20
    blank = Position(Board(), parse_rack("COE?AAA", SPANISH).tiles, lexicon, first_move=True)
    assert grade_text(blank, "H8 COchE 10", Mode.FISF).paid == 10


def test_a_spanish_bag_draws_racks_meeting_its_minimum():
    bag = Bag.full(SPANISH)
    rng = random.Random(4)
    draw = draw_rack((), bag, 1, rng)
    assert len(draw.tiles) == 7 and len(bag) == 93
    assert remaining_after(draw.tiles, draw.tiles[:3], SPANISH) == tuple(sorted(draw.tiles[3:]))
    assert draw.rack_text == str(parse_rack(draw.rack_text, SPANISH))
    assert all(t & BLANK_FLAG == 0 for t in draw.tiles)
