"""A tournament's file (``arbiter-tournament/3``, written by ``transfer.tournament_export``) read and
checked before anything of it is written: bounded in bytes (sent and unpacked), in nesting and in
counts; every key known and given once; each value as its column holds it (texts clean and within the
column's length, numbers in the column's range, settings among their choices, times readable); the
ids of the file only references inside it (never an id of this installation), each given once.
A refusal is a ``TransferRefused`` listing the first problems found.  Files of the formats before are
read too: ``/2``, without the slips tried during an outage, and ``/1``, without the players' join
codes either (its players get new codes).  A game of an original variant names it beside its
columns (``variant``), as a tournament of another letter set than French names it; a file without
it holds classic games."""

from __future__ import annotations

import datetime
import json
import re
import secrets
import zlib

from engine import record as engine_record
from engine.alphabet import BLANK, BLANK_FLAG, FRENCH, LETTER_MASK, LetterSet
from engine.categories import category_code
from engine.lettersets import SETS, letter_set
from engine.messages import Message, languages
from engine.notation import parse_rack, parse_ref
from engine.texts import forbidden_char, quoted
from engine.variants import UnknownVariant, Variant
from live.codes import code_ok
from live.tried import PER_ROUND
from results.transfer_checker import Checker, Full
from server.writes import ServiceError
from tournaments.models import (
    MAX_TABLE,
    Game,
    Player,
    Round,
    Submission,
    SubmissionChange,
    Tournament,
    TriedSlip,
)  # fmt: skip

FORMAT = "arbiter-tournament/3"
#: The formats read: /1 without the players' join codes, /2 without the rounds' tried slips.
READABLE = ("arbiter-tournament/1", "arbiter-tournament/2", FORMAT)
#: Bytes sent (a gzip or the JSON itself), and bytes of JSON once unpacked: 1,500 players over three
#: games of 25 rounds write about 35 MB of JSON, 3 MB gzipped.
MAX_SENT_MB = 20
MAX_JSON_MB = 64
#: Arrays and objects inside one another (the file nests 9 deep: a slip's history; a prepared game's
#: record inside a game, 11).
MAX_DEPTH = 12
MAX_PLAYERS = 3_000
MAX_GAMES = 101
#: Round numbers of a game (no game has more than 101), and draws of one game, cancelled ones too.
MAX_ROUND_NUMBER = 101
MAX_DRAWS = 500
MAX_ATTEMPT = 99
#: Corrections logged in one round, all players together.
MAX_CHANGES = 10_000
#: The most tiles a round's rack holds: eight in seven among eight.
LONGEST_RACK = max(variant.rack_size for variant in Variant)
#: No move scores more (``reading.MAX_ROUND_SCORE``).
MAX_ROUND_SCORE = 25_000

_MB = 1024 * 1024
_TOKEN = re.compile("[A-Za-z0-9_-]{16,64}")
_SHA256 = re.compile("[0-9a-f]{64}")
_BRACKETS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')

#: What the file holds of each model (``id`` and references apart), in this order.
TOURNAMENT_FIELDS = (
    "name", "date", "place", "club", "round_seconds", "grading", "warning_threshold", "warning_penalty",
    "solo_value", "solo_min_players", "grace_seconds", "percent_base", "tie_break", "aggregate",
    "sheet_language",
)  # fmt: skip
PLAYER_FIELDS = ("name", "club", "licence", "series", "category", "table_number", "token", "join_code")
GAME_FIELDS = (
    "number", "source", "seed", "prepared", "status", "end_reason", "bag", "board", "draws",
    "pending_rejections", "created_at",
)  # fmt: skip
ROUND_FIELDS = (
    "number", "attempt", "status", "rack", "tiles", "rejections", "rejection_reasons", "typed", "drawn_at",
    "started_at", "deadline", "closed_at", "top_state", "top_score", "tops", "placed", "version",
)  # fmt: skip
SLIP_FIELDS = (
    "ref", "word", "claimed", "received_at", "revision", "request_id", "history", "paid", "sanction",
    "reason", "message", "message_en", "graded_at",
)  # fmt: skip
CHANGE_FIELDS = ("changed_at", "before", "after")
#: Written beside a game's columns only when set: an original game's variant (a classic game's file is
#: as before the variants), and a round's letter an explosive game's blank became.
GAME_BESIDE = ("variant",)
ROUND_BESIDE = ("exploded",)
TRIED_FIELDS = ("text", "tried_at", "received_at", "request_id", "history", "status", "decided_at")


