"""Hostile requests to every page a phone can reach (the join link, its poll, the slip, ``/moi/``,
the language switch, unknown links): odd Unicode, huge fields, wrong types, replays.  Every answer is
a 2xx, 3xx or 4xx that says something, never a 500, and never another player's data."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lexicons.loaded import lexicon_default_row
from live import services as live_services
from tournaments import services
from tournaments.models import Round, Submission

# The examples of one test share its fixtures (one tournament, one running round, one client): each
# example asserts only on its own answers, and a slip one example stores is one another may replace.
FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FORM = "application/x-www-form-urlencoded"


@pytest.fixture(autouse=True)
def _no_guess_limit(settings):
    """Hundreds of unknown links come from one test address here: the guess limit has its own tests."""
    settings.TOKEN_GUESSES_PER_MINUTE = 10**6


@pytest.fixture
def room(players, game):
    """Alice's phone in a running round; Bruno's token and slip are what she must never see."""
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    alice, bruno, _ = players
    live_services.submission_record(player=bruno, round_id=rnd.pk, text="H4 ZYTHUMS 12", request_id="b")
    return alice, bruno, rnd


# -- what hostile input looks like -----------------------------------------------------------------

_ODD = st.sampled_from(
    [
        *"\u0301\u0327\u20dd",  # combining marks
        *"\u202e\u200f\u2066\u05d0\u0627",  # right-to-left
        *"\x00\x01\x1b\x7f\u2028\ufeff\u200b",  # NUL and other controls
        *"\ud800\udfff",  # lone surrogates: sent as the (invalid) UTF-8 bytes they would encode to
        "\U0001f600",
        "\U0001f469\u200d\U0001f4bb",
        *"œæŒÆßﬁﬀ",
        *"ＡＢＨ４０",
        *"٤٠",
        *"<>\"'&%/\\;=+?#",
    ]
)
_PLAIN = st.sampled_from(["H8", "8H", "AB", "CALFEUTRE", "12", " ", "-", "douze", "1e9", "-3", "0x1F"])
_SHORT = st.one_of(st.lists(st.one_of(_ODD, _PLAIN), max_size=12).map("".join), st.text(max_size=30))
# Huge: 10k-character tokens, 100 kB fields.
_HUGE = st.tuples(st.one_of(_ODD, _PLAIN), st.sampled_from([10_000, 100_000])).map(lambda p: p[0] * p[1])
_TEXT = st.one_of(_SHORT, _HUGE)
# A field's value: a text, a number as text, or a list where one value is expected.
_VALUE = st.one_of(_TEXT, st.integers().map(str), st.lists(_SHORT, min_size=2, max_size=4))
# Header values as a server hands them on: Latin-1 without control characters (waitress and gunicorn
# answer 400 to a header holding one, before Django sees it).
_LATIN1 = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"), max_size=40
)


def _slip_fields(round_id: int):
    """The slip form's fields, each one hostile, missing or (sometimes) the real round."""
    return st.fixed_dictionaries(
        {},
        optional={
            "round": st.one_of(_VALUE, st.just(str(round_id)), st.just(str(round_id + 1))),
            "slip": _VALUE,
            "claimed": _VALUE,
            "request_id": _VALUE,
            "player": _VALUE,
            "token": _VALUE,
        },
    )


_HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "HX-Request": st.sampled_from(["true", "false", ""]),
        "Accept-Language": st.one_of(_LATIN1, st.sampled_from(["en", "en-GB,en;q=0.9", "*", "xx-YY;q=2"])),
        "Cookie": st.one_of(
            _LATIN1.map(lambda v: f"sessionid={v}"),
            _LATIN1.map(lambda v: f"django_language={v}"),
            _LATIN1,
        ),
    },
)


def _quoted(text: str) -> str:
    """Percent-encoded UTF-8, lone surrogates as the bytes a careless client would send."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _form(fields: dict) -> bytes:
    return urlencode(fields, doseq=True, encoding="utf-8", errors="surrogatepass").encode("ascii")


def _too_big(body: bytes) -> bool:
    """Django answers 400 to a form over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) before any view runs."""
    return len(body) > django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _token_path(token: str, tail: str = "") -> str:
    return f"/j/{_quoted(token)}/{tail}"


def _said(response) -> str:
    return response.content.decode("utf-8", "replace")


def _check(response, *others) -> str:
    """Not a server error, and nothing of another player's in the answer."""
    assert response.status_code < 500, response.status_code
    html = _said(response)
    for other in others:
        assert other.token not in html
    assert "ZYTHUMS" not in html
    return html


