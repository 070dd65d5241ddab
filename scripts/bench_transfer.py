"""A tournament's file, timed: exported, read and checked, imported, and the write lock it holds.

    .venv/bin/python scripts/bench_transfer.py [--players 1500] [--games 3] [--rounds 25]

Writes a tournament of that size (every player a slip every round, a correction a round) straight into
a fresh SQLite file in a temporary folder (the laptop default), or a throwaway PostgreSQL database
beside the one ``DATABASE_URL`` names; then prints the file's size (JSON and gzip), the export's time,
the reading and checking (before the write lock), the import, how long it held the room's write lock
(``server.writes.writing``: on SQLite what the phones' slips wait for meanwhile) and the queries sent
inside it, the longest a small write of another thread (a phone's slip, every 20 ms meanwhile)
waited and took, and the process's peak memory.  Nothing is asserted: the figures, dated, go on
docs/developer/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_players_csv import _throwaway_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_500)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var:
        os.environ["ARBITER_VAR_DIR"] = var  # never the real var/ folder
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
        import django

        django.setup()
        from django.db import connection

        database = _throwaway_database(connection)
        try:
            _bench(args.players, args.games, args.rounds)
        finally:
            database.close()


def _bench(players: int, games: int, rounds: int) -> None:
    import contextlib
    import gzip

    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from clubs.models import Club
    from lexicons.loaded import lexicon_default_row
    from results import transfer
    from results.transfer_reading import read_tournament
    from tournaments import services
    from tournaments.models import Game, Player, Round, Submission, SubmissionChange

    user = User.objects.create_user("arbitre", password="x-secret-123")
    club, other = Club.objects.create(name="Club A"), Club.objects.create(name="Club B")
    tournament = services.tournament_create(
        created_by=user, owner=club, lexicon=lexicon_default_row(), name="Grand tournoi",
        date=datetime.date(2026, 11, 26),
    )  # fmt: skip
    people = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Joueur {n}", club="Club", table_number=n)
        for n in range(1, players + 1)
    )
    now = timezone.now()
    top = {"ref": "H4", "word": "BALEINE", "tiles": [[52 + i, 1 + i] for i in range(7)], "score": 80}
    for number in range(1, games + 1):
        game = Game.objects.create(tournament=tournament, number=number, seed=number, board=[0] * 225)
        made = Round.objects.bulk_create(
            Round(game=game, number=n, status="placed", rack="AEI+BLRN", tiles=[1, 5, 9, 2, 12, 18, 14],
                  top_state="ready", top_score=80, tops=[top], placed=top, closed_at=now)
            for n in range(1, rounds + 1)
        )  # fmt: skip
        sent = [{"slip": "H4 BALEINE 80", "at": now.isoformat()}]
        for rnd in made:
            slips = Submission.objects.bulk_create(
                Submission(round=rnd, player=p, ref="H4", word="BALEINE", claimed=80, paid=80,
                           received_at=now, history=sent, graded_at=now)
                for p in people
            )  # fmt: skip
            SubmissionChange.objects.create(
                round=rnd, player=people[0], submission=slips[0], changed_by=user,
                before={"slip": "H4 BALEINE", "paid": 80}, after={"slip": "H4 BALEINE 80", "paid": 80},
            )  # fmt: skip
    start = time.perf_counter()
    data = transfer.tournament_export(tournament)
    exported = time.perf_counter() - start
    size = len(gzip.decompress(data))
    start = time.perf_counter()
    read_tournament(data)
    read = time.perf_counter() - start
    locked, queries = [], []

    @contextlib.contextmanager
    def timed_writing():
        start = time.perf_counter()
        with writing(), CaptureQueriesContext(connection) as sent:
            yield
        locked.append(time.perf_counter() - start)
        queries.append(len(sent))

    writing, transfer.writing = transfer.writing, timed_writing
    phone = _Phone(club.pk)
    phone.start()
    start = time.perf_counter()
    try:
        transfer.tournament_import(data=data, club=other, user=user)
    finally:
        transfer.writing = writing
        whole = time.perf_counter() - start
        phone.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{connection_vendor()}: {players} players, {games} games of {rounds} rounds "
        f"({players * games * rounds:,} slips): JSON {size / 1e6:.1f} MB, gzip {len(data) / 1e6:.1f} MB; "
        f"export {exported:.1f} s; reading and checking {read:.1f} s; whole import {whole:.1f} s "
        f"(the write lock held {sum(locked):.2f} s, {sum(queries)} queries inside it); "
        f"a slip's write meanwhile took at most {max(phone.waits, default=0):.2f} s "
        f"({len(phone.waits)} writes); peak memory {peak:.0f} MB"
    )


class _Phone(threading.Thread):
    """A small write every 20 ms, as the room's slips arrive, timed from asking to done."""

    def __init__(self, club_id: int):
        super().__init__(daemon=True)
        self.club_id, self.waits, self.done = club_id, [], threading.Event()

    def run(self) -> None:
        from django.db import connection

        from clubs.models import Club
        from server.writes import writing

        try:
            while not self.done.wait(0.02):
                start = time.perf_counter()
                with writing():
                    Club.objects.filter(pk=self.club_id).update(name="Club A")
                self.waits.append(time.perf_counter() - start)
        finally:
            connection.close()

    def stop(self) -> None:
        self.done.set()
        self.join()


def connection_vendor() -> str:
    from django.db import connection

    return "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"


if __name__ == "__main__":
    main()
