"""A club's word lists are its own: the list a club uploaded is offered to that club only (the same
words sent by a second club: one list, both clubs'), the shipped list to every club; a tournament
made by a club's arbiter belongs to that club, and an administrator chooses the club."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from lexicons.services import lexicon_upload
from tournaments.models import Tournament

pytestmark = pytest.mark.clubs

WORDS = "\n".join(["AA", "AB", "ABACA", "ABAISSA", "ZYTHUMS"]).encode()


def _arbiter(name: str, club: Club) -> User:
    user = User.objects.create_user(name, password="x-secret-123")
    Member.objects.create(club=club, user=user, role=Role.ARBITER)
    return user


def _offered(client) -> str:
    return client.get("/tournois/nouveau/").content.decode()


def test_a_list_uploaded_by_a_club_is_offered_to_that_club_only(client, db):
    shipped = lexicon_default_row()
    a, b = Club.objects.create(name="A"), Club.objects.create(name="B")
    mine = lexicon_upload(name="liste-du-club-a.txt", data=WORDS, club=a)
    client.force_login(_arbiter("arbitre-a", a))
    page = _offered(client)
    assert f'<option value="{mine.pk}"' in page and f'<option value="{shipped.pk}"' in page
    client.force_login(_arbiter("arbitre-b", b))
    page = _offered(client)
    assert f'<option value="{mine.pk}"' not in page and f'<option value="{shipped.pk}"' in page
    # Club B cannot make a tournament on A's list by sending its id.
    stolen = {"name": "Vol", "date": "2026-11-26", "lexicon": mine.pk, **_settings()}
    client.post("/tournois/nouveau/", stolen)
    assert not Tournament.objects.filter(name="Vol").exists()
    # B sends the same words: one list, now B's too.
    assert lexicon_upload(name="autre-nom.txt", data=WORDS, club=b) == mine
    assert f'<option value="{mine.pk}"' in _offered(client)


def test_a_tournament_belongs_to_its_arbiters_club_and_the_administrator_chooses(client, db):
    a, b = Club.objects.create(name="A"), Club.objects.create(name="B")
    client.force_login(_arbiter("arbitre-b", b))
    data = {"name": "Coupe", "date": "2026-11-26", "lexicon": lexicon_default_row().pk, **_settings()}
    assert "club propriétaire" not in _offered(client)
    client.post("/tournois/nouveau/", data)
    assert Tournament.objects.get(name="Coupe").owner == b
    client.force_login(User.objects.create_superuser("admin", password="x-secret-123"))
    assert "club propriétaire" in _offered(client).lower()
    client.post("/tournois/nouveau/", {**data, "name": "Coupe de A", "owner": a.pk})
    assert Tournament.objects.get(name="Coupe de A").owner == a


def _settings() -> dict:
    return {
        "round_seconds": 180, "grading": "fisf", "warning_threshold": 3, "warning_penalty": 5,
        "solo_value": 10, "solo_min_players": 16, "grace_seconds": 2, "percent_base": "total",
        "tie_break": "none", "aggregate": "cumulated", "sheet_language": "fr",
    }  # fmt: skip
