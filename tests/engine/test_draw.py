"""The bag, rack drawing and the end of the game (rules §3.1, §3.2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import draw as draw_module
from engine.alphabet import BLANK_FLAG, FRENCH, code
from engine.draw import (
    MAX_NO_MOVE_RACKS,
    Bag,
    Draw,
    DrawError,
    EndReason,
    cancel_round,
    check_typed_rack,
    draw_rack,
    game_over,
    meets_minimum,
    remaining_after,
    required_minimum,
)
from engine.messages import LANGUAGES

FULL = Counter(Bag.full().tiles())


def codes(text: str) -> tuple[int, ...]:
    return tuple(code(ch) for ch in text)


def without(text: str) -> Bag:
    """The full bag less these tiles (held somewhere else)."""
    bag = Bag.full()
    bag.take(codes(text))
    return bag


def conserved(bag: Bag, *elsewhere) -> bool:
    total = Counter(bag.tiles())
    for tiles in elsewhere:
        total += Counter(tiles)
    return total == FULL


class Recorder:
    """A ``has_move`` stub that answers from a rule and remembers what it was asked."""

    def __init__(self, answer):
        self.answer = answer
        self.calls: list[tuple[int, ...]] = []

    def __call__(self, tiles):
        self.calls.append(tuple(tiles))
        return self.answer(len(self.calls), tiles)


# The bag


def test_full_bag_holds_the_102_tiles_of_the_french_set():
    bag = Bag.full()
    assert len(bag) == 102
    assert all(Counter(bag.tiles())[c] == FRENCH.counts[c] for c in range(1, 28))
    assert bag.tiles() == tuple(sorted(bag.tiles()))


def test_drawing_more_than_the_bag_holds_empties_it():
    bag = Bag(codes("ABC"))
    drawn = bag.draw(7, random.Random(1))
    assert sorted(drawn) == sorted(codes("ABC"))
    assert len(bag) == 0


def test_put_back_returns_tiles_to_the_bag():
    bag = Bag(codes("AB"))
    bag.put_back(codes("?Z"))
    assert bag.tiles() == codes("ABZ?")


def test_a_copy_does_not_share_its_tiles():
    bag = Bag.full()
    twin = bag.copy()
    twin.draw(7, random.Random(0))
    assert len(bag) == 102
    assert len(twin) == 95


def test_a_bag_refuses_what_is_not_a_rack_code():
    with pytest.raises(ValueError):
        Bag([0, 1])


def test_taking_tiles_absent_from_the_bag_names_them_and_takes_nothing():
    bag = Bag(codes("AB"))
    with pytest.raises(DrawError) as err:
        bag.take(codes("AZ?"))
    assert err.value.message.code == "draw_not_in_bag"
    assert "Z, ?" in err.value.message.text("fr")
    assert bag.tiles() == codes("AB")


def test_taking_tiles_removes_exactly_those():
    bag = Bag(codes("AABE"))
    bag.take(codes("AE"))
    assert bag.tiles() == codes("AB")


# §3.1.3: the minimum


@pytest.mark.parametrize(
    ("rack", "minimum", "meets"),
    [
        ("AEIBCDF", 2, True),
        ("AEIOUUB", 2, False),
        ("AEIOUYB", 2, True),
        ("BCDFGH?", 2, False),
        ("BCDFG??", 2, True),
        ("A?B", 2, False),
        ("AB", 1, True),
        ("AEIOUUE", 1, False),
        ("AEIOUUY", 1, True),
        ("??", 1, True),
        ("Y", 1, False),
    ],
)
def test_minimum_counts_y_and_blanks_in_either_role(rack, minimum, meets):
    assert meets_minimum(codes(rack), minimum) is meets


def test_rounds_one_to_fifteen_need_two_vowels_and_two_consonants():
    assert required_minimum(1, Bag.full().tiles()) == 2
    assert required_minimum(15, Bag.full().tiles()) == 2


def test_round_sixteen_needs_one_vowel_and_one_consonant():
    assert required_minimum(16, Bag.full().tiles()) == 1


def test_two_plus_two_falls_back_when_the_letters_left_cannot_give_it():
    assert required_minimum(5, codes("AEIOUEEB")) == 1
    assert required_minimum(5, codes("A?B")) == 1
    assert required_minimum(5, codes("AEBC")) == 2


def test_round_sixteen_accepts_a_rack_with_one_vowel():
    bag = Bag(codes("AE"))
    draw = draw_rack(codes("BCDFGH"), bag, 16, random.Random(3))
    assert draw.end is None
    assert not draw.rejected
    assert draw.rack_text.startswith("BCDFGH+")
    assert draw.rejections == []


def test_round_fifteen_rejects_the_same_rack_and_draws_both_vowels():
    bag = Bag(codes("AE"))
    draw = draw_rack(codes("BCDFGH"), bag, 15, random.Random(3))
    assert draw.rejected
    assert draw.rejections[0][:6] == codes("BCDFGH")
    assert {code("A"), code("E")} <= set(draw.tiles)
    assert draw.rack_text.startswith("-")


def test_a_rack_with_one_vowel_stands_when_only_one_vowel_is_left():
    bag = Bag(codes("AJKLMN"))
    draw = draw_rack(codes("BCDFGH"), bag, 3, random.Random(5))
    assert draw.end is None
    assert code("A") in draw.tiles
    assert meets_minimum(draw.tiles, 1)


# §3.1.1 and §3.1.2: drawing


def test_first_round_draws_seven_tiles_from_the_full_bag():
    bag = Bag.full()
    draw = draw_rack((), bag, 1, random.Random(11))
    assert draw.reliquat == ()
    assert len(draw.new) == 7
    assert len(bag) == 95
    assert meets_minimum(draw.tiles, 2)
    assert "+" not in draw.rack_text
    assert conserved(bag, draw.tiles)


def test_later_round_keeps_the_reliquat_and_completes_to_seven():
    bag = without("AEBC")
    draw = draw_rack(codes("AEBC"), bag, 2, random.Random(2))
    assert draw.reliquat == codes("ABCE")
    assert len(draw.new) == 3
    assert not draw.rejected
    assert draw.rack_text.startswith("ABCE+")
    assert conserved(bag, draw.tiles)


def test_reliquat_is_announced_alphabetically_with_blanks_last():
    bag = without("?EBIS")
    draw = draw_rack(codes("?EBIS"), bag, 2, random.Random(4))
    assert draw.reliquat == codes("BEIS?")
    assert draw.rack_text.startswith("BEIS?+")


def test_rack_takes_what_the_bag_holds_when_it_runs_low():
    bag = Bag(codes("EST"))
    draw = draw_rack(codes("AB"), bag, 20, random.Random(0))
    assert sorted(draw.new) == sorted(codes("EST"))
    assert len(bag) == 0
    assert draw.rack_text.startswith("AB+")


def test_rack_notation_follows_the_record_format():
    assert Draw(codes("AEI"), codes("BLRN")).rack_text == "AEI+BLRN"
    assert Draw((), codes("BBNOORS"), rejected=True).rack_text == "-BBNOORS"
    assert Draw((), codes("VDFIR?A")).rack_text == "VDFIR?A"


# §3.1.4: rejection


def test_rejection_puts_the_reliquat_back_too():
    bag = without("BCDFGH")
    draw = draw_rack(codes("BCDFGH"), bag, 2, random.Random(9))
    assert draw.rejected
    assert draw.reliquat == ()
    assert draw.rejections[0][:6] == codes("BCDFGH")
    assert len(bag) == 95
    assert conserved(bag, draw.tiles)
    assert "+" not in draw.rack_text and draw.rack_text.startswith("-")


def test_rejection_repeats_until_the_rack_meets_the_minimum():
    rejected = 0
    for seed in range(20):
        bag = Bag(codes("AE") + codes("BCDFGHJKLMNPQRSTVWXZ"))
        before = Counter(bag.tiles())
        draw = draw_rack((), bag, 1, random.Random(seed))
        assert meets_minimum(draw.tiles, 2)
        assert all(not meets_minimum(r, 2) for r in draw.rejections)
        assert Counter(bag.tiles()) + Counter(draw.tiles) == before
        rejected += len(draw.rejections)
    assert rejected > 0


def test_draws_that_keep_missing_the_minimum_end_the_game_and_restore_the_bag(monkeypatch):
    monkeypatch.setattr(draw_module, "MAX_DRAWS", 1)
    bag = without("BCDFGH")
    draw = draw_rack(codes("BCDFGH"), bag, 2, random.Random(0))
    assert draw.end is EndReason.REJECTION_LIMIT
    assert len(draw.rejections) == 1
    assert draw.reliquat == codes("BCDFGH")
    assert bag.tiles() == without("BCDFGH").tiles()


# §3.1.5: no possible move


def test_rack_without_a_move_goes_back_whole_and_is_redrawn():
    bag = without("ABCE")
    stub = Recorder(lambda call, tiles: call > 2)
    draw = draw_rack(codes("ABCE"), bag, 2, random.Random(6), has_move=stub)
    assert len(stub.calls) == 3
    assert stub.calls[0][:4] == codes("ABCE")
    assert draw.no_move_redraws == 2
    assert draw.rejected and draw.reliquat == ()
    assert draw.tiles == stub.calls[-1]
    assert conserved(bag, draw.tiles)


def test_no_move_with_the_only_rack_left_ends_the_game_after_one_check():
    bag = Bag(codes("EST"))
    stub = Recorder(lambda call, tiles: False)
    draw = draw_rack(codes("AB"), bag, 20, random.Random(0), has_move=stub)
    assert draw.end is EndReason.NO_MOVE_POSSIBLE
    assert len(stub.calls) == 1
    assert bag.tiles() == codes("EST")
    assert draw.reliquat == codes("AB")


def test_no_move_with_any_rack_ends_after_trying_each_once():
    bag = Bag(codes("AENNNNNS"))
    stub = Recorder(lambda call, tiles: False)
    draw = draw_rack((), bag, 16, random.Random(1), has_move=stub)
    assert draw.end is EndReason.NO_MOVE_POSSIBLE
    assert len({tuple(sorted(c)) for c in stub.calls}) == len(stub.calls) == 4
    assert bag.tiles() == codes("AENNNNNS")


def test_no_move_in_a_full_bag_ends_after_a_bounded_number_of_racks():
    bag = Bag.full()
    stub = Recorder(lambda call, tiles: False)
    draw = draw_rack((), bag, 1, random.Random(2), has_move=stub)
    assert draw.end is EndReason.NO_MOVE_POSSIBLE
    assert len(stub.calls) == MAX_NO_MOVE_RACKS
    assert bag.tiles() == Bag.full().tiles()


def test_a_refused_rack_is_not_checked_twice():
    bag = Bag(codes("AENNNNNS"))
    stub = Recorder(lambda call, tiles: code("S") not in tiles)
    draw = draw_rack((), bag, 16, random.Random(8), has_move=stub)
    assert code("S") not in draw.tiles
    refused = [tuple(sorted(c)) for c in stub.calls[:-1]]
    assert len(set(refused)) == len(refused)


# §3.1.6: cancelling a round


def test_cancel_draws_a_different_rack():
    for seed in range(20):
        rng = random.Random(seed)
        bag = Bag.full()
        first = draw_rack((), bag, 1, rng)
        again = cancel_round(first.tiles, bag, 1, rng)
        assert again.end is None
        assert sorted(again.tiles) != sorted(first.tiles)
        assert again.rejected and again.reliquat == ()
        assert meets_minimum(again.tiles, 2)
        assert conserved(bag, again.tiles)


def test_cancel_puts_the_reliquat_back_with_the_rest():
    bag = without("ABCEIRS")
    again = cancel_round(codes("ABCEIRS"), bag, 4, random.Random(1))
    assert len(bag) == 95
    assert conserved(bag, again.tiles)


def test_cancel_ends_the_game_when_every_tile_fits_in_one_rack():
    bag = Bag(codes("ST"))
    draw = cancel_round(codes("ABE"), bag, 20, random.Random(0))
    assert draw.end is EndReason.CANCEL_IMPOSSIBLE
    assert bag.tiles() == codes("ST")
    assert draw.reliquat == codes("ABE")


def test_cancel_ends_the_game_when_the_minimum_allows_only_that_rack():
    bag = Bag(codes("N"))
    draw = cancel_round(codes("AENNNNN"), bag, 3, random.Random(0))
    assert draw.end is EndReason.CANCEL_IMPOSSIBLE
    assert bag.tiles() == codes("N")


def test_cancel_finds_another_rack_when_one_plus_one_allows_it():
    # Three racks stand here and a plain redraw gives the cancelled one 3 times in 4.
    for seed in range(10):
        bag = Bag(codes("N"))
        draw = cancel_round(codes("AENNNNN"), bag, 16, random.Random(seed))
        assert draw.end is None
        assert sorted(draw.tiles) in (sorted(codes("ANNNNNN")), sorted(codes("ENNNNNN")))


def test_cancel_ends_the_game_when_no_other_rack_has_a_move():
    bag = Bag(codes("N"))
    stub = Recorder(lambda call, tiles: False)
    draw = cancel_round(codes("AENNNNN"), bag, 16, random.Random(0), has_move=stub)
    assert draw.end is EndReason.CANCEL_IMPOSSIBLE
    assert len(stub.calls) == 2
    assert bag.tiles() == codes("N")


# §3.2: the end of the game


def test_y_and_b_left_go_on():
    assert game_over(codes("YB")) is None


def test_two_blanks_left_go_on():
    assert game_over(codes("??")) is None


def test_only_vowels_left_end_the_game():
    assert game_over(codes("AEI")) is EndReason.NO_VOWEL_OR_NO_CONSONANT


def test_a_single_tile_left_ends_the_game():
    assert game_over(codes("B")) is EndReason.TOO_FEW_TILES


def test_no_tile_left_means_every_tile_was_played():
    assert game_over(()) is EndReason.ALL_PLAYED


@pytest.mark.parametrize(
    ("tiles", "reason"),
    [
        ("BCD", EndReason.NO_VOWEL_OR_NO_CONSONANT),
        ("Y", EndReason.TOO_FEW_TILES),
        ("?", EndReason.TOO_FEW_TILES),
        ("AB", None),
        ("AEI?", None),
        ("Y?", None),
        ("BCDY", None),
    ],
)
def test_other_tiles_left(tiles, reason):
    assert game_over(codes(tiles)) is reason


def test_full_bag_goes_on():
    assert game_over(Bag.full().tiles()) is None


def test_draw_ends_the_game_before_drawing_when_only_vowels_are_left():
    bag = Bag(codes("I"))
    draw = draw_rack(codes("AE"), bag, 20, random.Random(0))
    assert draw.end is EndReason.NO_VOWEL_OR_NO_CONSONANT
    assert bag.tiles() == codes("I")
    assert draw.reliquat == codes("AE")


def test_draw_ends_the_game_when_every_tile_was_played():
    draw = draw_rack((), Bag(), 20, random.Random(0))
    assert draw.end is EndReason.ALL_PLAYED


def test_every_end_reason_has_a_sentence_in_each_language():
    for reason in EndReason:
        assert all(reason.message.text(lang) for lang in LANGUAGES)


# Typed racks and the reliquat


def test_typed_rack_with_tiles_not_in_the_bag_names_them():
    problems = check_typed_rack(codes("AE"), codes("KZBST"), without("KZ"))
    assert [p.code for p in problems] == ["draw_not_in_bag"]
    assert "K, Z" in problems[0].text("fr")
    assert "K, Z" in problems[0].text("en")


def test_typed_rack_counts_each_missing_copy():
    problems = check_typed_rack((), codes("??ABCDE"), without("?"))
    assert [p.code for p in problems] == ["draw_not_in_bag"]
    assert problems[0].params["tiles"] == "?"


def test_typed_rack_from_the_bag_stands():
    assert check_typed_rack(codes("AE"), codes("BSTUV"), without("AE"), round_number=2) == []


def test_typed_rack_short_of_seven_while_the_bag_has_tiles_is_flagged():
    problems = check_typed_rack((), codes("ABCDE"), Bag.full())
    assert [p.code for p in problems] == ["draw_rack_short"]


def test_typed_rack_of_more_than_seven_is_flagged():
    problems = check_typed_rack(codes("AE"), codes("BCDFGH"), Bag.full())
    assert [p.code for p in problems] == ["draw_rack_too_big"]


def test_typed_rack_below_the_minimum_must_be_rejected():
    problems = check_typed_rack((), codes("ABCDFGH"), Bag.full(), round_number=3)
    assert [p.code for p in problems] == ["draw_below_minimum"]
    assert problems[0].params["minimum"] == 2


def test_reliquat_is_the_rack_less_the_tiles_the_top_used():
    favori = (*codes("FAV"), code("O") | BLANK_FLAG, *codes("RI"))
    assert remaining_after(codes("VDFIR?A"), favori) == codes("D")


def test_reliquat_keeps_an_unused_blank_last():
    assert remaining_after(codes("?EBSTAR"), codes("BEST")) == codes("AR?")


def test_reliquat_of_tiles_not_in_the_rack_is_an_error():
    with pytest.raises(DrawError) as err:
        remaining_after(codes("ABCDEFG"), codes("ZA"))
    assert err.value.message.code == "draw_not_in_rack"
    assert "Z" in err.value.message.text("en")


# Whole series of draws


def play_series(seed: int, play_seed: int, *, cancel_every: int = 0, has_move=None):
    """Draw and 'play' random tiles until the game ends; yields each step's state."""
    rng, chooser = random.Random(seed), random.Random(play_seed)
    bag, reliquat, played = Bag.full(), (), []
    for round_number in range(1, 200):
        unplayed = bag.tiles() + reliquat
        draw = draw_rack(reliquat, bag, round_number, rng, has_move)
        if cancel_every and draw.end is None and round_number % cancel_every == 0:
            draw = cancel_round(draw.tiles, bag, round_number, rng, has_move)
        yield round_number, unplayed, draw, bag, played
        if draw.end:
            return
        used = chooser.sample(draw.tiles, chooser.randint(1, len(draw.tiles)))
        played.extend(used)
        reliquat = remaining_after(draw.tiles, used)


