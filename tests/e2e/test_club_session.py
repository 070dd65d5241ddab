"""A club session in a real browser.  The arbiter logs in, creates a tournament, registers three
players and hands out their join links; each player opens their link on a phone of their own (own
cookies, 360 px, touch); the game replays a prepared record, so the racks and tops are known; three
rounds are played with a good slip, a wrong claimed score, a late slip, an invalid word and a valid
move below the top; then the arbiter's ranking and every player's page must show the figures
computed by hand below.

Time is not waited for: a round ends when the test moves its deadline in the database to a moment
past deadline + grace, as if the clock had run out; the pages' own polls then close the round.

The prepared game (tests/data/reference-games/game-001.json), its first three rounds:

    1. VDFIR?A    top H4 FAVoRI 30   (board empty: the first move)
    2. D+IBHIQE   top G8 EH 20
    3. BDIIQ+JT   top G3 BIT 15      the game's top after three rounds: 65

The slips (FISF grading: word, reference, claimed score) and what each is paid (§3.4):

    round  Alice (table 1)        Bruno (table 2)            Chloé (table 3)
    1      H4 FAVoRI 30  -> 30    H4 FAVoRI 28 -> 30 warn.   H4 FIVRA 20 -> 0 (not a word)
    2      G8 EH 20      -> 20    sent late    -> 0          G9 HIE 19   -> 19 (below the top)
    3      G3 DIT 13     -> 13    G3 BIT 15    -> 15         G3 BIT 13   -> 15 warn.

    after round  tops  Alice          Bruno           Chloé
    1            30    30  0 rank 1   30   0 rank 1   0  -30 rank 3    (equal totals share a rank)
    2            50    50  0 rank 1   30 -20 rank 2   19 -31 rank 3
    3            65    63 -2 rank 1   45 -20 rank 2   34 -31 rank 3    (96,9 %, 69,2 %, 52,3 %)
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.e2e.browser import orm as _orm
from tournaments.models import Round

GAME_RECORD = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"
TOURNAMENT = "Coupe du club"
PASSWORD = "mot-de-passe-du-club"
ALICE, BRUNO, CHLOE = "Alice", "Bruno", "Chloé"
PLAYERS = (ALICE, BRUNO, CHLOE)
GRACE = 2  # the form's default grace window (s)

expect.set_options(timeout=10_000)


# -- what the rounds are and what each slip is paid, by hand (see the module's docstring) ---------

RACKS = {1: "VDFIR?A", 2: "D+IBHIQE", 3: "BDIIQ+JT"}
TOPS = {1: ("H4 FAVoRI", 30), 2: ("G8 EH", 20), 3: ("G3 BIT", 15)}
#: How many tiles each top puts on the board (marked as the last placed on the phones).
TOP_TILES = {1: 6, 2: 2, 3: 3}
#: round -> player -> (slip, claimed score) or None for the late slip.
SLIPS = {
    1: {ALICE: ("H4 FAVoRI", 30), BRUNO: ("H4 FAVoRI", 28), CHLOE: ("H4 FIVRA", 20)},
    2: {ALICE: ("G8 EH", 20), BRUNO: None, CHLOE: ("G9 HIE", 19)},
    3: {ALICE: ("G3 DIT", 13), BRUNO: ("G3 BIT", 15), CHLOE: ("G3 BIT", 13)},
}
#: round -> player -> (slip shown to the arbiter, paid, sanction, the sentence of the player's line).
GRADED = {
    1: {
        ALICE: ("H4 FAVoRI 30", 30, "", "30 — H4 FAVoRI : bulletin correct."),
        BRUNO: (
            "H4 FAVoRI 28",
            30,
            "avertissement",
            "30 — avertissement : score annoncé 28 (H4 FAVoRI vaut 30).",
        ),
        CHLOE: ("H4 FIVRA 20", 0, "zéro", "0 — le mot FIVRA n'est pas dans le dictionnaire."),
    },
    2: {
        ALICE: ("G8 EH 20", 20, "", "20 — G8 EH : bulletin correct."),
        BRUNO: ("aucun bulletin", 0, "", "0 — aucun bulletin remis."),
        CHLOE: ("G9 HIE 19", 19, "", "19 — G9 HIE : bulletin correct."),
    },
    3: {
        ALICE: ("G3 DIT 13", 13, "", "13 — G3 DIT : bulletin correct."),
        BRUNO: ("G3 BIT 15", 15, "", "15 — G3 BIT : bulletin correct."),
        CHLOE: ("G3 BIT 13", 15, "avertissement", "15 — avertissement : score annoncé 13 (G3 BIT vaut 15)."),
    },
}
#: round -> the sum of the tops, and each player's (rank, total, négatif, percentage as shown).
RANKING = {
    1: (30, [(1, ALICE, 30, 0, "100,00"), (1, BRUNO, 30, 0, "100,00"), (3, CHLOE, 0, -30, "0,00")]),
    2: (50, [(1, ALICE, 50, 0, "100,00"), (2, BRUNO, 30, -20, "60,00"), (3, CHLOE, 19, -31, "38,00")]),
    3: (65, [(1, ALICE, 63, -2, "96,92"), (2, BRUNO, 45, -20, "69,23"), (3, CHLOE, 34, -31, "52,31")]),
}


def test_an_arbiter_and_three_phones_play_three_rounds_and_every_screen_shows_the_right_figures(
    live_server, laptop, phone, artifacts
):
    started = time.monotonic()
    with _orm():
        User.objects.create_user("arbitre", password=PASSWORD)
    problems: list[str] = []

    arbiter = _watched(laptop.new_page(), problems)
    _log_in(arbiter, live_server.url)
    _create_tournament(arbiter)
    links = _register_players(arbiter)

    # Each player opens the link the arbiter's page shows, on a phone of their own.
    phones = {name: _watched(phone().new_page(), problems) for name in PLAYERS}
    for name, page in phones.items():
        page.goto(live_server.url + links[name])
        table = PLAYERS.index(name) + 1
        expect(page.locator("#player-status .who")).to_contain_text(f"{name} · table {table}")
        expect(page.locator("#player-status")).to_contain_text("En attente du premier tirage.")

    _start_prepared_game(arbiter)

    for number in (1, 2, 3):
        _draw_and_start(arbiter, number)
        for name, page in phones.items():
            _wait_for_round(page, number)
            if SLIPS[number][name] is not None:
                _send(page, *SLIPS[number][name])
            if number == 1 and name == CHLOE:
                page.screenshot(path=str(artifacts / "player-phone-running.png"))
        sent = sum(1 for slip in SLIPS[number].values() if slip is not None)
        expect(arbiter.locator(".received")).to_contain_text(f"{sent} / 3")

        if number == 2:
            _late_slip(arbiter, phones[BRUNO], number)
        else:
            _let_the_clock_run_out(number)
            expect(arbiter.get_by_role("button", name="Placer ce top")).to_be_visible()

        _check_graded_slips(arbiter, number)
        _check_ranking(arbiter, number)
        if number == 3:
            arbiter.screenshot(path=str(artifacts / "arbiter-game.png"), full_page=True)
        arbiter.get_by_role("button", name="Placer ce top").click()
        expect(arbiter.get_by_role("button", name=f"Tirer le coup {number + 1}")).to_be_visible()
        ref_word, score = TOPS[number]
        expect(arbiter.locator(".placed")).to_contain_text(f"{ref_word} — {score} points")

        for name, page in phones.items():
            _check_player_results(page, name, number)

    game_top = arbiter.locator(".status-bar .stat").filter(has_text="Top de la partie").locator("strong")
    expect(game_top).to_have_text("65")
    phones[ALICE].screenshot(path=str(artifacts / "player-phone-results.png"))
    assert not problems, problems
    assert time.monotonic() - started < 60


# -- the arbiter's laptop ------------------------------------------------------------------------


def _watched(page: Page, problems: list[str]) -> Page:
    """A page whose script errors and server errors fail the test."""
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.url}") if response.status >= 500 else None
        ),
    )
    return page


def _log_in(page: Page, base: str) -> None:
    page.goto(base + "/")
    expect(page).to_have_url(f"{base}/login/?next=/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("heading", name="Tournois")).to_be_visible()


def _create_tournament(page: Page) -> None:
    page.get_by_role("link", name="Nouveau tournoi").click()
    page.locator("#id_name").fill(TOURNAMENT)
    page.locator("#id_date").fill("2026-11-20")
    page.locator("#id_place").fill("Salle des fêtes")
    # The shortest round the form offers; rounds end by moving the deadline anyway.
    page.locator("#id_round_seconds").select_option("60")
    expect(page.locator("#id_grading")).to_have_value("fisf")
    expect(page.locator("#id_grace_seconds")).to_have_value(str(GRACE))
    page.get_by_role("button", name="Créer le tournoi").click()
    expect(page.get_by_role("heading", name=TOURNAMENT)).to_be_visible()


def _register_players(page: Page) -> dict[str, str]:
    """Add the players one by one; return each one's join link as the page shows it (path only).
    The page shows no QR code; the table cards page draws each link's."""
    for name in PLAYERS:
        page.locator("#id_name").fill(name)
        page.get_by_role("button", name="Ajouter", exact=True).click()
        expect(page.locator(".messages")).to_contain_text(f"{name} ajouté(e)")
    rows = page.locator("table.players tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator("table.players svg")).to_have_count(0)
    links, hrefs = {}, {}
    for index, name in enumerate(PLAYERS):
        row = rows.nth(index)
        expect(row.locator("td").nth(0)).to_have_text(str(index + 1))
        expect(row.locator("td").nth(1)).to_have_text(name)
        href = hrefs[name] = row.locator("td.link a").get_attribute("href")
        assert row.locator("td.link a").inner_text() == href
        # The link names the laptop's network address (the arbiter browses it as localhost); the
        # phones here reach the test server at its own address, by the same path.
        path = urlsplit(href).path
        assert path.startswith("/j/") and path.endswith("/") and len(path) > 20, href
        links[name] = path
    assert len(set(links.values())) == 3
    _check_table_cards(page, hrefs)
    return links


def _check_table_cards(page: Page, hrefs: dict[str, str]) -> None:
    """The table cards, opened from the tournament page: a card per player, by table, with the link
    the tournament page shows and its QR code."""
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Imprimer les cartes de table").click()
    cards_page = opened.value
    cards = cards_page.locator("article.table-card")
    expect(cards).to_have_count(3)
    for index, name in enumerate(PLAYERS):
        card = cards.nth(index)
        expect(card.locator(".table-number")).to_contain_text(str(index + 1))
        expect(card.locator(".player-name")).to_have_text(name)
        expect(card.locator(".url")).to_have_text(hrefs[name])
        expect(card.locator(".qr svg")).to_have_count(1)
    cards_page.close()


def _start_prepared_game(page: Page) -> None:
    page.locator("#id_prepared").set_input_files(str(GAME_RECORD))
    page.get_by_role("button", name="Commencer une partie").click()
    expect(page.get_by_role("button", name="Tirer le coup 1")).to_be_visible()


def _draw_and_start(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Tirer le coup {number}").click()
    expect(page.locator(".status-bar .rack-stat strong")).to_have_text(RACKS[number])
    expect(page.locator(".action .ready")).to_have_text("Top prêt.")
    page.get_by_role("button", name="Lancer le chrono").click()
    expect(page.locator(".received")).to_contain_text("0 / 3")


def _let_the_clock_run_out(number: int) -> None:
    """Simulated time: the running round's deadline is moved to just past deadline + grace, as if
    the round's minute had gone by; the next poll of any screen closes and grades the round."""
    with _orm():
        rnd = Round.objects.get(game__tournament__name=TOURNAMENT, number=number, status=Round.Status.RUNNING)
        assert rnd.game.tournament.grace_seconds == GRACE
        Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=GRACE + 1))


