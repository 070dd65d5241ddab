"""``python -m engine``: replay records, play a game, grade a slip, list the best moves, run the benchmark.

A record names its letter set (``duplicate-game/2``; ``/1`` is French); ``--letters`` names it where
no record does (``play``, ``bench``).  The word list is the one shipped for the set
(``Lexicon.shipped``), or ``--lexicon FILE`` read for that set: its words are cut into tiles by the
set's spelling rule, and the lines it cannot spell are counted on standard error.  A record names
its variant too (classic when it says none); ``--variant`` names it for ``play`` and ``bench``, and
a record of another variant is refused.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from engine import bench, record
from engine.alphabet import FRENCH, LetterSet
from engine.board import Board
from engine.choice import choose
from engine.draw import Bag, bag_left, draw_rack
from engine.grading import Mode, grade_text
from engine.lettersets import SETS
from engine.lexicon import SHIPPED, Lexicon, LexiconError, shipped_path
from engine.messages import Message, register
from engine.movegen import Position, Tops, find_best, find_tops
from engine.notation import RackText, parse_rack
from engine.variants import Variant, after_top


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    parser.add_argument(
        "--lexicon", type=Path, help="a word list file (default: the list shipped for the set)"
    )
    parser.add_argument(
        "--letters", choices=sorted(SETS), help="the letter set where no record names it (default: fr)"
    )
    parser.add_argument(
        "--variant",
        choices=[v.value for v in Variant],
        help="the game's variant where no record names it (default: classic); a record's must match",
    )
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
    ).add_argument(
        "--games",
        type=Path,
        help="folder of game records (default: the French reference games; for another set, "
        f"{BENCH_GAMES} games played here with seeds 1 to {BENCH_GAMES})",
    )

    args = parser.parse_args(argv)
    lexicons = Lexicons(args.lexicon, SETS[args.letters] if args.letters else FRENCH)
    handlers = {"replay": _replay, "play": _play, "grade": _grade, "best": _best, "bench": _bench}
    handler = handlers[args.command]
    try:
        return handler(args, lexicons)
    except CliError as error:
        print(error.message, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        sys.stderr.close()
        return 0


class CliError(Exception):
    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.text("en"))


class Lexicons:
    """The word list read once per letter set asked for: records of several sets replay in one run."""

    def __init__(self, path: Path | None, letters: LetterSet):
        self.path, self.letters = path, letters
        self.read: dict[LetterSet, Lexicon] = {}

    def get(self, letters: LetterSet | None = None) -> Lexicon:
        letters = letters or self.letters
        found = self.read.get(letters)
        if found is None:
            found = self.read[letters] = self._load(letters)
        return found

    def _load(self, letters: LetterSet) -> Lexicon:
        if self.path is None:
            if letters.code not in SHIPPED:
                raise CliError(Message("cli_no_list", {"letters": letters.code}))
            return Lexicon.shipped(letters)
        try:
            lexicon = Lexicon.from_file(self.path, letters=letters)
        except (OSError, LexiconError) as error:
            why = str(getattr(error, "message", error))
            raise CliError(Message("cli_list", {"path": str(self.path), "why": why})) from None
        if lexicon.unspellable:
            params = {
                "path": str(self.path),
                "count": lexicon.unspellable,
                "letters": letters.code,
                "words": lexicon.word_count,
                "examples": ", ".join(lexicon.unspellable_examples) or "-",
            }
            print(Message("cli_unspellable", params), file=sys.stderr)
        return lexicon


def _load_replayed(path: Path, lexicons: Lexicons, variant: str | None = None) -> record.ReplayedGame:
    parsed = record.parse(path.read_bytes())
    if variant is not None and parsed.variant.value != variant:
        params = {"record": parsed.variant.value, "asked": variant}
        raise record.RecordError(Message("cli_variant", params))
    return record.check(parsed, lexicons.get(parsed.letters))


def _replay(args, lexicons: Lexicons) -> int:
    """Every round's top searched again: its score and its number of tied placements (when the record
    counts them) must be the record's."""
    differs = False
    for path in args.files:
        try:
            game = _load_replayed(path, lexicons, args.variant)
        except (OSError, record.RecordError) as error:
            print(f"{path}: {getattr(error, 'message', error)}", file=sys.stderr)
            return 2
        limits = game.record.variant.limits
        for warning in game.warnings:
            print(f"{path}: {warning}", file=sys.stderr)
        lexicon = lexicons.get(game.record.letters)
        _ = lexicon.anagrams  # built once per process; not part of any round's time
        board = Board()
        for number, (recorded, placed) in enumerate(zip(game.record.rounds, game.placed), 1):
            position = Position(board.copy(), recorded.rack.tiles, lexicon, number == 1, **limits)
            start = time.perf_counter()
            tops = find_tops(position)
            ms = (time.perf_counter() - start) * 1000
            tied = len(tops.plays)
            wrong = tops.score != recorded.score or recorded.tied not in (None, tied)
            differs |= wrong
            row = {
                "file": str(path),
                "round": number,
                "top": tops.score,
                "expected": recorded.score,
                "tied": tied,
                "expected_tied": recorded.tied,
                "ms": round(ms, 3),
            }
            if args.json:
                print(json.dumps(row))
            else:
                mark = "  <-- differs" if wrong else ""
                expected_tied = "" if recorded.tied is None else f" (expected {recorded.tied})"
                print(
                    f"{path.name} round {number:2}: top {tops.score:3} expected {recorded.score:3} "
                    f"tied {tied}{expected_tied} {ms:7.2f} ms{mark}"
                )
            board.place(placed)
    return 1 if differs else 0


