"""In a real browser: three phones lost the server before round 1's deadline and sent their kept
slips once it answered again, late (their retry refused "Trop tard", their slip kept as a claim).
The arbiter accepts Alice's and refuses Chloé's on the game screen, Bruno's waits; a phone opened
afresh says what the arbiter did, and Alice's never stands beside "Trop tard … non reçu"."""

from __future__ import annotations

import datetime
import os
from datetime import timedelta
from pathlib import Path

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from live import phone as phone_text
from live.tried import clock_text
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Round, TriedSlip

PASSWORD = "mot-de-passe-du-club"
HTMX = {"HTTP_HX_REQUEST": "true"}
#: Where the screenshots go to be looked at (``ARBITER_SHOTS``), beside the test's artifacts.
SHOTS = Path(os.environ.get("ARBITER_SHOTS", Path(__file__).resolve().parent / "artifacts" / "tried"))

expect.set_options(timeout=10_000)


def _outage():
    """Round 1 closed; each phone's retry refused as late, then its kept slip sent as a claim."""
    arbiter = User.objects.create_user("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Coupe", date=datetime.date(2026, 11, 20)
    )
    players = [services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno", "Chloé")]
    game = services.game_start(tournament=tournament, seed=42)
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    top = rnd.tops[0]
    slip = phone_text.typed_slip(f"{top['ref']} {top['word']}")
    for index, player in enumerate(players):
        data = {"round": rnd.pk, "slip": slip, "claimed": str(top["score"]), "request_id": f"phone-{index}"}
        Client().post(reverse("live:player_submit", kwargs={"token": player.token}), data, **HTMX)
    rnd = services.round_close_if_due(round_id=rnd.pk)
    for index, player in enumerate(players):
        tried_at = int((rnd.deadline - timedelta(seconds=10 + index)).timestamp() * 1000)
        data = {"round": rnd.pk, "slip": slip, "claimed": str(top["score"]), "request_id": f"phone-{index}"}
        url = reverse("live:player_tried", kwargs={"token": player.token})
        assert Client().post(url, {**data, "tried_at": str(tried_at)}, **HTMX).status_code == 202
    return game, players, rnd


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_freshly_opened_phone_sees_what_the_arbiter_made_of_its_tried_slip(live_server, laptop, phone):
    with _orm():
        game, (alice, bruno, chloe), _rnd = _outage()
    page = laptop.new_page()
    page.set_viewport_size({"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.goto(f"{live_server.url}/parties/{game.pk}/")
    tried = page.locator("#slips section.tried")
    expect(tried.locator("li")).to_have_count(3)
    _shot(page, "arbiter-1366-pending")

    tried.locator("li", has_text="Alice").get_by_role("button", name="Accepter").click()
    expect(tried.locator("li")).to_have_count(2)
    tried.locator("li", has_text="Chloé").get_by_role("button", name="Refuser").click()
    expect(tried.locator("li")).to_have_count(1)
    rows = page.locator("#slips table.slips-table tbody tr")
    expect(rows.filter(has_text="Alice").locator(".tried-note")).to_contain_text("accepté à")
    expect(rows.filter(has_text="Bruno").locator(".tried-note")).to_contain_text("à décider")
    expect(rows.filter(has_text="Chloé").locator(".tried-note")).to_contain_text("refusé à")
    _shot(page, "arbiter-1366-decided")

    with _orm():
        claims = {c.player_id: c for c in TriedSlip.objects.all()}
    said = {
        alice: f"accepté par l'arbitre à {clock_text(claims[alice.pk].decided_at)} "
        f"(tenté à {clock_text(claims[alice.pk].tried_at)} à l'heure du téléphone)",
        bruno: "En attente de la décision de l'arbitre.",
        chloe: f"Refusé par l'arbitre à {clock_text(claims[chloe.pk].decided_at)} : il ne compte pas.",
    }
    for width in (360, 390):
        for player, sentence in said.items():
            screen = phone().new_page()
            screen.set_viewport_size({"width": width, "height": 740})
            screen.goto(f"{live_server.url}/j/{player.token}/")
            receipt = screen.locator("#player-receipt")
            expect(receipt).to_contain_text(sentence)
            expect(receipt).not_to_contain_text("Trop tard")
            expect(receipt).not_to_contain_text("non reçu")
            _shot(screen, f"phone-{width}-{player.name}")
            screen.close()

    # Undone, Alice's acceptance is taken back: her phone says it waits, the arbiter decides again.
    page.get_by_role("button", name="Annuler la dernière correction").click()
    expect(tried.locator("li")).to_have_count(2)
    expect(rows.filter(has_text="Alice").locator(".tried-note")).to_contain_text("à décider")
    _shot(page, "arbiter-1366-undone")
    screen = phone().new_page()
    screen.goto(f"{live_server.url}/j/{alice.token}/")
    expect(screen.locator("#player-receipt")).to_contain_text("En attente de la décision de l'arbitre.")
    expect(screen.locator("#player-receipt")).not_to_contain_text("accepté")
    _shot(screen, "phone-360-Alice-undone")
    assert errors == []
