"""``python -m engine bench``: the engine's figures beside their goals, printed, never asserted; their dated
record is on docs/developer/benchmarks.md.

* Search: for every round of the reference games, in game order, the time
  from a board holding the previous tops to the list of every top move
  (``find_tops``), as the application runs it round after round.  Each
  position is timed in three passes and its fastest kept, so a busy machine
  inflates the figures less; a "cold" pass with every memo cleared first is
  printed too.
* Best placements: the same rounds, the time from the same board to the list
  of the 10 best placements (``find_best``), beside the top
  search's figures of the same run.
* Lexicon: building the graph from the word list, loading it from its cache
  (in a fresh process), building the anagram index, and the resident memory
  of a process holding the lexicon after a whole replay.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.alphabet import BLANK, FRENCH, LetterSet
from engine.board import Board
from engine.draw import bag_left
from engine.lexicon import DEFAULT_PATH, Lexicon
from engine.movegen import Position, find_best, find_tops
from engine.record import check, parse

DEFAULT_GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "reference-games"
PASSES = 3

#: Eliot (C++) on the same positions (measured: docs/developer/benchmarks.md): median, p99, worst, in ms.
ELIOT = (0.49, 10.9, 56.0)
GOALS = (1.5, 10.0, 50.0)
#: The best placements: how many, and the goal's median and p99 in ms.
BEST_N = 10
BEST_GOALS = (10.0, 60.0)


def _positions(folder: Path, lexicon: Lexicon) -> list[tuple[Position, int]]:
    found = []
    for path in sorted(folder.glob("*.json")):
        game = check(parse(path.read_bytes()), lexicon)
        board = Board()
        limits = game.record.variant.limits
        for number, (recorded, placed) in enumerate(zip(game.record.rounds, game.placed), 1):
            tiles = recorded.rack.tiles
            found.append((Position(board.copy(), tiles, lexicon, number == 1, **limits), tiles.count(BLANK)))
            board.place(placed)
    return found


def _figures(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99, ordered[-1]


def _line(label: str, times: list[float]) -> str:
    median, p99, worst = _figures(times)
    return (
        f"  {label:<22} {len(times):4} rounds  "
        f"median {median:6.2f} ms  p99 {p99:6.2f} ms  worst {worst:6.2f} ms"
    )


def search_times(positions, passes: int = PASSES, cold: bool = False) -> list[float]:
    best = [float("inf")] * len(positions)
    for _ in range(passes):
        for i, (position, _blanks) in enumerate(positions):
            if cold:
                position.lexicon.__dict__.pop("_memos", None)
            start = time.perf_counter()
            find_tops(position)
            best[i] = min(best[i], (time.perf_counter() - start) * 1000)
    return best


def best_times(positions, n: int = BEST_N, passes: int = PASSES) -> list[float]:
    """The time of each round's list of the ``n`` best placements, ordered with the round's bag."""
    bags = [
        bag_left(filter(None, position.board.cells), position.rack, position.lexicon.letters)
        for position, _ in positions
    ]
    fastest = [float("inf")] * len(positions)
    for _ in range(passes):
        for i, (position, _blanks) in enumerate(positions):
            start = time.perf_counter()
            find_best(position, n, bags[i])
            fastest[i] = min(fastest[i], (time.perf_counter() - start) * 1000)
    return fastest


_CHILD = """
import json, sys, time
from pathlib import Path
t = time.perf_counter()
from engine.lexicon import Lexicon
from engine.lettersets import SETS
lexicon = Lexicon.from_file(Path(sys.argv[1]), "bench", letters=SETS[sys.argv[3]])
load = time.perf_counter() - t
t = time.perf_counter()
lexicon.anagrams
index = time.perf_counter() - t
from engine.bench import _positions, search_times
search_times(_positions(Path(sys.argv[2]), lexicon), passes=1)
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
mb = lambda key: int(status[key].split()[0]) / 1024
print(json.dumps({"load": load, "index": index, "rss": mb("VmRSS"), "peak": mb("VmHWM")}))
"""


def lexicon_figures(games: Path, path: Path = DEFAULT_PATH, letters: LetterSet = FRENCH) -> dict:
    """Build, load and memory figures of the word list ``path`` read for ``letters``."""
    data = path.read_bytes()
    start = time.perf_counter()
    Lexicon.from_bytes(data, "bench", use_cache=False, letters=letters)
    build = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ARBITER_CACHE_DIR": cache}
        command = [sys.executable, "-c", _CHILD, str(path), str(games), letters.code]
        subprocess.run(command, env=env, check=True, capture_output=True)  # writes the cache
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return {"build": build, **json.loads(out)}


def _print_best(positions, top_times: list[float]) -> None:
    print(f"The {BEST_N} best placements, same rounds (fastest of {PASSES} passes per round):")
    times = best_times(positions)
    print(_line("all racks", times))
    for blanks, label in ((0, "no blank"), (1, "one blank"), (2, "two blanks")):
        subset = [t for t, (_p, b) in zip(times, positions) if b == blanks]
        if subset:
            print(_line(label, subset))
    median, p99, worst = _figures(times)
    top_median, top_p99, top_worst = _figures(top_times)
    print(
        f"  goal: median <= {BEST_GOALS[0]} ms, p99 <= {BEST_GOALS[1]} ms; against the top search "
        f"above: median x{median / top_median:.1f}, p99 x{p99 / top_p99:.1f}, worst x{worst / top_worst:.1f}"
    )


def run(games: Path, lexicon: Lexicon, path: Path | None = None) -> None:
    """The figures for the records of ``games`` with ``lexicon``, read from ``path`` (default: the
    shipped French list)."""
    positions = _positions(games, lexicon)
    find_tops(positions[0][0])  # the anagram index is built on first use; timed below
    print(
        f"Top search over {len(positions)} rounds of {len(list(games.glob('*.json')))} games "
        f"(fastest of {PASSES} passes per round):"
    )
    times = search_times(positions)
    print(_line("all racks", times))
    for blanks, label in ((0, "no blank"), (1, "one blank"), (2, "two blanks")):
        subset = [t for t, (_p, b) in zip(times, positions) if b == blanks]
        if subset:
            print(_line(label, subset))
    print(_line("all racks, memos cold", search_times(positions, passes=1, cold=True)))
    median, p99, worst = _figures(times)
    print(
        f"  goal: median <= {GOALS[0]} ms, p99 <= {GOALS[1]} ms, worst <= {GOALS[2]} ms; "
        f"Eliot (C++): {ELIOT[0]} / {ELIOT[1]} / {ELIOT[2]} ms"
    )
    print(
        f"  ratio to Eliot: median x{median / ELIOT[0]:.1f}, p99 x{p99 / ELIOT[1]:.2f}, "
        f"worst x{worst / ELIOT[2]:.2f}"
    )
    _print_best(positions, times)
    figures = lexicon_figures(games, path or DEFAULT_PATH, lexicon.letters)
    print(
        f"Lexicon {lexicon.name} ({lexicon.word_count} words, {lexicon.dawg.node_count} nodes, "
        f"{lexicon.dawg.edge_count} edges):"
    )
    print(f"  graph built from the word list      {figures['build']:6.2f} s   (goal <= 5 s)")
    print(f"  loaded from its cache, new process  {figures['load']:6.2f} s   (goal <= 0.5 s)")
    print(f"  anagram index, built on first use   {figures['index']:6.2f} s")
    print(
        f"  resident after a whole replay       {figures['rss']:6.0f} MB  (goal <= 150 MB; "
        f"peak {figures['peak']:.0f} MB)"
    )
    sys.stdout.flush()


__all__ = ["DEFAULT_GAMES", "run"]
