"""In a browser: a prepared simultaneous played in two centres of one server.  Vichy's arbiter makes
the event and uploads its record, then registers its centres on the event's page: Vichy and Moulins
live, Montluçon on its laptop.  Moulins' arbiter and Vichy's join as centres from the "Simultanés"
page and register two players each; the four players send their slips from their phones; Vichy plays
three rounds while Moulins is one behind, then catches up.  The public page, opened without a login,
ranks Vichy's players on its three rounds and says Moulins is behind, then the four players on all
three.  Montluçon played on its own laptop without Internet: the laptop is a second server on
loopback (``tests.simultaneous.laptop``), its first try to send its results finds the federation's
server unreachable, and once the hall's connection is back its server sends them: the public page
ranks its players with the four others, and the organiser sees the file on the event's page and
withdraws it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from clubs.models import Club, Member, Role
from simultaneous.models import Centre, Event, Upload
from tests.e2e.browser import orm as _orm
from tests.live_services import free_port, wait_for
from tests.simultaneous.laptop import Laptop, Relay
from tournaments import services
from tournaments.models import Player, Round

pytestmark = pytest.mark.clubs

GAME_RECORD = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"
PASSWORD = "x-secret-123"
OVERALL = "Classement général sur"

expect.set_options(timeout=10_000)


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.get_by_label("Identifiant").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("heading", name="Tournois")).to_be_visible()


def _join_and_register(page: Page, base: str, names: tuple[str, str]) -> None:
    page.goto(f"{base}/simultanes/")
    page.get_by_role("button", name="Jouer comme centre").click()
    expect(page).to_have_url(re.compile(r"/tournois/\d+/$"))
    for name in names:
        page.get_by_label("Nom", exact=True).fill(name)
        page.get_by_role("button", name="Ajouter", exact=True).click()
        expect(page.get_by_text(name).first).to_be_visible()


def _round(game_id: int, number: int) -> Round:
    """Round ``number`` drawn, its top known and the clock started (the arbiter's buttons)."""
    with _orm():
        rnd = services.round_draw(game_id=game_id, expected_number=number).round
        if rnd.top_state != Round.TopState.READY:
            services.round_compute_top(round_id=rnd.pk)
        return services.round_start(round_id=rnd.pk)


def _close_and_place(rnd: Round) -> None:
    with _orm():
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)


def _send(phone: Page, number: int, slip: str, score: int) -> None:
    """The slip of round ``number``, sent once the phone shows that round running."""
    expect(phone.get_by_role("heading", level=1)).to_contain_text(f"coup {number}")
    expect(phone.locator("body")).to_have_attribute("data-phase", "running")
    phone.get_by_label("Référence et mot").fill(slip)
    phone.get_by_label("Score annoncé").fill(str(score))
    phone.get_by_role("button", name="Envoyer").click()
    # This slip's receipt (the round before's said another word).
    receipt = phone.get_by_role("status", name="Accusé de réception")
    word = slip.split()[1].replace("?", "")
    expect(receipt).to_contain_text(re.compile(rf"{word}, (joker sur le ., )*{score} points annoncés"))
    expect(receipt).to_contain_text("reçu à")


def _typed(word: str) -> str:
    return "".join(f"{c.upper()}?" if c.islower() else c for c in word)