def _late_slip(arbiter: Page, bruno: Page, number: int) -> None:
    """Bruno's phone misses the status updates (a dropped connection: its polls fail) while the
    round's time runs out and the arbiter's screen closes it; then Bruno sends his slip and must be
    told it is too late, and nothing is stored."""
    late, score = TOPS[number]  # he would have found the top

    def offline(route):
        route.abort("internetdisconnected")

    bruno.route(lambda url: "/etat/" in url, offline)
    _let_the_clock_run_out(number)
    expect(arbiter.get_by_role("button", name="Placer ce top")).to_be_visible()
    expect(bruno.locator("body")).to_have_attribute("data-phase", "running")  # it has not heard
    bruno.locator("#slip-text").fill(late)
    bruno.locator(".slip-score").fill(str(score))
    bruno.get_by_role("button", name="Envoyer").tap()
    expect(bruno.locator("#player-receipt .error")).to_contain_text("Trop tard")
    expect(bruno.locator("#player-receipt .error")).to_contain_text("Bulletin non reçu.")
    expect(bruno.locator("#player-receipt .sent")).to_have_count(0)
    bruno.unroute_all()
    # Back online: the next poll brings the closed round, the form is disabled.
    expect(bruno.locator("body")).to_have_attribute("data-phase", "closed")
    expect(bruno.locator("#slip-text")).to_be_disabled()


