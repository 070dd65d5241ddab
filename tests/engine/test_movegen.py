"""The top search against an independent engine, a brute force and the scorer."""

from __future__ import annotations

import random

import pytest

from engine import alphabet, scoring
from engine.board import Board
from engine.draw import Bag, draw_rack, remaining_after
from engine.lexicon import Lexicon
from engine.movegen import Position, all_plays, find_tops
from engine.notation import parse_board, rack_tiles
from engine.variants import Variant
from tests.conftest import REFERENCE_GAMES
from tests.engine.games import reference_positions
from tests.helpers import tiny


@pytest.fixture(scope="module")
def reference(french):
    return list(reference_positions(REFERENCE_GAMES, french))


def test_every_reference_round_finds_the_recorded_top_and_its_ties(reference):
    assert len(reference) > 400
    wrong = []
    for name, number, position, recorded in reference:
        tops = find_tops(position)
        # Round 1 tops are horizontal only; the record counts those (reference-games/README).
        if tops.score != recorded["score"] or len(tops.plays) != recorded["tied"]:
            wrong.append((name, number, tops.score, len(tops.plays), recorded["score"], recorded["tied"]))
    assert wrong == []


def test_every_top_found_is_scored_the_same_by_the_scorer(reference, french):
    for _name, _number, position, _recorded in reference[::3]:
        for play in find_tops(position).plays:
            assert _rescore(position, play, french) == play.score


def test_first_move_is_horizontal_through_the_centre():
    lexicon = tiny("ARBRE", "BRA", "ARE")
    tops = find_tops(Position(Board(), rack_tiles("ARBRE??"), lexicon))
    assert tops.plays
    for play in tops.plays:
        assert play.ref.horizontal
        assert any(sq == 7 * 15 + 7 for sq, _ in play.tiles)


def test_a_rack_with_no_move_gives_no_top():
    tops = find_tops(Position(Board(), rack_tiles("QQ"), tiny("ARBRE")))
    assert tops.plays == () and tops.score == 0


def test_a_blank_on_either_of_two_equal_squares_gives_two_tied_moves():
    # EE on row H from H7 or H8, with one E and a blank: the blank sits on either square.
    lexicon = tiny("EE")
    tops = find_tops(Position(Board(), rack_tiles("E?"), lexicon))
    words = sorted(f"{p.ref} {p.word}" for p in tops.plays)
    # H7 Ee / H7 eE / H8 Ee / H8 eE all score (1 + 0) * 2 = 2.
    assert tops.score == 2
    assert words == ["H7 Ee", "H7 eE", "H8 Ee", "H8 eE"]


def test_a_one_tile_move_forming_two_words_counts_once():
    board = parse_board(
        "\n".join(["." * 15] * 6 + ["......A........", ".......B.......", "." * 15] + ["." * 15] * 6)
    )
    # S on G8 makes AS across and SB down; S on H7 makes SB across and AS down.  Each is found
    # from both directions and must count once: two placements, 2 + 4 = 6 points each.
    lexicon = tiny("AS", "SB")
    tops = find_tops(Position(board, rack_tiles("S"), lexicon, first_move=False))
    s = alphabet.code("S")
    assert tops.score == 6
    assert sorted(p.tiles for p in tops.plays) == [((6 * 15 + 7, s),), ((7 * 15 + 6, s),)]


def test_two_blank_racks_agree_with_the_exhaustive_generator(reference, french):
    for _name, number, position, _recorded in reference[5::150]:
        two = Position(position.board, rack_tiles("??ESTRA"), french, first_move=number == 1)
        tops = find_tops(two)
        plays = all_plays(two)
        best = max(p.score for p in plays)
        assert tops.score == best
        assert {p.key for p in tops.plays} == {p.key for p in plays if p.score == best}


# -- differential: seeded random positions, a small lexicon, brute force ------------------------


def _small_lexicon(french_words: list[str], seed: int) -> Lexicon:
    rng = random.Random(seed)
    short = [w for w in french_words if len(w) <= 5]
    return Lexicon.from_words([*rng.sample(short, 120), "LE", "LA", "ET", "EN", "ES", "AS"], name="small")


def _brute_force(position: Position, lexicon: Lexicon, words: list[str]) -> dict:
    """Every legal placement, from the scorer alone: each word of the lexicon tried everywhere."""
    found = {}
    for word in words:
        letters = alphabet.word_codes(word)
        for play in scoring.word_placements(
            position.board,
            lexicon,
            letters,
            position.rack,
            first_move=position.is_first_move,
            played_max=position.played_max,
            bingo_size=position.bingo_size,
        ):
            found[play.key] = play.score
    return found