class TransferRefused(ServiceError):
    """A tournament's file that cannot be imported: nothing is written.  ``problems`` holds a
    ``Message`` per problem (the first ``MAX_PROBLEMS``), each saying where and why."""

    def __init__(self, problems: list[Message]):
        super().__init__("transfer_refused", count=len(problems))
        self.problems = problems


def refuse(code: str, **params) -> TransferRefused:
    return TransferRefused([Message(code, params)])


def load(data: bytes) -> dict:
    """The file's JSON document (a gzip unpacked within ``MAX_JSON_MB``), not yet checked."""
    if len(data) > MAX_SENT_MB * _MB:
        raise refuse("transfer_too_big", limit=MAX_SENT_MB)
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, MAX_JSON_MB * _MB)
    elif len(data) > MAX_JSON_MB * _MB:
        raise refuse("transfer_unpacked_too_big", limit=MAX_JSON_MB)
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refuse("transfer_not_json") from None
    depth = 0
    for token in _BRACKETS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise refuse("transfer_too_deep", limit=MAX_DEPTH)
        elif bracket in "]}":
            depth -= 1
    try:
        obj = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant)
    except TransferRefused:
        raise
    except (ValueError, RecursionError):
        raise refuse("transfer_not_json") from None
    if not isinstance(obj, dict) or obj.get("format") not in READABLE:
        found = obj.get("format") if isinstance(obj, dict) else None
        raise refuse(
            "transfer_format", found=quoted(found if isinstance(found, str) else "?"), expected=FORMAT
        )
    return obj


def _gunzip(data: bytes, limit: int) -> bytearray:
    out = bytearray()
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    pending = data
    try:
        while not inflater.eof:
            piece = inflater.decompress(pending, 64 * 1024)
            stalled = not piece and len(inflater.unconsumed_tail) == len(pending)
            pending = inflater.unconsumed_tail
            out += piece
            if len(out) > limit:
                raise refuse("transfer_unpacked_too_big", limit=MAX_JSON_MB)
            if stalled:
                break
    except zlib.error:
        raise refuse("transfer_gzip") from None
    if not inflater.eof:
        raise refuse("transfer_gzip")
    return out