def _check_graded_slips(page: Page, number: int) -> None:
    rows = page.locator("table.slips-table tbody tr")
    expect(rows).to_have_count(3)
    for index, name in enumerate(PLAYERS):
        slip, paid, sanction, sentence = GRADED[number][name]
        cells = rows.nth(index).locator("td")
        expect(cells.nth(0)).to_have_text(str(index + 1))
        expect(cells.nth(1)).to_have_text(name)
        expect(cells.nth(2)).to_have_text(slip)
        expect(cells.nth(3)).to_have_text(str(paid))
        expect(cells.nth(4)).to_have_text(sanction)
        if slip != "aucun bulletin":
            expect(cells.nth(5)).to_have_text(sentence)


def _check_ranking(page: Page, number: int) -> None:
    top, expected = RANKING[number]
    expect(page.locator(".side h2")).to_contain_text(f"top {top}")
    rows = page.locator("table.ranking tbody tr")
    expect(rows).to_have_count(3)
    for index, (rank, name, total, negative, percent) in enumerate(expected):
        cells = rows.nth(index).locator("td")
        table = PLAYERS.index(name) + 1
        shown = [str(rank), f"{name} ({table})", str(total), str(negative), percent]
        for column, text in enumerate(shown):
            expect(cells.nth(column)).to_have_text(text)


