"""In real processes: the laptop dies in the middle of a round, the evening goes on on another one.

Laptop A (``manage.py serve`` in its own ``var/``, copying to its own folder) runs a hall of three
phones (Chromium, 390 px, each its own browser) that open their links at A's network address; round 1
of the prepared game runs (rack VDFIR?A, top H4 FAVoRI 30).  Alice and Bruno send their slips through
their pages; 6 s after both were acknowledged, A is killed (SIGKILL, its whole process group: the
battery).  Every phone says within seconds that the server is gone, since when and its own code;
Chloé's slip, typed meanwhile, gets no answer.  Laptop B (an empty ``var/``, another port) starts with
``serve --resume`` on A's folder of copies: both acknowledged slips are there and the round is still
running, left to the arbiter.  Each phone opens B's ``/moi/``, types the code its old page shows, and
is back at its own seat with its receipt; Chloé sends again.  The round's time runs out, the arbiter
(logged in on B with the evening's password) places the top and draws round 2: the phones show their
results, then the new rack.  The ranking, the game sheet and the score cards read from B's database
are those of the same evening played without the kill (``tests.server.evening uninterrupted``, a
third ``var/``).

    slips (round 1)        paid                    after round 1
    Alice  H4 FAVoRI 30    30                      30   rank 1
    Bruno  H4 FAVoRI 28    30 (warning)            30   rank 1
    Chloé  H4 VIDeR 24     24 (sent again on B)    24   rank 3

A slip a phone kept while the server was gone (``player.js``: localStorage) is kept for the address
it was typed at; a resume at another address (another origin) never receives it, so the phone's
banner shows it, with the time it was tried, and says to hand it in on paper: the player sends it
again while the round runs, or the arbiter types it as a paper slip."""

from __future__ import annotations

import datetime
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LOCALE, TIMEZONE
from tests.live_services import free_port, listening, wait_for

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "reference-games" / "game-001.json"
PASSWORD = "x-secret-123"  # tests.server.evening.HALL_PASSWORD
ALICE, BRUNO, CHLOE = "Alice", "Bruno", "Chloé"
#: What each phone types (a joker as its letter and ``?``), and the slip as stored.
TYPED = {ALICE: ("H4 FAVO?RI", 30), BRUNO: ("H4 FAVO?RI", 28), CHLOE: ("H4 VIDE?R", 24)}
STORED = {ALICE: "H4 FAVoRI 30", BRUNO: "H4 FAVoRI 28", CHLOE: "H4 VIDeR 24"}
LINES = {
    ALICE: "30 — H4 FAVoRI : bulletin correct.",
    BRUNO: "30 — avertissement : score annoncé 28 (H4 FAVoRI vaut 30).",
    CHLOE: "24 — H4 VIDeR : bulletin correct.",
}
STANDINGS = {
    ALICE: "Total 30 · négatif 0 · 100,00 % · rang 1/3",
    BRUNO: "Total 30 · négatif 0 · 100,00 % · rang 1/3",
    CHLOE: "Total 24 · négatif -6 · 80,00 % · rang 3/3",
}
#: How long after its acknowledgment a slip is promised to be in the copy, and a margin.
COPIED_WITHIN = 5.0
WAITED = COPIED_WITHIN + 1.0

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")

expect.set_options(timeout=15_000)


def _env(var: Path, key: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        ARBITER_VAR_DIR=str(var), ARBITER_BACKUP_DIR=str(key), DJANGO_SETTINGS_MODULE="arbiter.settings"
    )
    return env


