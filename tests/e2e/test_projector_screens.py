"""The projector on a club's projector, and through the evening.

A room of 40 players (a few long names) is shown at 1024x768, 1280x720, 1280x800, 1366x768 (club
projectors) and 1920x1080 on each of the projector's screens: a rack drawn (with the ranking), the
rack and the clock running, a top forming several words (with the ranking), and the ranking once
the game ended.  On each, every
visible element lies inside the window and inside its own box (nothing clipped, nothing spilling
out), no row of the ranking lies under the voice buttons, the page does not scroll, and the
ranking's pages (turned by a presenter's remote, PageDown) show every player once.  Screenshots go
to tests/e2e/artifacts/projector/.  The voice chosen survives a reload.

Then the evening goes on: the projector left open on a game that ended shows the next game's first
rack once it is drawn, without being reopened (as the phones do)."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from live import screens
from live import services as live_services
from tests.e2e.browser import VOICE
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.boards import words_formed
from tournaments.models import Game

PASSWORD = "mot-de-passe-du-club"
SIZES = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080))
PLAYERS = 40
LONG_NAMES = ("Marie-Christine de La Villardière", "Jean-Baptiste Vanderhaeghen", "Anne-Sophie Étienne-Dupré")
SHOWN_ROWS = ".projection-ranking tbody tr:not([hidden])"
expect.set_options(timeout=10_000)

#: What is wrong with the projector's layout as the window shows it now: elements outside the window
#: or their parent's box, boxes whose content spills out, rows under the voice buttons, a page that
#: scrolls.  Empty when the screen fits.
LAYOUT_PROBLEMS = """
() => {
  const W = window.innerWidth, H = window.innerHeight, out = [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const classes = (el) => (typeof el.className === "string" ? el.className.trim().split(/\\s+/) : []);
  const text = (el) => el.textContent.trim().replace(/\\s+/g, " ").slice(0, 30);
  const name = (el) => [el.tagName.toLowerCase() + (el.id ? "#" + el.id : ""), ...classes(el)]
    .filter(Boolean).join(".") + (text(el) ? ` '${text(el)}'` : "");
  const box = (r) => `[${[r.left, r.top, r.right, r.bottom].map(Math.round).join(",")}]`;
  const controls = document.getElementById("voice-controls").getBoundingClientRect();
  const elements = [...document.querySelectorAll("#projection *, #voice-controls, #voice-controls *")];
  for (const el of elements.filter(shown)) {
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
      out.push(`${name(el)} ${box(r)} outside the window ${W}x${H}`);
    }
    const [sw, sh, cw, ch] = [el.scrollWidth, el.scrollHeight, el.clientWidth, el.clientHeight];
    if (cw > 0 && (sw > cw + 1 || sh > ch + 1)) {
      out.push(`${name(el)} spills out: ${sw}x${sh} in ${cw}x${ch}`);
    }
    const parent = el.parentElement.getBoundingClientRect();
    if (el.closest(".projection-side") && el.parentElement.closest(".projection-side")
        && (r.left < parent.left - 1 || r.right > parent.right + 1)) {
      out.push(`${name(el)} ${box(r)} out of its parent ${box(parent)}`);
    }
  }
  for (const el of document.querySelectorAll("#projection tr, .projection-side > *, .projection-board")) {
    if (!shown(el) || el.closest("#voice-controls")) continue;
    const r = el.getBoundingClientRect();
    const c = controls;
    if (r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top) {
      out.push(`${name(el)} ${box(r)} under the voice buttons ${box(controls)}`);
    }
  }
  const page = document.documentElement;
  if (page.scrollHeight > H + 1 || page.scrollWidth > W + 1) {
    out.push(`the page scrolls: ${page.scrollWidth}x${page.scrollHeight} in ${W}x${H}`);
  }
  return out;
}
"""


def test_every_projector_screen_fits_a_club_projector(live_server, laptop, artifacts):
    with _orm():
        game, players = _room()
        rnd = _play_until_a_top_forms_words(game, players)
    folder = artifacts / "projector"
    folder.mkdir(exist_ok=True)
    _log_in(laptop, live_server.url)
    page = laptop.new_page()
    page.add_init_script(VOICE)
    page.goto(f"{live_server.url}/projecteur/{game.pk}/")

    expect(page.locator(".projection-side")).to_contain_text("Le top s'affiche quand")  # not placed yet
    _every_size(page, folder, "closed")
    with _orm():
        services.round_place_top(round_id=rnd.pk)
    expect(page.locator(".top-words")).to_be_visible()
    _every_size(page, folder, "top")
    with _orm():
        rnd = services.round_draw(game_id=game.pk, expected_number=rnd.number + 1).round
    _every_size(page, folder, "drawn")
    with _orm():
        services.round_start(round_id=rnd.pk)
    expect(page.locator(".projector-clock")).to_be_visible()
    _every_size(page, folder, "running", ranking=False)
    with _orm():
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
        services.game_end(game_id=game.pk)
    _every_size(page, folder, "ended")

    # The voice chosen stays chosen when the page is opened again.
    toggle = page.locator("#voice-toggle")
    expect(toggle).to_have_text("Voix : coupée")
    toggle.click()
    expect(toggle).to_have_text("Voix : activée")
    page.reload()
    expect(toggle).to_have_text("Voix : activée")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    page.reload()
    expect(toggle).to_have_text("Voix : coupée")
    expect(toggle).to_have_attribute("aria-pressed", "false")


def test_the_projector_follows_the_tournament_to_its_next_game(live_server, laptop):
    with _orm():
        game, _players = _room(players=2)
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
        services.game_end(game_id=game.pk)
    _log_in(laptop, live_server.url)
    page = laptop.new_page()
    page.add_init_script(VOICE)
    page.goto(f"{live_server.url}/projecteur/{game.pk}/")
    expect(page.locator(".round-title")).to_have_text("Partie terminée")
    page.get_by_role("button", name="Voix : coupée").click()
    page.evaluate("window.__opened = 'once'")

    with _orm():
        following = services.game_start(tournament=game.tournament, seed=7)
        first = services.round_draw(game_id=following.pk, expected_number=1).round
        rack = ["?" if t.blank else t.letter for t in screens.projection(following, first).rack]
    expect(page.locator(".round-title")).to_have_text("Coup 1")
    expect(page.locator(".projection-side .rack .tile")).to_have_count(len(rack))
    shown = page.locator(".projection-side .rack .tile").evaluate_all(
        "tiles => tiles.map(t => t.firstChild.textContent.trim())"
    )
    assert shown == rack
    assert page.evaluate("window.__opened") == "once", "the projector was reopened, not followed"
    expect(page).to_have_url(re.compile(rf"/projecteur/{following.pk}/$"))
    expect(page).to_have_title(re.compile(r"partie 2"))
    # The voice, on, announces the new game's first rack.
    page.wait_for_function("window.__spoken.length > 0")


def _every_size(page: Page, folder, state: str, ranking: bool = True) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        where = f"{state} at {width}x{height}"
        if not ranking:
            expect(page.locator(".projection-ranking")).to_have_count(0)
            page.screenshot(path=str(folder / f"{state}-{width}x{height}.png"))
            _fits(page, where)
            continue
        seen: list[str] = []
        indicator = page.locator(".projection-ranking")
        expect(indicator).to_have_attribute("data-page", re.compile(r"^1 / \d+$"))
        pages = int(indicator.get_attribute("data-page").split(" / ")[1])
        assert pages > 1, f"{where}: 40 players on one page"
        for number in range(1, pages + 1):
            expect(indicator).to_have_attribute("data-page", f"{number} / {pages}")
            if number == 1:
                page.screenshot(path=str(folder / f"{state}-{width}x{height}.png"))
            _fits(page, f"{where}, page {number}")
            seen += page.locator(f"{SHOWN_ROWS} td:nth-child(2)").all_inner_texts()
            page.keyboard.press("PageDown")
        expect(indicator).to_have_attribute("data-page", f"1 / {pages}")  # round again
        assert len(seen) == PLAYERS and len(set(seen)) == PLAYERS, f"{where}: pages showed {seen}"


def _fits(page: Page, where: str) -> None:
    problems = page.evaluate(LAYOUT_PROBLEMS)
    assert not problems, f"{where}:\n" + "\n".join(problems)


def _room(players: int = PLAYERS):
    """A tournament of ``players`` (three with long names) and its first game, before the first rack."""
    arbiter = User.objects.create_user("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée du club",
        date=datetime.date(2026, 11, 26), place="Club",
    )  # fmt: skip
    names = [*LONG_NAMES, *(f"Joueur {n:02d}" for n in range(len(LONG_NAMES) + 1, players + 1))][:players]
    registered = [services.player_register(tournament=tournament, name=name) for name in names]
    return services.game_start(tournament=tournament, seed=2026), registered


def _play_until_a_top_forms_words(game: Game, players: list):
    """Rounds played (most players find the top, some not) until one's top forms several words:
    that round is left closed, its top not placed."""
    for number in range(1, 12):
        rnd = services.round_draw(game_id=game.pk, expected_number=number).round
        services.round_start(round_id=rnd.pk)
        top = rnd.tops[0]
        for i, player in enumerate(players):
            if (i + number) % 4 and i % 9 != number:
                live_services.submission_record(
                    player=player, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
                )
        rnd = services.round_close(round_id=rnd.pk)
        game.refresh_from_db()
        proposed = rnd.tops[0]
        if len(words_formed(game.board, proposed["tiles"], proposed["ref"][0].isalpha())) > 2:
            return rnd
        services.round_place_top(round_id=rnd.pk)
    raise AssertionError("no top formed three words in 11 rounds")


def _log_in(context, base: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/login/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("heading", name="Tournois")).to_be_visible()
    page.close()
