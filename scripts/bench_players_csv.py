"""The CSV player import, timed: 20,000 rows, the row limit, and the refusals.

    .venv/bin/python scripts/bench_players_csv.py [--rows 20000]

On a fresh SQLite file in a temporary folder (the laptop default), or on a throwaway PostgreSQL
database beside the one ``DATABASE_URL`` names.  Prints, for each file: the whole import, the part spent
reading and checking the file (outside the write lock), and how long the room's write lock was held
(what slips and polls would wait for).  Nothing is asserted: the figures, dated, go on
docs/developer/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var:
        os.environ["ARBITER_VAR_DIR"] = var  # never the real var/ folder
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
        import django

        django.setup()
        from django.db import connection

        database = _throwaway_database(connection)
        try:
            _bench(args.rows)
        finally:
            database.close()


@contextlib.contextmanager
def _postgres_test_database(connection):
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


def _throwaway_database(connection) -> contextlib.ExitStack:
    stack = contextlib.ExitStack()
    if connection.vendor == "postgresql":
        stack.enter_context(_postgres_test_database(connection))
    else:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    return stack


def _csv(rows: int, *, bad: bool = False) -> bytes:
    """A federation's list: half the players on the tables the file gives, half on free ones."""
    lines = ["Nom;Club;Licence;Série;Catégorie;Table"]
    for n in range(rows):
        table = str(2 * n + 1) if n % 2 == 0 and 2 * n + 1 <= 9_999 else ""
        category = "Inconnue" if bad else ("Vermeil", "Senior", "")[n % 3]
        lines.append(f"Joueur n°{n} Dupré;Club de Lyon {n % 50};{100000 + n};{n % 7 + 1};{category};{table}")
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def _bench(rows: int) -> None:
    from django.contrib.auth.models import User

    from lexicons.loaded import lexicon_default_row
    from server.writes import ServiceError
    from tournaments import services
    from tournaments.services import players_csv

    arbiter = User.objects.create_user("bench", password="bench-123")
    lexicon = lexicon_default_row()
    locked = []

    @contextlib.contextmanager
    def timed_writing():
        start = time.perf_counter()
        with writing():
            yield
        locked.append(time.perf_counter() - start)

    writing, players_csv.writing = players_csv.writing, timed_writing

    def tournament():
        return services.tournament_create(
            created_by=arbiter, lexicon=lexicon, name="Bench", date=datetime.date(2026, 11, 20)
        )

    def run(label: str, data: bytes, max_rows: int) -> None:
        locked.clear()
        start = time.perf_counter()
        with contextlib.suppress(ServiceError):
            players_csv.players_csv_read(data, max_rows=max_rows)
        reading = time.perf_counter() - start
        start = time.perf_counter()
        try:
            added = len(services.players_import_csv(tournament=tournament(), data=data, max_rows=max_rows))
            outcome = f"{added} players imported"
        except ServiceError as error:
            outcome = f"refused: {error.message.text('en')[:60]}"
        whole = time.perf_counter() - start
        lock = f"{sum(locked):.3f} s" if locked else "not taken"
        print(f"{label:<44} {whole:7.3f} s   reading {reading:.3f} s   lock {lock:>9}   {outcome}")

    big, limit = _csv(rows), _csv(players_csv.MAX_CSV_ROWS)
    megabytes = len(big) / 1e6, len(limit) / 1e6
    print(f"{rows:,} rows: {megabytes[0]:.2f} MB; {players_csv.MAX_CSV_ROWS:,} rows: {megabytes[1]:.2f} MB")
    run(f"{players_csv.MAX_CSV_ROWS:,} rows (the limit)", limit, players_csv.MAX_CSV_ROWS)
    run(f"{rows:,} rows: refused at once", big, players_csv.MAX_CSV_ROWS)
    run(f"{rows:,} bad rows, no row limit: refused", _csv(rows, bad=True), rows)
    # Beyond the limits, to show the time grows with the rows alone: 20,000 players need tables past 9,999.
    players_csv.MAX_TABLE = 10 * rows
    run(f"{rows:,} rows, no row or table limit", big, rows)


if __name__ == "__main__":
    main()
