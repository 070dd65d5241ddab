"""A new tournament's form: dated today unless another date is typed, and made for the arbiter's own
club (the administrator of several clubs gets the club it belongs to chosen, or chooses)."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from tournaments.models import Tournament

URL = "tournaments:tournament_create"


def _selected_owner(html: str) -> str | None:
    select = re.search(r'<select name="owner"[^>]*>(.*?)</select>', html, re.S)
    assert select, "the form offers the clubs"
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    return chosen.group(1) if chosen else None


def _form(**fields) -> dict:
    return {
        "name": "Coupe",
        "lexicon": lexicon_default_row().pk,
        "round_seconds": 180,
        "grading": "fisf",
        "warning_threshold": 3,
        "warning_penalty": 10,
        "solo_value": 10,
        "solo_min_players": 6,
        "grace_seconds": 10,
        "percent_base": "total",
        "tie_break": "shared",
        "aggregate": "sum",
        "sheet_language": "fr",
        **fields,
    }


def test_a_new_tournament_is_dated_today(arbiter_client):
    html = arbiter_client.get(reverse(URL)).content.decode()
    field = re.search(r'<input type="date" name="date"[^>]*>', html)
    assert field and f'value="{timezone.localdate().isoformat()}"' in field.group(0)


def test_the_administrators_tournament_goes_to_its_own_club_first(client, db):
    Club.objects.create(name="Aaa premier club")
    own = Club.objects.create(name="Zèbre")
    admin = User.objects.create_superuser("admin", password="x-secret-123")
    Member.objects.create(club=own, user=admin, role=Role.ARBITER)
    client.force_login(admin)
    assert _selected_owner(client.get(reverse(URL)).content.decode()) == str(own.pk)


def test_an_administrator_of_no_club_chooses_the_club(client, db):
    Club.objects.create(name="Aaa premier club")
    Club.objects.create(name="Zèbre")
    admin = User.objects.create_superuser("admin", password="x-secret-123")
    client.force_login(admin)
    html = client.get(reverse(URL)).content.decode()
    assert "choisissez le club" in html and _selected_owner(html) in (None, "")
    response = client.post(reverse(URL), _form(date=timezone.localdate().isoformat()))
    assert response.status_code == 200 and not Tournament.objects.exists()
