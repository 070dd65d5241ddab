"""The evening's copy, timed: what one copy costs on a 600-player evening of 3 games.

    .venv/bin/python scripts/bench_backup.py [--players 600] [--games 3] [--copies 10]

On a fresh SQLite file in a temporary folder (the laptop default): a tournament of ``--players``
players, ``--games`` games played from the prepared reference records, every player sending a slip
in every round (the slips graded as a round's close grades them).  Then ``--copies`` copies made as
``manage.py serve``'s saving thread makes them (``server.backup.copy_database``: online backup,
fsync, rename, the last 5 kept), once with the database at rest and once while another thread
writes a slip every 10 ms (what a room sends).  Prints the time and CPU of a copy, its size, and the
longest a slip's write waited during the copies.  Nothing is asserted: the figures, dated, go on
docs/developer/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "data" / "reference-games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var:
        os.environ["ARBITER_VAR_DIR"] = var  # never the real var/ folder
        os.environ.pop("DATABASE_URL", None)
        sys.path.insert(0, str(ROOT))
        os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter.settings"
        import django

        django.setup()
        from django.conf import settings

        started = time.perf_counter()
        slips = _evening(args.players, args.games)
        print(f"evening: {args.players} players, {args.games} games, {slips} slips "
              f"(built in {time.perf_counter() - started:.0f} s)")  # fmt: skip
        database = Path(settings.DATABASES["default"]["NAME"])
        _copies(database, Path(var) / "key", args.copies, writing=False)
        _copies(database, Path(var) / "key", args.copies, writing=True)


def _evening(players: int, games: int) -> int:
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from clubs.models import Club, Member, Role
    from lexicons.loaded import lexicon_default_row
    from tournaments import services
    from tournaments.models import Player, Round, Submission

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench")
    arbiter = User.objects.create_superuser("arbitre", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    tournament = services.tournament_create(
        created_by=arbiter, owner=club, lexicon=lexicon_default_row(), name="Soirée", club=club.name,
        date=datetime.date(2026, 11, 28),
    )  # fmt: skip
    Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Joueur {n:04d}", table_number=n) for n in range(1, players + 1)
    )
    everyone = list(Player.objects.filter(tournament=tournament))
    slips = 0
    for number in range(1, games + 1):
        game = services.game_start(
            tournament=tournament, prepared=(GAMES / f"game-{number:03d}.json").read_bytes()
        )
        for expected in range(1, 100):
            game.refresh_from_db()
            if game.status != game.Status.PLAYING:
                break
            rnd = services.round_draw(game_id=game.pk, expected_number=expected).round
            if rnd is None:
                break
            if rnd.top_state != Round.TopState.READY:
                services.round_compute_top(round_id=rnd.pk)
            rnd = services.round_start(round_id=rnd.pk)
            top, now = rnd.tops[0], timezone.now()
            Submission.objects.bulk_create(
                Submission(
                    round=rnd,
                    player=p,
                    ref=top["ref"],
                    word=top["word"],
                    claimed=top["score"] if p.pk % 3 else None,
                    received_at=now,
                    request_id=f"phone-{p.pk}-{rnd.pk}",
                )
                for p in everyone
            )
            slips += len(everyone)
            services.round_close(round_id=rnd.pk)
            services.round_place_top(round_id=rnd.pk)
    return slips


def _copies(database: Path, folder: Path, count: int, *, writing: bool) -> None:
    from server.backup import copy_database

    stop, waits = threading.Event(), []

    def writer() -> None:
        connection = sqlite3.connect(database, timeout=20, isolation_level=None)
        while not stop.is_set():
            begun = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE tournaments_submission SET revision = revision + 1 WHERE id = 1")
            connection.execute("COMMIT")
            waits.append(time.perf_counter() - begun)
            time.sleep(0.01)
        connection.close()

    thread = threading.Thread(target=writer) if writing else None
    if thread:
        thread.start()
    source = sqlite3.connect(database, timeout=20, check_same_thread=False)
    walls, cpus, size = [], [], 0
    for _ in range(count):
        wall, cpu = time.perf_counter(), time.process_time()
        path = copy_database(source, folder)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        size = path.stat().st_size
    source.close()
    stop.set()
    if thread:
        thread.join()
    label = "copies while slips are written every 10 ms" if writing else "copies at rest"
    median, cpu = statistics.median(walls) * 1000, statistics.median(cpus) * 1000
    print(f"{label}: {count} copies of {size / 1e6:.1f} MB: median {median:.0f} ms "
          f"(max {max(walls) * 1000:.0f} ms), CPU median {cpu:.0f} ms")  # fmt: skip
    if writing:
        print(f"  slip writes meanwhile: {len(waits)}, longest {max(waits) * 1000:.1f} ms, "
              f"median {statistics.median(waits) * 1000:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
