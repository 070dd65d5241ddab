"""Push instead of polling, in a real browser on the scale deployment's front (nginx with its nchan
module before gunicorn, ``tests/scale_front.py``): a player's phone page hears its room's changes
through its push connection and asks for its screen only then, with no 2-second poll while it is
connected; when the connection drops (nginx stopped) it says so and polls again, and once nginx is
back it reconnects by itself and shows what changed meanwhile (``player.js``, "pushed changes";
``server/push.py``)."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, Request, expect

from server import push
from tests.e2e.browser import orm
from tests.fixtures import *  # noqa: F403 - the rooms' fixtures (players, game) and their autouse ones
from tests.scale_front import collected_static, front_publishing
from tournaments import room, services
from tournaments.models import Round
from tournaments.selectors import round_key

#: A change made in the test process reaches the phone by push: told at once, it asks within the
#: spread of ``player.js`` (``PUSH_SPREAD_MS``, 2 s); the phone's 20-second safety poll would be late.
PUSHED_WITHIN_MS = 4_000
#: The phone has asked what a push (or its connecting) made it ask once it sends nothing for longer
#: than a tick of the 2-second timer: a phone polling every 2 s never goes that long.
SETTLE_MS = 2_500
SETTLED_WITHIN_S = 15
#: Three ticks of the 2-second timer: a phone still polling while connected would ask three times.
QUIET_MS = 6_000
#: nginx back: the browser's EventSource retries about every 3 s, and the phone asks as it connects.
CAUGHT_UP_WITHIN_MS = 15_000


@pytest.fixture(scope="module")
def readable_dir():
    """A folder nginx's workers can read whatever account they run as: started as root, nginx's
    workers are ``nobody`` by default, who can enter neither pytest's temporary folders (0700) nor
    an ``ARBITER_VAR_DIR`` (kept 0700 by the settings)."""
    base = Path(tempfile.mkdtemp(prefix="arbiter-push-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def static_files(readable_dir):
    static = collected_static(readable_dir)
    readable_dir.chmod(0o755)  # collectstatic's settings made it the account's own
    return static


@pytest.fixture
def front(readable_dir, static_files, settings):
    """nginx and gunicorn on the test's database; this process publishes its changes to nginx, as a
    web process or a Celery worker of the deployment does."""
    run = Path(tempfile.mkdtemp(prefix="front-", dir=readable_dir))
    run.chmod(0o755)
    with front_publishing(run, static_files, settings, workers=1, threads=2) as running:
        yield running


class StatusRequests:
    """The phone's requests for its status (``/j/<token>/etat/``), as the browser sent them: a
    request htmx cancelled before sending it is not among them."""

    def __init__(self, page: Page):
        self.page = page
        self.sent: list[str] = []
        page.on("request", self._seen)

    def _seen(self, request: Request) -> None:
        if urlsplit(request.url).path.endswith("/etat/"):
            self.sent.append(request.url)

    def mark(self) -> int:
        """How many were sent so far: Playwright hands the page's events over while it talks to the
        browser, so ask the browser something first."""
        self.page.evaluate("0")
        return len(self.sent)

    def since(self, mark: int) -> list[str]:
        self.mark()
        return self.sent[mark:]


def _pushed_key(url: str) -> str:
    """The state key a pushed message told the phone, sent back with its request (``k``)."""
    return parse_qs(urlsplit(url).query).get("k", [""])[0]


def _wait_for_a_request(page: Page, requests: StatusRequests, mark: int, seconds: float) -> list[str]:
    end = time.monotonic() + seconds
    while not requests.since(mark) and time.monotonic() < end:
        page.wait_for_timeout(200)
    return requests.since(mark)


def _settled(page: Page, requests: StatusRequests) -> bool:
    """Whether the phone went ``SETTLE_MS`` without asking for its status (within ``SETTLED_WITHIN_S``)."""
    end = time.monotonic() + SETTLED_WITHIN_S
    while time.monotonic() < end:
        mark = requests.mark()
        page.wait_for_timeout(SETTLE_MS)
        if not requests.since(mark):
            return True
    return False


@pytest.mark.django_db(transaction=True)
def test_a_phone_behind_nginx_hears_changes_pushed_and_catches_up_after_its_push_drops(
    front, players, game, phone, artifacts
):
    page = phone().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests = StatusRequests(page)
    body, status = page.locator("body"), page.locator("#player-status")

    # -- the phone's page, through nginx, names its room's channel and listens to it ------------------
    page.goto(front.url(f"/j/{players[0].token}/"))
    expect(body).to_have_attribute("data-push", f"/push/{push.channel(room.push_room(game.tournament_id))}")
    expect(body).to_have_attribute("data-push-state", "live")
    expect(status).to_have_attribute("data-phase", "waiting")
    assert _settled(page, requests), requests.sent  # it asked as it connected, and then nothing

    # -- a change made in this process (a worker's, say) is pushed, and the phone shows it -------------
    before_change = requests.mark()
    with orm():
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        drawn_key = round_key(Round.objects.select_related("game").get(pk=rnd.pk))
        services.round_start(round_id=rnd.pk)
        rnd = Round.objects.select_related("game").get(pk=rnd.pk)
        started_key = round_key(rnd)
    expect(status).to_have_attribute("data-phase", "running", timeout=PUSHED_WITHIN_MS)
    expect(status).to_have_attribute("data-round", str(rnd.pk))
    expect(status.locator(".rack .tile")).to_have_count(len(rnd.tiles))
    expect(body).to_have_attribute("data-push-state", "live")
    asked = requests.since(before_change)
    assert asked and _pushed_key(asked[0]) in {drawn_key, started_key}, asked  # asked when told
    page.screenshot(path=str(artifacts / "push-live.png"), full_page=True)

    # -- connected, and nothing changes: the phone asks nothing (its 2-second poll is held back) -----
    assert _settled(page, requests), requests.sent  # what the pushes made it ask is over
    # One request for the two pushes that came together (and at most one more the timer had
    # queued): never one per push, nor a train of checks for a key older than the screen's.
    assert len(requests.since(before_change)) <= 2, requests.since(before_change)
    quiet = requests.mark()
    page.wait_for_timeout(QUIET_MS)
    assert requests.since(quiet) == [], requests.since(quiet)
    expect(body).to_have_attribute("data-push-state", "live")

    # -- a phone that connects with nothing missed asks nothing: nginx's first message names the
    # state its page shows (a hall of phones joining, or reconnecting, costs no request each) -------
    joining = phone().new_page()
    joining_requests = StatusRequests(joining)
    joining.goto(front.url(f"/j/{players[1].token}/"))
    expect(joining.locator("body")).to_have_attribute("data-push-state", "live")
    expect(joining.locator("#player-status")).to_have_attribute("data-phase", "running")
    joining.wait_for_timeout(QUIET_MS)
    assert joining_requests.since(0) == [], joining_requests.sent
    joining.close()

    # -- the push drops (nginx stopped): the phone says so and polls again --------------------------
    front.stop_nginx()
    expect(body).to_have_attribute("data-push-state", "lost")
    lost = requests.mark()
    with orm():
        services.round_close(round_id=rnd.pk)  # its message reaches nobody: nginx is down
    assert _wait_for_a_request(page, requests, lost, 6), "no poll while the push was lost"
    expect(status).to_have_attribute("data-phase", "running")  # nothing reaches it meanwhile

    # -- nginx back: the phone reconnects by itself and catches up ---------------------------------
    front.start_nginx()
    expect(body).to_have_attribute("data-push-state", "live", timeout=CAUGHT_UP_WITHIN_MS)
    expect(status).to_have_attribute("data-phase", "closed", timeout=CAUGHT_UP_WITHIN_MS)
    expect(status).to_have_attribute("data-round", str(rnd.pk))
    expect(status.locator(".clock")).to_have_class(re.compile(r"\bdone\b"))
    expect(status.locator(".clock")).to_have_text("terminé")  # not the countdown frozen by the swap
    page.screenshot(path=str(artifacts / "push-caught-up.png"), full_page=True)
    assert not errors, errors
