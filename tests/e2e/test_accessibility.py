"""axe-core (axe-playwright-python) over every page in every state of a round: the arbiter's game
screen, the projector and a phone before the first rack, with the rack drawn, while the round runs,
once it closed, with its top placed and when the game ended; the login page, the tournament pages,
the results, the reviews and the training.  Zero violations of any impact.

The game is played through the services (the screens have their own browser tests); one game of
two rounds, the pages visited once each, the laptop in French and a phone in English."""

from __future__ import annotations

import datetime
import time
from pathlib import Path

import axe_playwright_python
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from clubs.models import Invitation
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from simultaneous import services as simultaneous
from simultaneous.models import Event
from tests.e2e.browser import orm as _orm
from tournaments import services

PASSWORD = "mot-de-passe-du-club"
#: axe-core as axe-playwright-python ships it, run in every page the test's windows open.
AXE_SCRIPT = Path(axe_playwright_python.__file__).with_name("axe.min.js")

expect.set_options(timeout=10_000)


class Audit:
    """axe run over each page visited; every violation kept with the page and state it was on."""

    def __init__(self, *contexts) -> None:
        for context in contexts:
            context.add_init_script(path=AXE_SCRIPT)
        #: "id (impact) target — why" -> the pages and states it was found on.
        self.found: dict[str, list[str]] = {}
        self.pages = 0

    def check(self, page: Page, where: str) -> None:
        page.wait_for_load_state("load")
        results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        self.pages += 1
        for violation in results["violations"]:
            for node in violation["nodes"]:
                why = " ".join(node.get("failureSummary", "").split("\n")[1:2]).strip()
                key = f"{violation['id']} ({violation['impact']}) {node['target']} — {why}"
                self.found.setdefault(key, []).append(where)

    def report(self) -> str:
        return "axe found:\n" + "\n".join(f"{key}\n    on: {', '.join(on)}" for key, on in self.found.items())


