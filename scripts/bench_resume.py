"""A resumed copy's check and rebuild (server/copycheck.py), timed on a big evening.

    .venv/bin/python scripts/bench_resume.py [--players 1500] [--games 3] [--runs 3]

On a fresh SQLite file in a temporary folder: the evening of scripts/bench_backup.py (``--players``
players, ``--games`` games, a slip from every player in every round), copied as the laptop copies
it.  Then the copy checked and rebuilt into a new file as ``manage.py resume`` does, first with an
empty cache of reference databases (the reference is migrated in a process of its own), then
``--runs`` times with it cached.  Prints the copy's size and each time (wall and CPU of this
process).  Nothing is asserted: the figures, dated, go on docs/developer/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var:
        os.environ["ARBITER_VAR_DIR"] = var  # never the real var/ folder
        os.environ["ARBITER_CACHE_DIR"] = str(Path(var) / "cache")  # a cold cache first
        os.environ.pop("DATABASE_URL", None)
        sys.path.insert(0, str(ROOT))
        os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter.settings"
        import django

        django.setup()
        from django.conf import settings

        from scripts.bench_backup import _evening
        from server.backup import copy_database

        started = time.perf_counter()
        slips = _evening(args.players, args.games)
        print(f"evening: {args.players} players, {args.games} games, {slips} slips "
              f"(built in {time.perf_counter() - started:.0f} s)")  # fmt: skip
        source = sqlite3.connect(settings.DATABASES["default"]["NAME"])
        copy = copy_database(source, Path(var) / "key")
        source.close()
        print(f"copy: {copy.stat().st_size / 1e6:.1f} MB")
        print(f"check and rebuild, reference built: {_timed(copy, Path(var) / 'rebuilt.sqlite3')}")
        runs = [_rebuild(copy, Path(var) / "rebuilt.sqlite3") for _ in range(args.runs)]
        walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
        median, cpu = statistics.median(walls), statistics.median(cpus)
        print(f"check and rebuild, reference cached: {args.runs} runs, median {median:.2f} s "
              f"(CPU {cpu:.2f} s), max {max(walls):.2f} s")  # fmt: skip


def _rebuild(copy: Path, draft: Path) -> tuple[float, float]:
    from server.copycheck import rebuild

    draft.unlink(missing_ok=True)
    wall, cpu = time.perf_counter(), time.process_time()
    rebuild(copy, draft)
    return time.perf_counter() - wall, time.process_time() - cpu


def _timed(copy: Path, draft: Path) -> str:
    wall, cpu = _rebuild(copy, draft)
    return f"{wall:.2f} s (CPU of this process {cpu:.2f} s)"


if __name__ == "__main__":
    main()
