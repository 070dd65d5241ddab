"""In a real browser: a refused slip stays on the phone with the results; a slip's history opened in
a tab of its own is a styled page whose close works; large print is black and white; at 200 % zoom
the phone's heading keeps the round and the score field its label."""

from __future__ import annotations

import datetime
import time
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from live import services as live_services
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


# -- a refusal stays with the results -----------------------------------------------------------------


def test_too_late_stays_on_the_phone_with_the_results(live_server, phone):
    game, (alice,) = _evening()
    page = phone().new_page()
    page.goto(f"{live_server.url}/j/{alice.token}/")
    rnd = _running(game)
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    # The server's clock has run out and the phone has not heard yet (its polls held back meanwhile).
    polls = f"**/j/{alice.token}/etat/**"
    page.route(polls, lambda route: route.abort())
    _time_up(rnd)
    page.get_by_label("Référence et mot").fill(f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}")
    page.get_by_label("Score annoncé").fill(str(rnd.tops[0]["score"]))
    page.get_by_role("button", name="Envoyer").click()
    refusal = page.locator("#player-receipt .error")
    expect(refusal).to_contain_text("Trop tard")
    page.unroute(polls)
    expect(page.locator("body")).to_have_attribute("data-phase", "closed")
    expect(page.locator(".results")).to_contain_text("aucun bulletin remis")
    for _ in range(3):  # a few more polls: the refusal stays beside the results
        page.wait_for_timeout(2_100)
        expect(refusal).to_contain_text("Bulletin non reçu")
    expect(page.locator(".results")).to_be_visible()


# -- the slip's history in a tab of its own --------------------------------------------------------


