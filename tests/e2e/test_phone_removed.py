"""A player the arbiter removes while their phone shows the round is told so on the phone, whether
the phone was polling or sending a slip at that moment; nothing of theirs is stored."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Player, Submission

REMOVED = "Vous avez été retiré du tournoi par l'arbitre"


def test_a_removed_players_phone_says_so_whether_it_polls_or_sends_a_slip(live_server, phone):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Coupe", date=datetime.date(2026, 11, 20)
        )
        alice, bruno = (services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno"))
        game = services.game_start(tournament=tournament, seed=42)
        rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    top = rnd.tops[0]
    pages = {}
    errors: list[str] = []
    for player in (alice, bruno):
        page = pages[player.name] = phone().new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/j/{player.token}/")
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
    pages["Bruno"].locator("#slip-text").fill(f"{top['ref']} {top['word']}")
    # Bruno's polls go unanswered from now on: only his slip's answer can tell him.
    pages["Bruno"].route("**/etat/**", lambda route: route.abort("connectionreset"))
    slips: list[int] = []
    pages["Bruno"].on("response", lambda r: slips.append(r.status) if "/bulletin/" in r.url else None)

    with _orm():
        services.player_remove(player=Player.objects.get(pk=alice.pk))
        services.player_remove(player=Player.objects.get(pk=bruno.pk))
    pages["Bruno"].get_by_role("button", name="Envoyer").tap()

    for page in pages.values():  # Alice's by her next poll, Bruno's by his slip's answer
        expect(page.get_by_role("heading", name="Retiré du tournoi")).to_be_visible()
        expect(page.get_by_role("alert")).to_contain_text(REMOVED)
    assert slips == [410] and not errors, (slips, errors)
    with _orm():
        assert not Submission.objects.filter(player_id__in=[alice.pk, bruno.pk]).exists()
