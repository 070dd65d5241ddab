"""Prepared games: a record sent to "start a game" is bounded (size, nesting, rounds, texts,
numbers) and nothing a database cannot hold reaches it (PostgreSQL refuses NUL in text and JSONB,
and no UTF-8 encoder takes half of a UTF-16 pair): such a record is refused, with a sentence naming
the key and the character, not cleaned.  Whatever the bytes, the answer is a game or the page with a
sentence: never an error page.  Runs on SQLite and on PostgreSQL (``DATABASE_URL``)."""

from __future__ import annotations

import copy
import json
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.record import MAX_BYTES, MAX_DEPTH, MAX_INTEGER, MAX_ROUNDS, MAX_TEXT, RecordError
from tests.conftest import REFERENCE_GAMES
from tournaments.models import Game

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
REFUSED = "Partie préparée refusée"
EMPTY = "Le fichier soumis est vide."  # Django's own sentence for a file of no bytes


def _game() -> dict:
    return json.loads((REFERENCE_GAMES / "game-001.json").read_text(encoding="utf-8"))


def _start(client, tournament, data: bytes):
    upload = SimpleUploadedFile("partie.json", data, content_type="application/json")
    url = reverse("tournaments:game_start", args=[tournament.pk])
    return client.post(url, {"source": "random", "prepared": upload})


def _refusal(data) -> RecordError:
    with pytest.raises(RecordError) as caught:
        record.parse(data)
    return caught.value


def _assert_game_or_sentence(client, tournament, data: bytes) -> None:
    games = Game.objects.count()
    response = _start(client, tournament, data)
    if response.status_code == 302:
        game = Game.objects.latest("pk")
        stored = json.dumps(game.prepared, ensure_ascii=False)
        stored.encode("utf-8")  # no half of a UTF-16 pair
        assert "\x00" not in stored and record.parse(game.prepared).rounds
        return
    page = response.content.decode()
    assert response.status_code == 200 and (REFUSED in page or (not data and EMPTY in page)), page[:300]
    assert Game.objects.count() == games


# -- size ------------------------------------------------------------------------------------------


def _padded(size: int) -> bytes:
    text = json.dumps(_game())
    return (text[:-1] + " " * (size - len(text)) + "}").encode()


def test_a_record_at_the_size_limit_starts_a_game_and_one_byte_more_is_refused_saying_the_limit(
    arbiter_client, tournament
):
    assert len(_padded(MAX_BYTES)) == MAX_BYTES
    assert _start(arbiter_client, tournament, _padded(MAX_BYTES)).status_code == 302
    page = _start(arbiter_client, tournament, _padded(MAX_BYTES + 1)).content.decode()
    assert (
        "Partie préparée refusée : Fichier trop gros : un enregistrement de partie fait au plus 256 Ko."
        in page
    )
    assert tournament.games.count() == 1


def test_parse_itself_refuses_a_text_past_the_size_limit():
    assert record.parse(_padded(MAX_BYTES).decode()).rounds
    assert _refusal(_padded(MAX_BYTES + 1)).reason.code == "record_too_big"
    assert _refusal(_padded(MAX_BYTES + 1).decode()).reason.code == "record_too_big"


# -- nesting ---------------------------------------------------------------------------------------


def _nested(depth: int) -> str:
    """A game whose title is arrays ``depth - 1`` deep (the game itself is the first level)."""
    return json.dumps(_game() | {"title": "@"}).replace('"@"', "[" * (depth - 1) + "]" * (depth - 1))


def test_nesting_at_the_limit_is_parsed_and_one_level_more_is_refused_saying_the_limit():
    assert _refusal(_nested(MAX_DEPTH)).reason.code == "record_not_text"  # read, then found wrong
    refused = _refusal(_nested(MAX_DEPTH + 1)).reason
    assert refused.code == "record_json_unreadable"
    assert refused.text("fr") == "Le fichier JSON ne peut pas être lu : plus de 8 niveaux d'imbrication."
    assert refused.text("en") == "The JSON file cannot be read: nested over 8 deep."


def test_brackets_inside_texts_are_not_nesting():
    data = _game() | {"title": '[[[[[[[[[[{{{{{{{{{{ \\" [[[[['}
    assert record.parse(json.dumps(data)).title.startswith("[[[[")


def test_a_text_left_open_does_not_hide_brackets_for_long():
    start = time.monotonic()
    assert _refusal('{"title": "' + '\\"' * 100_000).reason.code == "record_json"
    assert time.monotonic() - start < 1.0


def test_deep_nesting_through_the_page_is_a_sentence(arbiter_client, tournament):
    page = _start(arbiter_client, tournament, b"[" * 100_000 + b"]" * 100_000).content.decode()
    assert REFUSED in page and "plus de 8 niveaux" in page


# -- rounds ----------------------------------------------------------------------------------------


def _rounds(count: int) -> dict:
    first = _game()["rounds"][0]
    return _game() | {"rounds": [first] * count, "total": first["score"] * count}


def test_a_record_of_the_most_rounds_a_game_can_have_is_read_and_one_more_is_refused():
    assert len(record.parse(_rounds(MAX_ROUNDS)).rounds) == MAX_ROUNDS == 101
    refused = _refusal(_rounds(MAX_ROUNDS + 1)).reason
    assert refused.code == "record_too_many_rounds"
    assert refused.text("en") == "A game has at most 101 rounds (102 tiles); this file has 102."