# -- unknown links ----------------------------------------------------------------------------------


@FUZZ
@given(token=_TEXT, tail=st.sampled_from(["", "etat/", "bulletin/"]), headers=_HEADERS)
@example(token="\x00", tail="", headers={})
@example(token="a" * 10_000, tail="etat/", headers={})
@example(token="\ud800", tail="bulletin/", headers={})
@example(token="ﬁ\u202e", tail="", headers={"Accept-Language": "en"})
def test_an_unknown_link_of_any_shape_is_a_404_that_asks_for_the_card(client, room, token, tail, headers):
    alice, bruno, _ = room
    path = _token_path(token, tail)
    if tail == "bulletin/":
        response = client.post(path, _form({"slip": token}), FORM, headers=headers)
    else:
        response = client.get(path, headers=headers)
    html = _check(response, alice, bruno)
    assert response.status_code == 404
    # The card page, or Django's plain "Not Found" when the path no longer matches a join link.
    assert "card-ask" in html or "Not Found" in html


def test_an_unknown_link_is_answered_in_english_too(client, db):
    response = client.get("/j/nobody/", headers={"Accept-Language": "en"})
    assert response.status_code == 404 and "This link leads to no player" in _said(response)


# -- the player's page and its poll ---------------------------------------------------------------


@FUZZ
@given(query=st.dictionaries(st.sampled_from(["s", "round", "x"]), _VALUE, max_size=3), headers=_HEADERS)
@example(query={"s": "\x00"}, headers={})
@example(query={"s": ["1.1.p", "2.2.e"]}, headers={"HX-Request": "true"})
def test_the_page_and_the_poll_answer_any_query_and_headers(client, room, query, headers):
    alice, bruno, _ = room
    qs = "?" + _form(query).decode()
    page = client.get(reverse("live:player_page", args=[alice.token]) + qs, headers=headers)
    assert _check(page, bruno) and page.status_code == 200
    poll = client.get(reverse("live:player_status", args=[alice.token]) + qs, headers=headers)
    _check(poll, bruno)
    assert poll.status_code in (200, 204)


def test_the_wrong_method_is_a_405_not_an_error(client, room):
    alice, _, _ = room
    assert client.post(reverse("live:player_page", args=[alice.token])).status_code == 405
    assert client.post(reverse("live:player_status", args=[alice.token])).status_code == 405
    assert client.get(reverse("live:player_submit", args=[alice.token])).status_code == 405
    assert client.put(reverse("live:player_me")).status_code == 405  # a POST takes a join code


# -- the slip -------------------------------------------------------------------------------------------


def _stored(player) -> tuple:
    return tuple(Submission.objects.filter(player=player).values_list("ref", "word", "claimed", "revision"))


@FUZZ
@given(data=st.data(), headers=_HEADERS)
def test_any_slip_form_gets_a_receipt_or_a_sentence(client, room, data, headers):
    alice, bruno, rnd = room
    fields = data.draw(_slip_fields(rnd.pk))
    bruno_before = _stored(bruno)
    url = reverse("live:player_submit", args=[alice.token])
    body = _form(fields)
    response = client.post(url, body, FORM, headers=headers)
    html = _check(response, bruno)
    if _too_big(body):
        assert response.status_code == 400
        return
    assert response.status_code == 200
    assert 'id="player-receipt"' in html
    assert 'class="error"' in html or Submission.objects.filter(player=alice, round=rnd).exists()
    assert _stored(bruno) == bruno_before


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/json", json.dumps({"slip": ["H8", "AB"], "round": {"pk": 1}, "claimed": 12})),
        ("application/json", "{not json"),
        ("text/plain", "slip=H8 AB"),
        ("application/x-www-form-urlencoded", b"slip=%FF%FE&round=%00&claimed=%ED%A0%80"),
        ("application/x-www-form-urlencoded", b"&&&=&slip&round=="),
        ("multipart/form-data; boundary=zz", b"--zz\r\nContent-Disposition: form-data; name=slip\r\n\r\nH8"),
        ("multipart/form-data", b"no boundary"),
    ],
)
def test_a_slip_in_the_wrong_encoding_is_a_sentence_or_a_400(client, room, content_type, body):
    alice, bruno, _ = room
    url = reverse("live:player_submit", args=[alice.token])
    response = client.post(url, body, content_type, headers={"HX-Request": "true"})
    html = _check(response, bruno)
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert 'class="error"' in html