def _game():
    """A tournament of two players (Alice, Bruno) and its first game, before the first rack."""
    arbiter = User.objects.create_user("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée accessible",
        date=datetime.date(2026, 11, 26), place="Club",
    )  # fmt: skip
    alice, bruno = (services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno"))
    game = services.game_start(tournament=tournament, seed=2026)
    return tournament, game, alice, bruno


def test_every_page_in_every_state_has_no_axe_violation(live_server, laptop, phone):
    started = time.monotonic()
    with _orm():
        tournament, game, alice, bruno = _game()
        invitation = Invitation.objects.create(club=tournament.owner, created_by=tournament.created_by)
        event = simultaneous.event_create(
            organiser=tournament.owner, created_by=tournament.created_by, name="Simultané",
            date=datetime.date(2026, 11, 28), kind=Event.Kind.LIVE, lexicon=tournament.lexicon,
            round_seconds=180,
        )  # fmt: skip
    base = live_server.url
    alice_context, bruno_context = phone(), phone()
    audit = Audit(laptop, alice_context, bruno_context)
    arbiter = laptop.new_page()
    projector = laptop.new_page()
    alice_phone = alice_context.new_page()
    bruno_context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    bruno_phone = bruno_context.new_page()

    arbiter.goto(f"{base}/login/")
    audit.check(arbiter, "login")
    arbiter.get_by_label("Identifiant").fill("arbitre")
    arbiter.get_by_label("Mot de passe").fill(PASSWORD)
    arbiter.get_by_role("button", name="Se connecter").click()
    expect(arbiter.get_by_role("heading", name="Tournois")).to_be_visible()
    audit.check(arbiter, "tournament list")
    for path, where in (
        ("/tournois/nouveau/", "new tournament"),
        (f"/tournois/{tournament.pk}/", "tournament"),
        (f"/tournois/{tournament.pk}/cartes/", "table cards"),
        (f"/tournois/{tournament.pk}/reglages/", "tournament settings"),
        (f"/joueurs/{alice.pk}/", "player edit"),
        ("/fusions/nouvelle/", "merge form"),
        ("/clubs/", "club page"),
        (f"/invitation/{invitation.token}/", "invitation"),
        ("/simultanes/", "simultaneous events"),
        ("/simultanes/nouveau/", "new simultaneous event"),
        (f"/simultanes/{event.pk}/", "simultaneous event"),
        (f"/simultane/{event.public_key}/", "public results"),
    ):
        arbiter.goto(base + path)
        audit.check(arbiter, where)

    arbiter.goto(f"{base}/parties/{game.pk}/")
    projector.goto(f"{base}/projecteur/{game.pk}/")
    alice_phone.goto(f"{base}/j/{alice.token}/")
    bruno_phone.goto(f"{base}/j/{bruno.token}/")

    def screens(state: str) -> None:
        for page, who in ((arbiter, "arbiter"), (projector, "projector")):
            page.reload()
            audit.check(page, f"{who} {state}")
        phones = [(alice_phone, "phone fr")]
        if state in ("running", "game ended"):  # English: a round's screen and the end's
            phones.append((bruno_phone, "phone en"))
        for page, who in phones:
            page.reload()
            expect(page.locator("body")).to_have_attribute("data-phase", phase[state])
            audit.check(page, f"{who} {state}")

    phase = {
        "before the first rack": "waiting", "drawn": "drawn", "running": "running",
        "closed": "closed", "top placed": "closed", "game ended": "ended",
    }  # fmt: skip
    screens("before the first rack")
    for number in (1, 2):
        with _orm():
            rnd = services.round_draw(game_id=game.pk, expected_number=number).round
            top = rnd.tops[0]
        if number == 1:
            screens("drawn")
        with _orm():
            services.round_start(round_id=rnd.pk)
            live_services.submission_record(
                player=alice, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
            )
        if number == 1:
            screens("running")  # Alice's receipt shown
        with _orm():
            services.round_close(round_id=rnd.pk)
        if number == 1:
            screens("closed")
        with _orm():
            services.round_place_top(round_id=rnd.pk)
        if number == 1:
            screens("top placed")
            arbiter.goto(f"{base}/parties/{game.pk}/resultats/")
            audit.check(arbiter, "game results")
            arbiter.goto(f"{base}/parties/{game.pk}/")
    with _orm():
        services.game_end(game_id=game.pk)
    screens("game ended")

    for page, path, where in (
        (arbiter, f"/parties/{game.pk}/resultats/", "game results, ended"),
        (arbiter, f"/tournois/{tournament.pk}/classement/", "tournament results"),
        (arbiter, f"/parties/{game.pk}/revue/", "arbiter's review"),
        (arbiter, f"/parties/{game.pk}/revue/1/", "arbiter's review, round 1"),
        (alice_phone, f"/j/{alice.token}/revue/{game.pk}/", "player's review"),
        (alice_phone, f"/j/{alice.token}/revue/{game.pk}/2/", "player's review, round 2"),
        (bruno_phone, f"/j/{bruno.token}/revue/{game.pk}/1/", "player's review, round 1, en"),
    ):
        page.goto(base + path)
        audit.check(page, where)

    # Training on the game just played, from a phone: the start, a round, its answer, the end.
    page = alice_phone
    page.goto(f"{base}/entrainement/")
    audit.check(page, "training start")
    page.goto(f"{base}/entrainement/j/{alice.token}/{game.pk}/")  # her own game, by her join link
    audit.check(page, "training start, the player's game")
    page.get_by_label("1 minute").check()
    page.get_by_role("button", name="Commencer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Coup 1 sur 2")
    audit.check(page, "training round")
    page.get_by_role("button", name="Passer ce coup").click()
    audit.check(page, "training round answered")
    page.get_by_role("button", name="Coup suivant").click()
    page.get_by_role("button", name="Passer ce coup").click()
    page.get_by_role("button", name="Voir le bilan").click()
    audit.check(page, "training end")
    page.get_by_role("link", name="1", exact=True).click()
    audit.check(page, "training review")

    assert audit.pages >= 35
    assert not audit.found, audit.report()
    assert time.monotonic() - started < 90  # about 30 s on an idle machine