def _evening(var: Path, key: Path, action: str, *arguments: str) -> dict:
    """A script of tests.server.evening on that laptop's database, in a process of its own."""
    done = subprocess.run([sys.executable, "-m", "tests.server.evening", action, *arguments], cwd=ROOT,
                          env=_env(var, key), capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


class Laptop:
    """``manage.py serve`` in a process group of its own (killed whole, as by a dead battery)."""

    def __init__(self, folder: Path, *options: str, port: int | None = None):
        self.var, self.key, self.port = folder / "var", folder / "key", port or free_port()
        self.log = folder / "serve.log"
        folder.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "manage.py", "serve", "--port", str(self.port), *options]
        with self.log.open("a") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=_env(self.var, self.key), stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        assert wait_for(lambda: listening(self.port) or self.process.poll() is not None, 120), self.said()
        assert self.process.poll() is None, self.said()

    def said(self) -> str:
        return self.log.read_text(errors="replace")

    def address(self) -> str:
        """The address it prints for the phones on the club's Wi-Fi, when this machine reaches it."""
        for url in re.findall(r"Ouvrir : (http://[0-9.]+:\d+)/", self.said()):
            with socket.socket() as probe:
                probe.settimeout(1)
                if probe.connect_ex((urlsplit(url).hostname, self.port)) == 0:
                    return url
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def _phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True,
        locale=LOCALE, timezone_id=TIMEZONE,
    )  # fmt: skip
    context.set_default_timeout(15_000)
    return context


def _watched(page: Page, problems: list[str]) -> Page:
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    return page


def _at_seat(page: Page, name: str, table: int, number: int) -> None:
    expect(page.locator("#player-status .who")).to_contain_text(f"{name} · table {table}")
    expect(page.locator("#player-status .who")).to_contain_text(f"coup {number}")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    expect(page.locator("#player-status .rack .tile")).to_have_count(7)
    expect(page.locator("#slip-text")).to_be_enabled()


def _type_slip(page: Page, name: str) -> None:
    slip, claimed = TYPED[name]
    page.locator("#slip-text").fill(slip)
    page.locator(".slip-score").fill(str(claimed))
    page.get_by_role("button", name="Envoyer").tap()


def _received(page: Page, name: str) -> None:
    expect(page.locator("#player-receipt .sent")).to_contain_text(f"{STORED[name]} — reçu à")


