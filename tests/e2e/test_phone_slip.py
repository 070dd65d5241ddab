"""In a real browser, on a 360-px phone: a keyboard typing lower case plays no joker; the joker is
marked by a tap on its letter in the preview or by ``?`` typed after it; the rack dims the tiles the
slip takes (the blank for a joker); the receipt shows the joker; the language switch at the foot of
the page works and covers nothing; touch targets are large.

The game replays tests/data/reference-games/game-001.json: round 1 is VDFIR?A, top H4 FAVoRI 30."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tests.fixtures import REFERENCE_GAME
from tournaments import services
from tournaments.models import Player, Submission

expect.set_options(timeout=10_000)


def _running_round_with_a_blank() -> Player:
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        tournament = services.tournament_create(
            created_by=arbiter,
            lexicon=lexicon_default_row(),
            name="Coupe du club",
            date=datetime.date(2026, 11, 20),
        )
        player = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, prepared=REFERENCE_GAME.read_bytes())
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
    return player


def _open(page: Page, base: str, player: Player) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/j/{player.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    return errors


def _used(page: Page) -> list[str]:
    """The rack's tiles the slip takes: their letters (``?`` for the blank)."""
    return page.locator("#player-status .rack .tile.used").evaluate_all(
        "tiles => tiles.map(t => t.classList.contains('joker') ? '?' : t.firstChild.nodeValue)"
    )


def test_lower_case_plays_no_joker_and_a_joker_is_marked_by_a_tap_or_a_question_mark(live_server, phone):
    player = _running_round_with_a_blank()
    page = phone().new_page()
    errors = _open(page, live_server.url, player)
    field = page.get_by_label("Référence et mot")
    letters = page.get_by_role("group", name="Touchez une lettre pour en faire un joker").get_by_role(
        "button"
    )

    # The rack shows its blank as a joker tile, not an empty square.
    expect(page.locator("#player-status .rack .tile.joker")).to_have_text("?joker")

    # A keyboard typing lower case: upper case, no joker, the rack's tiles taken but not its blank.
    field.press_sequentially("h4 favori")
    expect(field).to_have_value("H4 FAVORI")
    expect(letters).to_have_count(6)
    expect(page.locator("#slip-letters [aria-pressed=true]")).to_have_count(0)
    assert sorted(_used(page)) == ["A", "F", "I", "R", "V"]

    # A tap on the O in the preview: a joker, written "?" after it in the field; the blank is taken.
    letters.nth(3).tap()
    expect(field).to_have_value("H4 FAVO?RI")
    expect(letters.nth(3)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#player-board [data-joker]")).to_have_attribute("data-ghost", "O")
    assert sorted(_used(page)) == ["?", "A", "F", "I", "R", "V"]
    letters.nth(3).tap()  # and back
    expect(field).to_have_value("H4 FAVORI")
    assert "?" not in _used(page)

    # The keyboard's and screen reader's way: "?" typed right after the letter.
    field.fill("")
    field.press_sequentially("h4 favo?ri")
    expect(field).to_have_value("H4 FAVO?RI")
    expect(letters.nth(3)).to_have_attribute("aria-pressed", "true")
    page.get_by_label("Score annoncé").fill("30")
    page.get_by_role("button", name="Envoyer").tap()
    receipt = page.locator("#player-receipt .sent")
    expect(receipt).to_contain_text("H4 FAVoRI 30 — reçu à")
    expect(receipt.locator(".joker")).to_have_text("o")
    expect(receipt).to_contain_text("joker : O")
    with _orm():
        assert Submission.objects.get(player=player).word == "FAVoRI"
    # Sent: the board shows the slip in the player's colour, the rack still shows what it takes.
    expect(page.locator("#player-board .c.mine")).to_have_count(6)
    assert sorted(_used(page)) == ["?", "A", "F", "I", "R", "V"]
    assert not errors, errors


def _box(page: Page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_language_switch_covers_nothing_works_and_the_touch_targets_are_large(live_server, phone):
    player = _running_round_with_a_blank()
    page = phone().new_page()
    errors = _open(page, live_server.url, player)
    page.get_by_label("Référence et mot").press_sequentially("h4 favori")
    switch = _box(page, ".lang-switch")
    for covered in (
        "#player-status .rack",
        "#player-status .clock",
        "#player-status .who",
        "#player-slip",
        "#player-board",
    ):
        assert not _overlap(switch, _box(page, covered)), covered
    targets = [
        ".lang-switch button",
        "#player-slip button[type=submit]",
        ".slip-score",
        "#slip-letters button",
    ]
    for selector in targets:
        for box in page.locator(selector).evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().toJSON())"
        ):
            assert box["width"] >= 44 and box["height"] >= 44, (selector, box)
    # How to write a slip: on the page, whole (not cut off) on a 360-px phone.
    how = page.locator("#slip-how")
    expect(how).to_contain_text("H4 JOINTA? 34")
    assert how.evaluate("e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= 360")
    # The rack, the clock, the slip and the whole board fit on the screen without scrolling.
    assert _box(page, "#player-board")["y"] + _box(page, "#player-board")["height"] <= 640

    page.get_by_role("button", name="EN", exact=True).tap()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Send")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    page.get_by_role("button", name="FR", exact=True).tap()
    expect(page.get_by_role("button", name="Envoyer")).to_be_visible()
    assert not errors, errors


