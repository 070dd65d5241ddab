"""The phone's screen stays awake during a round, on the club's plain-HTTP Wi-Fi too.

The club's laptop serves plain HTTP on a LAN address: not a secure context, so the Screen Wake Lock
API is missing there and the phone falls back on NoSleep.js's silent video, which the browser plays
only after a tap or a key.  Chromium is told that ``club.test`` is this machine, so the page is
served from a name that is not ``localhost`` (which browsers treat as secure)."""

from __future__ import annotations

import datetime
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tests.e2e.conftest import CHROMIUM_ARGS, LOCALE, TIMEZONE, _chromium_or_skip
from tournaments import services
from tournaments.models import Player, Round

expect.set_options(timeout=10_000)

CLUB_HOST = "club.test"
#: NoSleep's video is never put in the page: remember the media elements the page plays.
WATCH_VIDEOS = """
window.__played = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this);
  return play.apply(this, arguments);
};
"""
VIDEO_PLAYING = "() => window.__played.length > 0 && window.__played.every(v => !v.paused)"


@pytest.fixture
def club_phone(monkeypatch):
    """A phone whose Chromium resolves ``club.test`` to this machine."""
    executable = _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # see conftest.browser
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {CLUB_HOST} 127.0.0.1"]
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(executable), args=args)
        try:
            context = chromium.new_context(
                viewport={"width": 360, "height": 640},
                is_mobile=True,
                has_touch=True,
                locale=LOCALE,
                timezone_id=TIMEZONE,
            )
            context.set_default_timeout(10_000)
            context.add_init_script(WATCH_VIDEOS)
            yield context
        finally:
            chromium.close()


def _player_and_round() -> tuple[Player, Round]:
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        tournament = services.tournament_create(
            created_by=arbiter,
            lexicon=lexicon_default_row(),
            name="Coupe du club",
            date=datetime.date(2026, 11, 20),
        )
        player = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=42)
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return player, rnd


def _start(rnd: Round) -> None:
    with _orm():
        services.round_start(round_id=rnd.pk)


def _run_out(rnd: Round) -> None:
    """The round's time and grace passed, as if the clock had run out; the phone's poll closes it."""
    with _orm():
        Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))


def _watched(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_on_the_clubs_plain_http_a_tap_during_a_round_keeps_the_screen_awake_with_a_video(
    live_server, club_phone
):
    player, rnd = _player_and_round()
    port = urlsplit(live_server.url).port
    page = club_phone.new_page()
    errors = _watched(page)
    page.goto(f"http://{CLUB_HOST}:{port}/j/{player.token}/")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.locator("body")).to_have_attribute("data-phase", "drawn")

    # A tap before the round runs keeps nothing awake.
    page.locator("#player-status .who").tap()
    page.wait_for_timeout(300)
    expect(page.locator("body")).not_to_have_attribute("data-awake", "video")

    _start(rnd)
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    # The page has been tapped already: the round's start itself may start the video; a tap surely does.
    page.get_by_label("Référence et mot").tap()
    expect(page.locator("body")).to_have_attribute("data-awake", "video")
    page.wait_for_function(VIDEO_PLAYING)

    # The round over, the screen may sleep again.
    _run_out(rnd)
    expect(page.locator("body")).to_have_attribute("data-phase", "closed")
    expect(page.locator("body")).not_to_have_attribute("data-awake", "video")
    assert page.evaluate("window.__played.every(v => v.paused)")
    assert not errors, errors


def test_the_first_tap_of_a_round_starts_the_video_on_a_page_never_tapped_before(live_server, club_phone):
    player, rnd = _player_and_round()
    _start(rnd)
    port = urlsplit(live_server.url).port
    page = club_phone.new_page()
    errors = _watched(page)
    page.goto(f"http://{CLUB_HOST}:{port}/j/{player.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__played.length") == 0  # no gesture yet: the browser would refuse
    page.keyboard.press("Tab")
    expect(page.locator("body")).to_have_attribute("data-awake", "video")
    page.wait_for_function(VIDEO_PLAYING)
    assert not errors, errors


def test_on_a_secure_origin_the_screen_wake_lock_is_held_while_the_round_runs(live_server, browser):
    """``localhost`` is a secure context: the Screen Wake Lock API itself, no video."""
    player, rnd = _player_and_round()
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale=LOCALE, timezone_id=TIMEZONE)
    context.add_init_script(WATCH_VIDEOS)
    page = context.new_page()
    errors = _watched(page)
    page.goto(f"{live_server.url}/j/{player.token}/")
    assert page.evaluate("window.isSecureContext && 'wakeLock' in navigator") is True
    _start(rnd)
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    expect(page.locator("body")).to_have_attribute("data-awake", "lock")
    _run_out(rnd)
    expect(page.locator("body")).to_have_attribute("data-phase", "closed")
    expect(page.locator("body")).not_to_have_attribute("data-awake", "lock")
    assert page.evaluate("window.__played.length") == 0
    assert not errors, errors
    context.close()
