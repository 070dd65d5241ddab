"""In a real browser: while round 2 runs (its live region redrawn at each slip that comes in), the
arbiter types round 1's paper slip without losing a letter, and it goes to round 1; round 2's close
brings its slips into the panel; the arbiter picks round 1 again, corrects a slip and undoes it, the
ranking following."""

from __future__ import annotations

import datetime
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from live import services as live_services
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Round, Submission

PASSWORD = "mot-de-passe-du-club"

expect.set_options(timeout=10_000)


def _top_slip(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


def _setup():
    arbiter = User.objects.create_user("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Coupe", date=datetime.date(2026, 11, 20)
    )
    players = [services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno", "Chloé")]
    game = services.game_start(tournament=tournament, seed=42)
    first = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=first.pk)
    live_services.submission_record(player=players[0], round_id=first.pk, text="H8 ZZZ 10")
    services.round_close(round_id=first.pk)
    services.round_place_top(round_id=first.pk)
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    services.round_start(round_id=second.pk)
    return game, players, Round.objects.get(pk=first.pk), Round.objects.get(pk=second.pk)


def test_round_one_s_slips_are_settled_while_round_two_runs_and_after_its_close(
    live_server, laptop, artifacts
):
    with _orm():
        game, (alice, bruno, chloe), first, second = _setup()
    page = laptop.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.goto(f"{live_server.url}/parties/{game.pk}/")

    panel = page.locator("#slips section.slips")
    expect(page.locator("#live .received")).to_contain_text("0 / 3")
    expect(panel.locator("h2")).to_have_text("Bulletins corrigés du coup 1")
    expect(page.locator(".slips-picker a[aria-current]")).to_have_text("1")

    # Half a paper slip typed for round 1 when a phone's slip of round 2 comes in: the live region
    # is redrawn, the field keeps every letter.
    page.locator("#paper-table").fill(str(bruno.table_number))
    page.locator("#paper-text").press_sequentially(_top_slip(first)[:4])
    with _orm():
        live_services.submission_record(player=chloe, round_id=second.pk, text=_top_slip(second))
    expect(page.locator("#live .received")).to_contain_text("1 / 3")
    expect(page.locator("#paper-text")).to_have_value(_top_slip(first)[:4])
    page.locator("#paper-text").press_sequentially(_top_slip(first)[4:])
    page.locator("#paper-text").press("Enter")
    expect(panel.locator(".slip-read")).to_contain_text(f"Table {bruno.table_number} : lu")
    with _orm():
        assert Submission.objects.get(round=first, player=bruno).paid == first.top_score
        assert not Submission.objects.filter(round=second, player=bruno).exists()
    ranking = page.locator("#live table.ranking")
    expect(ranking.locator("tr", has_text="Bruno")).to_contain_text(str(first.top_score))

    # Round 2 closes: the panel follows it (it showed the last graded round).
    with _orm():
        Round.objects.filter(pk=second.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    expect(page.get_by_role("button", name="Placer ce top")).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Bulletins corrigés du coup 2")
    expect(page.locator(".slips-picker a[aria-current]")).to_have_text("2")

    # Round 1 picked again: Alice's dispute settled there, then undone.
    page.locator(".slips-picker a", has_text="1").click()
    expect(panel.locator("h2")).to_have_text("Bulletins corrigés du coup 1")
    expect(panel.locator(".earlier-note")).to_be_visible()
    page.set_viewport_size({"width": 1366, "height": 768})
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "arbiter-earlier-round.png"))
    field = page.get_by_label(f"Bulletin de la table {alice.table_number}")
    field.fill(_top_slip(first))
    field.press("Enter")
    expect(panel.locator("table.changes tbody tr")).to_have_count(2)
    expect(ranking.locator("tr", has_text="Alice")).to_contain_text(str(first.top_score))
    panel.get_by_role("button", name="Annuler la dernière correction").click()
    expect(panel.locator("table.changes tbody tr.undo-row")).to_have_count(1)
    with _orm():
        assert Submission.objects.get(round=first, player=alice).paid == 0
    expect(panel.locator("h2")).to_have_text("Bulletins corrigés du coup 1")  # it stays on round 1
    page.screenshot(path=str(artifacts / "arbiter-earlier-round-undone.png"), full_page=True)
    assert errors == []
