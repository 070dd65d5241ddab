"""In a real browser: the arbiter types a paper slip as the phone reads one (caps lock off is no
joker, a joker is its letter and ``?``), sees how it will be read while typing, and after Enter how
it was read and stored, the joker marked."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Submission

PASSWORD = "mot-de-passe-du-club"

expect.set_options(timeout=10_000)


def test_a_paper_slip_is_shown_as_read_while_typed_and_once_stored(live_server, laptop):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password=PASSWORD)
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Coupe", date=datetime.date(2026, 11, 20)
        )
        player = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=42)
        rnd = services.round_draw(game_id=game.pk, expected_number=1).round
        services.round_start(round_id=rnd.pk)
        services.round_close(round_id=rnd.pk)
    page = laptop.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.goto(f"{live_server.url}/parties/{game.pk}/")

    page.locator("#paper-table").fill(str(player.table_number))
    page.locator("#paper-text").press_sequentially("h8 ab?c 12")
    read = page.locator("#paper-read")
    expect(read).to_have_text("Lu : H8 AbC 12")
    expect(read.locator("mark.joker")).to_have_text("b")
    page.locator("#paper-text").press("Enter")
    stored = page.locator(".slip-read")
    expect(stored).to_contain_text("Table 1 : lu H8 AbC 12")
    expect(stored.locator("mark.joker")).to_have_text("b")
    with _orm():
        assert Submission.objects.get(round=rnd, player=player).word == "AbC"
    # The row's correction field offers the slip as typed, and reads a change the same way.
    field = page.get_by_label("Bulletin de la table 1")
    expect(field).to_have_value("H8 AB?C 12")
    field.fill("")
    field.press_sequentially("h8 abc 14")
    expect(page.locator(".slips-table .correct output.slip-read-live")).to_have_text("Lu : H8 ABC 14")
    assert errors == []


def test_a_spanish_paper_slip_keeps_the_n_with_tilde_while_typed(live_server, laptop):
    """Ñ is a tile of the Spanish set, not an N with an accent: the preview keeps it, as the server."""
    from lexicons.services import lexicon_upload

    with _orm():
        arbiter = User.objects.create_user("arbitre", password=PASSWORD)
        words = lexicon_upload(name="es-prueba", data="año\nano\nna\n".encode(), letters="es")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=words, letters="es", name="Torneo", date=datetime.date(2027, 1, 9)
        )
        services.player_register(tournament=tournament, name="Ana")
        game = services.game_start(tournament=tournament, typed=True)
        rnd = services.round_draw(game_id=game.pk, expected_number=1, typed="AÑOEIST").round
        services.round_start(round_id=rnd.pk)
        services.round_close(round_id=rnd.pk)
    page = laptop.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.goto(f"{live_server.url}/parties/{game.pk}/")
    page.locator("#paper-table").fill("1")
    page.locator("#paper-text").press_sequentially("h8 año é")
    expect(page.locator("#paper-read")).to_have_text("Lu : H8 AÑO E")
