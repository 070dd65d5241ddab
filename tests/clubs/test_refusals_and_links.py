"""An invitation link others can open (the laptop's network address, never the ``127.0.0.1`` the
administrator's browser used on the laptop itself); a 403 page in the interface's language saying
why (removing a player asks first: tests/tournaments/test_player_remove.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Member, Role
from server.network import lan_addresses

ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000"])
def test_an_invitation_made_on_the_laptop_itself_links_to_its_network_address(client, db, host):
    admin = User.objects.create_superuser("admin", password="Un-mot-de-passe-solide-42")
    client.force_login(admin)
    page = client.post("/clubs/", {"name": "Club de Vichy"}, follow=True, HTTP_HOST=host).content.decode()
    link = re.search(r'value="(https?://[^"]+/invitation/[^"]+/)"', page).group(1)
    assert link.startswith(f"http://{lan_addresses()[0]}:8000/invitation/")
    # Opened by its network address (another machine), the link keeps the address used.
    club = Club.objects.get(name="Club de Vichy")
    other = client.get(f"/clubs/{club.pk}/", HTTP_HOST="192.168.1.20:8000").content.decode()
    assert 'value="http://192.168.1.20:8000/invitation/' in other


@pytest.mark.clubs  # (implied by tests/clubs/) the memberships are the ones made here
def test_a_deputy_refused_an_arbiters_page_is_told_why_in_the_pages_language(client, arbiter, tournament):
    deputy = User.objects.create_user("adjoint", password="x-secret-123")
    Member.objects.create(club=tournament.owner, user=deputy, role=Role.DEPUTY)
    client.force_login(deputy)
    french = client.get(f"/tournois/{tournament.pk}/")
    assert french.status_code == 403
    page = french.content.decode()
    assert "Accès refusé" in page and "réservé aux arbitres du club" in page and "adjoint" in page
    assert '<html lang="fr">' in page and "Retour à l&#x27;accueil" in page
    english = client.get(f"/tournois/{tournament.pk}/", **ENGLISH).content.decode()
    assert "Access refused" in english and "for the club&#x27;s arbiters only" in english
    assert "Forbidden" not in english and "réservé" not in english


@pytest.mark.clubs
def test_an_account_of_no_club_is_told_to_ask_for_an_invitation(client, db):
    client.force_login(User.objects.create_user("personne", password="x-secret-123"))
    response = client.get("/")
    assert response.status_code == 403
    assert "n&#x27;est membre d&#x27;aucun club" in response.content.decode()
    assert "ask a club&#x27;s arbiter for an invitation link" in client.get("/", **ENGLISH).content.decode()