def test_the_slip_history_opened_in_its_own_tab_is_styled_and_closes(live_server, laptop, artifacts):
    game, (alice,) = _evening()
    rnd = _running(game)
    with _orm():
        live_services.submission_record(player=alice, round_id=rnd.pk, text="H8 ZZZ")
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
    back = f"/parties/{game.pk}/"
    deadline = time.monotonic() + 5
    while not (tab.is_closed() or tab.url.endswith(back)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert tab.is_closed() or tab.url.endswith(back), tab.url  # closed, or back on the game screen

    # In the game screen's panel it still opens and closes in place.
    page.get_by_role("link", name="historique").first.click()
    expect(page.locator("#slip-history")).to_contain_text("Table 1 — Alice")
    page.locator("#slip-history").get_by_role("button", name="Fermer").click()
    expect(page.locator("#slip-history")).to_be_empty()
    assert errors == []


# -- the phone: large print in black and white, the heading and the score field at 200 % -------------

#: Every colour the page paints with, on every element and its ::before and ::after, that is not a
#: grey (red, green and blue equal) and not transparent: "selector property colour".
COLOURED = """() => {
  const props = ["color", "background-color", "border-top-color", "border-right-color",
    "border-bottom-color", "border-left-color", "outline-color", "text-decoration-color", "box-shadow",
    "caret-color", "fill", "stroke"];
  const found = [];
  const grey = (text) => {
    for (const m of text.matchAll(/rgba?\\(([^)]*)\\)/g)) {
      const [r, g, b, a] = m[1].split(",").map(s => parseFloat(s));
      if (a === 0) continue;
      if (r !== g || g !== b) return false;
    }
    return true;
  };
  for (const el of document.querySelectorAll("body, body *")) {
    if (el.closest(".sr")) continue;
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(el, pseudo);
      if (pseudo && (style.content === "none" || style.content === "normal")) continue;
      if (style.display === "none" || style.visibility === "hidden") continue;
      for (const prop of props) {
        const value = style.getPropertyValue(prop);
        const where = `${el.tagName}.${el.className}${pseudo || ""}`;
        if (value && !grey(value)) found.push(`${where} ${prop} ${value}`);
      }
    }
  }
  return found;
}"""


def _black_and_white(page: Page) -> None:
    coloured = page.evaluate(COLOURED)
    assert coloured == [], "\n".join(sorted(set(coloured)))


def _large_print(page: Page) -> None:
    page.get_by_role("button", name="Grands caractères").click()
    expect(page.locator("body")).to_have_class("player large")


def test_large_print_is_black_and_white_in_every_state_of_the_round(live_server, phone, artifacts):
    game, (alice, _bruno) = _evening(("Alice", "Bruno"))
    page = phone().new_page()
    page.goto(f"{live_server.url}/j/{alice.token}/")
    _large_print(page)
    rnd = _running(game)
    top = rnd.tops[0]
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    # A slip typed (on the board in the player's colour, its letters to tap, one a joker), a refusal.
    page.get_by_label("Référence et mot").fill("Z99 QUOI?")
    page.get_by_label("Score annoncé").fill("12")
    page.get_by_role("button", name="Envoyer").click()
    expect(page.locator("#player-receipt .error")).to_contain_text("illisible")
    page.get_by_label("Référence et mot").fill(f"{top['ref']} {top['word'][:-1]}{top['word'][-1].upper()}?")
    expect(page.locator("#slip-letters button")).not_to_have_count(0)
    _black_and_white(page)
    page.screenshot(path=str(artifacts / "phone-large-running.png"), full_page=True)
    # The results, the player's line and a solo; the last top on the board.
    page.get_by_label("Référence et mot").fill(f"{top['ref']} {top['word']}")
    page.get_by_label("Score annoncé").fill(str(top["score"]))
    page.get_by_role("button", name="Envoyer").click()
    expect(page.locator("#player-receipt")).to_contain_text("reçu à")
    _time_up(rnd)
    expect(page.locator("body")).to_have_attribute("data-phase", "closed")
    expect(page.locator(".results")).to_be_visible()
    _black_and_white(page)
    with _orm():
        services.round_place_top(round_id=rnd.pk)
    expect(page.locator("#player-board .c.last").first).to_be_visible()
    _black_and_white(page)
    page.screenshot(path=str(artifacts / "phone-large-results.png"), full_page=True)


#: The heading's text from "table" on, as laid out: does it end inside the heading's box (which cuts
#: what overflows it) and the screen?
ROUND_SHOWN = """width => {
  const heading = document.querySelector("h1.who");
  const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node, found = false;
  while ((node = walker.nextNode())) {
    const at = node.data.indexOf("table");
    if (at >= 0) { range.setStart(node, at); found = true; }
    if (found) range.setEnd(node, node.data.length);
  }
  const box = heading.getBoundingClientRect(), text = range.getBoundingClientRect();
  return [range.toString(), text.right <= Math.min(box.right, width) + 0.5];
}"""

#: Does the score field's placeholder (its visible label) fit in the field?
SCORE_LABEL_FITS = """() => {
  const field = document.querySelector(".slip-score"), style = getComputedStyle(field);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const needed = context.measureText(field.placeholder).width;
  return [`${field.placeholder} ${Math.round(needed)} in ${Math.round(room)}`, needed <= room];
}"""


def _heading_and_score_whole(page: Page, width: int) -> None:
    shown, whole = page.evaluate(ROUND_SHOWN, width)
    assert "coup 1" in shown and whole, shown
    label, fits = page.evaluate(SCORE_LABEL_FITS)
    assert label.startswith("score ") and fits, (width, label)
    expect(page.get_by_label("Score annoncé")).to_be_visible()
    box = page.get_by_label("Score annoncé").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def test_at_200_percent_the_heading_keeps_the_round_and_the_score_field_its_label(
    live_server, phone, artifacts
):
    """200 % zoom on a 360-px phone: 180 CSS px.  A long name gives way, not the round."""
    game, (alice,) = _evening((LONG_NAME,))
    page = phone().new_page()
    page.goto(f"{live_server.url}/j/{alice.token}/")
    _running(game)
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    _heading_and_score_whole(page, 360)
    page.set_viewport_size({"width": 180, "height": 320})
    _heading_and_score_whole(page, 180)
    page.screenshot(path=str(artifacts / "phone-zoom-200-heading.png"), full_page=True)
    _large_print(page)
    _heading_and_score_whole(page, 180)
    page.screenshot(path=str(artifacts / "phone-zoom-200-heading-large.png"), full_page=True)
