"""After a resume, the new address for the phones: one line under the arbiter's screens' header (its QR
code on demand) and, for its first minutes, a card in a corner of the projector; over no board at any
projector's or laptop's size, hidden by its button (and still hidden after a reload)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from server.restore import MARKER
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.templatetags.resumed import PROJECTOR_MINUTES

PASSWORD = "mot-de-passe-du-club"
SIZES = ((1024, 768), (1280, 720), (1366, 768), (1920, 1080))
expect.set_options(timeout=10_000)


def _resumed(var, minutes_ago: float) -> None:
    at = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=minutes_ago)
    (var / MARKER).write_text(json.dumps({"copy": "E:/copies/arbiter.sqlite3", "at": at.isoformat()}))


def _overlap(page: Page, a: str, b: str) -> bool:
    return page.evaluate(
        """([a, b]) => {
          const x = document.querySelector(a).getBoundingClientRect();
          return [...document.querySelectorAll(b)].some(el => {
            const y = el.getBoundingClientRect();
            return !(x.right <= y.left || y.right <= x.left || x.bottom <= y.top || y.bottom <= x.top);
          });
        }""",
        [a, b],
    )


@pytest.fixture
def evening(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    with _orm():
        arbiter = User.objects.create_user("arbitre", password=PASSWORD)
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée", date=datetime.date(2026, 11, 28)
        )
        for n in range(1, 13):
            services.player_register(tournament=tournament, name=f"Joueur {n:02d}")
        game = services.game_start(tournament=tournament, seed=2026)
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
    return game, tmp_path


def _log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("heading", name="Tournois")).to_be_visible()


def test_the_new_address_sits_in_a_corner_over_no_board_and_hides(live_server, laptop, evening, artifacts):
    game, var = evening
    _resumed(var, minutes_ago=2)
    page = laptop.new_page()
    _log_in(page, live_server.url)
    for path, board, name in (
        (f"/projecteur/{game.pk}/", ".projection-board", "projector"),
        (f"/parties/{game.pk}/", ".board", "game"),
    ):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(live_server.url + path)
            card = page.locator(".resumed-address")
            expect(card).to_be_visible()
            expect(card).to_contain_text("/moi/")
            page.screenshot(path=str(artifacts / f"resumed-{name}-{width}x{height}.png"))
            assert not _overlap(page, ".resumed-address", board), (name, width, height)
            assert not _overlap(page, ".resumed-address", "#voice-controls button, #slip-history"), name
            card_box = card.bounding_box()
            if name == "projector":  # a corner card, pushing nothing down
                assert (
                    page.evaluate("getComputedStyle(document.querySelector('.resumed-address')).position")
                    == "fixed"
                )
            else:  # one line under the header, its QR code on demand
                assert card_box["height"] <= 90, (width, card_box)
                expect(card.locator(".qr")).to_be_hidden()

    page.get_by_role("button", name="Masquer").click()
    expect(page.locator(".resumed-address")).to_be_hidden()
    page.reload()
    expect(page.locator(".resumed-address")).to_be_hidden()  # this resume's card stays hidden
    _resumed(var, minutes_ago=1)  # another resume: its card is shown
    page.reload()
    expect(page.locator(".resumed-address")).to_be_visible()


def test_the_projector_shows_the_new_address_for_its_first_minutes_only(live_server, laptop, evening):
    game, var = evening
    _resumed(var, minutes_ago=PROJECTOR_MINUTES + 1)
    page = laptop.new_page()
    _log_in(page, live_server.url)
    page.goto(f"{live_server.url}/projecteur/{game.pk}/")
    expect(page.locator(".projection-board")).to_be_visible()
    expect(page.locator(".resumed-address")).to_have_count(0)
    page.goto(f"{live_server.url}/parties/{game.pk}/")
    expect(page.locator(".resumed-address")).to_be_visible()  # the arbiter's screens: hours
