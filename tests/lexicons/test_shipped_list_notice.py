"""The word list a newcomer gets.  The shipped free list is not the ODS the clubs play (rules §6):
the new-tournament form says so beside the choice, with the words it refuses, and points to the
club's own list as the first step; once a club has sent its list, that list is the one a new
tournament starts on."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubs.models import Club, Member, Role
from engine.lexicon import DEFAULT_NAME
from lexicons.loaded import lexicon_default_row
from lexicons.services import lexicon_upload

WORDS = "\n".join(["AA", "BLOG", "KI", "OK", "QI", "WOK", "ZEF"]).encode()
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _form(client, **headers) -> str:
    return client.get("/tournois/nouveau/", **headers).content.decode()


def _selected(page: str) -> str:
    lexicon = re.search(r'<select name="lexicon".*?</select>', page, re.S).group()
    return re.search(r'<option value="(\d+)"[^>]*\bselected\b', lexicon).group(1)


def test_the_form_says_beside_the_choice_that_the_shipped_list_is_not_the_ods(arbiter_client):
    lexicon_default_row()
    page = _form(arbiter_client)
    notice = page[page.index('<p id="lexicon-notice">') :]
    notice = notice[: notice.index("</p>")]
    assert f"« {DEFAULT_NAME} »" in notice and "n'est pas l'ODS" in notice
    assert all(word in notice for word in ("QI", "WOK", "OK", "ZEF", "KI", "BLOG"))
    # The first step: the club's own list, sent with the field the link leads to.
    assert '<a href="#id_lexicon_file">Envoyez d\'abord la liste ODS de votre club</a>' in notice
    assert 'id="id_lexicon_file"' in page
    # The choice is described by the notice, for a screen reader too; it sits before the choice.
    assert re.search(r'<select name="lexicon"[^>]*aria-describedby="lexicon-notice"', page)
    assert page.index('id="lexicon-notice"') < page.index('<select name="lexicon"')


def test_the_notice_is_in_english_for_an_english_arbiter(arbiter_client):
    page = _form(arbiter_client, **ENGLISH)
    assert "is not the ODS" in page and "QI, WOK, OK, ZEF, KI or BLOG" in page
    assert ">Send your club's ODS list first</a>" in page and "n'est pas l'ODS" not in page


@pytest.mark.clubs
def test_once_a_club_sent_its_list_a_new_tournament_starts_on_it(client, db):
    shipped = lexicon_default_row()
    club = Club.objects.create(name="Club de Vichy")
    arbiter = User.objects.create_user("arbitre-vichy", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    client.force_login(arbiter)
    assert _selected(_form(client)) == str(shipped.pk)
    own = lexicon_upload(name="ods-du-club.txt", data=WORDS, club=club)
    assert _selected(_form(client)) == str(own.pk)
    # Another club's list is never the one a club starts on.
    other = Club.objects.create(name="Autre club")
    lexicon_upload(name="autre.txt", data=b"AA\nZZZ\n", club=other)
    assert _selected(_form(client)) == str(own.pk)


def test_the_notice_says_what_the_chosen_sets_list_is_not(arbiter_client):
    """The ODS sentence for the French set, the federations' lists for another (the page's script
    switches them as the set changes; the server shows the one of the set sent)."""
    page = _form(arbiter_client)
    assert re.search(r'<span data-notice-letters="fr">', page) and re.search(
        r'<span data-notice-letters="other" hidden>', page
    )
    sent = arbiter_client.post(reverse("tournaments:tournament_create"), {"letters": "es"}).content.decode()
    assert re.search(r'<span data-notice-letters="fr" hidden>', sent)
    assert re.search(r'<span data-notice-letters="other">', sent) and "FISE, DISC, Collins" in sent
