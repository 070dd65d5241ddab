"""The administrator makes a club and invites its first arbiter by a link that sets a password; that
arbiter invites a deputy; a link serves once and for a week; the club's last arbiter stays."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from clubs.models import Club, Invitation, Member, Role

pytestmark = pytest.mark.clubs

PASSWORD = "Un-mot-de-passe-solide-42"


def _link(page: str) -> str:
    found = re.search(r'value="https?://[^/"]+(/invitation/[^"]+/)"', page)
    assert found, "the page shows the invitation's link"
    return found.group(1)


def _join(client, link: str, username: str):
    return client.post(link, {"username": username, "password1": PASSWORD, "password2": PASSWORD})


def test_the_administrator_makes_a_club_whose_arbiter_joins_and_invites_a_deputy(client, db):
    admin = User.objects.create_superuser("admin", password=PASSWORD)
    client.force_login(admin)
    page = client.post("/clubs/", {"name": "Scrabble Club de Vichy"}, follow=True).content.decode()
    club = Club.objects.get(name="Scrabble Club de Vichy")
    link = _link(page)
    client.logout()

    # The invited arbiter chooses a name and a password, and is in.
    assert "Rejoindre Scrabble Club de Vichy" in client.get(link).content.decode()
    joined = _join(client, link, "marie")
    assert joined.status_code == 302
    marie = User.objects.get(username="marie")
    assert Member.objects.get(user=marie).role == Role.ARBITER and marie.check_password(PASSWORD)
    # The link served once.
    other = client.__class__()
    used = other.get(link)
    assert used.status_code == 404 and "déjà servi" in used.content.decode()
    assert _join(other, link, "intrus").status_code == 404
    assert not User.objects.filter(username="intrus").exists()

    # Marie (logged in by joining) invites a deputy from the club's page.
    page = client.post(f"/clubs/{club.pk}/", {"role": Role.DEPUTY}, follow=True).content.decode()
    deputy_link = _link(page)
    deputy = client.__class__()
    assert _join(deputy, deputy_link, "paul").status_code == 302
    assert Member.objects.get(user__username="paul").role == Role.DEPUTY
    # A deputy cannot invite (the club's page is the arbiters').
    assert deputy.post(f"/clubs/{club.pk}/", {"role": Role.ARBITER}).status_code == 403
    assert Invitation.objects.filter(club=club).count() == 2


def test_a_weak_password_or_a_taken_name_is_said_and_the_link_still_works(client, db):
    admin = User.objects.create_superuser("admin", password=PASSWORD)
    club = Club.objects.create(name="Club")
    invitation = Invitation.objects.create(club=club, created_by=admin)
    link = f"/invitation/{invitation.token}/"
    weak = client.post(link, {"username": "lea", "password1": "1234", "password2": "1234"})
    assert weak.status_code == 200 and "trop court" in weak.content.decode()
    taken = _join(client, link, "admin")
    assert taken.status_code == 200 and "existe déjà" in taken.content.decode()
    assert not Member.objects.filter(club=club).exists()
    assert _join(client, link, "lea").status_code == 302


def test_an_expired_link_is_refused_in_plain_words(client, db):
    admin = User.objects.create_superuser("admin", password=PASSWORD)
    invitation = Invitation.objects.create(
        club=Club.objects.create(name="Club"), created_by=admin,
        expires_at=timezone.now() - datetime.timedelta(minutes=1),
    )  # fmt: skip
    page = client.get(f"/invitation/{invitation.token}/")
    assert page.status_code == 404 and "expiré" in page.content.decode()
    assert client.get("/invitation/n-importe-quoi/").status_code == 404


def test_only_the_administrator_makes_clubs_and_a_club_keeps_its_last_arbiter(client, db):
    club = Club.objects.create(name="Club")
    arbiter = User.objects.create_user("marie", password=PASSWORD)
    member = Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    client.force_login(arbiter)
    client.post("/clubs/", {"name": "Club pirate"})
    assert not Club.objects.filter(name="Club pirate").exists()
    page = client.post(f"/membres/{member.pk}/retirer/", follow=True).content.decode()
    assert "dernier arbitre" in page and Member.objects.filter(pk=member.pk).exists()


def test_a_club_name_taken_is_said(client, db):
    client.force_login(User.objects.create_superuser("admin", password=PASSWORD))
    Club.objects.create(name="Club")
    page = client.post("/clubs/", {"name": "club"}).content.decode()
    assert "déjà" in page and Club.objects.filter(name__iexact="club").count() == 1
