"""A hall of 1,500 players on the arbiter's screens, in Chromium: the projector shows the first 100
ranks in pages that fit 1024x768 and 1920x1080, with where the whole ranking is; the arbiter's game
screen (1366x768) counts the tables not heard from and lists them on demand, the list staying open
while the screen redraws as slips come.  Screenshots go to tests/e2e/artifacts/hall/."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.models import User
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from live import services as live_services
from tests.e2e.browser import VOICE
from tests.e2e.browser import orm as _orm
from tests.e2e.test_projector_screens import LAYOUT_PROBLEMS, PASSWORD, SHOWN_ROWS, _log_in
from tournaments import services
from tournaments.models import Player

HALL = 1500
expect.set_options(timeout=15_000)


def _hall():
    """1,500 players, the first round played (a slip from one table in three) and its top placed."""
    arbiter = User.objects.create_user("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Festival", date=datetime.date(2026, 11, 29)
    )
    lines = ["Nom;Table"] + [f"Joueur {n:04d};{n}" for n in range(1, HALL + 1)]
    services.players_import_csv(tournament=tournament, data="\r\n".join(lines).encode())
    game = services.game_start(tournament=tournament, seed=2026)
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    top = rnd.tops[0]
    for player in Player.objects.filter(tournament=tournament, table_number__lte=60):
        text = f"{top['ref']} {top['word']} {top['score']}" if player.table_number % 3 else "H8 ZZZ 10"
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    return game


def test_a_halls_projector_and_game_screen(live_server, laptop, artifacts):
    with _orm():
        game = _hall()
    folder = artifacts / "hall"
    folder.mkdir(exist_ok=True)
    _log_in(laptop, live_server.url)
    page = laptop.new_page()
    page.add_init_script(VOICE)
    page.goto(f"{live_server.url}/projecteur/{game.pk}/")
    for width, height in ((1024, 768), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        box = page.locator(".projection-ranking")
        expect(box).to_contain_text("les 100 premiers sur 1")
        expect(box).to_have_attribute("data-page", re.compile(r"^1 / \d+$"))
        pages = int(box.get_attribute("data-page").split(" / ")[1])
        page.screenshot(path=str(folder / f"projector-{width}x{height}.png"))
        seen: list[str] = []
        for number in range(1, pages + 1):
            expect(box).to_have_attribute("data-page", f"{number} / {pages}")
            problems = page.evaluate(LAYOUT_PROBLEMS)
            assert not problems, f"{width}x{height}, page {number}:\n" + "\n".join(problems)
            seen += page.locator(f"{SHOWN_ROWS} td:nth-child(1)").all_inner_texts()
            page.keyboard.press("PageDown")
        assert len(seen) == 100, f"{width}x{height}: {len(seen)} rows in {pages} pages"
    whole = page.locator(".projection-ranking a.ranking-whole").get_attribute("href")

    screen = laptop.new_page()
    screen.set_viewport_size({"width": 1366, "height": 768})
    screen.goto(f"{live_server.url}{whole}")
    expect(screen.locator("table.ranking tbody tr")).to_have_count(HALL)

    with _orm():
        rnd = services.round_draw(game_id=game.pk, expected_number=2).round
        services.round_start(round_id=rnd.pk)
    screen.goto(f"{live_server.url}/parties/{game.pk}/")
    expect(screen.locator(".missing-tables")).to_have_text("Pas encore reçu : 1500 tables.")
    expect(screen.locator("table.ranking tbody tr")).to_have_count(100)
    screen.get_by_text("Voir les tables qui n’ont rien envoyé").click()
    listed = screen.locator(".missing-list .missing-all a")
    expect(listed).to_have_count(HALL)
    screen.screenshot(path=str(folder / "game-running-1366x768.png"))
    with _orm():
        top = rnd.tops[0]
        sender = Player.objects.get(tournament=game.tournament, table_number=2)
        live_services.submission_record(
            player=sender, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
        )
    expect(screen.locator(".missing-tables")).to_have_text("Pas encore reçu : 1499 tables.")
    expect(screen.locator(".missing-list")).to_have_attribute("open", "")  # kept open over the redraw
    screen.get_by_text("Voir les tables qui n’ont rien envoyé").click()  # closed, and opened again:
    screen.get_by_text("Voir les tables qui n’ont rien envoyé").click()  # the list as it is now
    expect(listed).to_have_count(HALL - 1)

    with _orm():
        services.round_close(round_id=rnd.pk)
    expect(screen.get_by_role("button", name="Placer ce top")).to_be_visible()
    panel = screen.locator("#slips")
    expect(panel.locator(".slips-table tbody tr")).to_have_count(100)
    panel.get_by_role("link", name="1401–1500").click()
    expect(panel.locator(".slips-table tbody tr").first).to_contain_text("Joueur 1401")
    screen.evaluate("document.querySelector('#slips').scrollIntoView()")
    screen.screenshot(path=str(folder / "game-closed-slips-1366x768.png"))
    screen.evaluate("window.scrollTo(0, 0)")
    screen.screenshot(path=str(folder / "game-closed-1366x768.png"))
