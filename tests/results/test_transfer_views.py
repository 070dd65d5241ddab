"""The tournament's file downloaded from its page (its club's arbiter only) and imported through the
import page, for one of the importer's clubs (the administrator: any club)."""

from __future__ import annotations

import datetime
import gzip
import html
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from tournaments import services
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.clubs


@pytest.fixture
def clubs(db):
    """Club A with its arbiter and deputy and a tournament; club B with its arbiter; club C, nobody's."""
    a, b, c = (Club.objects.create(name=f"Club {x}") for x in "ABC")
    people = {}
    roles = (("arbitre-a", a, Role.ARBITER), ("adjoint-a", a, Role.DEPUTY), ("arbitre-b", b, Role.ARBITER))
    for name, club, role in roles:
        people[name] = User.objects.create_user(name, password="x-secret-123")
        Member.objects.create(club=club, user=people[name], role=role)
    tournament = services.tournament_create(
        created_by=people["arbitre-a"], owner=a, lexicon=lexicon_default_row(),
        name="Tournoi A", date=datetime.date(2026, 11, 26),
    )  # fmt: skip
    for name in ("Alice", "Bruno"):
        services.player_register(tournament=tournament, name=name)
    return {"A": a, "B": b, "C": c, "people": people, "tournament": tournament}


def _file(client, tournament) -> bytes:
    response = client.get(reverse("results:tournament_file", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    assert "attachment" in response["Content-Disposition"] and ".json.gz" in response["Content-Disposition"]
    return response.content


def _post(client, data: bytes, club) -> object:
    upload = SimpleUploadedFile("tournoi.json.gz", data, content_type="application/gzip")
    return client.post(reverse("results:tournament_import"), {"file": upload, "club": club.pk})


def test_the_club_arbiter_downloads_the_file_and_another_club_gets_404(client, clubs):
    client.force_login(clubs["people"]["arbitre-a"])
    page = client.get(reverse("tournaments:tournament_detail", args=[clubs["tournament"].pk]))
    assert reverse("results:tournament_file", args=[clubs["tournament"].pk]).encode() in page.content
    document = json.loads(gzip.decompress(_file(client, clubs["tournament"])))
    assert document["format"] == "arbiter-tournament/3" and len(document["players"]) == 2
    client.force_login(clubs["people"]["arbitre-b"])
    assert client.get(reverse("results:tournament_file", args=[clubs["tournament"].pk])).status_code == 404
    client.force_login(clubs["people"]["adjoint-a"])
    assert client.get(reverse("results:tournament_file", args=[clubs["tournament"].pk])).status_code == 403


def test_an_arbiter_imports_for_one_of_their_clubs_only(client, clubs):
    client.force_login(clubs["people"]["arbitre-a"])
    data = _file(client, clubs["tournament"])
    client.force_login(clubs["people"]["arbitre-b"])
    page = client.get(reverse("results:tournament_import"))
    assert page.status_code == 200
    assert [c.name for c in page.context["form"].fields["club"].queryset] == ["Club B"]
    count = Tournament.objects.count()
    refused = _post(client, data, clubs["C"])
    assert refused.status_code == 200 and Tournament.objects.count() == count
    assert refused.context["form"].errors["club"]
    response = _post(client, data, clubs["B"])
    copy = Tournament.objects.latest("id")
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:tournament_detail", args=[copy.pk]
    )
    assert (copy.owner, copy.created_by, copy.name) == (clubs["B"], clubs["people"]["arbitre-b"], "Tournoi A")
    assert list(Player.objects.filter(tournament=copy).values_list("name", flat=True)) == ["Alice", "Bruno"]
    assert client.get(response["Location"]).status_code == 200


def test_the_administrator_imports_for_any_club(client, clubs):
    client.force_login(clubs["people"]["arbitre-a"])
    data = _file(client, clubs["tournament"])
    admin = User.objects.create_superuser("admin", password="x-secret-123")
    client.force_login(admin)
    assert _post(client, data, clubs["C"]).status_code == 302
    assert Tournament.objects.latest("id").owner == clubs["C"]


def test_a_deputy_or_a_stranger_cannot_import(client, clubs):
    client.force_login(clubs["people"]["adjoint-a"])
    assert client.get(reverse("results:tournament_import")).status_code == 403
    client.logout()
    assert client.get(reverse("results:tournament_import")).status_code == 302


def test_a_bad_file_is_refused_on_the_page_with_its_problems(client, clubs):
    client.force_login(clubs["people"]["arbitre-b"])
    doc = {"format": "arbiter-tournament/1", "tournament": {}, "lexicon": {}, "players": [], "games": []}
    count = Tournament.objects.count()
    response = _post(client, json.dumps(doc).encode(), clubs["B"])
    assert response.status_code == 200 and Tournament.objects.count() == count
    text = html.unescape(response.content.decode())
    assert "Fichier de tournoi refusé" in text and "tournament : la clé « name » manque." in text
    response = _post(client, b'{"format": "arbiter-tournament/1", "pla', clubs["B"])
    assert "n'est pas un fichier JSON lisible" in html.unescape(response.content.decode())