def play_game(seed: int, lexicon: Lexicon, variant: Variant = Variant.CLASSIC) -> record.GameRecord:
    """A whole duplicate game by the rules, in the lexicon's letter set and the ``variant``: draw
    (§3.1, an explosive game's blank swapped), top, choice (§3.3.5), the top placed (a joker game's
    blank swapped for its letter, ``variants.after_top``), end (§3.2)."""
    letters = lexicon.letters
    rng = random.Random(seed)
    bag = Bag.full(letters)
    board = Board()
    reliquat: tuple[int, ...] = ()
    racks, plays, tied = [], [], []
    number = 1
    while True:
        searched: dict[tuple[int, ...], Tops] = {}

        def search(tiles, number=number, searched=searched) -> Tops:
            position = Position(board.copy(), tuple(tiles), lexicon, number == 1, **variant.limits)
            searched[tuple(tiles)] = tops = find_tops(position)
            return tops

        draw = draw_rack(reliquat, bag, number, rng, variant=variant, search=search)
        if draw.end:
            break
        tops = searched.get(draw.tiles) or search(draw.tiles)
        top = choose(tops.plays, draw.tiles, bag.tiles(), letters, variant)
        placed = after_top(variant, draw.tiles, top, bag.tiles())
        board.place(placed.tiles)
        if placed.replaced:
            bag = Bag(placed.bag, letters)
        racks.append(parse_rack(draw.rack_text, letters, variant.rack_size))
        plays.append(top)
        tied.append(len(tops.plays))
        reliquat = placed.reliquat
        number += 1
    return record.from_plays(
        lexicon.name, racks, plays, tied=tied, seed=seed, letters=letters, variant=variant
    )


def _variant(args) -> Variant:
    return Variant(args.variant) if args.variant else Variant.CLASSIC


def _play(args, lexicons: Lexicons) -> int:
    text = record.dumps(play_game(args.seed, lexicons.get(), _variant(args)))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _record_round(
    path: Path, number: int, lexicons: Lexicons, variant: str | None
) -> tuple[RackText, Board, Lexicon, Variant] | None:
    """Round ``number`` (1-based) of a record: its rack, the board holding the earlier tops, the
    lexicon of its letter set and its variant; None once the reason it cannot be read is printed."""
    try:
        game = _load_replayed(path, lexicons, variant)
    except (OSError, record.RecordError) as error:
        print(f"{path}: {getattr(error, 'message', error)}", file=sys.stderr)
        return None
    if not 1 <= number <= len(game.record.rounds):
        print(f"round {number}: the record has rounds 1 to {len(game.record.rounds)}", file=sys.stderr)
        return None
    return (
        game.record.rounds[number - 1].rack,
        game.board_after(number - 1),
        lexicons.get(game.record.letters),
        game.record.variant,
    )


def _grade(args, lexicons: Lexicons) -> int:
    found = _record_round(args.record, args.round, lexicons, args.variant)
    if found is None:
        return 2
    rack, board, lexicon, variant = found
    position = Position(board, rack.tiles, lexicon, args.round == 1, **variant.limits)
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


def _best(args, lexicons: Lexicons) -> int:
    """The best placements of a round, on the board holding the earlier tops."""
    found = _record_round(args.record, args.round, lexicons, args.variant)
    if found is None:
        return 2
    rack, board, lexicon, variant = found
    position = Position(board, rack.tiles, lexicon, args.round == 1, **variant.limits)
    bag = bag_left(filter(None, board.cells), rack.tiles, lexicon.letters)
    _ = lexicon.anagrams  # built once per process; not part of the list's time
    start = time.perf_counter()
    plays = find_best(position, args.n, bag, variant)
    ms = round((time.perf_counter() - start) * 1000, 3)
    if args.json:
        rows = [{"ref": str(p.ref), "word": p.word, "score": p.score, "ms": ms} for p in plays]
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    print(f"{args.record.name} round {args.round}, rack {rack}: {len(plays)} placements in {ms:.2f} ms")
    for rank, play in enumerate(plays, 1):
        print(f"{rank:4}  {play.ref!s:<4} {play.word:<15} {play.score:4}")
    return 0


#: Games played for the benchmark of a set that has no reference games.
BENCH_GAMES = 20


def _bench(args, lexicons: Lexicons) -> int:
    lexicon = lexicons.get()
    path = args.lexicon or shipped_path(lexicon.letters)
    variant = _variant(args)
    if args.games is not None or (lexicon.letters == FRENCH and variant is Variant.CLASSIC):
        bench.run(args.games or bench.DEFAULT_GAMES, lexicon, path)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(1, BENCH_GAMES + 1):
            text = record.dumps(play_game(seed, lexicon, variant))
            Path(folder, f"{seed:02}.json").write_text(text, "utf-8")
        bench.run(Path(folder), lexicon, path)
    return 0


register(
    {
        "cli_no_list": {
            "fr": "Aucune liste de mots livrée pour le jeu « {letters} » : donnez-en une avec "
            "--lexicon FICHIER.",
            "en": "No word list is shipped for the '{letters}' set: give one with --lexicon FILE.",
        },
        "cli_variant": {
            "fr": "L'enregistrement est une partie « {record} », pas « {asked} ».",
            "en": "The record is a '{record}' game, not '{asked}'.",
        },
        "cli_list": {
            "fr": "{path} : {why}",
            "en": "{path}: {why}",
        },
        "cli_unspellable": {
            "fr": "{path} : {count} ligne(s) sans mot que le jeu « {letters} » sait écrire, laissées de côté "
            "({words} mots gardés ; par exemple {examples}).",
            "en": "{path}: {count} line(s) hold no word the '{letters}' set can spell, left out "
            "({words} words kept; for example {examples}).",
        },
    }
)
