"""Every player has a short join code (``ABCD-EFGH``), printed on the table card and shown on the
phone; typed on ``/moi/`` it brings the phone back to its seat.  A wrong code is said in the page's
language and counts as a guessed link: past the limit the address is answered 429, while a phone at
another address still joins.  No input yields a 500."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given

from live import codes
from tests.tournaments import test_hostile as hostile
from tournaments import services
from tournaments.models import JOIN_CODE_ALPHABET, Player
from tournaments.services import registration

ME = reverse("live:player_me")
FORM = "application/x-www-form-urlencoded"
#: Eight characters, none of the look-alikes.
SHAPE = re.compile("[A-HJKMNP-Z2-9]{8}")
ENGLISH = {"Accept-Language": "en"}


def _page(player) -> str:
    return reverse("live:player_page", kwargs={"token": player.token})


def _typed(client, typed, address: str = "127.0.0.1", **headers):
    return client.post(ME, {"code": typed}, REMOTE_ADDR=address, headers=headers)


def _text(response) -> str:
    return response.content.decode("utf-8", "replace")


@pytest.fixture
def guess_limit(settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 3
    settings.CLIENT_IP_HEADER = ""
    return 3


# -- the codes --------------------------------------------------------------------------------------


def test_the_alphabet_has_no_look_alikes():
    assert not set("0O1IL") & set(JOIN_CODE_ALPHABET)
    assert len(set(JOIN_CODE_ALPHABET)) == len(JOIN_CODE_ALPHABET) == 31


def test_every_way_of_registering_gives_codes_of_the_right_form_unique_on_the_installation(
    tournament, players, arbiter
):
    other = services.tournament_create(
        created_by=arbiter, lexicon=tournament.lexicon, name="Autre", date=tournament.date
    )
    services.player_register(tournament=other, name="Dora")
    rows = "Nom;Club;Licence;Série;Catégorie;Table\n" + "".join(f"Joueur {n};;;;;\n" for n in range(3000))
    imported = services.players_import_csv(tournament=other, data=rows.encode())
    assert all(p.join_code for p in imported)
    held = list(Player.objects.values_list("join_code", flat=True))
    assert len(held) == 3 + 1 + 3000 == len(set(held))
    assert all(SHAPE.fullmatch(code) for code in held)
    assert players[0].join_code_shown == f"{players[0].join_code[:4]}-{players[0].join_code[4:]}"


def test_a_new_code_is_never_one_a_player_holds(players, monkeypatch):
    """The random codes drawn are checked against the database: a code drawn again is drawn anew."""
    held = players[0].join_code
    drawn = iter([held, held, "ABCDEFGH", "ABCDEFGH", "ZZZZ2222"])
    monkeypatch.setattr(registration, "new_join_code", lambda: next(drawn))
    assert registration.codes_fresh(2) in (["ABCDEFGH", "ZZZZ2222"], ["ZZZZ2222", "ABCDEFGH"])
    drawn = iter([held, "ABCDEFGH"])
    assert registration.codes_fresh(1, avoid=[]) == ["ABCDEFGH"]
    drawn = iter(["ABCDEFGH", "QRST2345"])
    assert registration.codes_fresh(1, avoid=["ABCDEFGH"]) == ["QRST2345"]


@pytest.mark.parametrize(
    "typed",
    [
        "ABCD-EFGH",
        "abcd-efgh",
        " abcd efgh ",
        "AbCd–EfGh",
        "ABCD—EFGH",
        "abcd.efgh",
        "ＡＢＣＤ－ＥＦＧＨ",
        "A B C D E F G H\n",
    ],
)
def test_a_code_is_read_whatever_the_case_spaces_and_dashes(typed):
    assert codes.code_read(typed) == "ABCDEFGH"


@pytest.mark.parametrize(
    "typed",
    ["", "ABCDEFG", "ABCDEFGHJ", "ABCD-EFG0", "OOOOOOOO", "1111IIII", "LLLLLLLL", "ABCD\x00EFGH",
     "ABCD\u202eEFGH", "ABCDÉFGH", "A" * 10_000, "\ud800" * 8, None, ["ABCDEFGH"]],
)  # fmt: skip
def test_anything_else_is_no_code(typed):
    assert codes.code_read(typed) is None


# -- /moi/: the code brings the phone back ----------------------------------------------------------


def test_a_code_brings_the_phone_back_to_its_own_seat_and_the_session_remembers_it(client, players):
    bruno = players[1]
    typed = f" {bruno.join_code[:4].lower()} {bruno.join_code[4:].lower()} "
    response = _typed(client, typed)
    assert response.status_code == 302 and response["Location"] == _page(bruno)
    again = client.get(ME)  # the phone comes back without typing
    assert again.status_code == 302 and again["Location"] == _page(bruno)
    page = _text(client.get(_page(bruno)))
    assert "Bruno" in page and bruno.join_code_shown in page
    assert players[0].join_code_shown not in page and players[0].token not in page


def test_the_code_of_another_tournament_leads_to_that_tournaments_player(
    client, players, arbiter, tournament
):
    other = services.tournament_create(
        created_by=arbiter, lexicon=tournament.lexicon, name="Autre", date=tournament.date
    )
    dora = services.player_register(tournament=other, name="Dora")
    response = _typed(client, dora.join_code_shown)
    assert response.status_code == 302 and response["Location"] == _page(dora)


def test_a_wrong_code_is_said_in_french_and_in_english(client, players):
    response = _typed(client, "abcd-efgh")
    assert response.status_code == 404
    assert "Aucun joueur n&#x27;a le code ABCD-EFGH" in _text(response)
    assert 'role="alert"' in _text(response) and 'name="code"' in _text(response)
    english = _typed(client, "ABCDEFGH", **ENGLISH)
    assert english.status_code == 404 and "No player has the code ABCD-EFGH" in _text(english)
    assert "Your table code" in _text(english) and "Join my table" in _text(english)
    malformed = _typed(client, "ABC", **ENGLISH)
    assert malformed.status_code == 404 and "This is not a table code" in _text(malformed)
    empty = _typed(client, "   ")
    assert empty.status_code == 200 and "Tapez le code imprimé sur votre carte" in _text(empty)


def test_the_card_request_page_offers_the_code_field_in_both_languages(client, db):
    french = _text(client.get(ME))
    assert "Code de votre table" in french and "Rejoindre ma table" in french and 'name="code"' in french
    assert "Your table code" in _text(client.get(ME, headers=ENGLISH))


# -- guessing codes -----------------------------------------------------------------------------


def test_past_the_limit_the_address_is_answered_429_and_another_address_still_joins(
    client, players, guess_limit
):
    alice = players[0]
    assert [_typed(client, f"ABCD-EFG{n}").status_code for n in (2, 3, 4)] == [404] * 3
    over = _typed(client, "ABCD-EFG5")
    assert over.status_code == 429 and over["Retry-After"] == "60"
    assert "Trop de codes inconnus" in _text(over) and "60 secondes" in _text(over)
    english = _typed(client, "ABCD-EFG6", **ENGLISH)
    assert english.status_code == 429 and "Too many unknown codes" in _text(english)
    # The guessing address is held up, even with a code that names a player ...
    assert _typed(client, alice.join_code).status_code == 429
    # ... a phone elsewhere is not.
    elsewhere = _typed(Client(), alice.join_code, address="192.168.1.23")
    assert elsewhere.status_code == 302 and elsewhere["Location"] == _page(alice)


def test_wrong_codes_and_wrong_links_count_together(client, players, guess_limit):
    assert client.get("/j/nobody-at-all/").status_code == 404
    assert _typed(client, "ABCDEFGH").status_code == 404
    assert _typed(client, "not a code").status_code == 404
    assert client.get("/j/nobody-else/").status_code == 429


def test_typing_nothing_is_not_a_guess(client, players, guess_limit):
    for _ in range(5):
        assert _typed(client, "").status_code == 200
    assert _typed(client, players[2].join_code).status_code == 302


def test_a_removed_players_code_is_answered_as_the_removed_link_is_and_is_no_guess(client, players, settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 1
    chloe = players[2]
    services.player_remove(player=chloe)
    for headers, said in (({}, "retiré du tournoi"), (ENGLISH, "The arbiter removed you")):
        response = _typed(client, chloe.join_code_shown, **headers)
        assert response.status_code == 410 and said in _text(response)
    assert _typed(client, "ABCDEFGH").status_code == 404  # the first guess of the minute


def test_the_code_form_is_protected_from_other_sites(players):
    phone = Client(enforce_csrf_checks=True)
    assert phone.post(ME, {"code": players[0].join_code}).status_code == 403
    form = _text(phone.get(ME))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = phone.post(ME, {"code": players[0].join_code, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == _page(players[0])


@pytest.mark.parametrize(
    "body",
    [
        {"code": "x" * 1_000_000},
        {"code": "\x00"},
        {"code": "\x1b[31mABCD-EFGH"},
        {"code": "\ud800\udfff"},
        {"code": "\U0001f469\u200d\U0001f4bb" * 8},
        {"code": "ＡＢＨ４０٤٠ﬁ"},
        {"code": ["ABCDEFGH", "QRST2345"]},
        {"code": "<script>alert(1)</script>"},
        {"other": "x"},
        {},
    ],
)
def test_any_input_is_answered_never_a_500(client, players, settings, body):
    settings.TOKEN_GUESSES_PER_MINUTE = 10**6
    data = urlencode(body, doseq=True, encoding="utf-8", errors="surrogatepass")
    response = client.post(ME, data, FORM)
    assert response.status_code in (200, 404)
    assert "<script>alert" not in _text(response)
    assert all(p.token not in _text(response) for p in players)


@hostile.FUZZ
@given(code=hostile._VALUE, headers=hostile._HEADERS)
def test_any_code_with_any_headers_is_answered_never_a_500(client, players, settings, code, headers):
    settings.TOKEN_GUESSES_PER_MINUTE = 10**6
    body = hostile._form({"code": code})
    response = client.post(ME, body, FORM, headers=headers)
    html = hostile._check(response, *players)
    assert response.status_code in ((400,) if hostile._too_big(body) else (200, 302, 403, 404))
    if response.status_code == 302:  # a code of the room typed by chance: that player's page
        assert response["Location"] in [_page(p) for p in players]
    assert "<script" not in html.split("</head>")[-1]  # nothing typed comes back as markup


# -- where the code is printed and shown ------------------------------------------------------------


def test_the_table_cards_print_each_code_beside_its_qr_code(arbiter_client, tournament, players):
    url = reverse("tournaments:tournament_cards", args=[tournament.pk])
    html = _text(arbiter_client.get(url))
    for player in players:
        card = html[html.index(player.token) - 4000 : html.index(player.token) + 1000]
        assert f"Code : <strong>{player.join_code_shown}</strong>" in card
    english = _text(arbiter_client.get(url, headers=ENGLISH))
    assert f"Code: <strong>{players[0].join_code_shown}</strong>" in english


def test_the_phone_shows_its_own_code_in_a_discreet_line(client, players):
    html = _text(client.get(_page(players[0])))
    line = re.search(r'<p class="note join-code">([^<]*)<strong>([^<]*)</strong></p>', html)
    assert line and line.group(2) == players[0].join_code_shown and "à noter" in line.group(1)
    english = _text(client.get(_page(players[0]), headers=ENGLISH))
    assert "Your table code (note it down):" in english