# -- texts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["title", "date", "lexicon", "seed"])
def test_a_text_at_the_length_limit_is_read_and_one_character_more_is_refused(key):
    assert record.parse(_game() | {key: "é" * MAX_TEXT})
    refused = _refusal(_game() | {key: "é" * (MAX_TEXT + 1)}).reason
    assert (refused.code, refused.text("en")) == ("record_text_long", f"'{key}' is over 200 characters.")


@pytest.mark.parametrize("key", ["title", "date", "lexicon", "seed"])
@pytest.mark.parametrize(("char", "shown"), [("\x00", "U+0000"), ("\ud800", "U+D800"), ("\x1b", "U+001B")])
def test_a_text_holding_a_character_no_database_stores_is_refused_naming_it(key, char, shown):
    refused = _refusal(_game() | {key: f"Partie{char}du club"}).reason
    assert refused.code == "record_text_char"
    assert (
        refused.text("fr")
        == f"« {key} » contient {shown}, un caractère de contrôle ou une moitié de paire UTF-16."
    )


@pytest.mark.parametrize("title", ["Partie\u0000du club", "Partie\ud83d du club", "\udfff"])
def test_a_title_with_nul_or_half_a_pair_is_refused_on_the_page_and_nothing_stored(
    arbiter_client, tournament, title
):
    data = json.dumps(_game() | {"title": title}).encode()  # written as \u0000, \ud83d escapes
    page = _start(arbiter_client, tournament, data).content.decode()
    assert REFUSED in page and "« title » contient U+" in page
    assert not tournament.games.exists()


def test_a_key_with_nul_or_half_a_pair_is_quoted_cleaned_in_the_refusal(arbiter_client, tournament):
    data = json.dumps(_game() | {"ti\u0000tle\ud800": "x"}).encode()
    page = _start(arbiter_client, tournament, data).content.decode()
    assert REFUSED in page and "Clé « ti\ufffdtle\ufffd » inconnue." in page


def test_a_title_in_any_script_is_stored_and_read_back(arbiter_client, tournament):
    title = "Coupe d'été 🏆 — Ελλάδα, 東京, \u200bzero-width"
    assert (
        _start(arbiter_client, tournament, json.dumps(_game() | {"title": title}).encode()).status_code == 302
    )
    assert Game.objects.get().prepared["title"] == title


# -- numbers ---------------------------------------------------------------------------------------


def test_a_number_at_the_limit_is_read_and_one_more_is_refused_saying_the_range():
    one = _game() | {"rounds": [_game()["rounds"][0] | {"score": MAX_INTEGER}], "total": MAX_INTEGER}
    assert record.parse(one).total == MAX_INTEGER
    over = one | {"rounds": [one["rounds"][0] | {"score": MAX_INTEGER + 1}], "total": MAX_INTEGER + 1}
    refused = _refusal(over)
    assert (refused.round, refused.reason.code) == (1, "record_not_integer")
    assert refused.reason.text("en") == "'score' must be a whole number from 0 to 2147483647."


def test_a_seed_past_a_64_bit_integer_is_refused():
    assert record.parse(_game() | {"seed": 2**63 - 1}).seed == 2**63 - 1
    assert record.parse(_game() | {"seed": -(2**63) + 1}).seed == -(2**63) + 1
    assert _refusal(_game() | {"seed": 2**63}).reason.code == "record_seed"


def test_a_score_of_ten_to_the_three_hundred_is_a_sentence_on_the_page(arbiter_client, tournament):
    data = _game()
    data["rounds"][0]["score"] = 10**300
    page = _start(arbiter_client, tournament, json.dumps(data).encode()).content.decode()
    assert REFUSED in page and "2147483647" in page


# -- fuzz: any bytes, any JSON ---------------------------------------------------------------------


@FUZZ
@given(data=st.binary(max_size=2000))
def test_any_bytes_are_a_game_or_a_sentence(arbiter_client, tournament, data):
    _assert_game_or_sentence(arbiter_client, tournament, data)


_hostile_text = st.text(
    st.characters() | st.sampled_from(["\x00", "\ud800", "\udfff", "\x1b"]),
    max_size=30,
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=2**31 - 2, max_value=2**70)
    | st.floats() | _hostile_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_hostile_text, children, max_size=4),
    max_leaves=20,
)  # fmt: skip


@st.composite
def _mutated_games(draw) -> bytes:
    """A reference game with a few values, anywhere in it, replaced by any JSON (or keys added)."""
    data = copy.deepcopy(_game())
    for _ in range(draw(st.integers(1, 3))):
        listed = data.get("rounds")
        rounds = [r for r in listed if isinstance(r, dict)] if isinstance(listed, list) else []
        target = draw(st.sampled_from([data, *rounds]))
        key = draw(st.sampled_from([*target, "title", "date", "seed", "extra"]))
        target[key] = draw(_json)
    as_text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    return as_text.encode("utf-8", errors="surrogatepass")


@FUZZ
@given(data=_mutated_games())
def test_any_json_in_a_game_is_a_game_or_a_sentence(arbiter_client, tournament, data):
    _assert_game_or_sentence(arbiter_client, tournament, data)


@FUZZ
@given(value=_json)
def test_any_json_document_is_a_game_or_a_sentence(arbiter_client, tournament, value):
    _assert_game_or_sentence(arbiter_client, tournament, json.dumps(value).encode())
