"""In a real browser: an evening drawn from the club's physical bag.  The arbiter starts a game
whose racks are typed, types a rack that misses the minimum (the screen says why, the projector's
voice announces the rejection), types the seven new letters with a "-", starts the clock at once
(the voice still speaks the rack), then in round 2 types only the new letters after the reliquat,
cancels the round and types it again by hand.  Alice's keyboard types in lower case: her slip plays
no joker until she marks it.  After round 1 Bruno is renamed and moved to another table; after round
2 the arbiter ends the game.  The phones, the projector, the results page and the PDF sheets are
checked.

Racks (the first reference game's): 1. -VDFIR?A (after AEIOUEA rejected), top H4 FAVoRI 30;
2. D+IBHIQE, cancelled, typed again as -DIBHIQE, top G8 EH 20.

    round  Alice                          Bruno
    1      h4 favori 30 -> resent as       H4 FAVO?RI 28 -> 30 warning
           h4 favo?ri 30 -> 30
    2      G8 EH 20 -> 20                  none -> 0
    totals 50 (100 %)                       30 (60 %)
"""

from __future__ import annotations

import io
import time
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from results.models import Printout
from tests.e2e.browser import VOICE
from tests.e2e.browser import orm as _orm
from tournaments.models import Round

PASSWORD = "mot-de-passe-du-club"
GRACE = 2
expect.set_options(timeout=10_000)


def test_an_evening_drawn_from_a_physical_bag(live_server, laptop, phone, artifacts):
    started = time.monotonic()
    with _orm():
        User.objects.create_user("arbitre", password=PASSWORD)
    problems: list[str] = []
    arbiter = _watched(laptop.new_page(), problems)
    _log_in(arbiter, live_server.url)
    links = _tournament_with_two_players(arbiter)
    arbiter.get_by_label("sac de lettres réel : l'arbitre saisit chaque tirage").check()
    arbiter.get_by_role("button", name="Commencer une partie").click()
    rack = arbiter.get_by_label("Tirage du coup 1 (lettres tirées du sac)")
    expect(rack).to_be_visible()
    links["game"] = arbiter.url

    projector = _watched(laptop.new_page(), problems)
    projector.add_init_script(VOICE)
    projector.goto(links["game"].replace("/parties/", "/projecteur/"))
    projector.get_by_role("button", name="Voix : coupée").click()

    alice, bruno = (_watched(phone().new_page(), problems) for _ in range(2))
    alice.goto(live_server.url + links["Alice"])
    bruno.goto(live_server.url + links["Bruno"])

    # Round 1: a rack without consonants is a rejection, said with its reason; seven new letters.
    rack.fill("aeioUEA")
    arbiter.get_by_role("button", name="Valider le tirage du coup 1").click()
    expect(arbiter.locator("p.rejected")).to_contain_text("Rejet : pas assez de consonnes (AEIOUEA)")
    # caret="initial": Playwright hides the caret with a style attribute, which htmx's settle copies
    # onto the panel's redrawn fields, where the Content-Security-Policy (rightly) refuses it.
    arbiter.screenshot(path=str(artifacts / "bag-rejection.png"), full_page=True, caret="initial")
    arbiter.get_by_label("Tirage du coup 1 (lettres tirées du sac)").fill("-VDFIR?A")
    arbiter.get_by_role("button", name="Valider le tirage du coup 1").click()
    expect(arbiter.locator(".status-bar .rack-stat strong")).to_have_text("-VDFIR?A")
    expect(arbiter.locator(".rejections")).to_contain_text("rejet : AEIOUEA — pas assez de consonnes")
    arbiter.get_by_role("button", name="Lancer le chrono").click()  # at once: no time to announce
    expect(arbiter.locator(".received")).to_contain_text("0 / 2")
    _spoken(projector, "Rejet, pas assez de consonnes : sept lettres remises dans le sac.", "Venezuela V.")

    # Alice's keyboard types lower case: no joker until she marks one.
    for page in (alice, bruno):
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
    _send(alice, "h4 favori", 30, "H4 FAVORI 30")
    _send(alice, "h4 favo?ri", 30, "H4 FAVoRI 30")
    _send(bruno, "H4 FAVO?RI", 28, "H4 FAVoRI 28")
    expect(arbiter.locator(".received")).to_contain_text("2 / 2")
    _time_up(1)
    expect(arbiter.get_by_role("button", name="Placer ce top")).to_be_visible()
    # The room sees no top before the arbiter places it.
    expect(projector.locator(".projection-side")).to_contain_text(
        "Le top s'affiche quand l'arbitre l'a placé."
    )
    expect(projector.locator(".top-word")).to_have_count(0)
    arbiter.get_by_role("button", name="Placer ce top").click()
    expect(projector.locator(".top-word")).to_contain_text("H4 FAVoRI")
    expect(projector.locator(".top-score")).to_contain_text("30 points")
    projector.screenshot(path=str(artifacts / "bag-projector-top.png"))
    expect(alice.locator("#player-status .results .line")).to_contain_text("30")

    # A mistake at registration: Bruno's name and table, after round 1.
    _edit_player(arbiter, live_server.url, links["tournament"], "Bruno", "Bruno Martin", 5)
    expect(bruno.locator("#player-status .who")).to_contain_text("Bruno Martin · table 5")

    # Round 2: only the new letters after the reliquat D; cancelled, typed again by hand.
    arbiter.goto(links["game"])
    expect(arbiter.locator(".field .hint")).to_contain_text("Le reliquat D reste sur le chevalet")
    arbiter.get_by_label("Tirage du coup 2 (lettres tirées du sac)").fill("IBHIQE")
    arbiter.get_by_role("button", name="Valider le tirage du coup 2").click()
    expect(arbiter.locator(".status-bar .rack-stat strong")).to_have_text("D+IBHIQE")
    arbiter.once("dialog", lambda dialog: dialog.accept())
    arbiter.get_by_role("button", name="Annuler le coup").click()
    redraw = arbiter.get_by_label("Tirage du coup 2 (lettres tirées du sac)")
    expect(redraw).to_have_attribute("placeholder", "-AEIBLRN")
    redraw.fill("-DIBHIQE")
    arbiter.get_by_role("button", name="Valider le tirage du coup 2").click()
    expect(arbiter.locator(".status-bar .rack-stat strong")).to_have_text("-DIBHIQE")
    arbiter.get_by_role("button", name="Lancer le chrono").click()
    expect(alice.locator("#player-status .who")).to_contain_text("coup 2")
    _send(alice, "g8 eh", 20, "G8 EH 20")
    expect(arbiter.locator(".missing-tables")).to_contain_text("table 5")
    _time_up(2)
    arbiter.get_by_role("button", name="Placer ce top").click()

    # The arbiter ends the game: it says so, nothing more to draw, the phones hear it.
    arbiter.get_by_text("Autres actions sur la partie").click()
    arbiter.once("dialog", lambda dialog: dialog.accept())
    arbiter.get_by_role("button", name="Terminer la partie ici").click()
    expect(arbiter.get_by_role("heading", name="Partie terminée")).to_be_visible()
    expect(arbiter.get_by_role("button", name="Tirer le coup 3")).to_have_count(0)
    expect(arbiter.get_by_label("Tirage du coup 3 (lettres tirées du sac)")).to_have_count(0)
    arbiter.screenshot(path=str(artifacts / "bag-ended.png"), full_page=True, caret="initial")
    for page in (alice, bruno):
        expect(page.locator("#player-status")).to_contain_text("Partie terminée.")
    expect(alice.locator("#player-status .standing")).to_contain_text("Total 50 · négatif 0 · 100,00 %")
    expect(bruno.locator("#player-status .standing")).to_contain_text("Total 30 · négatif -20 · 60,00 %")
    alice.screenshot(path=str(artifacts / "bag-phone-ended.png"))

    _check_sheets(arbiter, live_server.url, links["game"])
    assert not problems, problems
    assert time.monotonic() - started < 90


