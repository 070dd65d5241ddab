"""Choosing the top among tied moves (§3.3.5)."""

from __future__ import annotations

from engine import alphabet
from engine.board import Board
from engine.choice import choose, ends_game, ranked
from engine.movegen import Position, find_tops
from engine.notation import Ref, rack_tiles
from engine.play import Play
from tests.helpers import tiny


def _play(ref: str, word: str, tiles, score: int = 10) -> Play:
    row, col = ord(ref[0]) - 65, int(ref[1:]) - 1
    return Play(Ref(row, col, True), word, tuple(tiles), score)


def tiles(text: str) -> tuple[int, ...]:
    """Bag contents (any number of tiles)."""
    return tuple(alphabet.code(ch) for ch in text)


E, S, T = alphabet.code("E"), alphabet.code("S"), alphabet.code("T")
BLANK_E = E | alphabet.BLANK_FLAG


def test_a_move_without_a_blank_is_preferred():
    with_blank = _play("H8", "eT", [(112, BLANK_E), (113, T)])
    real = _play("H9", "ET", [(113, E), (114, T)])
    assert choose([with_blank, real], rack_tiles("ET?"), bag_tiles=tiles("AAAEEEBCDFG")) == real


def test_a_move_ending_the_game_is_preferred_among_moves_without_blank():
    # Rack E S T, one A left in the bag.  EST leaves only the A: one unplayed tile ends the
    # game (§3.2).  ET leaves S and A, a vowel and a consonant: play would go on.
    keeps_s = _play("A1", "ET", [(0, E), (1, T)])
    uses_all = _play("B1", "EST", [(15, E), (16, S), (17, T)])
    rack, bag = rack_tiles("EST"), tiles("A")
    assert ends_game(uses_all, rack, bag)
    assert not ends_game(keeps_s, rack, bag)
    assert choose([keeps_s, uses_all], rack, bag) == uses_all


def test_no_blank_comes_before_ending_the_game():
    blank_end = _play("A1", "ESt", [(0, E), (1, S), (2, T | alphabet.BLANK_FLAG)])
    real_keeps = _play("B1", "ES", [(15, E), (16, S)])
    # Rack E S T ?: the blank move uses E S ?, leaving T (one tile: the game ends);
    # the real move leaves T and ? (a blank among two tiles: play goes on).
    rack = rack_tiles("EST?")
    assert ends_game(blank_end, rack, ())
    assert not ends_game(real_keeps, rack, ())
    assert choose([blank_end, real_keeps], rack, ()) == real_keeps


def test_otherwise_the_proposal_follows_reading_order_and_every_tie_stays_available():
    lexicon = tiny("ARBRE", "ARE", "BAR", "RAB")
    position = Position(Board(), rack_tiles("ARBREXY"), lexicon)
    tops = find_tops(position)
    assert len(tops.plays) > 1
    order = ranked(tops.plays, position.rack, tiles("AEIOUBCDFG"))
    assert sorted(order, key=str) == sorted(tops.plays, key=str)
    keys = [(p.ref.row, p.ref.col, not p.ref.horizontal, p.word) for p in order]
    assert keys == sorted(keys)
    # The order does not depend on the order the search listed the moves in.
    assert ranked(reversed(tops.plays), position.rack, tiles("AEIOUBCDFG")) == order


def test_no_tied_move_means_no_proposal():
    assert choose([], rack_tiles("ABC"), ()) is None
