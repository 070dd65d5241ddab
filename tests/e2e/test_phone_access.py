"""On a 360-px phone: the board is a grid of named squares walked with the arrow keys, Enter on a
square sets the reference (a second time turns it), the rack is read with its values, a new rack,
the end of the round and the result are said in the live region, the rack is heard the arbiter's
way, and large print stays on the phone with no control cut off."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import VOICE
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Round, Submission

expect.set_options(timeout=10_000)


def _announced(page: Page, text: str) -> None:
    expect(page.locator("#player-announce")).to_contain_text(text)


CONTROLS = "#player-slip input:visible, #player-slip button:visible, .tools button"


def _no_control_cut_off(page: Page, width: int = 360, target: int = 44) -> None:
    """Nothing wider than the screen; every control whole on it and at least ``target`` px high."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "w => Array.from(document.querySelectorAll('body *'))"
        ".filter(e => e.getBoundingClientRect().right > w + 0.5 && !e.closest('.board-box, .sr'))"
        ".map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))",
        width,
    )
    assert scroll <= width, (scroll, wide)
    for box in page.locator(CONTROLS).all():
        bounds = box.bounding_box()
        assert bounds and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width, bounds
        html = box.evaluate("e => e.outerHTML")
        assert bounds["height"] >= target and bounds["width"] >= 24, (html, bounds)


def _squares_at_least(page: Page, size: int) -> None:
    sizes = page.evaluate(
        "Array.from(document.querySelectorAll('#player-board [data-sq]'),"
        " c => Math.min(c.getBoundingClientRect().width, c.getBoundingClientRect().height))"
    )
    assert len(sizes) == 225 and min(sizes) >= size, min(sizes)


def test_a_player_plays_by_keyboard_and_screen_reader_in_large_print(live_server, phone, artifacts):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="x-secret-123")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée", date=datetime.date(2026, 11, 26)
        )
        alice = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=2026)
    context = phone()
    context.add_init_script(VOICE)
    page = context.new_page()
    page.goto(f"{live_server.url}/j/{alice.token}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Alice")
    grid = page.get_by_role("grid", name="Grille")
    expect(grid.get_by_role("row")).to_have_count(16)
    expect(grid.get_by_role("columnheader")).to_have_count(15)
    expect(grid.get_by_role("rowheader")).to_have_count(15)

    with _orm():
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
        top = rnd.tops[0]
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    _announced(page, "Nouveau tirage")
    rack = page.get_by_role("list", name="Tirage")
    expect(rack.get_by_role("listitem")).to_have_count(7)
    first = rack.get_by_role("listitem").first
    assert "point" in first.inner_text() or "joker" in first.text_content()

    # The board by keyboard: H8 by its name, one step right, Enter sets H9 across, again H9 down.
    centre = grid.get_by_role("gridcell", name="H8, mot compte double, vide", exact=True)
    expect(centre).to_have_attribute("tabindex", "0")
    centre.focus()
    page.keyboard.press("ArrowRight")
    h9 = grid.get_by_role("gridcell", name="H9, vide", exact=True)
    expect(h9).to_be_focused()
    page.keyboard.press("Enter")
    slip = page.get_by_label("Référence et mot")
    expect(slip).to_have_value("H9 ")
    _announced(page, "H9 horizontal")
    expect(h9).to_be_focused()  # the help says: a second time turns the direction
    page.keyboard.press("Enter")
    expect(slip).to_have_value("9H ")
    _announced(page, "9H vertical")
    expect(h9).to_be_focused()
    page.keyboard.press(" ")
    expect(slip).to_have_value("H9 ")

    # The rack heard the arbiter's way.
    page.get_by_role("button", name="Écouter le tirage").click()
    spoken = page.evaluate("window.__spoken")
    assert spoken and all(sentence.endswith(".") for sentence in spoken), spoken

    # Large print, remembered after a reload; nothing wider than the phone.
    page.get_by_role("button", name="Grands caractères").click()
    expect(page.get_by_role("button", name="Grands caractères")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("body")).to_have_class("player large")
    slip = page.get_by_label("Référence et mot")
    slip.fill(f"{top['ref']} {top['word']}")
    page.get_by_label("Score annoncé").fill(str(top["score"]))
    _no_control_cut_off(page)
    _squares_at_least(page, 24)
    page.screenshot(path=str(artifacts / "phone-large-print.png"), full_page=True)
    # The square with the focus is scrolled into the board's box (wider than the phone).
    grid.get_by_role("gridcell", name="H8, mot compte double, vide", exact=True).focus()
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    o8 = grid.get_by_role("gridcell", name="H15, mot compte triple, vide", exact=True)
    expect(o8).to_be_focused()
    expect(o8).to_be_in_viewport(ratio=1)

    # 200 % zoom: the same phone at half its CSS width, in large print and at normal size.
    page.set_viewport_size({"width": 180, "height": 320})
    _no_control_cut_off(page, width=180, target=24)
    page.get_by_role("button", name="Grands caractères").click()
    expect(page.locator("body")).to_have_class("player")
    _no_control_cut_off(page, width=180, target=24)
    page.screenshot(path=str(artifacts / "phone-zoom-200.png"), full_page=True)
    page.get_by_role("button", name="Grands caractères").click()
    page.set_viewport_size({"width": 360, "height": 640})
    page.get_by_role("button", name="Envoyer").click()
    expect(page.locator("#player-receipt")).to_contain_text("reçu à")

    # The end of the round and the result, said.
    with _orm():
        services.round_close(round_id=rnd.pk)
    _announced(page, "Temps écoulé")
    with _orm():
        services.round_place_top(round_id=rnd.pk)
    _announced(page, f"{top['score']}")
    expect(page.locator("#player-announce")).to_contain_text("Total")
    _no_control_cut_off(page)


