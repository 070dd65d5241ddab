"""The arbiter's guide's screenshots, taken from the running application, in French and in English.

    .venv/bin/python scripts/guide_screenshots.py [--only NAME]

A demo evening is made in a temporary folder (its own SQLite database, never var/): a tournament
of eight players, round 1 played (six slips, one refused), closed and its top placed, round 2
drawn and running.  ``manage.py serve`` then serves it on a free port, and Debian's Chromium
(Playwright) logs in as the arbiter and takes each screen into docs/fr/img/ and docs/en/img/,
1366x768 as a club's laptop (the projector 1024x768, the phone 390 px wide).  Run it again after
changing a screen; look at the pictures before committing them.
"""

from __future__ import annotations

import argparse
import datetime
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "guide-demo-2026"
NAMES = [
    "Alice Martin",
    "Bernard Roy",
    "Chantal Petit",
    "Denis Garnier",
    "Émilie Faure",
    "Fatou Diallo",
    "Gérard Blanc",
    "Hélène Morel",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="take this screenshot alone (its file name, no .png)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="guide-") as var:
        os.environ["ARBITER_VAR_DIR"] = var  # never the real var/ folder
        ids = _demo_evening()
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--strangers-port", "0"],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait(f"http://127.0.0.1:{port}/login/")
            _shoot(f"http://127.0.0.1:{port}", ids, args.only)
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


def _demo_evening() -> dict:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from lexicons.loaded import lexicon_default_row
    from live import services as live_services
    from tournaments import services
    from tournaments.models import Round

    call_command("migrate", verbosity=0)
    arbiter = User.objects.create_superuser("arbitre", password=PASSWORD)
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée du mardi", date=datetime.date.today()
    )
    players = [services.player_register(tournament=tournament, name=name) for name in NAMES]
    game = services.game_start(tournament=tournament, seed=2026)
    first = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    top = first.tops[0]
    for n, player in enumerate(players[:6]):
        text = f"{top['ref']} {top['word']} {top['score']}" if n != 3 else "H8 ZZZ 10"
        live_services.submission_record(player=player, round_id=first.pk, text=text)
    Round.objects.filter(pk=first.pk).update(deadline=timezone.now() - datetime.timedelta(minutes=1))
    services.round_close(round_id=first.pk)
    services.round_place_top(round_id=first.pk)
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    services.round_start(round_id=second.pk)
    Round.objects.filter(pk=second.pk).update(deadline=timezone.now() + datetime.timedelta(seconds=150))
    live_services.submission_record(
        player=players[0], round_id=second.pk, text=f"{second.tops[0]['ref']} {second.tops[0]['word']}"
    )
    return {"tournament": tournament.pk, "game": game.pk, "token": players[0].token}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(url: str) -> None:
    for _ in range(120):
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the application did not answer at {url}")


def _screens(ids: dict) -> list[tuple[str, str, dict]]:
    """(file name, path, viewport) of each screenshot."""
    laptop = {"width": 1366, "height": 768}
    return [
        ("home", "/", laptop),
        ("tournament", f"/tournois/{ids['tournament']}/", laptop),
        ("cards", f"/tournois/{ids['tournament']}/cartes/", laptop),
        ("game", f"/parties/{ids['game']}/", laptop),
        ("slips", f"/parties/{ids['game']}/?coup=1#slips", laptop),
        ("projector", f"/projecteur/{ids['game']}/", {"width": 1024, "height": 768}),
        ("phone", f"/j/{ids['token']}/", {"width": 390, "height": 844}),
        ("results", f"/parties/{ids['game']}/resultats/", laptop),
        ("training", "/entrainement/", laptop),
        ("events", "/simultanes/", laptop),
    ]


def _shoot(base: str, ids: dict, only: str | None) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for lang in ("fr", "en"):
            folder = ROOT / "docs" / lang / "img"
            folder.mkdir(parents=True, exist_ok=True)
            context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
            context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
            page = context.new_page()
            page.goto(f"{base}/login/")
            page.fill("input[name=username]", "arbitre")
            page.fill("input[name=password]", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_load_state("networkidle")
            if "/login/" in page.url:
                raise SystemExit(f"the arbiter's login failed: {page.inner_text('main')[:300]}")
            for name, path, viewport in _screens(ids):
                if only and name != only:
                    continue
                page.set_viewport_size(viewport)
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(800)
                page.screenshot(path=str(folder / f"{name}.png"))
                print(f"{lang}/img/{name}.png")
            context.close()
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