def test_the_laptop_dies_mid_round_and_the_evening_goes_on_on_another_one(browser, tmp_path, artifacts):
    started = time.monotonic()
    # The same evening never interrupted, played meanwhile in a third var/ (for the comparison).
    calm = tmp_path / "calm"
    uninterrupted = subprocess.Popen(
        [sys.executable, "-m", "tests.server.evening", "uninterrupted", str(RECORD), json.dumps(STORED)],
        cwd=ROOT, env=_env(calm / "var", calm / "key"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    problems: list[str] = []
    first = second = None
    try:
        # -- laptop A: the hall, round 1 running, three phones at A's address ------------------------
        first = Laptop(tmp_path / "a")
        hall = _evening(first.var, first.key, "hall", str(RECORD))
        players = hall["players"]
        base = first.address()
        phones, old = {}, {}
        for name, seat in players.items():
            phones[name] = _phone(browser)
            page = old[name] = _watched(phones[name].new_page(), problems)
            page.goto(f"{base}/j/{seat['token']}/")
            _at_seat(page, name, seat["table"], 1)
            expect(page.locator(".join-code strong")).to_have_text(seat["code"])
        for name in (ALICE, BRUNO):
            _type_slip(old[name], name)
        for name in (ALICE, BRUNO):
            _received(old[name], name)
        acknowledged = time.monotonic()

        # -- A dies 6 s after the last acknowledgment --------------------------------------------------
        time.sleep(max(0.0, acknowledged + WAITED - time.monotonic()))
        killed_at = datetime.datetime.now(ZoneInfo(TIMEZONE))
        first.kill()
        killed = time.monotonic()
        assert not listening(first.port)
        for name, page in old.items():
            lost = page.locator("#server-lost")
            expect(lost).to_have_class("server-lost")
            expect(lost).to_have_attribute("role", "alert")
            expect(page.locator("body")).to_have_attribute("data-server", "lost")
            shown = lost.inner_text()
            assert shown.startswith("Serveur injoignable depuis ") and players[name]["code"] in shown, shown
            assert "tapez votre code " + players[name]["code"] in shown, shown
            since = re.search(r"depuis (\d\d):(\d\d):(\d\d)", shown).groups()
            moment = killed_at.replace(hour=int(since[0]), minute=int(since[1]), second=int(since[2]))
            # Since the phone's first unanswered request: within its poll (2 s) after the kill.
            assert -1 <= (moment - killed_at.replace(microsecond=0)).total_seconds() <= 6, (shown, killed_at)
        # Within a few seconds: its next poll (2 s) fails, and 4 s without an answer is "lost".
        assert time.monotonic() - killed < 12
        chloe = old[CHLOE]
        _type_slip(chloe, CHLOE)
        expect(chloe.locator("#player-receipt .retrying")).to_contain_text("Pas de réponse du serveur")
        expect(chloe.locator("#player-receipt .sent")).to_have_count(0)
        kept_key = f"arbiter-tried:/j/{players[CHLOE]['token']}/"
        chloe.wait_for_function(f"() => localStorage.getItem({json.dumps(kept_key)}) !== null")
        kept = json.loads(chloe.evaluate(f"() => localStorage.getItem({json.dumps(kept_key)})"))
        assert (kept["slip"], kept["claimed"]) == ("H4 VIDE?R", "24"), kept  # as typed
        # It stays with this address: the banner says so, and which slip, to hand it in on paper.
        expect(chloe.locator("#server-lost .kept-slip")).to_contain_text("H4 VIDE?R 24")
        expect(chloe.locator("#server-lost .kept-slip")).to_contain_text("papier")
        chloe.screenshot(path=str(artifacts / "laptop-dies-server-lost.png"))

        # -- laptop B: an empty var/, another port, the evening resumed from A's copies ----------------
        second = Laptop(tmp_path / "b", "--resume", str(first.key))
        assert "Soirée reprise depuis " + str(first.key) in second.said(), second.said()
        held = _evening(second.var, second.key, "slips")
        assert held == {"round": [1, "running"], "slips": {ALICE: STORED[ALICE], BRUNO: STORED[BRUNO]}}
        new_base = second.address()
        assert new_base != base
        pages = {}
        for name, seat in players.items():
            code = old[name].locator(".join-code strong").inner_text()  # as the old page shows it
            page = pages[name] = _watched(phones[name].new_page(), problems)
            page.goto(f"{new_base}/moi/")
            page.get_by_label("Code de votre table").fill(code)
            page.get_by_role("button", name="Rejoindre ma table").tap()
            expect(page).to_have_url(f"{new_base}/j/{seat['token']}/")
            _at_seat(page, name, seat["table"], 1)
            if name != CHLOE:
                _received(page, name)
                old[name].close()
            else:
                expect(page.locator("#player-receipt .sent")).to_have_count(0)
        pages[ALICE].screenshot(path=str(artifacts / "laptop-dies-back-at-seat.png"))
        # Chloé's kept slip stays with A's address (another origin): she sends it again on B.
        _type_slip(pages[CHLOE], CHLOE)
        _received(pages[CHLOE], CHLOE)
        chloe.close()

        # -- the arbiter on B: the new address, the round closed, its top placed, round 2 drawn ---------
        laptop = browser.new_context(viewport={"width": 1366, "height": 900}, locale=LOCALE,
                                     timezone_id=TIMEZONE)  # fmt: skip
        arbiter = _watched(laptop.new_page(), problems)
        arbiter.goto(f"{new_base}/")
        arbiter.get_by_label("Identifiant").fill("arbitre")
        arbiter.get_by_label("Mot de passe").fill(PASSWORD)
        arbiter.get_by_role("button", name="Se connecter").click()
        expect(arbiter.locator(".resumed-address")).to_contain_text(f"{urlsplit(new_base).port}")
        arbiter.goto(f"{new_base}/parties/{hall['game']}/")
        expect(arbiter.locator(".received")).to_contain_text("3 / 3")
        # Left to the arbiter: it runs on, and may be cancelled and drawn again.
        expect(arbiter.get_by_role("button", name="Annuler le coup")).to_be_visible()
        _evening(second.var, second.key, "time_up")
        arbiter.get_by_role("button", name="Placer ce top").click()
        expect(arbiter.get_by_role("button", name="Tirer le coup 2")).to_be_visible()
        for name, page in pages.items():
            results = page.locator("#player-status .results")
            expect(results.locator(".top")).to_contain_text("H4 FAVoRI — 30")
            expect(results.locator(".line")).to_have_text(LINES[name])
            expect(results.locator(".standing")).to_have_text(STANDINGS[name])
        arbiter.get_by_role("button", name="Tirer le coup 2").click()
        for page in pages.values():
            expect(page.locator("#player-status .who")).to_contain_text("coup 2")
            expect(page.locator("#player-status .rack .tile")).to_have_count(7)
            letters = re.sub(r"[^A-Z?]", "", page.locator("#player-status .rack").inner_text())
            assert sorted(letters) == sorted("DIBHIQE"), letters  # round 2: D+IBHIQE
        laptop.close()

        # -- results and sheets: those of the evening never interrupted --------------------------------
        resumed = _evening(second.var, second.key, "papers")
        out, err = uninterrupted.communicate(timeout=120)
        assert uninterrupted.returncode == 0, err[-3000:]
        calm_papers = json.loads(out.strip().splitlines()[-1])
        lines = [(row["rank"], row["name"], row["total"]) for row in calm_papers["ranking"]["rows"]]
        assert lines == [(1, ALICE, 30), (1, BRUNO, 30), (3, CHLOE, 24)]
        assert calm_papers["rounds"] == [[1, "placed", "VDFIR?A"], [2, "drawn", "D+IBHIQE"]]
        assert resumed == calm_papers
    finally:
        for laptop_process in (first, second):
            if laptop_process is not None:
                laptop_process.stop()
        if uninterrupted.poll() is None:
            uninterrupted.kill()
            uninterrupted.wait()
    assert not problems, problems
    print(f"laptop dies: {time.monotonic() - started:.1f} s")


def test_the_laptop_restarts_the_phones_say_it_is_back_and_a_slip_tried_meanwhile_goes_to_the_arbiter(
    browser, tmp_path, artifacts
):
    """The same laptop stops (a Windows update) and starts again at the same address: the phone said
    it had lost the server, and now says it is back; the slip its player tried to send meanwhile,
    kept on the phone with the moment of its first try, reaches the server once it answers: late by
    the server's clock (the round's time ran out meanwhile), it is not counted but shown to the
    arbiter to accept or refuse, and the phone says so (§3.3.3)."""
    problems: list[str] = []
    laptop = Laptop(tmp_path / "a")
    try:
        hall = _evening(laptop.var, laptop.key, "hall", str(RECORD))
        seat = hall["players"][CHLOE]
        page = _watched(_phone(browser).new_page(), problems)
        page.goto(f"{laptop.address()}/j/{seat['token']}/")
        _at_seat(page, CHLOE, seat["table"], 1)

        laptop.kill()
        expect(page.locator("#server-lost")).to_have_class("server-lost", timeout=12_000)
        _type_slip(page, CHLOE)
        expect(page.locator("#server-lost .kept-slip")).to_contain_text("H4 VIDE?R 24")
        _evening(laptop.var, laptop.key, "time_up")  # the round's time runs out while the laptop is off

        port = laptop.port
        laptop = Laptop(tmp_path / "a", port=port)  # the same var/, the same address
        back = page.locator("#server-back, .server-back")
        expect(back).to_have_text("Serveur retrouvé.", timeout=20_000)
        expect(page.locator("#server-lost.server-lost")).to_have_count(0)
        tried = page.locator("#player-receipt .tried")
        expect(tried).to_contain_text("pendant la coupure", timeout=20_000)
        expect(tried).to_contain_text("arbitre")
        page.screenshot(path=str(artifacts / "laptop-back-tried-slip.png"))
        held = _evening(laptop.var, laptop.key, "claims")
        assert held["claims"] == [[CHLOE, STORED[CHLOE], "pending"]], held
        assert CHLOE not in held["slips"], held  # never counted by itself
        kept_key = json.dumps(f"arbiter-tried:/j/{seat['token']}/")
        assert page.evaluate(f"() => localStorage.getItem({kept_key})") is None  # delivered: no longer kept
        assert not problems, problems
    finally:
        laptop.stop()