def _unique(pairs: list[tuple[str, object]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        key = next(key for key in obj if sum(k == key for k, _ in pairs) > 1)
        raise refuse("transfer_duplicate_key", key=quoted(key))
    return obj


def _no_constant(name: str):
    raise ValueError(name)  # NaN and Infinity: no JSON, and no column holds them


def tiles_ok(value: object, *, board: bool = False, count: int = 225) -> bool:
    """Tile codes (``engine.alphabet``: a letter set's tiles are 1 to 31, the blank 27) in a rack or a
    bag; on the board 0 (empty), tiles, and tiles played by a blank."""
    if not isinstance(value, list) or not all(type(t) is int for t in value):
        return False
    if board:
        return len(value) == count and all(
            t == 0 or (1 <= (t & LETTER_MASK) != BLANK and t & ~(LETTER_MASK | BLANK_FLAG) == 0)
            for t in value
        )
    return all(1 <= t <= LETTER_MASK for t in value)


def placed_ok(value: object) -> bool:
    """The top placed as a round keeps it: a top (``move_ok``), in an original game with what placing
    it did (``tournaments.plays.placed_json``): ``"board"``, the same squares' tiles as they went on
    the board, and ``"reliquat"``, the tiles left for the next rack."""
    if not isinstance(value, dict) or not {"board", "reliquat"} <= set(value):
        return move_ok(value)
    top = {key: value[key] for key in value if key not in ("board", "reliquat")}
    board, reliquat = value["board"], value["reliquat"]
    return (
        move_ok(top)
        and isinstance(board, list)
        and all(isinstance(t, list) and len(t) == 2 for t in board)
        and [t[0] for t in board] == [t[0] for t in top["tiles"]]
        and tiles_ok([t[1] for t in board], board=True, count=len(board))
        and tiles_ok(reliquat)
        and len(reliquat) <= LONGEST_RACK
    )


def move_ok(value: object) -> bool:
    """A top as a round keeps it: ``{"ref", "word", "tiles": [[square, tile]...], "score"}``."""
    if not (isinstance(value, dict) and set(value) == {"ref", "word", "tiles", "score"}):
        return False
    ref, word, tiles, score = value["ref"], value["word"], value["tiles"], value["score"]
    squares = [t[0] for t in tiles if isinstance(t, list) and len(t) == 2] if isinstance(tiles, list) else []
    return (
        _parses(parse_ref, ref)
        and isinstance(word, str)
        and 1 <= len(word) <= 15
        and 1 <= len(squares) == len(tiles) <= 7
        and all(type(sq) is int and 0 <= sq < 225 for sq in squares)
        and tiles_ok([t[1] for t in tiles], board=True, count=len(tiles))
        and type(score) is int
        and 0 <= score <= MAX_ROUND_SCORE
    )


def rack_ok(value: object, letters: LetterSet = FRENCH, most: int = Variant.CLASSIC.rack_size) -> bool:
    """A rack as the records write it (``AEI+BLRN``, ``-BBNOORS``, ``A[CH]E+…`` in another set), of
    ``most`` tiles at most (the game's variant's)."""
    return _parses(lambda text: parse_rack(text, letters, most), value)


def history_ok(value: object) -> bool:
    """Every sending of a slip: ``[{"slip", "at": ISO time}]``."""
    return isinstance(value, list) and all(
        isinstance(h, dict) and set(h) == {"slip", "at"} and isinstance(h["slip"], str)
        and _parses(datetime.datetime.fromisoformat, h["at"])
        for h in value
    )  # fmt: skip


def _parses(parse, value: object) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        parse(value)
    except ValueError:  # NotationError is one
        return False
    return True


def slip_json_ok(value: object) -> bool:
    """A slip as the corrections' log keeps it, before or after (``{"slip", "paid", ...}``)."""
    return value is None or (
        isinstance(value, dict)
        and set(value) <= {"slip", "paid", "sanction", "reason"}
        and all(v is None or (isinstance(v, str | int) and not isinstance(v, bool)) for v in value.values())
    )


def record_problem(value: object) -> Message | None:
    """Why a prepared game's record is refused (``engine.record``), or None."""
    try:
        engine_record.parse(value)
    except engine_record.RecordError as error:
        return Message(
            "transfer_prepared", {f"reason_{lang}": error.message.text(lang) for lang in languages()}
        )
    return None


def token_ok(value: str) -> bool:
    return bool(_TOKEN.fullmatch(value))


def sha256_ok(value: object) -> bool:
    return isinstance(value, str) and bool(_SHA256.fullmatch(value))


def read_tournament(data: bytes) -> dict:
    """The file's tournament, checked: ``{"tournament", "lexicon", "players", "games"}`` with each
    object's values as its columns hold them; refused (``TransferRefused``) unless all is good."""
    obj = load(data)
    check = Checker()
    try:
        document = _document(check, obj)
    except Full:
        document = None
    if check.problems or document is None:
        raise TransferRefused(check.problems)
    return document


def _document(check: Checker, obj: dict) -> dict | None:
    if not check.keys("/", obj, ("format", "tournament", "lexicon", "players", "games")):
        return None
    tournament = obj["tournament"]
    # A tournament of another letter set than French names it, in the tournament and its list.
    named = ("letters",) if isinstance(tournament, dict) and "letters" in tournament else ()
    if check.keys("tournament", tournament, TOURNAMENT_FIELDS + named):
        tournament = check.fields("tournament", Tournament, tournament, TOURNAMENT_FIELDS + named)
        if not tournament.get("name", "x").strip():
            check.add("transfer_value", "tournament", key="name", value='""')
    if named and isinstance(obj["tournament"]["letters"], str) and obj["tournament"]["letters"] in SETS:
        check.letters = letter_set(obj["tournament"]["letters"])
    lexicon = obj["lexicon"]
    if check.keys("lexicon", lexicon, ("name", "sha256", *named)):
        if named and lexicon["letters"] != obj["tournament"]["letters"]:
            check.add("transfer_value", "lexicon", key="letters", value=quoted(str(lexicon["letters"])[:20]))
        check.shape("lexicon", "sha256", sha256_ok(lexicon["sha256"]))
        check.shape(
            "lexicon", "name", isinstance(lexicon["name"], str) and not forbidden_char(lexicon["name"])
        )
    names = PLAYER_FIELDS if obj["format"] != READABLE[0] else PLAYER_FIELDS[:-1]  # /1: no join_code
    claims = obj["format"] == FORMAT  # the rounds of /1 and /2 carry no tried slips
    players = [
        _player(check, f"players[{i}]", p, names)
        for i, p in enumerate(check.items("/", obj, "players", MAX_PLAYERS))
    ]
    ids = _unique_ids(check, "players", players)
    for key in ("table_number", "token", "join_code"):
        _unique_values(check, "players", players, key)
    games = [
        _game(check, f"games[{i}]", g, ids, claims)
        for i, g in enumerate(check.items("/", obj, "games", MAX_GAMES))
    ]
    _unique_values(check, "games", games, "number")
    # The rounds' tried slips apart from the rounds' columns: ``tried[g][r]``, the claims of round
    # ``r`` of game ``g`` in the file's order (``transfer_tried`` writes them once the rounds are).
    tried = [
        [rnd.pop("tried") for rnd in game["rounds"] if rnd is not None] for game in games if game is not None
    ]
    return {"tournament": tournament, "lexicon": lexicon, "players": players, "games": games, "tried": tried}


def _id(check: Checker, where: str, value: object) -> object:
    if type(value) is not int or not 1 <= value < 2**63:
        check.add("transfer_id", where, value=quoted(value))
        return None
    return value


def _unique_ids(check: Checker, where: str, rows: list[dict]) -> set:
    ids = [row["id"] for row in rows if row is not None and row["id"] is not None]
    _twice(check, where, "id", ids)
    return set(ids)


def _unique_values(check: Checker, where: str, rows: list, key: str) -> None:
    _twice(check, where, key, [row[key] for row in rows if row is not None and row.get(key) is not None])


def _twice(check: Checker, where: str, key: str, values: list) -> None:
    seen = set()
    for value in values:
        if value in seen:
            check.add("transfer_twice", where, key=key, value=quoted(value))
            return
        seen.add(value)


def _player(check: Checker, where: str, obj: object, names: tuple) -> dict | None:
    if not check.keys(where, obj, ("id", *names)):
        return None
    player = check.fields(where, Player, obj, names)
    player["id"] = _id(check, where, obj["id"])
    if not player.get("name", "x").strip():
        check.add("transfer_value", where, key="name", value='""')
    if "table_number" in player and not 1 <= player["table_number"] <= MAX_TABLE:
        check.add(
            "transfer_range", where, key="table_number", value=player["table_number"], low=1, high=MAX_TABLE
        )
    if "token" in player:
        check.shape(where, "token", token_ok(player["token"]))
    if "join_code" in player:
        check.shape(where, "join_code", code_ok(player["join_code"]))
    if "category" in player:
        check.shape(where, "category", category_code(player["category"]) == player["category"])
    return player


def _game(check: Checker, where: str, obj: object, players: set, claims: bool = True) -> dict | None:
    beside = tuple(key for key in GAME_BESIDE if isinstance(obj, dict) and key in obj)
    if not check.keys(where, obj, ("rounds", *GAME_FIELDS, *beside)):
        return None
    if obj["seed"] is None:
        # A game still played leaves without its seed (``tournaments.disclosure``): it goes on here
        # from a seed of this installation's.
        obj = {**obj, "seed": secrets.randbelow(2**62)}
    game = check.fields(where, Game, obj, GAME_FIELDS + beside)
    try:
        rack_size = Variant.parse(game.get("variant", Variant.CLASSIC.value)).rack_size
    except UnknownVariant:  # said by the column's check
        rack_size = Variant.CLASSIC.rack_size
    if game.get("prepared") is not None:
        problem = record_problem(game["prepared"])
        if problem is not None:
            check.add(problem.code, where, **problem.params)
    elif game.get("source") == Game.Source.PREPARED:
        check.shape(where, "prepared", False)
    check.shape(where, "bag", tiles_ok(obj["bag"]))
    check.shape(where, "board", obj["board"] == [] or tiles_ok(obj["board"], board=True))
    pending = obj["pending_rejections"]
    check.shape(
        where,
        "pending_rejections",
        isinstance(pending, list)
        and all(
            isinstance(p, dict)
            and set(p) == {"rack", "reason"}
            and all(isinstance(v, str) for v in p.values())
            for p in pending
        ),
    )
    if "number" in game:
        check.shape(where, "number", 1 <= game["number"] <= MAX_GAMES)
    rounds = [
        _round(check, f"{where}.rounds[{i}]", r, players, claims, rack_size)
        for i, r in enumerate(check.items(where, obj, "rounds", MAX_DRAWS))
    ]
    _twice(
        check,
        f"{where}.rounds",
        "number, attempt",
        [(r["number"], r["attempt"]) for r in rounds if r is not None and "number" in r and "attempt" in r],
    )
    game["rounds"] = rounds
    return game


def _round(
    check: Checker, where: str, obj: object, players: set, claims: bool = True,
    rack_size: int = Variant.CLASSIC.rack_size,
) -> dict | None:  # fmt: skip
    lists = ("slips", "changes", "tried") if claims else ("slips", "changes")
    beside = tuple(key for key in ROUND_BESIDE if isinstance(obj, dict) and key in obj)
    if not check.keys(where, obj, (*lists, *ROUND_FIELDS, *beside)):
        return None
    rnd = check.fields(where, Round, obj, ROUND_FIELDS + beside)
    if "number" in rnd:
        check.shape(where, "number", 1 <= rnd["number"] <= MAX_ROUND_NUMBER)
    if "attempt" in rnd:
        check.shape(where, "attempt", 1 <= rnd["attempt"] <= MAX_ATTEMPT)
    check.shape(where, "tiles", tiles_ok(obj["tiles"]) and len(obj["tiles"]) <= rack_size)
    check.shape(where, "rack", rack_ok(obj["rack"], check.letters, rack_size))
    for key in ("rejections", "rejection_reasons"):
        check.shape(where, key, isinstance(obj[key], list) and all(isinstance(v, str) for v in obj[key]))
    check.shape(where, "tops", isinstance(obj["tops"], list) and all(move_ok(t) for t in obj["tops"]))
    check.shape(where, "placed", obj["placed"] is None or placed_ok(obj["placed"]))
    slips = [
        _slip(check, f"{where}.slips[{i}]", s, players)
        for i, s in enumerate(check.items(where, obj, "slips", MAX_PLAYERS))
    ]
    slip_ids = _unique_ids(check, f"{where}.slips", slips)
    _unique_values(check, f"{where}.slips", slips, "player")
    changes = [
        _change(check, f"{where}.changes[{i}]", c, players, slip_ids)
        for i, c in enumerate(check.items(where, obj, "changes", MAX_CHANGES))
    ]
    change_ids = _unique_ids(check, f"{where}.changes", changes)
    undone = [c["undoes"] for c in changes if c is not None and c["undoes"] is not None]
    _twice(check, f"{where}.changes", "undoes", undone)
    for value in undone:
        if value not in change_ids:
            check.add("transfer_dangling", f"{where}.changes", key="undoes", value=quoted(value))
    rnd["slips"], rnd["changes"] = slips, changes
    rnd["tried"] = _claims(check, where, obj, players, change_ids) if claims else []
    return rnd


def _slip(check: Checker, where: str, obj: object, players: set) -> dict | None:
    more = ("message_more",) if isinstance(obj, dict) and "message_more" in obj else ()  # a file may lack it
    if not check.keys(where, obj, ("id", "player", "entered", *SLIP_FIELDS, *more)):
        return None
    slip = check.fields(where, Submission, obj, SLIP_FIELDS + more)
    if more:
        said = obj["message_more"]
        fine = isinstance(said, dict) and all(isinstance(v, str) and len(v) <= 300 for v in said.values())
        check.shape(where, "message_more", fine)
    slip["id"] = _id(check, where, obj["id"])
    slip["player"] = _reference(check, where, "player", obj["player"], players)
    slip["entered"] = check.shape(where, "entered", isinstance(obj["entered"], bool)) and obj["entered"]
    check.shape(where, "history", history_ok(obj["history"]))
    return slip


def _change(check: Checker, where: str, obj: object, players: set, slips: set) -> dict | None:
    if not check.keys(where, obj, ("id", "player", "slip", "undoes", *CHANGE_FIELDS)):
        return None
    change = check.fields(where, SubmissionChange, obj, CHANGE_FIELDS)
    change["id"] = _id(check, where, obj["id"])
    change["player"] = _reference(check, where, "player", obj["player"], players)
    change["slip"] = None if obj["slip"] is None else _reference(check, where, "slip", obj["slip"], slips)
    change["undoes"] = None if obj["undoes"] is None else _id(check, where, obj["undoes"])
    for key in ("before", "after"):
        check.shape(where, key, slip_json_ok(obj[key]))
    return change


def _reference(check: Checker, where: str, key: str, value: object, ids: set) -> object:
    if type(value) is not int or value not in ids:
        check.add("transfer_dangling", where, key=key, value=quoted(value))
        return None
    return value


def _claims(check: Checker, where: str, obj: dict, players: set, changes: set) -> list:
    """The round's slips tried during an outage: at most one pending per player (as the database
    holds them), each accepted one naming the correction it logged, if any, among the round's."""
    claims = [
        _claim(check, f"{where}.tried[{i}]", c, players, changes)
        for i, c in enumerate(check.items(where, obj, "tried", MAX_PLAYERS * PER_ROUND))
    ]
    _unique_ids(check, f"{where}.tried", claims)
    pending = [c["player"] for c in claims if c is not None and c.get("status") == TriedSlip.Status.PENDING]
    _twice(check, f"{where}.tried", "player", pending)
    _twice(check, f"{where}.tried", "change", [c["change"] for c in claims if c is not None and c["change"]])
    return claims


def _claim(check: Checker, where: str, obj: object, players: set, changes: set) -> dict | None:
    if not check.keys(where, obj, ("id", "player", "decided", "change", *TRIED_FIELDS)):
        return None
    claim = check.fields(where, TriedSlip, obj, TRIED_FIELDS)
    claim["id"] = _id(check, where, obj["id"])
    claim["player"] = _reference(check, where, "player", obj["player"], players)
    claim["decided"] = check.shape(where, "decided", isinstance(obj["decided"], bool)) and obj["decided"]
    change = obj["change"]
    claim["change"] = None if change is None else _reference(check, where, "change", change, changes)
    check.shape(where, "history", tried_history_ok(obj["history"]))
    return claim


def tried_history_ok(value: object) -> bool:
    """Every sending a tried slip stands for: ``[{"request_id", "slip", "tried_at", "at"}]``."""
    return isinstance(value, list) and len(value) <= PER_ROUND and all(
        isinstance(h, dict) and set(h) == {"request_id", "slip", "tried_at", "at"}
        and isinstance(h["request_id"], str) and isinstance(h["slip"], str)
        and _parses(datetime.datetime.fromisoformat, h["tried_at"])
        and _parses(datetime.datetime.fromisoformat, h["at"])
        for h in value
    )  # fmt: skip
