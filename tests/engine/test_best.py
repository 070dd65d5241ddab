"""The n best placements of a position, against the exhaustive generator."""

from __future__ import annotations

import random

import pytest

from engine import alphabet, record
from engine.alphabet import BLANK, RACK_SIZE
from engine.board import CENTER, Board
from engine.choice import ends_game
from engine.draw import Bag, bag_left, remaining_after
from engine.movegen import Position, all_plays, find_best, find_tops
from engine.notation import parse_board, rack_tiles
from tests.conftest import REFERENCE_GAMES
from tests.helpers import tiny

SIZES = (1, 5, 10, 30)


@pytest.fixture(scope="module")
def games(french):
    return [
        record.check(record.parse(path.read_bytes()), french)
        for path in sorted(REFERENCE_GAMES.glob("*.json"))
    ]


def expected_best(plays, rack, bag, n: int) -> list:
    """The list by its definition: every placement by score, ties in §3.3.5's order (fewest blanks,
    one that ends the game, reference in reading order, word), cut after the n-th score's ties."""

    def order(play):
        ref = play.ref
        ends = bag is not None and ends_game(play, rack, bag)
        return (-play.score, play.blanks, not ends, ref.row, ref.col, not ref.horizontal, play.word)

    scores = sorted((play.score for play in plays), reverse=True)
    bar = scores[n - 1] if len(scores) >= n else -1
    return sorted((play for play in plays if play.score >= bar), key=order)


def random_rack(rng: random.Random, unplayed: tuple[int, ...], blanks: int) -> tuple[int, ...]:
    letters = [t for t in unplayed if t != BLANK]
    size = min(RACK_SIZE, len(unplayed))
    return (BLANK,) * blanks + tuple(rng.sample(letters, size - blanks))


