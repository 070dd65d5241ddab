"""A real browser for the end-to-end tests: Debian's Chromium driven by Playwright (never
Playwright's own download), served by pytest-django's ``live_server``.

Without ``/usr/bin/chromium`` the tests are skipped on a developer's machine and fail under CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Screenshots for a person to look at (gitignored).
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: The club's language: the pages are asked for in French whatever the machine's locale.
LOCALE = "fr-FR"
TIMEZONE = "Europe/Paris"


def _chromium_or_skip() -> Path:
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    reason = f"{CHROMIUM} is missing (apt-get install chromium; ./scripts/test installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI runs the end-to-end test, it never skips it.")
    pytest.skip(reason)


@pytest.fixture
def browser(monkeypatch):
    """One headless Chromium for the test, closed (with Playwright's driver) when it ends."""
    executable = _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; Django refuses ORM calls from a
    # thread with a running loop unless told it is safe.  It is here: the test is the only code
    # running in this thread, one call at a time (Django's documented escape hatch).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def laptop(browser):
    """The arbiter's laptop: a desktop window of its own."""
    context = browser.new_context(
        viewport={"width": 1366, "height": 900}, locale=LOCALE, timezone_id=TIMEZONE
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def phone(browser):
    """A factory of phones: each player's own browser context (own cookies), 360 px wide, touch."""
    contexts = []

    def new_phone(locale: str = LOCALE):
        context = browser.new_context(
            viewport={"width": 360, "height": 640},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale=locale,
            timezone_id=TIMEZONE,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield new_phone
    for context in contexts:
        context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
