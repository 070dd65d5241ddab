"""``python -m engine``: replay records, play a game, grade a slip, list the best moves, run the benchmark."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from engine import bench, record
from engine.board import Board
from engine.choice import choose
from engine.draw import Bag, bag_left, draw_rack, remaining_after
from engine.grading import Mode, grade_text
from engine.lexicon import Lexicon
from engine.movegen import Position, Tops, find_best, find_tops
from engine.notation import RackText, parse_rack
from engine.scoring import apply


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    parser.add_argument("--lexicon", type=Path, help="a word list file (default: the shipped fr-wfrench)")
    commands = parser.add_subparsers(dest="command", required=True)

    replay = commands.add_parser("replay", help="search every round's top of game records")
    replay.add_argument("files", nargs="+", type=Path)
    replay.add_argument("--json", action="store_true", help="one JSON object per round")

    play = commands.add_parser("play", help="play a whole duplicate game and write its record")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--out", type=Path, help="where to write the record (default: standard output)")

    grade = commands.add_parser("grade", help="grade a slip against a round of a record")
    grade.add_argument("record", type=Path)
    grade.add_argument("round", type=int, help="1-based")
    grade.add_argument("slip", help="'REF WORD [SCORE]', or '- WORD [SCORE]' without reference")
    grade.add_argument("--computed", action="store_true", help="computed grading instead of FISF")
    grade.add_argument("--json", action="store_true")

    best = commands.add_parser("best", help="the best placements of a round of a record")
    best.add_argument("record", type=Path)
    best.add_argument("round", type=int, help="1-based")
    best.add_argument("--n", type=_count, default=10, help="how many (every tie with the last included)")
    best.add_argument("--json", action="store_true", help="a JSON list, one object per placement")

    commands.add_parser(
        "bench", help="time the top search, the best placements and the lexicon"
    ).add_argument("--games", type=Path, default=bench.DEFAULT_GAMES, help="folder of game records")

    args = parser.parse_args(argv)
    lexicon = Lexicon.from_file(args.lexicon) if args.lexicon else Lexicon.default()
    handlers = {"replay": _replay, "play": _play, "grade": _grade, "best": _best, "bench": _bench}
    handler = handlers[args.command]
    try:
        return handler(args, lexicon)
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        sys.stderr.close()
        return 0


def _load_replayed(path: Path, lexicon: Lexicon) -> record.ReplayedGame:
    return record.check(record.parse(path.read_bytes()), lexicon)


def _replay(args, lexicon: Lexicon) -> int:
    differs = False
    _ = lexicon.anagrams  # built once per process; not part of any round's time
    for path in args.files:
        try:
            game = _load_replayed(path, lexicon)
        except (OSError, record.RecordError) as error:
            print(f"{path}: {getattr(error, 'message', error)}", file=sys.stderr)
            return 2
        for warning in game.warnings:
            print(f"{path}: {warning}", file=sys.stderr)
        board = Board()
        for number, (recorded, play) in enumerate(zip(game.record.rounds, game.plays), 1):
            position = Position(board.copy(), recorded.rack.tiles, lexicon, first_move=number == 1)
            start = time.perf_counter()
            tops = find_tops(position)
            ms = (time.perf_counter() - start) * 1000
            differs |= tops.score != recorded.score
            row = {
                "file": str(path),
                "round": number,
                "top": tops.score,
                "expected": recorded.score,
                "tied": len(tops.plays),
                "ms": round(ms, 3),
            }
            if args.json:
                print(json.dumps(row))
            else:
                mark = "" if tops.score == recorded.score else "  <-- differs"
                print(
                    f"{path.name} round {number:2}: top {tops.score:3} expected {recorded.score:3} "
                    f"tied {len(tops.plays)} {ms:7.2f} ms{mark}"
                )
            apply(board, play)
    return 1 if differs else 0


def play_game(seed: int, lexicon: Lexicon) -> record.GameRecord:
    """A whole duplicate game by the rules: draw (§3.1), top, choice (§3.3.5), end (§3.2)."""
    rng = random.Random(seed)
    bag = Bag.full()
    board = Board()
    reliquat: tuple[int, ...] = ()
    racks, plays, tied = [], [], []
    number = 1
    while True:
        searched: dict[tuple[int, ...], Tops] = {}

        def has_move(tiles, number=number, searched=searched) -> bool:
            position = Position(board.copy(), tuple(tiles), lexicon, first_move=number == 1)
            searched[tuple(tiles)] = tops = find_tops(position)
            return bool(tops.plays)

        draw = draw_rack(reliquat, bag, number, rng, has_move)
        if draw.end:
            break
        tops = searched.get(draw.tiles) or find_tops(Position(board.copy(), draw.tiles, lexicon, number == 1))
        top = choose(tops.plays, draw.tiles, bag.tiles())
        apply(board, top)
        racks.append(parse_rack(draw.rack_text))
        plays.append(top)
        tied.append(len(tops.plays))
        reliquat = remaining_after(draw.tiles, top.rack_used)
        number += 1
    return record.from_plays(lexicon.name, racks, plays, tied=tied, seed=seed)


def _play(args, lexicon: Lexicon) -> int:
    text = record.dumps(play_game(args.seed, lexicon))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _record_round(path: Path, number: int, lexicon: Lexicon) -> tuple[RackText, Board] | None:
    """Round ``number`` (1-based) of a record: its rack and the board holding the earlier tops; None
    once the reason it cannot be read is printed."""
    try:
        game = _load_replayed(path, lexicon)
    except (OSError, record.RecordError) as error:
        print(f"{path}: {getattr(error, 'message', error)}", file=sys.stderr)
        return None
    if not 1 <= number <= len(game.record.rounds):
        print(f"round {number}: the record has rounds 1 to {len(game.record.rounds)}", file=sys.stderr)
        return None
    return game.record.rounds[number - 1].rack, game.board_after(number - 1)


def _grade(args, lexicon: Lexicon) -> int:
    found = _record_round(args.record, args.round, lexicon)
    if found is None:
        return 2
    rack, board = found
    position = Position(board, rack.tiles, lexicon, first_move=args.round == 1)
    mode = Mode.COMPUTED if args.computed else Mode.FISF
    result = grade_text(position, args.slip, mode)
    if args.json:
        reason = result.reason.value if result.reason else None
        out = {
            "paid": result.paid,
            "sanction": result.sanction.value,
            "reason": reason,
            "message": result.message.text("fr"),
        }
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(result.message.text("fr"))
    return 0


def _count(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: at least 1")
    return n


def _best(args, lexicon: Lexicon) -> int:
    """The best placements of a round, on the board holding the earlier tops (issue 16)."""
    found = _record_round(args.record, args.round, lexicon)
    if found is None:
        return 2
    rack, board = found
    position = Position(board, rack.tiles, lexicon, first_move=args.round == 1)
    bag = bag_left(filter(None, board.cells), rack.tiles)
    _ = lexicon.anagrams  # built once per process; not part of the list's time
    start = time.perf_counter()
    plays = find_best(position, args.n, bag)
    ms = round((time.perf_counter() - start) * 1000, 3)
    if args.json:
        rows = [{"ref": str(p.ref), "word": p.word, "score": p.score, "ms": ms} for p in plays]
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    print(f"{args.record.name} round {args.round}, rack {rack}: {len(plays)} placements in {ms:.2f} ms")
    for rank, play in enumerate(plays, 1):
        print(f"{rank:4}  {play.ref!s:<4} {play.word:<15} {play.score:4}")
    return 0


def _bench(args, lexicon: Lexicon) -> int:
    bench.run(args.games, lexicon)
    return 0