def test_two_centres_play_one_prepared_simultaneous_at_their_own_pace(
    live_server, laptop, browser, phone, artifacts, tmp_path
):
    base = live_server.url
    with _orm():
        clubs = {name: Club.objects.create(name=name) for name in ("Vichy", "Moulins")}
        for name, club in clubs.items():
            user = User.objects.create_user(name.lower(), password=PASSWORD)
            Member.objects.create(club=club, user=user, role=Role.ARBITER)
        montlucon = Club.objects.create(name="Montluçon")
    vichy = laptop.new_page()
    _log_in(vichy, base, "vichy")
    vichy.goto(f"{base}/simultanes/nouveau/")
    vichy.get_by_label("Nom").fill("Simultané de la Toussaint")
    vichy.get_by_label("Date").fill("2026-11-28")
    vichy.get_by_label("Déroulement").select_option("prepared")
    vichy.get_by_label("Fichier de la partie préparée").set_input_files(str(GAME_RECORD))
    vichy.get_by_role("button", name="Créer le simultané").click()
    expect(vichy.get_by_role("heading", name="Simultané de la Toussaint")).to_be_visible()
    # The organiser registers its centres: only they join or send results.
    for club, mode in (("Vichy", "live"), ("Moulins", "live"), ("Montluçon", "offline")):
        vichy.get_by_label("Club", exact=True).select_option(label=club)
        vichy.get_by_label("Le centre joue").select_option(mode)
        vichy.get_by_role("button", name="Inscrire le centre").click()
        expect(vichy.locator("section").first.get_by_role("row").filter(has_text=club)).to_be_visible()
    expect(vichy.get_by_text("pas encore rejoint")).to_have_count(2)
    expect(vichy.get_by_text("aucun fichier reçu")).to_have_count(1)
    other = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    moulins = other.new_page()
    _log_in(moulins, base, "moulins")
    _join_and_register(moulins, base, ("Chloé", "Denis"))
    _join_and_register(vichy, base, ("Alice", "Bruno"))

    with _orm():
        event = Event.objects.get()
        centres = {c.club.name: c for c in Centre.objects.select_related("club")}
        players = {p.name: p for p in Player.objects.all()}
    phones = {}
    for name, player in players.items():
        phones[name] = phone().new_page()
        phones[name].goto(f"{base}/j/{player.token}/")
    # Each round, the first player of each centre plays the top, the second a word worth less.
    plays = {"Vichy": ("Alice", "Bruno"), "Moulins": ("Chloé", "Denis")}

    def play(centre: str, number: int) -> int:
        rnd = _round(centres[centre].game_id, number)
        top = rnd.tops[0]
        first, second = plays[centre]
        _send(phones[first], number, f"{top['ref']} {_typed(top['word'])}", top["score"])
        if number == 1:
            _send(phones[second], number, f"{top['ref']} {_typed(top['word'])}", top["score"])
        _close_and_place(rnd)
        return top["score"]

    tops = [play("Vichy", 1)]
    assert play("Moulins", 1) == tops[0]
    tops.append(play("Vichy", 2))
    tops.append(play("Vichy", 3))
    assert play("Moulins", 2) == tops[1]

    public = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR").new_page()
    public.goto(f"{base}/simultane/{event.public_key}/")
    overall = public.locator("section").first
    # Moulins, one round behind, does not cut the overall: it is ranked on Vichy's three rounds, and
    # Moulins' players are in its own table until it catches up.
    expect(overall.get_by_role("heading")).to_contain_text(f"{OVERALL} 3 coups")
    expect(overall).to_contain_text("Moulins (2 coups)")
    for name in ("Alice", "Bruno"):
        expect(overall.get_by_role("row", name=re.compile(name))).to_be_visible()
    for name in ("Chloé", "Denis"):
        expect(overall.get_by_role("row", name=re.compile(name))).to_have_count(0)
        expect(public.get_by_role("row", name=re.compile(name))).to_be_visible()
    first_rows = overall.get_by_role("row").all_inner_texts()
    assert re.search(rf"1\s+Alice.*{sum(tops)}", first_rows[1], re.S), first_rows
    public.screenshot(path=str(artifacts / "simultaneous-public.png"), full_page=True)

    assert play("Moulins", 3) == tops[2]
    public.reload()
    expect(overall.get_by_role("heading")).to_contain_text(f"{OVERALL} 3 coups")
    expect(overall).not_to_contain_text("En retard")
    texts = overall.get_by_role("row").all_inner_texts()
    leaders = [t for t in texts[1:] if t.startswith("1")]
    assert len(leaders) == 2 and all(str(sum(tops)) in t for t in leaders), texts
    assert any("Bruno" in t and str(tops[0]) in t for t in texts) and any("Denis" in t for t in texts)
    other.close()

    # -- Montluçon's laptop: offline at its first try, then its server sends the results -----------
    port = free_port()
    url = f"http://127.0.0.1:{port}/simultane/{event.public_key}/"
    hall = Laptop(tmp_path, GAME_RECORD, url, montlucon.upload_token, rounds=3)
    assert hall.first["status"] == "pending" and hall.first["attempts"] == 1, hall.first
    host, server_port = base.removeprefix("http://").split(":")
    relay = Relay(port, (host, int(server_port))).start()
    hall.serve()
    try:
        with _orm():
            assert wait_for(lambda: Upload.objects.exists(), 90), hall.says()
    finally:
        hall.stop()
        relay.stop()
    public.reload()
    expect(overall.get_by_role("heading")).to_contain_text(f"{OVERALL} 3 coups")
    for name in (*players, "Émile", "Fanny"):
        expect(overall.get_by_role("row", name=re.compile(name))).to_be_visible()
    texts = overall.get_by_role("row").all_inner_texts()
    leaders = [t for t in texts[1:] if t.startswith("1")]
    assert len(leaders) == 3 and any("Émile" in t for t in leaders), texts  # the laptop's player too
    public.screenshot(path=str(artifacts / "simultaneous-public-three-centres.png"), full_page=True)

    # The organiser sees Montluçon's file on the event's page and withdraws it: the public page no
    # longer ranks its players.
    vichy.goto(f"{base}/simultanes/{event.pk}/")
    centres_table = vichy.locator("section").first
    row = centres_table.get_by_role("row").filter(has_text="Montluçon")
    expect(row).to_contain_text("2 joueurs, 3 coups")
    vichy.screenshot(path=str(artifacts / "simultaneous-centres.png"), full_page=True)
    row.get_by_role("button", name="Retirer le fichier de Montluçon").click()
    expect(centres_table.get_by_role("row").filter(has_text="Montluçon")).to_contain_text("retiré le")
    public.reload()
    expect(overall.get_by_role("row", name=re.compile("Émile"))).to_have_count(0)
    expect(overall.get_by_role("row", name=re.compile("Alice"))).to_be_visible()