def _watched(page: Page, problems: list[str]) -> Page:
    """A page whose script errors, server errors and Content-Security-Policy refusals fail the test."""
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.url}") if response.status >= 500 else None
        ),
    )
    return page


def _log_in(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("heading", name="Tournois")).to_be_visible()


def _tournament_with_two_players(page: Page) -> dict[str, str]:
    page.get_by_role("link", name="Nouveau tournoi").click()
    page.locator("#id_name").fill("Soirée du sac")
    page.locator("#id_date").fill("2026-11-20")
    page.locator("#id_club").fill("Scrabble Club de Vichy")
    page.locator("#id_round_seconds").select_option("60")
    page.get_by_role("button", name="Créer le tournoi").click()
    links = {"tournament": page.url}
    for name in ("Alice", "Bruno"):
        page.locator("#id_name").fill(name)
        page.get_by_role("button", name="Ajouter", exact=True).click()
        expect(page.locator(".messages")).to_contain_text(f"{name} ajouté(e)")
    for index, name in enumerate(("Alice", "Bruno")):
        href = page.locator("table.players tbody tr").nth(index).locator("td.link a").get_attribute("href")
        links[name] = "/j/" + href.split("/j/", 1)[1]
    return links


def _spoken(projector: Page, *sentences: str) -> None:
    for sentence in sentences:
        try:
            projector.wait_for_function("s => window.__spoken.includes(s)", arg=sentence, timeout=10_000)
        except Exception:
            raise AssertionError(projector.evaluate("window.__spoken")) from None


def _send(page: Page, slip: str, claimed: int, understood: str) -> None:
    page.locator("#slip-text").fill(slip)
    page.locator(".slip-score").fill(str(claimed))
    page.get_by_role("button", name="Envoyer").tap()
    expect(page.locator("#player-receipt .sent")).to_contain_text(understood.rsplit(" ", 1)[0])


def _time_up(number: int) -> None:
    with _orm():
        Round.objects.filter(number=number, status=Round.Status.RUNNING).update(
            deadline=timezone.now() - timedelta(seconds=GRACE + 1)
        )


def _edit_player(page: Page, base: str, tournament_url: str, name: str, new_name: str, table: int) -> None:
    page.goto(tournament_url)
    row = page.locator("table.players tbody tr").filter(has_text=name)
    row.get_by_role("link", name="modifier").click()
    page.get_by_label("nom").fill(new_name)
    page.get_by_label("catégorie").select_option(label="Vermeil")
    page.get_by_label("table").fill(str(table))
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.locator(".messages")).to_contain_text(f"{new_name} : fiche enregistrée.")
    expect(page.locator("table.players tbody")).to_contain_text(new_name)


def _check_sheets(page: Page, base: str, game_url: str) -> None:
    page.goto(game_url + "resultats/")
    second = page.locator("table.ranking tbody tr").nth(1)
    expect(second).to_contain_text("Bruno Martin")
    expect(second).to_contain_text("Vermeil")
    expect(second).to_contain_text("60,00")
    page.get_by_role("button", name="Classement (PDF)").click()
    expect(page.locator("#printout a.button")).to_be_visible()
    with _orm():
        pdf = bytes(Printout.objects.get(kind=Printout.Kind.RANKING).pdf)
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Bruno Martin" in text and "Vermeil" in text and "60,00" in text and "100,00" in text, text
