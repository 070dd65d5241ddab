"""In a real browser: a phone that cannot scan its card opens ``/moi/``, types a wrong code (told
so, in an alert), then its own code as a person types it (lower case, a space), and is on its own
seat; an English phone reads the form in English.  axe finds nothing on the form in either state,
nor on the page reached."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from playwright.sync_api import expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tests.e2e.test_accessibility import Audit
from tournaments import services

expect.set_options(timeout=10_000)


def test_a_phone_types_its_code_and_is_back_at_its_seat(live_server, phone):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Coupe", date=datetime.date(2026, 11, 26)
        )
        alice, bruno = (services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno"))
        services.game_start(tournament=tournament, seed=42)
    french, english = phone(), phone()
    english.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    audit = Audit(french, english)
    page = french.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/moi/")
    audit.check(page, "code form")

    field = page.get_by_label("Code de votre table")
    field.fill("zzzz 2222")
    page.get_by_role("button", name="Rejoindre ma table").tap()
    expect(page.get_by_role("alert")).to_contain_text("Aucun joueur n'a le code ZZZZ-2222")
    audit.check(page, "code form, wrong code")

    typed = f"{alice.join_code[:4].lower()} {alice.join_code[4:].lower()}"
    page.get_by_label("Code de votre table").fill(typed)
    page.get_by_role("button", name="Rejoindre ma table").tap()
    expect(page).to_have_url(f"{live_server.url}/j/{alice.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "waiting")
    expect(page.get_by_text(alice.join_code_shown)).to_be_visible()
    audit.check(page, "phone reached by its code")
    page.goto(f"{live_server.url}/moi/")  # the phone is remembered: no code again
    expect(page).to_have_url(f"{live_server.url}/j/{alice.token}/")

    other = english.new_page()
    other.goto(f"{live_server.url}/moi/")
    other.get_by_label("Your table code").fill(bruno.join_code_shown)
    other.get_by_role("button", name="Join my table").tap()
    expect(other).to_have_url(f"{live_server.url}/j/{bruno.token}/")
    assert not audit.found, audit.report()
    assert audit.pages == 3 and not errors, errors