def racks_of(seed: int, play_seed: int) -> list[str]:
    return [draw.rack_text for _, _, draw, _, _ in play_series(seed, play_seed)]


def test_same_seed_gives_the_same_racks():
    assert racks_of(7, 70) == racks_of(7, 70)
    assert racks_of(7, 70) != racks_of(8, 70)


def test_tiles_are_conserved_at_every_step():
    for _, _, draw, bag, played in play_series(3, 30, cancel_every=4):
        assert conserved(bag, draw.tiles, played)


def test_a_series_ends_with_a_rule_of_section_3_2():
    *_, (_, unplayed, draw, _, _) = play_series(5, 50)
    assert draw.end in (EndReason.ALL_PLAYED, EndReason.TOO_FEW_TILES, EndReason.NO_VOWEL_OR_NO_CONSONANT)
    assert game_over(unplayed) is draw.end


def _picky(tiles) -> bool:
    """A deterministic stand-in for the move generator that refuses some racks."""
    return sum(tiles) % 5 != 0


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
    cancel_every=st.sampled_from([0, 3, 5]),
    has_move=st.sampled_from([None, _picky]),
)
def test_series_conserve_tiles_and_every_rack_meets_its_minimum(seed, play_seed, cancel_every, has_move):
    for round_number, unplayed, draw, bag, played in play_series(
        seed, play_seed, cancel_every=cancel_every, has_move=has_move
    ):
        assert conserved(bag, draw.tiles, played)
        if draw.end is None:
            assert meets_minimum(draw.tiles, required_minimum(round_number, unplayed))
            assert len(draw.tiles) == min(7, len(unplayed))
            assert has_move is None or has_move(draw.tiles)
