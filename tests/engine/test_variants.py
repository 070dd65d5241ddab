"""Original games (docs/rules/variants.md): the joker game, the explosive game and seven among eight.

Whole games are played from seeds by the engine's own rules; every top is scored again by the
independent scorer (``scoring.evaluate``) on the board it was played on, and each variant's rules
are checked on every round.  Hand-made positions give the rest: known answers and refusals.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from engine import record
from engine.alphabet import BLANK, BLANK_FLAG, LETTER_MASK, code, is_blank
from engine.board import Board
from engine.choice import choose, ends_game
from engine.cli import play_game
from engine.draw import (
    Bag,
    Draw,
    EndReason,
    check_typed_rack,
    draw_rack,
    drawable,
    explode,
    game_over,
    meets_minimum,
    required_minimum,
)
from engine.grading import Mode, Sanction, ZeroReason, grade_text
from engine.messages import LANGUAGES, Message, known
from engine.movegen import Position, Tops, find_best, find_tops
from engine.notation import NotationError, Ref, parse_rack
from engine.play import Play
from engine.scoring import Illegal, Reason, evaluate, word_placements
from engine.typed import read_typed_rack
from engine.variants import UnknownVariant, Variant, after_top
from tests.helpers import tiny

JOKER, EXPLOSIVE, SEVEN = Variant.JOKER, Variant.EXPLOSIVE, Variant.SEVEN_OF_EIGHT
FULL = Counter(Bag.full().tiles())
SEEDS = (1, 2, 3, 4, 5)
#: TRANSIES takes every tile of its 8-tile rack; SATINER, 7 of them.
LEX = tiny("TRANSIES", "SATINER", "AT", "MER", "ET", "ARBRES", "BRAS")


def codes(text: str) -> tuple[int, ...]:
    return tuple(code(ch) for ch in text)


def word(text: str) -> list[int]:
    """Board tiles of a word: lower case is a blank."""
    return [code(ch.upper()) | BLANK_FLAG if ch.islower() else code(ch) for ch in text]


# -- the value ---------------------------------------------------------------------------------


def test_each_variant_has_its_code_sizes_and_names():
    assert [v.value for v in Variant] == ["classic", "joker", "explosive", "7of8"]
    assert [v.rack_size for v in Variant] == [7, 7, 7, 8]
    assert {v.played_max for v in Variant} == {v.bingo_size for v in Variant} == {7}
    assert [v.original for v in Variant] == [False, True, True, True]
    assert [v.free_warnings for v in Variant] == [3, 5, 5, 5]
    assert SEVEN.limits == {"played_max": 7, "bingo_size": 7}
    for variant in Variant:
        assert variant.message.code == f"variant_{variant.value}" and known(variant.message.code)
        assert all(variant.message.text(lang) for lang in LANGUAGES)
    assert JOKER.message.text("fr") == "Partie joker" and SEVEN.message.text("en") == "Seven among eight"


def test_a_variant_is_read_from_its_code_and_an_unknown_one_is_refused_in_words():
    assert Variant.parse(" Joker ") is JOKER and Variant.parse("7of8") is SEVEN
    for bad in ("sept", 7, None):
        with pytest.raises(UnknownVariant) as caught:
            Variant.parse(bad)
        assert "classic, joker, explosive, 7of8" in caught.value.message.text("fr")
        assert caught.value.message.text("en").startswith("Unknown variant")


# -- whole games from seeds ------------------------------------------------------------------------


@dataclass
class Round:
    number: int
    unplayed: tuple[int, ...]  # bag + reliquat before the draw
    draw: Draw
    bag: tuple[int, ...]  # after the draw
    board: Board  # before the top
    tops: Tops
    top: Play


def _play(variant: Variant, seed: int, lexicon) -> tuple[list[Round], Board, tuple[int, ...]]:
    """A game by the rules, as ``cli.play_game`` plays it, keeping what the checks need; the last
    board and the tiles left unplayed."""
    rng, letters = random.Random(seed), lexicon.letters
    bag, board, reliquat, rounds, number = Bag.full(letters), Board(), (), [], 1
    while True:

        def search(tiles, number=number):
            return find_tops(Position(board.copy(), tuple(tiles), lexicon, number == 1, **variant.limits))

        unplayed = bag.tiles() + reliquat
        draw = draw_rack(reliquat, bag, number, rng, variant=variant, search=search)
        if draw.end:
            return rounds, board, unplayed
        tops = search(draw.tiles)
        top = choose(tops.plays, draw.tiles, bag.tiles(), letters, variant)
        rounds.append(Round(number, unplayed, draw, bag.tiles(), board.copy(), tops, top))
        placed = after_top(variant, draw.tiles, top, bag.tiles())
        board.place(placed.tiles)
        bag, reliquat, number = Bag(placed.bag, letters), placed.reliquat, number + 1


@pytest.fixture(scope="module")
def games(french):
    return {(v, seed): _play(v, seed, french) for v in (JOKER, EXPLOSIVE, SEVEN) for seed in SEEDS}


@pytest.mark.parametrize("variant", [JOKER, EXPLOSIVE, SEVEN], ids=lambda v: v.value)
def test_every_top_is_the_scorers_score_and_no_tile_is_lost(variant, games, french):
    for seed in SEEDS:
        rounds, board, unplayed = games[variant, seed]
        assert len(rounds) > 10
        for r in rounds:
            assert r.top.score == r.tops.score and r.top in r.tops.plays
            tiles = [dict(r.top.tiles).get(sq) or r.board.cells[sq] for sq in _squares(r.top)]
            again = evaluate(r.board, french, r.top.ref, tiles, r.draw.tiles, **variant.limits)
            assert not isinstance(again, Illegal) and again.score == r.top.score, (seed, r.number)
            # Every tile is in the bag, on the rack or on the board (a blank as BLANK).
            on_board = [BLANK if is_blank(t) else t for t in filter(None, r.board.cells)]
            assert Counter(r.bag) + Counter(r.draw.tiles) + Counter(on_board) == FULL
        on_board = [BLANK if is_blank(t) else t for t in filter(None, board.cells)]
        assert Counter(unplayed) + Counter(on_board) == FULL
        assert game_over(unplayed, french.letters, variant) is not None


def _squares(play: Play) -> list[int]:
    step = 1 if play.ref.horizontal else 15
    return [play.ref.square + i * step for i in range(len(play.word))]


def test_joker_every_rack_holds_one_blank_and_a_played_blank_comes_back(games):
    recycled = stuck = 0
    for seed in SEEDS:
        rounds, _board, _unplayed = games[JOKER, seed]
        for r, following in zip(rounds, [*rounds[1:], None]):
            assert r.draw.tiles.count(BLANK) == (1 if BLANK in r.unplayed else 0), (seed, r.number)
            laid = [(sq, t & LETTER_MASK) for sq, t in r.top.tiles if is_blank(t)]
            if following is None:
                continue
            kept = Counter(r.draw.tiles) - Counter(BLANK if is_blank(t) else t for _sq, t in r.top.tiles)
            for sq, letter in laid:
                if letter in r.bag:  # the bag proper: the rack's own tiles are not counted
                    assert following.board.cells[sq] == letter  # the real tile, no blank flag
                    kept[BLANK] += 1
                    recycled += 1
                else:
                    assert following.board.cells[sq] == letter | BLANK_FLAG
                    stuck += 1
            if not following.draw.rejected:
                assert Counter(following.draw.reliquat) == kept
            # A swapped letter stays a real letter on the board for the rest of the game.
            for sq, letter in laid:
                assert all(later.board.cells[sq] & LETTER_MASK == letter for later in rounds[r.number :])
    assert recycled > 5 and stuck >= 1


def test_explosive_a_new_blank_becomes_the_letter_of_the_best_move_when_the_bag_has_it(games, french):
    exploded = kept = 0
    for seed in SEEDS:
        rounds, _board, _unplayed = games[EXPLOSIVE, seed]
        for r in rounds:
            assert r.draw.tiles.count(BLANK) <= 1
            letter = r.draw.exploded
            before = list(r.draw.new)
            if letter is not None:
                exploded += 1
                assert BLANK not in r.draw.tiles and letter in r.draw.new
                # The blank went back: the bag holds every blank not on the board.
                assert r.bag.count(BLANK) == r.unplayed.count(BLANK)
                before[before.index(letter)] = BLANK
            elif BLANK in r.draw.new:
                kept += 1
            else:
                continue
            rack = tuple(r.draw.reliquat) + tuple(before)
            tops = find_tops(Position(r.board, rack, french, r.number == 1))
            best = min(tops.plays, key=_proposal_order)
            laid = [t & LETTER_MASK for _sq, t in best.tiles if is_blank(t)]
            bag = r.bag if letter is None else (*r.bag, letter)
            minimum = required_minimum(r.number, r.unplayed, french.letters, EXPLOSIVE)
            swapped = [laid[0] if t == BLANK else t for t in rack] if laid else rack
            should = bool(laid) and laid[0] in bag and meets_minimum(swapped, minimum, french.letters)
            assert (letter is not None) == should and (letter is None or letter == laid[0]), (seed, r.number)
    assert exploded > 3 and kept >= 1


def _proposal_order(play: Play):
    """§3.3.5's order of tied tops, the end of the game left out: the explosion's best move."""
    return play.blanks, play.ref.row, play.ref.col, not play.ref.horizontal, play.word


def test_seven_of_eight_racks_hold_eight_tiles_and_a_top_seven_at_most(games, french):
    bingos = 0
    for seed in SEEDS:
        rounds, _board, _unplayed = games[SEVEN, seed]
        for r in rounds:
            assert len(r.draw.tiles) == min(8, len(r.unplayed)), (seed, r.number)
            assert all(len(p.tiles) <= 7 for p in r.tops.plays)
            if len(r.top.tiles) == 7:
                bingos += 1
                tiles = [dict(r.top.tiles).get(sq) or r.board.cells[sq] for sq in _squares(r.top)]
                plain = evaluate(r.board, french, r.top.ref, tiles, r.draw.tiles, bingo_size=0)
                assert r.top.score - plain.score == 50
    assert bingos > 3


@pytest.mark.parametrize("variant", [JOKER, EXPLOSIVE, SEVEN], ids=lambda v: v.value)
def test_the_command_lines_game_is_the_same_game_and_its_record_round_trips(variant, games, french):
    rounds, board, _unplayed = games[variant, 1]
    game = play_game(1, french, variant)
    assert [str(r.rack) for r in game.rounds] == [r.draw.rack_text for r in rounds]
    assert [(r.ref, r.word, r.score) for r in game.rounds] == [
        (r.top.ref, r.top.word, r.top.score) for r in rounds
    ]
    text = record.dumps(game)
    data = json.loads(text)
    assert (data["format"], data["letters"], data["variant"]) == ("duplicate-game/2", "fr", variant.value)
    parsed = record.parse(text)
    assert parsed == game and record.dumps(parsed) == text
    replayed = record.check(parsed, french)
    assert replayed.warnings == ()
    assert replayed.board_after(len(rounds)).cells == board.cells
    assert replayed.board_after(3).cells == rounds[3].board.cells


# -- the draw -------------------------------------------------------------------------------------


def test_joker_racks_take_one_blank_and_no_second_one():
    for seed in range(40):
        bag = Bag.full()
        draw = draw_rack((), bag, 1, random.Random(seed), variant=JOKER)
        assert draw.tiles.count(BLANK) == 1 and draw.new[0] == BLANK
        assert bag.tiles().count(BLANK) == 1
        kept = draw_rack((BLANK,), Bag(bag.tiles()), 2, random.Random(seed), variant=JOKER)
        assert kept.tiles.count(BLANK) == 1 and (BLANK not in kept.new or kept.rejected)
    bag = Bag(t for t in Bag.full().tiles() if t != BLANK)
    assert BLANK not in draw_rack((), bag, 1, random.Random(1), variant=JOKER).tiles


def test_the_classic_draw_is_unchanged_by_the_variant_machinery():
    for seed in range(20):
        a, b = Bag.full(), Bag.full()
        old = draw_rack((), a, 1, random.Random(seed))
        new = draw_rack((), b, 1, random.Random(seed), variant=Variant.CLASSIC)
        assert old == new and a.tiles() == b.tiles()


def test_seven_of_eight_draws_eight_and_the_end_reads_the_tiles_a_rack_can_still_take():
    draw = draw_rack((), Bag.full(), 1, random.Random(4), variant=SEVEN)
    assert len(draw.tiles) == 8 and len(draw.rack_text) == 8
    # A joker game's rack takes one blank: two blanks alone cannot make a rack.
    assert game_over(codes("??"), variant=JOKER) is EndReason.TOO_FEW_TILES
    assert game_over(codes("??")) is None
    assert drawable(codes("??AB"), JOKER) == codes("AB?") and drawable(codes("??AB")) == codes("??AB")


def test_an_explosive_draw_needs_the_top_search():
    with pytest.raises(ValueError):
        draw_rack((), Bag.full(), 1, random.Random(1), variant=EXPLOSIVE)


def _explode(new: str, bag: Bag | None = None, reliquat: str = "") -> tuple[Draw, Bag]:
    bag = bag or Bag.full()
    bag.take(codes(new))
    draw = Draw(codes(reliquat), codes(new))
    search = lambda tiles: find_tops(Position(Board(), tiles, LEX, True))  # noqa: E731
    return explode(draw, bag, 1, search, EXPLOSIVE), bag


def test_explode_swaps_the_blank_for_the_letter_of_the_best_move():
    # ARBREs is the only word: the blank becomes an S, the blank goes back to the bag.
    draw, bag = _explode("?ARBREX")
    assert draw.new == codes("SARBREX") and draw.exploded == code("S")
    assert Counter(bag.tiles())[BLANK] == 2 and Counter(bag.tiles())[code("S")] == FULL[code("S")] - 1


def test_explode_keeps_the_blank_without_the_letter_a_kept_blank_or_below_the_minimum():
    no_s = Bag(t for t in Bag.full().tiles() if t != code("S"))
    assert _explode("?ARBREX", no_s)[0].exploded is None
    kept, _bag = _explode("ARBREX", reliquat="?")
    assert kept.exploded is None and kept.reliquat == codes("?")
    # BRAs: an S would leave A the rack's only vowel, below the 2 + 2 of round 1.
    low, bag = _explode("?ABRRTT")
    assert low.exploded is None and low.new == codes("?ABRRTT") and Counter(bag.tiles())[BLANK] == 1
    assert explode(Draw((), codes("?ARBREX")), Bag.full(), 1, None, JOKER).exploded is None


def test_a_typed_rack_follows_the_variants_size_and_its_blank():
    assert check_typed_rack((), codes("AEIBLRNS"), Bag.full(), 1, variant=SEVEN) == []
    assert [m.code for m in check_typed_rack((), codes("AEIBLRNS"), Bag.full(), 1)] == ["draw_rack_too_big"]
    over = check_typed_rack((), codes("AEIBLRNST"), Bag.full(), 1, variant=SEVEN)
    assert [m.code for m in over] == ["rack_size_most"] and "8" in over[0].text("fr")
    short = check_typed_rack((), codes("AEIBLRN"), Bag.full(), 1, variant=SEVEN)
    assert [(m.code, m.params["expected"]) for m in short] == [("draw_rack_short", 8)]
    missing = check_typed_rack((), codes("AEIBLRN"), Bag.full(), 1, variant=JOKER)
    assert [m.code for m in missing] == ["draw_joker_missing"]
    assert all(m.text(lang) for m in missing for lang in LANGUAGES)
    assert [m.code for m in check_typed_rack(codes("?"), codes("?EIBLR"), Bag.full(), 2, variant=JOKER)] == [
        "draw_joker_two"
    ]
    no_blank = Bag(t for t in Bag.full().tiles() if t != BLANK)
    assert check_typed_rack((), codes("AEIBLRN"), no_blank, 1, variant=JOKER) == []
    assert check_typed_rack(codes("?"), codes("EIBLRN"), Bag.full(), 2, variant=EXPLOSIVE) == []


def test_a_typed_rack_of_eight_reads_in_seven_among_eight_only():
    rack = read_typed_rack("AEIBLRNS", (), Bag.full(), 1, variant=SEVEN)
    assert rack.tiles == codes("AEIBLRNS") and rack.rejection is None
    with pytest.raises(NotationError) as caught:
        read_typed_rack("AEIBLRNS", (), Bag.full(), 1)
    assert caught.value.message.code == "rack_size"
    assert parse_rack("AEI+BLRNS", most=8).new == codes("BLRNS")


# -- the top placed -----------------------------------------------------------------------------


def test_a_joker_games_blank_is_swapped_for_its_letter_which_later_words_score():
    rack = codes("M?R")
    play = evaluate(Board(), LEX, Ref(7, 6, True), word("MeR"), rack)
    assert play.score == 6  # (M2 + blank 0 + R1) x 2 on the star: the blank scores nothing this move
    after = after_top(JOKER, rack, play, codes("EEA"))
    assert after.tiles == ((7 * 15 + 6, code("M")), (7 * 15 + 7, code("E")), (7 * 15 + 8, code("R")))
    assert after.reliquat == codes("?") and after.bag == codes("AE") and after.replaced == ((112, code("E")),)
    board, stuck = Board(), Board()
    board.place(after.tiles)
    stuck.place(after_top(JOKER, rack, play, codes("A")).tiles)
    # ET down from the E: the real E is worth 1 point, a blank left there 0.
    assert evaluate(board, LEX, Ref(7, 7, False), word("ET"), codes("T")).score == 2
    assert evaluate(stuck, LEX, Ref(7, 7, False), word("eT"), codes("T")).score == 1
    for variant in (Variant.CLASSIC, EXPLOSIVE, SEVEN):
        other = after_top(variant, rack, play, codes("EEA"))
        assert other.tiles == play.tiles and other.reliquat == () and other.bag == codes("AEE")


def test_whether_a_top_ends_a_joker_game_reads_the_blank_back_on_the_rack():
    play = Play(Ref(7, 7, False), "e", ((7 * 15 + 7, code("E") | BLANK_FLAG),), 0)
    rack, bag = codes("?A"), codes("E")
    assert ends_game(play, rack, bag)  # classic: A and E are left, vowels only
    assert not ends_game(play, rack, bag, variant=JOKER)  # joker: the E is on the board, A and ? left


# -- scoring, search and grading with eight tiles --------------------------------------------------


def test_eight_tiles_are_no_move_and_seven_of_eight_earn_the_bonus():
    rack = codes("AEINRSST")
    refused = evaluate(Board(), LEX, Ref(7, 0, True), word("TRANSIES"), rack, **SEVEN.limits)
    assert isinstance(refused, Illegal) and refused.reasons == {Reason.TOO_MANY_TILES}
    assert refused.problems[0].message.text("fr") == "Un coup pose au plus 7 lettres du tirage (ici 8)."
    assert refused.problems[0].message.text("en") == "A move places at most 7 tiles from the rack (here 8)."
    assert evaluate(Board(), LEX, Ref(7, 1, True), word("SATINER"), rack, **SEVEN.limits).score == 66
    assert word_placements(Board(), LEX, word("TRANSIES"), rack, first_move=True, **SEVEN.limits) == []
    assert len(word_placements(Board(), LEX, word("SATINER"), rack, first_move=True, **SEVEN.limits)) == 7


def test_the_search_never_lays_eight_tiles():
    position = Position(Board(), codes("AEINRSST"), LEX, True, **SEVEN.limits)
    tops = find_tops(position)
    assert tops.score == 66 and {p.word for p in tops.plays} == {"SATINER"}
    assert all(len(p.tiles) <= 7 for p in find_best(position, 50))
    eight = find_tops(Position(Board(), codes("AEINRSST"), LEX, True, played_max=8, bingo_size=8))
    assert eight.score == 104 and {p.word for p in eight.plays} == {"TRANSIES"}


def _slip(position: Position, text: str):
    return grade_text(position, text, Mode.FISF)


def test_a_slip_laying_eight_tiles_is_a_zero_that_says_why():
    first = Position(Board(), codes("AEINRSST"), LEX, True, **SEVEN.limits)
    board = Board()
    board.cells[6 * 15] = code("A")  # AT down column 1 once TRANSIES sits on row H
    later = Position(board, codes("AEINRSST"), LEX, False, **SEVEN.limits)
    for position, text in ((first, "H1 TRANSIES 104"), (first, "TRANSIES"), (later, "H1 TRANSIES 80")):
        result = _slip(position, text)
        assert (result.paid, result.sanction, result.reason) == (0, Sanction.ZERO, ZeroReason.PLACE), text
        assert result.message == Message("grade_zero_too_many", {"most": 7, "count": 8})
        assert result.message.text("fr") == "0 — un coup pose au plus 7 lettres du tirage (ici 8)."
    assert _slip(first, "H2 SATINER 66").paid == 66


# -- records -------------------------------------------------------------------------------------


def _record(variant: str | None, rounds: list[dict], fmt: str = "duplicate-game/2") -> dict:
    data = {"format": fmt, "letters": "fr", "lexicon": "tiny", "rounds": rounds}
    if variant is not None:
        data["variant"] = variant
    data["total"] = sum(r["score"] for r in rounds)
    return data


def test_a_record_names_its_variant_in_version_2_only():
    one = {"rack": "AEINRSST", "ref": "H2", "word": "SATINER", "score": 66}
    assert record.parse(_record("7of8", [one])).variant is SEVEN
    assert record.parse(_record(None, [{**one, "rack": "AEINRST"}])).variant is Variant.CLASSIC
    v1 = {k: v for k, v in _record("joker", [one]).items() if k != "letters"} | {"format": "duplicate-game/1"}
    with pytest.raises(record.RecordError) as caught:
        record.parse(v1)
    assert caught.value.reason.code == "record_variant_v1"
    for bad in ("sept", 7):
        with pytest.raises(record.RecordError) as caught:
            record.parse(_record(bad, [one]))
        assert caught.value.reason.code == "variant_unknown" and caught.value.round is None
        assert "joker" in caught.value.message.text("fr") and "joker" in caught.value.message.text("en")
    with pytest.raises(record.RecordError) as caught:
        record.parse(_record("7of8", [{**one, "rack": "AEINRSSTE"}]))
    assert caught.value.reason.code == "rack_size_most" and caught.value.round == 1
    with pytest.raises(record.RecordError) as caught:
        record.parse(_record(None, [one]))
    assert caught.value.reason.code == "rack_size"


def test_a_seven_of_eight_record_laying_eight_tiles_is_refused():
    eight = {"rack": "AEINRSST", "ref": "H1", "word": "TRANSIES", "score": 104}
    with pytest.raises(record.RecordError) as caught:
        record.check(record.parse(_record("7of8", [eight])), LEX)
    assert caught.value.round == 1 and caught.value.reason.code == "move_too_many_tiles"
    assert "au plus 7" in caught.value.message.text("fr")


def test_a_classic_french_record_stays_version_1_and_a_variant_one_is_version_2(french):
    classic = play_game(5, french)
    assert json.loads(record.dumps(classic))["format"] == "duplicate-game/1"
    assert "variant" not in record.dumps(classic)


def test_a_joker_record_writes_a_swapped_letter_as_a_real_one_afterwards(games, french):
    game = play_game(2, french, JOKER)
    data = record.to_dict(game)
    replayed = record.check(game, french)
    for number, placed in enumerate(replayed.placed, 1):
        swapped = {sq for (sq, t), (_s, p) in zip(placed, replayed.plays[number - 1].tiles) if t != p}
        for later in range(number, len(data["rounds"])):
            play = replayed.plays[later]
            squares = _squares(play)
            hit = [i for i, sq in enumerate(squares) if sq in swapped]
            if hit:
                text = data["rounds"][later]["word"]
                i = hit[0]
                data["rounds"][later]["word"] = text[:i] + text[i].lower() + text[i + 1 :]
                with pytest.raises(record.RecordError) as caught:
                    record.check(record.parse(data), french)
                assert caught.value.reason.code == "record_letter_on_board"
                assert caught.value.round == later + 1
                return
    pytest.skip("no later word crosses a swapped letter in this game")


def test_a_joker_record_rack_without_its_blank_loads_with_a_warning():
    one = {"rack": "AEINRST", "ref": "H2", "word": "SATINER", "score": 66}
    joker = record.check(record.parse(_record("joker", [one])), LEX)
    said = [w for w in joker.warnings if w.code == "record_in_round"]
    assert len(said) == 1 and "joker" in said[0].text("fr") and "blank" in said[0].text("en")
    # An explosive game's rack shows the letter its blank became: no warning.
    explosive = record.check(record.parse(_record("explosive", [one])), LEX)
    assert explosive.warnings == ()