# -- the players' phones -------------------------------------------------------------------------


def _wait_for_round(page: Page, number: int) -> None:
    """The phone has heard (its 2-second poll) that round ``number`` runs: the rack, the clock."""
    expect(page.locator("#player-status .who")).to_contain_text(f"coup {number}")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    expect(page.locator("#player-status .rack .tile")).to_have_count(7)
    expect(page.locator("#slip-text")).to_be_enabled()


def _send(page: Page, slip: str, claimed: int) -> None:
    """Type the reference and word, the claimed score in its own field, and send.  The phone takes
    every letter in upper case: a joker (lower case in the record's notation) is typed as its letter
    followed by ``?``, and the receipt shows the slip as understood, in the record's notation."""
    page.locator("#slip-text").fill(re.sub(r"[a-z]", lambda found: found.group().upper() + "?", slip))
    page.locator(".slip-score").fill(str(claimed))
    # The move appears on the player's board as typed, in the player's colour.
    expect(page.locator("#player-board [data-ghost]").first).to_be_visible()
    page.get_by_role("button", name="Envoyer").tap()
    receipt = page.locator("#player-receipt .sent")
    expect(receipt).to_contain_text(f"{slip} {claimed} — reçu à")
    expect(receipt).to_contain_text("modifiable jusqu'à la fin")
    # Before the deadline nothing says whether the word is good or what it scores (§3.4).
    text = page.locator("#player-status").inner_text() + page.locator("#player-receipt").inner_text()
    for telling in ("correct", "avertissement", "dictionnaire", "Top", "Total"):
        assert telling not in text, (slip, telling, text)


def _check_player_results(page: Page, name: str, number: int) -> None:
    """After the round: the top, the player's own line, the running total, the négatif, the
    percentage, the rank."""
    ref_word, score = TOPS[number]
    results = page.locator("#player-status .results")
    expect(page.locator("#player-status .who")).to_contain_text(f"coup {number}")
    expect(results.locator(".top")).to_contain_text(f"{ref_word} — {score}")
    expect(results.locator(".line")).to_have_text(GRADED[number][name][3])
    _top, expected = RANKING[number]
    rank, _name, total, negative, percent = next(row for row in expected if row[1] == name)
    # Three players: fewer than the solo threshold, so nothing about solos (§3.5).
    expect(results.locator(".standing")).to_have_text(
        f"Total {total} · négatif {negative} · {percent} % · rang {rank}/3"
    )
    expect(page.locator("#slip-text")).to_be_disabled()
    # Once the arbiter placed it, the top is on the phone's board, its tiles marked as the last.
    expect(page.locator("#player-board .c.last")).to_have_count(TOP_TILES[number])
    expect(page.locator("#player-board .c.mine")).to_have_count(0)