def test_a_form_with_too_many_fields_is_a_400(client, room):
    alice, _, _ = room
    url = reverse("live:player_submit", args=[alice.token])
    body = _form({"slip": ["H8 AB"] * 2000})
    assert client.post(url, body, FORM).status_code == 400


def test_a_100_kb_slip_is_refused_with_the_sentence_and_the_field_kept(client, room):
    alice, _, rnd = room
    url = reverse("live:player_submit", args=[alice.token])
    huge = "ÉCRASÉ" * 20_000
    response = client.post(url, {"round": rnd.pk, "slip": huge, "claimed": "9" * 100_000, "request_id": "h"})
    html = _check(response)
    assert response.status_code == 200 and "Bulletin illisible" in html and "trop long" in html
    assert not Submission.objects.filter(player=alice).exists()


# -- replays ---------------------------------------------------------------------------------------------


def _post(client, player, round_id, slip, request_id, **headers):
    data = {"round": round_id, "slip": slip, "claimed": "12", "request_id": request_id}
    return client.post(reverse("live:player_submit", args=[player.token]), data, headers=headers)


def test_the_same_request_sent_three_times_is_stored_once(client, room):
    alice, _, rnd = room
    for _ in range(3):
        assert _post(client, alice, rnd.pk, "H8 AB", "same-id").status_code == 200
    assert _stored(alice) == (("H8", "AB", 12, 1),)


def test_the_same_request_after_the_deadline_is_late_and_changes_nothing(client, room):
    alice, _, rnd = room
    _post(client, alice, rnd.pk, "H8 AB", "before")
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    for request_id in ("before", "after"):
        response = _post(client, alice, rnd.pk, "H8 ABC", request_id, **{"HX-Request": "true"})
        assert response.status_code == 200 and "Trop tard" in _said(response)
    assert _stored(alice) == (("H8", "AB", 12, 1),)


def test_a_slip_sent_to_another_tournaments_round_is_refused(client, room, arbiter):
    alice, _, rnd = room
    other = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Autre club", date=timezone.localdate()
    )
    stranger = services.player_register(tournament=other, name="Denis")
    other_game = services.game_start(tournament=other, seed=7)
    other_round = services.round_draw(game_id=other_game.pk, expected_number=1).round
    services.round_start(round_id=other_round.pk)
    response = _post(client, alice, other_round.pk, "H8 AB", "x", **{"HX-Request": "true"})
    assert response.status_code == 200 and "Aucun coup n&#x27;est en cours" in _said(response)
    # And the stranger cannot send to Alice's round either.
    response = _post(client, stranger, rnd.pk, "H8 AB", "y", **{"HX-Request": "true"})
    assert response.status_code == 200 and "Aucun coup n&#x27;est en cours" in _said(response)
    assert not Submission.objects.filter(player__in=[alice, stranger]).exists()


# -- /moi/ and the language switch -------------------------------------------------------------------


@settings(FUZZ, max_examples=60)
@given(headers=_HEADERS, language=_VALUE, next_url=_VALUE)
@example(headers={}, language="en", next_url="//evil.example.org/")
@example(headers={}, language="\x00", next_url="javascript:alert(1)")
def test_moi_and_the_language_switch_answer_anything(client, room, headers, language, next_url):
    alice, bruno, _ = room
    client.get(reverse("live:player_page", args=[alice.token]))
    me = client.get(reverse("live:player_me"), headers=headers)
    _check(me, bruno)
    assert me.status_code in (200, 302)
    body = _form({"language": language, "next": next_url})
    switched = client.post(reverse("set_language"), body, FORM, headers=headers)
    _check(switched, bruno)
    assert switched.status_code in ((400,) if _too_big(body) else (200, 204, 302))
    if switched.status_code == 302:
        assert not re.match(r"^(https?:)?//|^javascript:", switched["Location"], re.IGNORECASE)
