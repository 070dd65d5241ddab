"""Issue 23, items 11 and 12 in a real browser: a refused slip stays on the phone with the results; a
slip's history opened in a tab of its own is a styled page whose close works; large print is black and
white; at 200 % zoom the phone's heading keeps the round and the score field its label."""

from __future__ import annotations

import datetime
import time
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Round

PASSWORD = "mot-de-passe-du-club"
LONG_NAME = "Marie-Thérèse de La Tour d'Auvergne"

expect.set_options(timeout=10_000)


def _evening(players=("Alice",)):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password=PASSWORD)
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée", date=datetime.date(2026, 11, 26)
        )
        registered = [services.player_register(tournament=tournament, name=name) for name in players]
        game = services.game_start(tournament=tournament, seed=2026)
    return game, registered


def _running(game, number: int = 1) -> Round:
    with _orm():
        rnd = services.round_draw(game_id=game.pk, expected_number=number).round
        return services.round_start(round_id=rnd.pk)


def _time_up(rnd: Round) -> None:
    with _orm():
        Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))


def _log_in(page: Page, url: str) -> None:
    page.goto(url + "/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()


# -- the slip's history in a tab of its own --------------------------------------------------------


def test_the_slip_history_opened_in_its_own_tab_is_styled_and_closes(live_server, laptop, artifacts):
    game, (alice,) = _evening()
    rnd = _running(game)
    with _orm():
        services.submission_record(player=alice, round_id=rnd.pk, text="H8 ZZZ")
        services.round_close(round_id=rnd.pk)
    page = laptop.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _log_in(page, live_server.url)
    page.goto(f"{live_server.url}/parties/{game.pk}/")
    link = page.get_by_role("link", name="historique").first

    # Opened in a tab of its own (a middle click: htmx takes the plain one).
    with laptop.expect_page() as opened:
        link.click(button="middle")
    tab = opened.value
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.wait_for_load_state()
    expect(tab.get_by_role("heading", level=2)).to_contain_text("Table 1 — Alice")
    expect(tab.locator(".slip-history .card.history")).to_have_css("border-radius", "8px")
    expect(tab.locator("header.site")).to_be_visible()
    assert tab.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    tab.screenshot(path=str(artifacts / "slip-history-tab.png"), full_page=True)
    tab.locator("a[data-close-history]").click()
    deadline = time.monotonic() + 5
    while not tab.is_closed() and not tab.url.endswith(f"/parties/{game.pk}/") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert tab.is_closed() or tab.url.endswith(f"/parties/{game.pk}/"), tab.url

    # In the game screen's panel it opens and closes as before.
    page.get_by_role("link", name="historique").first.click()
    expect(page.locator("#slip-history")).to_contain_text("Table 1 — Alice")
    page.locator("#slip-history").get_by_role("button", name="Fermer").click()
    expect(page.locator("#slip-history")).to_be_empty()
    assert errors == []