def _keys_of(word: str) -> list[str]:
    """The keys that type ``word`` as the slip writes it: a joker is its letter then "?"."""
    keys = []
    for letter in word:
        keys += [letter.upper(), "?"] if letter.islower() else [letter]
    return keys


def test_a_blind_player_sends_a_slip_in_as_many_keys_as_a_sighted_player_taps_and_types(live_server, phone):
    """A whole timed round by keyboard and the names a screen reader reads, nothing else: the square
    found by its name, Enter (twice for a word down), the word typed from there, Tab to the score,
    Enter to send: as many keys as a sighted player's taps (the square, again for down, the score's
    box, Envoyer) plus what both type."""
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="x-secret-123")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée", date=datetime.date(2026, 11, 26)
        )
        alice = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=2026)
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
        top = rnd.tops[0]
    page = phone().new_page()
    page.goto(f"{live_server.url}/j/{alice.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    grid = page.get_by_role("grid", name="Grille")
    ref = top["ref"]
    across = ref[0].isalpha()
    name = ref if across else ref[-1] + ref[:-1]  # squares are named row then column
    square = grid.get_by_role("gridcell", name=re.compile(f"^{name},"))
    square.focus()  # a screen reader's "find": the square by its name
    expect(square).to_be_focused()

    pressed = []

    def press(key: str) -> None:
        pressed.append(key)
        page.keyboard.press(key)

    press("Enter")
    if not across:
        press("Enter")
    expect(page.get_by_label("Référence et mot")).to_have_value(f"{ref} ")
    for key in _keys_of(top["word"]):
        press(key)
    expect(page.get_by_label("Référence et mot")).to_have_value(f"{ref} {''.join(_keys_of(top['word']))}")
    press("Tab")
    expect(page.get_by_label("Score annoncé")).to_be_focused()
    for digit in str(top["score"]):
        press(digit)
    press("Enter")
    expect(page.locator("#player-receipt")).to_contain_text("reçu à")
    with _orm():
        slip = Submission.objects.get(player=alice)
        assert slip.received_at < Round.objects.get(pk=rnd.pk).deadline
        assert (slip.ref, slip.word) == (top["ref"], top["word"])
    taps = 1 + (0 if across else 1) + 1 + 1  # the square (again for down), the score's box, Envoyer
    typed = len(_keys_of(top["word"])) + len(str(top["score"]))
    assert len(pressed) <= taps + typed, pressed


# The phone's own text size at 200 % (Android's and iOS's setting): every font twice as large, the
# screen as wide as before.
TEXT_DOUBLED = """() => {
  const all = Array.from(document.querySelectorAll('body, body *'));
  const sizes = all.map(e => parseFloat(getComputedStyle(e).fontSize));
  all.forEach((e, i) => { e.style.fontSize = (2 * sizes[i]) + 'px'; });
}"""

BOXES_APART = """() => {
  const boxes = Array.from(document.querySelectorAll('.rack .tile, .clock'), e => e.getBoundingClientRect());
  const over = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      over.push([a.left, a.top, b.left, b.top]);
  }));
  return over;
}"""


def test_the_phones_text_at_200_percent_overlaps_nothing(live_server, phone, artifacts):
    """With the phone's text twice as large, the rack goes on two lines and the clock under it, no
    tile over another or over the clock, each letter inside its tile; the slip's field keeps room for
    a reference and a word, the score and the button going under it; nothing wider than the phone."""
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="x-secret-123")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée", date=datetime.date(2026, 11, 26)
        )
        alice = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=2026)
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
    page = phone().new_page()
    page.goto(f"{live_server.url}/j/{alice.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    for large in (False, True):
        if large:
            page.get_by_role("button", name="Grands caractères").click()
            expect(page.locator("body")).to_have_class("player large")
        page.evaluate(TEXT_DOUBLED)
        assert page.evaluate(BOXES_APART) == []
        letters_inside = page.evaluate(
            "Array.from(document.querySelectorAll('.rack .tile'), t => t.scrollWidth <= t.clientWidth + 1)"
        )
        assert len(letters_inside) == 7 and all(letters_inside), letters_inside
        field = page.get_by_label("Référence et mot").bounding_box()
        assert field and field["width"] >= 200, field
        _no_control_cut_off(page, target=44)
        name = "phone-text-200-large.png" if large else "phone-text-200.png"
        page.screenshot(path=str(artifacts / name), full_page=True)
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
