"""In a real browser: the phone's poll carries the key of the name and table it shows (``p``), and a
player renamed and moved by the arbiter sees it at the phone's next poll."""

from __future__ import annotations

import datetime
from urllib.parse import parse_qs, urlsplit

from django.contrib.auth.models import User
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Player

expect.set_options(timeout=10_000)


def test_the_phone_sends_what_it_shows_of_its_player_and_follows_a_rename(live_server, phone):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Coupe", date=datetime.date(2026, 11, 20)
        )
        player = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=42)
        services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    page = phone().new_page()
    page.goto(f"{live_server.url}/j/{player.token}/")
    status = page.locator("#player-status")
    expect(status).to_contain_text("Alice · table 1")
    with page.expect_request(lambda request: "/etat/" in request.url) as polled:
        pass
    sent = parse_qs(urlsplit(polled.value.url).query)
    assert sent["p"] == [status.get_attribute("data-key")]
    with _orm():
        services.player_update(player=Player.objects.get(pk=player.pk), table_number=7, name="Alice Martin")
    expect(status).to_contain_text("Alice Martin · table 7")
