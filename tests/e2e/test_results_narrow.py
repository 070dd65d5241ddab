"""The results pages on a phone's width (a committee member, a player shown the arbiter's laptop
page on their own phone): the page itself never scrolls sideways, the ranking's fifteen columns
scroll in their own box (reachable with the keyboard, named for a screen reader), the header's links
wrap instead of running off the page, and every number sits right-aligned under its heading, as on
the laptop."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from live import services as live_services
from tests.e2e.browser import orm
from tests.e2e.test_accessibility import PASSWORD, Audit, _game
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

NARROW = {"width": 390, "height": 844}


def _play_a_round(game, players) -> None:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    slip = f"{top['ref']} {top['word']} {top['score']}"
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=slip)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)


def test_the_results_pages_fit_a_phone_and_their_numbers_line_up(live_server, browser):
    with orm():
        tournament, game, alice, bruno = _game()
        for name in ("Jean-Baptiste Lefèvre-Dumontier", "Marie-Françoise de La Rochefoucauld"):
            services.player_register(tournament=tournament, name=name)
        _play_a_round(game, [alice, bruno])
    base = live_server.url
    context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True, locale="fr-FR")
    context.set_default_timeout(10_000)
    audit = Audit(context)
    page = context.new_page()
    try:
        page.goto(f"{base}/login/")
        page.get_by_label("Identifiant").fill("arbitre")
        page.get_by_label("Mot de passe").fill(PASSWORD)
        page.get_by_role("button", name="Se connecter").click()
        expect(page.get_by_role("heading", name="Tournois")).to_be_visible()
        for path in (f"/parties/{game.pk}/resultats/", f"/tournois/{tournament.pk}/classement/"):
            page.goto(base + path)
            audit.check(page, path)
            assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], path
            header = page.locator("header.site").bounding_box()
            assert header["x"] + header["width"] <= NARROW["width"], path
            box = page.get_by_role("region", name="Classement")
            assert box.evaluate("b => b.scrollWidth > b.clientWidth"), path  # the table scrolls in it
            box.focus()  # a keyboard reaches it and scrolls it
            page.keyboard.press("ArrowRight")
            expect(box).to_be_focused()
            aligned = page.evaluate(
                """() => [...document.querySelectorAll('#results tr')].flatMap(row => [...row.cells])
                       .filter(cell => cell.classList.contains('num'))
                       .map(cell => getComputedStyle(cell).textAlign)"""
            )
            assert len(aligned) > 20 and set(aligned) == {"right"}, (path, set(aligned))
            rank, name = (page.locator("#results thead th").nth(i) for i in (0, 4))
            assert rank.evaluate("th => getComputedStyle(th).textAlign") == "right"
            assert name.evaluate("th => getComputedStyle(th).textAlign") == "left"
        assert not audit.found, audit.report()
    finally:
        context.close()