def reference_board_positions(games, french, seed: int, blanks: int, count: int):
    """``(position, bag)``: a reference game's board at a random round, a random rack with
    ``blanks`` blanks drawn from the tiles it has not played, and the bag that leaves."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        game = rng.choice(games)
        number = rng.randint(2, len(game.plays))
        board = game.board_after(number - 1)
        unplayed = bag_left(filter(None, board.cells), ())
        if unplayed.count(BLANK) < blanks or len(unplayed) < 2:
            continue
        rack = random_rack(rng, unplayed, blanks)
        found += 1
        yield Position(board, rack, french, first_move=False), remaining_after(unplayed, rack)


def first_round_positions(french, seed: int, blanks: int, count: int):
    rng = random.Random(seed)
    full = Bag.full().tiles()
    for _ in range(count):
        rack = random_rack(rng, full, blanks)
        yield Position(Board(), rack, french, first_move=True), remaining_after(full, rack)


def assert_agrees_with_the_exhaustive_generator(position: Position, bag) -> None:
    plays = all_plays(position)
    for n in SIZES:
        assert find_best(position, n, bag) == expected_best(plays, position.rack, bag, n), n
    assert find_best(position, 10) == expected_best(plays, position.rack, None, 10)


@pytest.mark.parametrize(("blanks", "count"), [(0, 8), (1, 5), (2, 3)])
def test_best_lists_on_reference_boards_at_random_rounds_match_the_exhaustive_generator(
    games, french, blanks, count
):
    for position, bag in reference_board_positions(games, french, 16 + blanks, blanks, count):
        assert_agrees_with_the_exhaustive_generator(position, bag)


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_best_lists_in_round_1_match_the_exhaustive_generator_and_are_all_horizontal_through_h8(
    french, blanks
):
    for position, bag in first_round_positions(french, 160 + blanks, blanks, 4):
        assert_agrees_with_the_exhaustive_generator(position, bag)
        for play in find_best(position, 30, bag):
            assert play.ref.horizontal
            assert any(sq == CENTER for sq, _ in play.tiles)


def test_best_lists_of_the_last_rounds_match_the_exhaustive_generator_where_ending_the_game_counts(
    games, french
):
    ordered_by_the_bag = 0
    for game in games:
        for number in (len(game.plays) - 1, len(game.plays)):
            board = game.board_after(number - 1)
            rack = game.record.rounds[number - 1].rack.tiles
            bag = bag_left(filter(None, board.cells), rack)
            position = Position(board, rack, french, first_move=False)
            assert_agrees_with_the_exhaustive_generator(position, bag)
            ordered_by_the_bag += find_best(position, 30, bag) != find_best(position, 30)
    # Late in the game a placement using more tiles often ends it: the rule is exercised.
    assert ordered_by_the_bag >= 5


def test_the_one_best_list_holds_exactly_the_tied_tops_of_every_third_reference_round(games, french):
    for game in games:
        for number in range(1, len(game.plays) + 1, 3):
            rack = game.record.rounds[number - 1].rack.tiles
            position = Position(game.board_after(number - 1), rack, french, first_move=number == 1)
            tops = find_tops(position)
            best = find_best(position, 1)
            assert {p.score for p in best} == {tops.score}
            assert {p.key for p in best} == {p.key for p in tops.plays}


def test_every_placement_tied_with_the_nth_score_is_listed():
    # Rack D E E T, round 1: DE (H7, H8) and TEE (H6, H7, H8) all score 2 x 3 = 6.
    position = Position(Board(), rack_tiles("DEET"), tiny("DE", "TEE"))
    assert [f"{p.ref} {p.word} {p.score}" for p in find_best(position, 1)] == [
        "H6 TEE 6",
        "H7 DE 6",
        "H7 TEE 6",
        "H8 DE 6",
        "H8 TEE 6",
    ]


def test_a_placement_ending_the_game_comes_first_among_equal_scores_when_the_bag_is_given():
    # The bag is empty: TEE leaves D alone (the game ends, §3.2), DE leaves E and T (play goes on).
    position = Position(Board(), rack_tiles("DEET"), tiny("DE", "TEE"))
    words = [f"{p.ref} {p.word}" for p in find_best(position, 5, bag=())]
    assert words == ["H6 TEE", "H7 TEE", "H8 TEE", "H7 DE", "H8 DE"]


def test_a_blank_laid_where_the_rack_holds_the_real_letter_is_a_placement_of_its_own():
    # ET with the real E and T scores (1 + 1) x 2 = 4; with a blank for either letter, 2.
    position = Position(Board(), rack_tiles("ET?"), tiny("ET"))
    assert [f"{p.ref} {p.word} {p.score}" for p in find_best(position, 10)] == [
        "H7 ET 4",
        "H8 ET 4",
        "H7 Et 2",
        "H7 eT 2",
        "H8 Et 2",
        "H8 eT 2",
    ]


def test_a_one_tile_move_forming_two_words_is_listed_once_read_across():
    board = parse_board(
        "\n".join(["." * 15] * 6 + ["......A........", ".......B.......", "." * 15] + ["." * 15] * 6)
    )
    # S on G8 makes AS across and SB down; S on H7 makes SB across and AS down: 6 points each.  AX
    # lets the X bound G8's slot down above its slot across, so G8 is found read down first.
    position = Position(board, rack_tiles("SX"), tiny("AS", "SB", "AX"), first_move=False)
    s = alphabet.code("S")
    best = find_best(position, 10)
    assert [(f"{p.ref} {p.word} {p.score}", p.tiles) for p in best] == [
        ("G7 AS 6", ((6 * 15 + 7, s),)),
        ("H7 SB 6", ((7 * 15 + 6, s),)),
    ]


def test_a_rack_with_no_move_gives_an_empty_list():
    assert find_best(Position(Board(), rack_tiles("QQ"), tiny("ARBRE")), 10) == []


def test_asking_for_fewer_than_one_placement_is_refused():
    with pytest.raises(ValueError):
        find_best(Position(Board(), rack_tiles("ET"), tiny("ET")), 0)
