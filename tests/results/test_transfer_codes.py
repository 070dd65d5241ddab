"""The players' join codes in a tournament's file (``arbiter-tournament/2``).  The file carries
them, checked like every other value, but the import never keeps one: every imported player gets a
code made here (a file's author could choose ``AAAA-AAAA``, or a code held here), and that code
brings the phone to the imported player's seat.  A file of the format before (``/1``, no codes) is
read too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from live import codes
from results import transfer
from results.transfer_reading import FORMAT
from tests.results import test_transfer as base
from tournaments import services
from tournaments.models import Player, Tournament

#: The tournament played in ``test_transfer`` (two games, slips, corrections), and the other club.
played, club_b = base.played, base.club_b
_document, _encoded, _refused = base._document, base._encoded, base._refused


def _codes(tournament: Tournament) -> dict[str, str]:
    return dict(Player.objects.filter(tournament=tournament).values_list("name", "join_code"))


def test_the_file_carries_the_codes_and_the_import_makes_new_ones_that_join(played, club_b, arbiter, client):
    doc = _document(played)
    assert doc["format"] == FORMAT == "arbiter-tournament/3"
    before = _codes(played)
    assert sorted(p["join_code"] for p in doc["players"]) == sorted(before.values())
    Tournament.objects.filter(pk=played.pk).delete()
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    got = _codes(copy)
    assert sorted(got) == ["Alice", "Bruno", "Chloé"] and not set(got.values()) & set(before.values())
    assert len(set(got.values())) == 3 and all(codes.code_ok(c) for c in got.values())
    bruno = Player.objects.get(tournament=copy, name="Bruno")
    response = client.post(reverse("live:player_me"), {"code": got["Bruno"].lower()})
    assert response.status_code == 302 and response["Location"] == f"/j/{bruno.token}/"
    response = client.post(reverse("live:player_me"), {"code": before["Bruno"]})
    assert response.status_code != 302  # the file's code joins no one


def test_a_code_the_file_chooses_is_never_kept(played, club_b, arbiter):
    doc = _document(played)
    other = services.tournament_create(
        created_by=arbiter, lexicon=played.lexicon, name="Autre", date=played.date
    )
    dora = services.player_register(tournament=other, name="Dora")
    doc["players"][0]["join_code"] = "AAAAAAAA"
    doc["players"][1]["join_code"] = dora.join_code  # a code held here: Dora's seat
    Tournament.objects.filter(pk=played.pk).delete()
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    got = _codes(copy)
    assert not {"AAAAAAAA", dora.join_code} & set(got.values())
    assert all(codes.code_ok(c) for c in got.values())
    assert codes.player_by_code(dora.join_code) == dora


def test_imported_twice_every_player_gets_a_new_code(played, club_b, arbiter):
    data = transfer.tournament_export(played)
    copy = transfer.tournament_import(data=data, club=club_b, user=arbiter)
    again = transfer.tournament_import(data=data, club=club_b, user=arbiter)
    held = [*_codes(played).values(), *_codes(copy).values(), *_codes(again).values()]
    assert len(held) == 9 == len(set(held)) and all(codes.code_ok(c) for c in held)


def test_a_file_of_the_format_before_codes_is_imported_with_new_codes(played, club_b, arbiter):
    doc = _document(played)
    doc["format"] = "arbiter-tournament/1"
    for player in doc["players"]:
        del player["join_code"]
    for game in doc["games"]:  # nor the rounds' tried slips, which came with /3
        for rnd in game["rounds"]:
            del rnd["tried"]
    Tournament.objects.filter(pk=played.pk).delete()
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    got = _codes(copy)
    assert sorted(got) == ["Alice", "Bruno", "Chloé"]
    assert len(set(got.values())) == 3 and all(codes.code_ok(c) for c in got.values())


BAD_CODES = {
    "a code as typed, not as stored": (
        lambda doc, ps: ps[0].update(join_code="abcd-efgh"),
        "players[0]: 'join_code' is over 8 characters",
    ),
    "a look-alike": (
        lambda doc, ps: ps[0].update(join_code="ABCDEFG0"),
        "players[0]: 'join_code' does not have the expected form",
    ),
    "a number": (lambda doc, ps: ps[1].update(join_code=12345678), "players[1]: 'join_code' cannot be"),
    "no code in this format": (lambda doc, ps: ps[0].pop("join_code"), "the key 'join_code' is missing"),
    "a code in the format before": (
        lambda doc, ps: doc.update(format="arbiter-tournament/1"),
        "unknown key 'join_code'",
    ),
    "a code twice": (
        lambda doc, ps: ps[1].update(join_code=ps[0]["join_code"]),
        "players: 'join_code'",
    ),
}


@pytest.mark.parametrize("case", list(BAD_CODES))
def test_a_bad_code_is_refused_saying_where_and_nothing_is_written(played, club_b, arbiter, case):
    change, said = BAD_CODES[case]
    doc = _document(played)
    change(doc, doc["players"])
    problems = _refused(_encoded(doc), club_b, arbiter)
    assert any(said in p for p in problems), problems
