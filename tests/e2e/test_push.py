"""Push instead of polling, in a real browser on the scale deployment's front (nginx with its nchan
module before gunicorn, ``tests/scale_front.py``): a player's phone page is sent its room's state
through its push connection and draws it itself, asking nothing, its own result at a close
included, with no 2-second poll while it is connected; when the connection drops (nginx stopped) it
says so and polls again, and once nginx is back it reconnects by itself and shows what changed
meanwhile (``player.js``, "pushed state"; ``live/broadcast.py``, ``server/push.py``)."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, Request, expect

from live import broadcast
from live.phone import typed_slip
from server import push
from tests.e2e.browser import orm
from tests.e2e.test_accessibility import Audit
from tests.fixtures import *  # noqa: F403 - the rooms' fixtures (players, game) and their autouse ones
from tests.scale_front import collected_static, front_publishing
from tournaments import services
from tournaments.models import Round
from tournaments.selectors import round_key

#: A change made in the test process reaches the phone by push and is drawn at once; the phone's
#: 20-second safety poll would be late.
PUSHED_WITHIN_MS = 8_000
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


def _asked_by_push(urls: list[str]) -> list[str]:
    """The requests a pushed message made the phone send (they name its state key, ``k``): not the
    safety poll every 20 s."""
    return [url for url in urls if "k" in parse_qs(urlsplit(url).query)]


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
    context = phone()
    audit = Audit(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests = StatusRequests(page)
    body, status = page.locator("body"), page.locator("#player-status")

    # -- the phone's page, through nginx, names its room's channel and its own, and listens -----------
    page.goto(front.url(f"/j/{players[0].token}/"))
    room_channel = push.channel(broadcast.push_room(game.tournament_id, "fr"))
    own_channel = push.channel(broadcast.own_room(players[0].pk))
    expect(body).to_have_attribute("data-push", f"/push/{room_channel}/{own_channel}")
    expect(body).to_have_attribute("data-push-state", "live")
    expect(status).to_have_attribute("data-phase", "waiting")
    assert _settled(page, requests), requests.sent  # it asked as it connected, and then nothing

    # -- a change made in this process (a worker's, say) is pushed, and the phone draws it, asking
    # nothing: the rack, the clock counting down, the round's number -------------------------------
    before_change = requests.mark()
    with orm():
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
        rnd = Round.objects.select_related("game").get(pk=rnd.pk)
        started_key = round_key(rnd)
    expect(status).to_have_attribute("data-phase", "running", timeout=PUSHED_WITHIN_MS)
    expect(status).to_have_attribute("data-round", str(rnd.pk))
    expect(status).to_have_attribute("hx-get", re.compile(rf"s={re.escape(started_key)}"))
    expect(status.locator(".rack .tile")).to_have_count(len(rnd.tiles))
    expect(status.locator(".who")).to_contain_text("coup 1")
    expect(status.locator(".clock")).to_have_text(re.compile(r"^[0-3]:[0-5][0-9]$"))
    expect(page.locator("#player-slip fieldset")).to_be_enabled()
    expect(body).to_have_attribute("data-push-state", "live")
    # The blind player hears the new rack drawn from the push, as from a fetched screen.
    expect(page.locator("#player-announce")).to_contain_text("Nouveau tirage")
    audit.check(page, "a round drawn from a push")
    page.screenshot(path=str(artifacts / "push-live.png"), full_page=True)

    # -- connected, and nothing changes: the phone asks nothing (its 2-second poll is held back) -----
    assert _asked_by_push(requests.since(before_change)) == [], requests.since(before_change)
    quiet = requests.mark()
    page.wait_for_timeout(QUIET_MS)
    assert requests.since(quiet) == [], requests.since(quiet)
    expect(body).to_have_attribute("data-push-state", "live")

    # -- a slip sent, then the close pushed: the phone shows the top and its own result, asking
    # nothing (its result came on its own channel), and its slip still on the board ----------------
    with orm():
        top = Round.objects.get(pk=rnd.pk).tops[0]
    page.locator("#slip-text").fill(typed_slip(f"{top['ref']} {top['word']}"))
    if page.locator("#player-slip [name=claimed]").count():
        page.locator("#player-slip [name=claimed]").fill(str(top["score"]))
    page.locator("#player-slip [type=submit]").click()
    expect(page.locator("#player-receipt .sent")).to_contain_text("modifiable")
    before_close = requests.mark()
    with orm():
        services.round_close(round_id=rnd.pk)
    expect(status).to_have_attribute("data-phase", "closed", timeout=PUSHED_WITHIN_MS)
    # No top before the arbiter places one (tied tops: another may be placed); the result, at once.
    expect(status.locator(".results")).to_contain_text("Le top s'affiche quand l'arbitre l'a placé.")
    expect(status.locator(".results .top")).to_have_count(0)
    expect(status.locator(".results .standing")).to_contain_text("rang")
    expect(status.locator(".results .line")).not_to_contain_text("aucun bulletin")
    expect(page.locator("#player-receipt .sent")).to_have_class(re.compile(r"\bpast\b"))
    expect(page.locator("#player-receipt .sent")).not_to_contain_text("modifiable")
    expect(page.locator("#player-board .c.mine").first).to_be_visible()
    assert _asked_by_push(requests.since(before_close)) == [], requests.since(before_close)
    expect(page.locator("#player-announce")).to_contain_text("rang")  # the result, heard
    audit.check(page, "the results drawn from a push")
    page.screenshot(path=str(artifacts / "push-results.png"), full_page=True)

    # -- the top placed, the next round drawn and started: the board shows the top's tiles (the
    # player's slip gone from it), the receipt is emptied, still no request ------------------------
    with orm():
        services.round_place_top(round_id=rnd.pk)
        placed = len(Round.objects.get(pk=rnd.pk).placed["tiles"])
        rnd = services.round_draw(game_id=game.pk, expected_number=2).round
        services.round_start(round_id=rnd.pk)
    expect(status).to_have_attribute("data-round", str(rnd.pk), timeout=PUSHED_WITHIN_MS)
    expect(status.locator(".who")).to_contain_text("coup 2")
    expect(page.locator("#player-receipt .sent")).to_have_count(0)
    expect(page.locator("#player-board .c.t")).to_have_count(placed)
    expect(page.locator("#player-board .c.mine")).to_have_count(0)
    tile = page.locator("#player-board .c.t").first
    expect(tile).to_have_attribute("aria-label", re.compile(r"^[A-O]\d+, (.+, )?[A-Z]$"))
    assert _asked_by_push(requests.since(before_close)) == [], requests.since(before_close)
    assert len(requests.since(before_change)) <= 1, requests.since(before_change)  # a safety poll at most

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
    # Its own result was sent while nginx was down: not come with the room's state, it is asked for.
    expect(status.locator(".results .standing")).to_contain_text("rang", timeout=CAUGHT_UP_WITHIN_MS)
    page.screenshot(path=str(artifacts / "push-caught-up.png"), full_page=True)
    assert not errors, errors
    assert not audit.found, audit.report()
