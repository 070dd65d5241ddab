"""Racks drawn from a physical bag and typed (§3.1): the new letters after a reliquat, a rejection typed
as the arbiter does it, the minimum and the no-move check, and refusals that say why."""

from __future__ import annotations

import pytest

from engine.alphabet import code
from engine.draw import Bag, Rejection
from engine.notation import NotationError
from engine.typed import TypedRackError, read_typed_rack


def tiles(text: str) -> tuple[int, ...]:
    return tuple(code(c) for c in text)


def full_bag_without(held: str) -> Bag:
    bag = Bag.full()
    bag.take(tiles(held))
    return bag


@pytest.mark.parametrize("typed", ["BLRN", "+BLRN", "AEI+BLRN", "AEIBLRN", "aei+blrn", " blrn "])
def test_after_a_reliquat_only_the_new_letters_are_typed_or_the_whole_rack(typed):
    rack = read_typed_rack(typed, tiles("AEI"), full_bag_without("AEI"), 4)
    assert (rack.reliquat, rack.new, rack.rejected, rack.rejection) == (
        tiles("AEI"),
        tiles("BLRN"),
        False,
        None,
    )
    assert rack.text == "AEI+BLRN"


def test_a_rejection_typed_with_a_dash_puts_the_reliquat_back_and_takes_seven_new_letters():
    """Typed after a reliquat of three letters, -AAABBCC is seven new letters, not ten."""
    rack = read_typed_rack("-AAABBCC", tiles("EIS"), full_bag_without("EIS"), 5)
    assert (rack.reliquat, rack.new, rack.rejected) == ((), tiles("AAABBCC"), True)
    assert rack.text == "-AAABBCC"


def test_after_a_rejection_or_a_cancel_the_rack_is_seven_new_letters_with_or_without_the_dash():
    for typed in ("AEIBLRN", "-AEIBLRN"):
        rack = read_typed_rack(typed, (), Bag.full(), 3, fresh=True)
        assert (rack.new, rack.rejected, rack.text) == (tiles("AEIBLRN"), True, "-AEIBLRN")
    with pytest.raises(TypedRackError) as refused:
        read_typed_rack("AEI+BLRN", (), Bag.full(), 3, fresh=True)
    assert refused.value.message.code == "typed_all_new"


def test_a_rack_missing_the_minimum_is_a_rejection_with_its_reason():
    assert read_typed_rack("BCDFGHJ", (), Bag.full(), 1).rejection is Rejection.VOWELS
    assert read_typed_rack("AEIOUEA", (), Bag.full(), 1).rejection is Rejection.CONSONANTS
    # §3.1.3: from round 16 one vowel and one consonant are enough.
    assert read_typed_rack("ABCDFGH", (), Bag.full(), 16).rejection is None
    assert read_typed_rack("ABCDFGH", (), Bag.full(), 2).rejection is Rejection.VOWELS


def test_a_rack_without_a_move_is_a_rejection():
    rack = read_typed_rack("AEIBLRN", (), Bag.full(), 2, has_move=lambda rack: False)
    assert rack.rejection is Rejection.NO_MOVE
    assert read_typed_rack("AEIBLRN", (), Bag.full(), 2, has_move=lambda rack: True).rejection is None


@pytest.mark.parametrize(
    ("typed", "reliquat", "code_"),
    [
        ("ZZEAUIT", "", "draw_not_in_bag"),  # one Z in the set
        ("BLR", "AEI", "draw_rack_short"),
        ("BLRNS", "AEI", "draw_rack_too_big"),
        ("AEO+BLRN", "AEI", "typed_reliquat"),
    ],
)
def test_a_rack_the_table_cannot_have_drawn_is_refused_with_the_reason(typed, reliquat, code_):
    with pytest.raises(TypedRackError) as refused:
        read_typed_rack(typed, tiles(reliquat), full_bag_without(reliquat), 3)
    assert refused.value.message.code == code_


def test_at_the_end_of_the_bag_fewer_new_letters_are_typed():
    rack = read_typed_rack("BL", tiles("AEIO"), Bag(tiles("BL")), 20)
    assert (rack.reliquat, rack.new, rack.text) == (tiles("AEIO"), tiles("BL"), "AEIO+BL")


def test_text_that_is_no_rack_is_a_notation_error():
    with pytest.raises(NotationError):
        read_typed_rack("AB1", (), Bag.full(), 1)
