"""``python -m results.reports.bench``: the time the "print everything" PDF takes, printed, not asserted.

Builds the bundle (ranking, game sheet, one card per player) from the synthetic results of
``results.reports.sample``, in French, a few times, and prints the fastest build and the page count.
No Django is needed.
"""

from __future__ import annotations

import argparse
import re
import time

from results.reports.render import bundle
from results.reports.sample import sample_results


def _pages(pdf: bytes) -> int:
    """Page objects in the file (reportlab writes one ``/Type /Page`` per page)."""
    return len(re.findall(rb"/Type /Page\b", pdf))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m results.reports.bench")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    ranking, game, cards = sample_results(players=args.players)
    times = []
    for _ in range(args.passes):
        start = time.perf_counter()
        filename, _, pdf = bundle(ranking, game, cards)
        times.append(time.perf_counter() - start)
    print(f"{filename}: {args.players} players, {len(game.rounds)} rounds")
    print(f"{_pages(pdf)} pages, {len(pdf) / 1024:.0f} KiB, fastest of {args.passes}: {min(times):.2f} s")


if __name__ == "__main__":
    main()
