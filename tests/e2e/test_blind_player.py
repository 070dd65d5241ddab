"""A player who does not see the screen plays three rounds with only what a screen reader has, the
accessibility tree: every step finds its control by role and name (no CSS selector, no id). She
reads the rack, walks the board from H8 by the squares' names to the top's reference, writes and
sends the slip, hears it read back and the receipt, then the end of the round and her result; her
results are those of a sighted player at the next table who played the same moves the usual way."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from engine.notation import parse_ref
from lexicons.loaded import lexicon_default_row
from live.phone import player_standing
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Player

expect.set_options(timeout=10_000)

ROWS = "ABCDEFGHIJKLMNO"


def _typed(word: str) -> str:
    """The phone's way of writing a joker: the letter then ``?`` (a top's joker is in lower case)."""
    return "".join(f"{letter.upper()}?" if letter.islower() else letter for letter in word)


def _heard(page: Page, region: str, text: str | re.Pattern) -> None:
    expect(page.get_by_role("status", name=region)).to_contain_text(text)


def _square(page: Page, name: str):
    return page.get_by_role("grid", name="Grille").get_by_role("gridcell", name=re.compile(rf"^{name},"))


def _walk_to(page: Page, ref: str) -> None:
    """From H8, arrow keys to the reference's square; Enter sets it across, Enter again down."""
    square = parse_ref(ref)
    row, col = square.row, square.col
    _square(page, "H8").focus()
    keys = (["ArrowDown"] * (row - 7) if row > 7 else ["ArrowUp"] * (7 - row)) + (
        ["ArrowRight"] * (col - 7) if col > 7 else ["ArrowLeft"] * (7 - col)
    )
    for key in keys:
        page.keyboard.press(key)
    name = f"{ROWS[row]}{col + 1}"
    expect(_square(page, name)).to_be_focused()
    page.keyboard.press("Enter")
    slip = page.get_by_role("textbox", name="Référence et mot")
    if not square.horizontal:
        _square(page, name).focus()
        page.keyboard.press("Enter")
    expect(slip).to_have_value(f"{ref} ")
    _heard(page, "Annonces", f"{ref} {'horizontal' if square.horizontal else 'vertical'}")


def test_a_blind_player_plays_three_rounds_by_the_accessibility_tree(live_server, phone):
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="x-secret-123")
        tournament = services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée", date=datetime.date(2026, 11, 26)
        )
        alice = services.player_register(tournament=tournament, name="Alice")
        bob = services.player_register(tournament=tournament, name="Bernard")
        game = services.game_start(tournament=tournament, seed=77)
    blind = phone().new_page()
    blind.goto(f"{live_server.url}/j/{alice.token}/")
    sighted = phone().new_page()
    sighted.goto(f"{live_server.url}/j/{bob.token}/")
    expect(blind.get_by_role("heading", level=1)).to_contain_text("Alice")

    tops = 0
    for number in (1, 2, 3):
        with _orm():
            rnd = services.round_draw(game_id=game.pk, expected_number=number).round
            services.round_start(round_id=rnd.pk)
            top = rnd.tops[0]
            rack = rnd.rack.replace("+", "").replace("-", "")
        tops += top["score"]

        # A new rack is said; the rack read as letters with their values, the blank as "joker".
        _heard(blind, "Annonces", "Nouveau tirage")
        tiles = blind.get_by_role("list", name="Tirage").get_by_role("listitem")
        expect(tiles).to_have_count(len(rack))
        heard = [tile.text_content() for tile in tiles.all()]
        for letter, said in zip(sorted(rack), sorted(heard)):
            read = "joker" in said if letter == "?" else said.startswith(letter) and "point" in said
            assert read, heard

        # The reference found on the board by the squares' names, the word and score typed, sent.
        _walk_to(blind, top["ref"])
        blind.keyboard.type(_typed(top["word"]))
        blind.get_by_role("textbox", name="Score annoncé").fill(str(top["score"]))
        blind.get_by_role("button", name="Envoyer").click()
        direction = "horizontal" if parse_ref(top["ref"]).horizontal else "vertical"
        receipt = f"{top['ref']} {direction}, {top['word'].upper()}"
        _heard(blind, "Accusé de réception", receipt)
        _heard(blind, "Accusé de réception", f"{top['score']} points annoncés")
        _heard(blind, "Accusé de réception", "reçu à")
        for letter in (c for c in top["word"] if c.islower()):
            _heard(blind, "Accusé de réception", f"joker sur le {letter.upper()}")

        # The sighted player at the next table: the same move, the usual way.
        sighted.locator("#slip-text").fill(f"{top['ref']} {_typed(top['word'])}")
        sighted.locator(".slip-score").fill(str(top["score"]))
        sighted.locator("#player-slip button[type=submit]").click()
        expect(sighted.locator("#player-receipt .sent")).to_be_visible()

        with _orm():
            services.round_close(round_id=rnd.pk)
        _heard(blind, "Annonces", "Temps écoulé")
        with _orm():
            services.round_place_top(round_id=rnd.pk)
        _heard(blind, "Annonces", re.compile(rf"Total {tops}\b"))

        # A square of a tile the top put down now says its letter and that it is the last top's.
        sq = top["tiles"][0][0]
        name = f"{ROWS[sq // 15]}{sq % 15 + 1}"
        said_square = re.compile(rf"^{name}, (.+, )?[A-Z](, joker)?, dernier top$")
        expect(_square(blind, name)).to_have_accessible_name(said_square)

    # The region is emptied for 50 ms before each sentence (so that a sentence said again is heard
    # again): it is waited for, not read once.
    _heard(blind, "Annonces", re.compile(rf"Total {tops}\b.*rang 1/2", re.S))
    shown = sighted.locator("#player-status .standing").inner_text()
    assert re.search(rf"Total\s+{tops}\b", shown), shown
    assert re.search(r"rang\s+1/2", shown), shown
    with _orm():
        standings = [player_standing(p) for p in Player.objects.order_by("name")]
    assert [(s.total, s.rank, s.percent) for s in standings] == [(tops, 1, 100)] * 2, standings
