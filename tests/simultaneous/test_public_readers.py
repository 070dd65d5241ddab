"""Strangers' work does not slow the room: a simultaneous's public page, read by hundreds at once,
is answered to a plain visitor (no account, no session) from the page the process rendered within
``PUBLIC_RESULTS_SECONDS``: no query, no template, whatever filter or query string a reader sends,
each visitor with a CSRF token of its own; an arbiter logged in still gets the page rendered for
them."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from simultaneous import services as events
from simultaneous.models import Event
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.clubs

GAME = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"


@pytest.fixture
def event(db):
    club = Club.objects.create(name="Vichy")
    arbiter = User.objects.create_user("arbitre-vichy", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    event = events.event_create(
        organiser=club, created_by=arbiter, name="Simultané de novembre",
        date=datetime.date(2026, 11, 28), kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(),
        round_seconds=180, record_file=GAME.read_bytes(),
    )  # fmt: skip
    events.centre_register(event=event, club=club)
    centre = events.event_join(event=event, club=club, created_by=arbiter)
    alice, _bruno = (
        services.player_register(tournament=centre.tournament, name=name, series="2")
        for name in ("Alice", "Bruno")
    )
    rnd = services.round_draw(game_id=centre.game_id, expected_number=1).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    live_services.submission_record(
        player=alice, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
    )
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    return event


def _token(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_readers_within_the_window_cost_no_query_and_each_gets_its_own_token(
    event, settings, django_assert_num_queries
):
    settings.PUBLIC_RESULTS_SECONDS = 60
    url = f"/simultane/{event.public_key}/"
    first = Client().get(url).content.decode()
    assert "Alice" in first and "Série 2" in first
    for query in ("", "?serie=9", "?n=123456", "?categorie=" + "x" * 500):
        reader = Client()
        with django_assert_num_queries(0):
            page = reader.get(url + query)
        html = page.content.decode()
        assert page.status_code == 200 and "Alice" in html and "Série 2" in html
        assert not page.templates  # the kept page: no template rendered
        # The visitor's own token: its language switch is accepted, and comes back to the page shown.
        assert _token(html) != _token(first)
        assert 'name="next" value="' + url + '"' in html
        form = {"language": "en", "next": url, "csrfmiddlewaretoken": _token(html)}
        assert reader.post("/i18n/setlang/", form).status_code == 302
    # A filter the standing holds is a page of its own.
    series = Client().get(url + "?serie=2").content.decode()
    assert '<a href="?serie=2" aria-current="page">' in series
    assert '<a href="?serie=2" aria-current="page">' not in Client().get(url).content.decode()


def test_an_arbiter_logged_in_gets_the_page_rendered_for_them(event, settings, client):
    settings.PUBLIC_RESULTS_SECONDS = 60
    url = f"/simultane/{event.public_key}/"
    Client().get(url)
    client.force_login(User.objects.get(username="arbitre-vichy"))
    assert "arbitre-vichy" in client.get(url).content.decode()