def _random_positions(lexicon: Lexicon, seed: int, rounds: int, variant: Variant = Variant.CLASSIC):
    rng = random.Random(seed)
    bag = Bag.full()
    board = Board()
    reliquat: tuple[int, ...] = ()
    for number in range(1, rounds + 1):
        draw = draw_rack(reliquat, bag, number, rng, variant=variant)
        if draw.end:
            return
        # The first move is the first one played: a rack without a move leaves the board empty.
        position = Position(board.copy(), draw.tiles, lexicon, board.is_empty(), **variant.limits)
        yield position
        tops = find_tops(position)
        if not tops.plays:
            bag.put_back(draw.tiles)
            reliquat = ()
            continue
        play = rng.choice(tops.plays)
        scoring.apply(board, play)
        reliquat = remaining_after(draw.tiles, play.rack_used)


@pytest.mark.parametrize(
    ("seed", "variant"),
    [
        (1, Variant.CLASSIC),
        (2, Variant.CLASSIC),
        (3, Variant.CLASSIC),
        (4, Variant.SEVEN_OF_EIGHT),
        (5, Variant.SEVEN_OF_EIGHT),
    ],
)
def test_search_agrees_with_brute_force_on_random_positions(seed, variant, french):
    """Seven among eight too: racks of 8 tiles, no move of more than 7."""
    words = _french_words(french)
    lexicon = _small_lexicon(words, seed)
    small_words = _lexicon_words(lexicon)
    checked = 0
    for position in _random_positions(lexicon, seed, rounds=8, variant=variant):
        brute = _brute_force(position, lexicon, small_words)
        generated = {p.key: p.score for p in all_plays(position)}
        assert generated == brute
        tops = find_tops(position)
        best = max(brute.values(), default=0)
        assert tops.score == best
        assert {p.key for p in tops.plays} == {k for k, v in brute.items() if v == best}
        checked += 1
    assert checked >= 4


def test_eight_tile_racks_agree_with_the_exhaustive_generator_and_the_scorer(reference, french):
    """Seven among eight: each reference rack with an eighth tile; the search and the exhaustive
    generator find the same tops, never a move of 8 tiles, and the scorer scores each the same."""
    seven = Variant.SEVEN_OF_EIGHT
    for i, (_name, number, position, _recorded) in enumerate(reference[3::60]):
        if len(position.rack) < 7:
            continue
        rack = (*position.rack, alphabet.code("ESARTIN"[i % 7]))
        eight = Position(position.board, rack, french, number == 1, **seven.limits)
        tops, plays = find_tops(eight), all_plays(eight)
        best = max(p.score for p in plays)
        assert tops.score == best
        assert {p.key for p in tops.plays} == {p.key for p in plays if p.score == best}
        assert max(len(p.tiles) for p in plays) <= 7
        for play in tops.plays:
            assert _rescore(eight, play, french) == play.score


def test_scorer_agrees_with_the_generator_on_every_move(reference, french):
    for _name, _number, position, _recorded in reference[7::40]:
        for play in all_plays(position):
            assert _rescore(position, play, french) == play.score


def _rescore(position: Position, play, lexicon) -> int:
    tiles = _word_tiles(position.board, play)
    result = scoring.evaluate(
        position.board,
        lexicon,
        play.ref,
        tiles,
        position.rack,
        played_max=position.played_max,
        bingo_size=position.bingo_size,
    )
    assert not isinstance(result, scoring.Illegal), result
    assert result.key == play.key
    return result.score


def _word_tiles(board: Board, play) -> list[int]:
    new = dict(play.tiles)
    step = 1 if play.ref.horizontal else 15
    return [
        new.get(play.ref.square + i * step) or board.cells[play.ref.square + i * step]
        for i in range(len(play.word))
    ]


def _french_words(lexicon: Lexicon) -> list[str]:
    return _lexicon_words(lexicon, limit=6)


def _lexicon_words(lexicon: Lexicon, limit: int = 15) -> list[str]:
    dawg = lexicon.dawg
    out: list[str] = []
    stack = [(dawg.root, "")]
    while stack:
        node, prefix = stack.pop()
        if dawg.lengths[node] & 1:
            out.append(prefix)
        if len(prefix) < limit:
            stack.extend((child, prefix + chr(64 + c)) for c, child in dawg.children[node].items())
    return sorted(out)
