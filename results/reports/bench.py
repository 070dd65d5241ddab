"""``python -m results.reports.bench``: the time the printouts take, printed, not asserted.

Builds the "print everything" PDF of one game (ranking, game sheet, one card per player) with 1, 2 and 4
cards per page, then the whole evening's PDF (the tournament's ranking, then each game's sheets and
cards), from the synthetic results of ``results.reports.sample``, in French, a few times each, and
prints the fastest build and the page count.  No Django is needed.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

from results.reports.render import bundle, evening
from results.reports.sample import sample_evening, sample_results


def _pages(pdf: bytes) -> int:
    """Page objects in the file (reportlab writes one ``/Type /Page`` per page)."""
    return len(re.findall(rb"/Type /Page\b", pdf))


def _fastest(build: Callable[[], tuple[str, str, bytes]], passes: int) -> tuple[str, bytes, float]:
    times = []
    for _ in range(passes):
        start = time.perf_counter()
        filename, _, pdf = build()
        times.append(time.perf_counter() - start)
    return filename, pdf, min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m results.reports.bench")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--games", type=int, default=3, help="games of the evening")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    ranking, game, cards = sample_results(players=args.players)
    print(f"{args.players} players, {len(game.rounds)} rounds; fastest of {args.passes}")
    for per_page in (1, 2, 4):
        built = _fastest(lambda n=per_page: bundle(ranking, game, cards, per_page=n), args.passes)
        print(_line(built, f"{per_page} card(s) per page"))
    overall, games = sample_evening(games=args.games, players=args.players)
    built = _fastest(lambda: evening(overall, games, per_page=4), args.passes)
    print(_line(built, f"{args.games} games, 4 cards per page"))


def _line(built: tuple[str, bytes, float], what: str) -> str:
    filename, pdf, best = built
    return f"{filename}, {what}: {_pages(pdf)} pages, {len(pdf) / 1024:.0f} KiB, {best:.2f} s"


if __name__ == "__main__":
    main()