def test_the_preview_says_a_tile_the_rack_lacks_before_the_slip_goes(live_server, phone, artifacts):
    player = _running_round_with_a_blank()  # VDFIR?A: one blank, no S
    page = phone().new_page()
    errors = _open(page, live_server.url, player)
    field = page.get_by_label("Référence et mot")
    missing = page.locator("#slip-missing")
    expect(missing).to_have_attribute("role", "status")  # read out by a screen reader as it changes

    field.press_sequentially("h4 favo?ri?")  # a second joker: the rack has one
    expect(missing).to_have_text("Votre tirage n'a pas de joker pour ce mot.")
    page.screenshot(path=str(artifacts / "phone-rack-no-blank-360.png"))
    field.fill("")
    field.press_sequentially("h4 favo?ris")  # no S on the rack
    expect(missing).to_have_text("Votre tirage n'a pas de S pour ce mot.")
    field.fill("")
    field.press_sequentially("h4 favo?ri")  # as the rack allows: nothing said
    expect(missing).to_have_text("")
    expect(missing).to_be_hidden()
    assert not errors, errors


def test_a_catalan_phone_reads_l_dot_l_as_the_one_tile_and_its_joker_mark(live_server, phone):
    """A phone's keyboard has no middle dot: ``L.L`` is the tile L·L in the preview as on the
    server, and ``L.L?`` a joker standing for it."""
    from lexicons.services import lexicon_upload

    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        words = lexicon_upload(name="ca-prova", data="al·le\nalla\nla\nal\n".encode(), letters="ca")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=words, letters="ca", name="Torneig", date=datetime.date(2027, 1, 9)
        )
        player = services.player_register(tournament=tournament, name="Aina")
        game = services.game_start(tournament=tournament, typed=True)
        rnd = services.round_draw(game_id=game.pk, expected_number=1, typed="[L·L]AEO?ST").round
        services.round_start(round_id=rnd.pk)
    page = phone(locale="ca-ES").new_page()
    errors = _open(page, live_server.url, player)
    field = page.locator("#slip-text")
    field.fill("H7 AL.LE")
    expect(page.locator("#player-board [data-ghost]").first).to_be_visible()
    ghosts = page.locator("#player-board [data-ghost]").evaluate_all(
        "cells => cells.map(c => c.dataset.ghost)"
    )
    assert ghosts == ["A", "L·L", "E"], ghosts
    field.fill("H7 AL.L?E")
    jokers = page.locator("#player-board [data-ghost][data-joker]").evaluate_all(
        "cells => cells.map(c => c.dataset.ghost)"
    )
    assert jokers == ["L·L"], jokers
    assert errors == []
