"""Game records (duplicate-game/1): parse, replay, write (rules §1.3, §3.1, §5)."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.alphabet import BLANK_FLAG, code
from engine.board import square
from engine.notation import parse_rack
from engine.record import (
    FORMAT,
    GameRecord,
    RecordError,
    RecordRound,
    check,
    dumps,
    from_plays,
    load,
    parse,
    to_dict,
)
from tests.conftest import REFERENCE_GAMES

GAME_PATHS = sorted(REFERENCE_GAMES.glob("game-*.json"))


def _text(name: str = "game-001.json") -> str:
    return (REFERENCE_GAMES / name).read_text(encoding="utf-8")


def _data(name: str = "game-001.json") -> dict:
    return json.loads(_text(name))


def _failure(data, lexicon) -> RecordError:
    with pytest.raises(RecordError) as caught:
        load(data, lexicon)
    return caught.value


def _broken_round(number: int, name: str = "game-001.json", **changes) -> dict:
    """A copy of a reference game with some keys of one round (1-based) changed."""
    data = copy.deepcopy(_data(name))
    data["rounds"][number - 1].update(changes)
    return data


# -- the reference games ------------------------------------------------------------


def test_there_are_twenty_reference_games():
    assert len(GAME_PATHS) == 20


@pytest.mark.parametrize("path", GAME_PATHS, ids=lambda p: p.name)
def test_reference_game_loads_and_its_total_matches(path, french):
    data = json.loads(path.read_text(encoding="utf-8"))
    record = load(path.read_text(encoding="utf-8"), french)
    assert len(record.rounds) == len(data["rounds"])
    assert record.total == data["total"] == sum(r["score"] for r in data["rounds"])


@pytest.mark.parametrize("path", GAME_PATHS, ids=lambda p: p.name)
def test_reference_game_round_trips_through_dumps(path, french):
    text = path.read_text(encoding="utf-8")
    assert json.loads(dumps(load(text, french))) == json.loads(text)


def test_dumps_lays_out_the_file_like_the_reference_games(french):
    assert dumps(load(_text(), french)) == _text()


@pytest.mark.parametrize("path", GAME_PATHS, ids=lambda p: p.name)
def test_from_plays_rebuilds_a_reference_game_from_its_racks_and_plays(path, french):
    record = parse(path.read_text(encoding="utf-8"))
    replayed = check(record, french)
    rebuilt = from_plays(
        record.lexicon,
        [r.rack for r in record.rounds],
        replayed.plays,
        tied=[r.tied for r in record.rounds],
        seed=record.seed,
    )
    assert rebuilt == record


def test_first_round_of_game_one_reads_as_the_format_shows():
    first = parse(_text()).rounds[0]
    assert str(first.rack) == "VDFIR?A"
    assert str(first.ref) == "H4"
    assert (first.word, first.score, first.tied) == ("FAVoRI", 30, 1)


def test_replay_gives_the_board_after_each_round(french):
    replayed = check(parse(_text()), french)
    assert replayed.board_after(0).is_empty()
    after_one = replayed.board_after(1)
    assert after_one.tile_count() == 6
    assert after_one.cells[square(7, 6)] == code("O") | BLANK_FLAG  # FAVoRI's blank on H7
    assert replayed.board_after(len(replayed.plays)).tile_count() == sum(len(p.tiles) for p in replayed.plays)


def test_bytes_with_a_byte_order_mark_load(french):
    record = load(b"\xef\xbb\xbf" + _text().encode("utf-8"), french)
    assert record.total == 810


def test_a_decoded_object_loads(french):
    assert load(_data(), french) == load(_text(), french)


def test_last_rack_written_with_a_plus_reads_as_its_reliquat(french):
    # game-008 ends on "CEJP": the bag is empty and the reliquat is the whole rack.
    data = _broken_round(24, "game-008.json", rack="CEJP+")
    assert load(data, french).total == 963


def test_optional_keys_are_written_only_when_set():
    record = parse(_text())
    bare = dataclasses.replace(
        record,
        seed=None,
        rounds=tuple(dataclasses.replace(r, tied=None) for r in record.rounds),
    )
    data = to_dict(bare)
    assert list(data) == ["format", "lexicon", "rounds", "total"]
    assert all("tied" not in r for r in data["rounds"])


def test_title_and_date_survive_a_round_trip(french):
    data = _data()
    data.update(title="Simultané de printemps", date="2024-04-06")
    record = load(data, french)
    assert (record.title, record.date) == ("Simultané de printemps", "2024-04-06")
    assert json.loads(dumps(record)) == data
    assert "Simultané" in dumps(record)


def test_total_is_the_sum_of_the_rounds():
    rack = parse_rack("ABCDEFG")
    ref = parse(_text()).rounds[0].ref
    record = GameRecord("x", (RecordRound(rack, ref, "AB", 10), RecordRound(rack, ref, "CD", 12)))
    assert record.total == 22


def test_from_plays_wants_one_rack_per_play(french):
    record = parse(_text())
    plays = check(record, french).plays
    with pytest.raises(ValueError, match="racks"):
        from_plays(record.lexicon, [r.rack for r in record.rounds][:-1], plays)


# -- the lexicon's name ---------------------------------------------------------------


def test_checking_with_a_list_of_another_name_warns_but_replays(french):
    renamed = dataclasses.replace(french, name="ods-du-club")
    replayed = check(parse(_text()), renamed)
    assert [w.code for w in replayed.warnings] == ["record_lexicon_name"]
    assert "ods-du-club" in replayed.warnings[0].text("fr")
    assert len(replayed.plays) == 23


def test_checking_with_the_named_list_gives_no_warning(french):
    assert check(parse(_text()), french).warnings == ()


# -- errors in a round ------------------------------------------------------------------


def test_wrong_score_names_the_round_and_both_scores(french):
    err = _failure(_broken_round(5, score=37) | {"total": 812}, french)
    assert (err.round, err.reason.code) == (5, "record_score")
    assert err.message.text("fr") == "Tour 5 : score annoncé 37, score réel 35."


def test_word_not_in_the_lexicon(french):
    err = _failure(_broken_round(1, word="FAVoRD"), french)
    assert (err.round, err.reason.code) == (1, "move_word_not_in_lexicon")
    assert err.message.text("fr").startswith("Tour 1 : le mot FAV")
    assert "n'est pas dans le dictionnaire" in err.message.text("fr")


def test_letter_not_in_the_rack(french):
    # The rack has a blank but no O: an upper-case O must come from the rack.
    err = _failure(_broken_round(1, word="FAVORI"), french)
    assert (err.round, err.reason.code) == (1, "move_not_in_rack")
    assert err.message.text("fr") == "Tour 1 : lettres absentes du tirage : O."


def test_move_that_cannot_be_placed(french):
    err = _failure(_broken_round(2, ref="A1"), french)
    assert (err.round, err.reason.code) == (2, "move_not_connected")


def test_move_that_contradicts_the_board(french):
    # TAJINE down from G5 crosses FAVoRI's A on H5; one square left it meets F on H4.
    err = _failure(_broken_round(4, ref="4G"), french)
    assert (err.round, err.reason.code) == (4, "move_contradicts_board")


def test_wrong_reliquat(french):
    err = _failure(_broken_round(2, rack="I+DBHIQE"), french)
    assert (err.round, err.reason.code) == (2, "record_reliquat_wrong")
    assert err.message.text("fr").startswith("Tour 2 : le reliquat ne correspond pas au tirage précédent")
    assert "il reste D, pas I" in err.message.text("fr")


def test_missing_reliquat_without_a_rejection(french):
    err = _failure(_broken_round(2, rack="DIBHIQE"), french)
    assert (err.round, err.reason.code) == (2, "record_reliquat_missing")


def test_reliquat_after_a_top_that_used_every_tile(french):
    # Round 6 (FESTOYES) placed all seven tiles; round 7 was drawn whole.
    err = _failure(_broken_round(7, rack="S+UAATSU"), french)
    assert (err.round, err.reason.code) == (7, "record_reliquat_extra")


def test_first_rack_has_no_reliquat(french):
    err = _failure(_broken_round(1, rack="VD+FIR?A"), french)
    assert (err.round, err.reason.code) == (1, "record_first_reliquat")


def test_rejection_returns_the_reliquat_to_the_bag(french):
    data = _broken_round(2, rack="-DIBHIQE")
    assert load(data, french).rounds[1].rack.rejected


def test_vertical_first_move(french):
    err = _failure(_broken_round(1, ref="4H"), french)
    assert (err.round, err.reason.code) == (1, "record_first_vertical")
    assert err.message.text("fr").startswith("Tour 1 : le premier coup se joue horizontalement")


def test_first_move_away_from_the_centre(french):
    err = _failure(_broken_round(1, ref="G4"), french)
    assert (err.round, err.reason.code) == (1, "move_first_not_on_center")


def test_rack_of_eight_tiles(french):
    err = _failure(_broken_round(3, rack="BDIIQ+JTK"), french)
    assert (err.round, err.reason.code) == (3, "rack_size")
    assert err.message.text("fr") == "Tour 3 : un tirage a au plus 7 lettres (ici 8)."


def test_rack_with_tiles_no_longer_in_the_bag(french):
    # Round 1 used one of the two blanks: a second and third cannot be drawn.
    err = _failure(_broken_round(2, rack="D+IBH??E"), french)
    assert (err.round, err.reason.code) == (2, "draw_not_in_bag")


def _first_rounds(data: dict, count: int) -> dict:
    data["rounds"] = data["rounds"][:count]
    data["total"] = sum(r["score"] for r in data["rounds"])
    return data


def test_short_rack_while_the_bag_lasts_loads_with_a_warning(french):
    # A drawing slip, not an impossible game: the tops still replay (the format's errors are
    # unplaceable moves, letters not in the rack and wrong scores).
    game = check(parse(_first_rounds(_broken_round(2, rack="D+IBHE"), 2)), french)
    assert [(w.code, w.params["round"]) for w in game.warnings] == [("record_in_round", 2)]
    assert "7" in game.warnings[0].text("fr")


def test_rack_below_the_minimum_that_was_not_rejected_loads_with_a_warning(french):
    game = check(parse(_first_rounds(_broken_round(2, rack="D+BHQKEZ"), 2)), french)
    assert [(w.code, w.params["round"]) for w in game.warnings] == [("record_in_round", 2)]
    assert game.warnings[0].text("fr").startswith("Tour 2 : ")


def test_blank_on_the_board_written_upper_case(french):
    # game-003 round 8, 8A HARGnE: the n on E8 is a blank placed earlier.
    err = _failure(_broken_round(8, "game-003.json", word="HARGNE"), french)
    assert (err.round, err.reason.code) == (8, "record_blank_on_board")
    assert err.reason.params == {"square": "E8", "letter": "N"}


def test_letter_on_the_board_written_lower_case(french):
    # Round 4, 5G TAJINE: the A on H5 is FAVoRI's real A.
    err = _failure(_broken_round(4, word="TaJINE"), french)
    assert (err.round, err.reason.code) == (4, "record_letter_on_board")
    assert err.reason.params == {"square": "H5", "letter": "A"}


def test_round_error_reads_in_english_too(french):
    err = _failure(_broken_round(1, word="FAVORI"), french)
    assert err.message.text("en") == "Round 1: letters not in the rack: O."
    assert str(err) == "Round 1: letters not in the rack: O."


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"score": "30"}, "record_not_integer"),
        ({"score": -1}, "record_not_integer"),
        ({"score": True}, "record_not_integer"),
        ({"tied": 0}, "record_not_integer"),
        ({"rack": ""}, "record_not_text"),
        ({"rack": "VD#FIRA"}, "rack_char"),
        ({"ref": "Z4"}, "ref_row"),
        ({"word": "FAV0RI"}, "word_char"),
        ({"comment": "beau coup"}, "record_unknown_key"),
    ],
)
def test_malformed_round_names_the_round(changes, code):
    with pytest.raises(RecordError) as caught:
        parse(_broken_round(3, **changes))
    assert (caught.value.round, caught.value.reason.code) == (3, code)
    assert caught.value.message.text("fr").startswith("Tour 3 : ")


def test_missing_round_key_names_the_round():
    data = _data()
    del data["rounds"][3]["score"]
    with pytest.raises(RecordError) as caught:
        parse(data)
    assert (caught.value.round, caught.value.reason.code) == (4, "record_missing_key")
    assert caught.value.message.text("fr") == "Tour 4 : clé « score » manquante."


def test_a_round_that_is_not_an_object():
    data = _data()
    data["rounds"][1] = ["D+IBHIQE", "G8", "EH", 20]
    with pytest.raises(RecordError) as caught:
        parse(data)
    assert (caught.value.round, caught.value.reason.code) == (2, "record_round_not_object")


# -- errors in the file as a whole ------------------------------------------------------------


def _file_failure(data) -> RecordError:
    with pytest.raises(RecordError) as caught:
        parse(data)
    assert caught.value.round is None
    assert not caught.value.message.text("fr").startswith("Tour")
    return caught.value


def test_bad_json_says_where():
    err = _file_failure(_text()[:200])
    assert err.reason.code == "record_json"
    assert "ligne" in err.message.text("fr")


def test_bytes_that_are_not_utf8():
    assert _file_failure(b"\xff\xfe{}").reason.code == "record_encoding"


def test_unknown_format():
    err = _file_failure(_data() | {"format": "duplicate-game/3"})
    assert err.reason.code == "record_format"
    assert err.message.text("fr").startswith("Format inconnu")


def test_a_version_2_record_names_its_letter_set():
    assert _file_failure(_data() | {"format": "duplicate-game/2"}).reason.code == "record_letters"
    err = _file_failure(_data() | {"format": "duplicate-game/2", "letters": "tlh"})
    assert err.reason.code == "letters_unknown"
    assert "tlh" in err.message.text("fr") and "es" in err.message.text("en")


def test_a_version_1_record_is_french_and_names_no_letter_set():
    assert _file_failure(_data() | {"letters": "fr"}).reason.code == "record_letters_v1"


def test_missing_format():
    data = _data()
    del data["format"]
    assert _file_failure(data).reason.code == "record_missing_key"


def test_missing_total():
    data = _data()
    del data["total"]
    err = _file_failure(data)
    assert err.reason.code == "record_missing_key"
    assert err.message.text("fr") == "Clé « total » manquante."


def test_wrong_total():
    err = _file_failure(_data() | {"total": 800})
    assert err.reason.code == "record_total"
    assert err.message.text("fr") == "Total annoncé 800, somme des tours 810."


def test_no_rounds():
    assert _file_failure(_data() | {"rounds": [], "total": 0}).reason.code == "record_no_rounds"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"lexicon": 3}, "record_not_text"),
        ({"lexicon": ""}, "record_not_text"),
        ({"rounds": {}}, "record_not_list"),
        ({"total": 810.0}, "record_not_integer"),
        ({"seed": None}, "record_seed"),
        ({"title": ["a"]}, "record_not_text"),
        ({"author": "moi"}, "record_unknown_key"),
    ],
)
def test_wrong_types_at_the_top(changes, code):
    assert _file_failure(_data() | changes).reason.code == code


def test_not_an_object_at_the_top():
    assert _file_failure("[1, 2, 3]").reason.code == "record_game_not_object"


def test_duplicate_key():
    text = _text().replace('"total": 810', '"total": 810, "total": 810')
    assert _file_failure(text).reason.code == "record_duplicate_key"


def test_deep_nesting_is_a_record_error():
    assert _file_failure("[" * 100_000 + "]" * 100_000).reason.code == "record_json_unreadable"


def test_a_number_past_the_digit_limit_is_a_record_error():
    assert _file_failure('{"total": ' + "1" * 5000 + "}").reason.code == "record_json_unreadable"


# -- parse never fails otherwise ---------------------------------------------------------------

_json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


#: Keys of the format plus one it does not know, where damage is done.
_GAME_TARGETS = ["format", "lexicon", "rounds", "total", "title", "date", "seed", "extra"]
_ROUND_TARGETS = ["rack", "ref", "word", "score", "tied", "extra"]
_DELETE = object()


def _sound_record() -> dict:
    """The first three rounds of game-001, as the format page shows them."""
    data = _data()
    data["rounds"] = data["rounds"][:3]
    data["total"] = sum(r["score"] for r in data["rounds"])
    return data


@st.composite
def _damaged_records(draw) -> dict:
    """A sound record with one to three keys deleted or replaced by any JSON-like value."""
    data = _sound_record()
    rounds = data["rounds"]
    for _ in range(draw(st.integers(1, 3))):
        # Rounds are damaged only while the list of rounds itself is still there.
        if data.get("rounds") is rounds and draw(st.booleans()):
            target = draw(st.sampled_from(rounds))
            key = draw(st.sampled_from(_ROUND_TARGETS))
        else:
            target, key = data, draw(st.sampled_from(_GAME_TARGETS))
        value = draw(st.just(_DELETE) | _json_like)
        if value is _DELETE:
            target.pop(key, None)
        else:
            target[key] = value
    return data


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_json_like | _damaged_records())
def test_parse_of_any_json_like_data_raises_only_record_error(data):
    for form in (data, json.dumps(data)):
        try:
            record = parse(form)
        except RecordError as e:
            assert e.message.text("fr")
        else:
            assert json.loads(dumps(record))["format"] == FORMAT


def test_the_sound_record_of_the_damage_test_parses():
    assert parse(_sound_record()).total == 65


@settings(max_examples=200)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_parse_of_any_text_or_bytes_raises_only_record_error(data):
    with pytest.raises(RecordError):
        parse(data)
