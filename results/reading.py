"""A club's results file (``duplicate-results/1``, written by ``exports.results_export``) read and
checked as strictly as a prepared game, before anything of it is kept or shown: bounded in bytes and in
players; every key known and given once; the settings among their choices (``tournaments.models``);
texts without control characters or lone surrogates and within the columns' lengths; tables and scores
in range (a player is paid between 0 and the round's top).  A refusal is a ``MergeError`` naming the
file and saying why."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine import record as engine_record
from engine.categories import category_code
from engine.messages import languages
from engine.ranking import Entrant, Score
from engine.texts import codepoint, forbidden_char, quoted
from lexicons.models import LexiconList
from results.exports import RESULTS_FORMAT, SETTINGS
from server.writes import ServiceError
from tournaments.models import Player, Tournament
from tournaments.services.players_csv import MAX_CSV_ROWS, MAX_TABLE

#: Files in one merge (Django itself takes at most 100 files in one request).
MAX_FILES = 50
#: Bytes of one file (3,000 players over 25 rounds write about 3 MB), and of every file together.
MAX_FILE_MB = 5
MAX_ALL_MB = 20
#: Players in one file (a club's tournament imports at most as many), and in the whole merge.
MAX_FILE_PLAYERS = MAX_CSV_ROWS
MAX_PLAYERS = 10_000
#: No move scores more: 15 letters worth at most 30 each, three triple words (x27), and seven cross
#: words of at most 1,350 each, with the bonus of 50.
MAX_ROUND_SCORE = 25_000

_MB = 1024 * 1024
_KEYS = ("format", "club", "tournament", "date", "lexicon", "game", "players")
_OPTIONAL = ("settings",)
_LEXICON_KEYS = ("name", "sha256")
_PLAYER_KEYS = ("name", "club", "series", "category", "table", "scores")
#: A setting (``exports.SETTINGS``: the tournament's fields of the same names) without choices is a
#: ``PositiveSmallIntegerField``.
_SMALL = 32_767
_DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SHA256 = re.compile("[0-9a-f]{64}")
#: A file's name as the refusals and the merge's page show it.
_NAME_LIMIT = 100


class MergeError(ServiceError):
    """Results files that cannot be merged into one ranking.  Like every refusal of the services,
    ``message`` (an ``engine.messages.Message``) says which file and why: ``message.text("fr")``,
    ``message.text("en")``."""


@dataclass(frozen=True)
class Results:
    """One file, read and checked."""

    name: str
    club: str
    tournament: str
    date: str
    lexicon_name: str
    lexicon_sha256: str
    record: engine_record.GameRecord
    players: tuple[tuple[Entrant, tuple[Score, ...]], ...]
    settings: dict


def file_name(name: str) -> str:
    """An uploaded file's name as shown and kept: printable, and not too long."""
    return quoted(name, _NAME_LIMIT)


def check_sizes(files: Sequence[tuple[str, int]]) -> None:
    """The number of files and their sizes ``(name, bytes)``, checked before any is read."""
    if len(files) > MAX_FILES:
        raise MergeError("merge_too_many_files", limit=MAX_FILES, count=len(files))
    for name, size in files:
        if size > MAX_FILE_MB * _MB:
            raise MergeError("merge_file_too_big", file=file_name(name), limit=MAX_FILE_MB)
    if sum(size for _name, size in files) > MAX_ALL_MB * _MB:
        raise MergeError("merge_files_too_big", limit=MAX_ALL_MB)


def read_results(
    index: int, name: str, data: bytes, *, room: int = MAX_PLAYERS, club: str | None = None
) -> Results:
    """The file ``name`` (the ``index``-th of the merge), whose players must fit in ``room``.
    ``club``: the centre as the server knows it (a simultaneous's upload: its token's club), which the
    file's players without a club of their own play for; the file's own "club" is then checked as
    text and otherwise ignored, since whoever writes a file may name any club there."""
    name = file_name(name)
    obj = _json(name, data)
    if not isinstance(obj, dict) or obj.get("format") != RESULTS_FORMAT:
        raise MergeError("merge_format", file=name, format=RESULTS_FORMAT)
    _keys(name, obj, _KEYS, _OPTIONAL)
    record = _record(name, obj)
    lexicon = _field(name, obj, "lexicon", dict)
    _keys(name, lexicon, _LEXICON_KEYS)
    players = _field(name, obj, "players", list)
    if len(players) > MAX_FILE_PLAYERS:
        raise MergeError("merge_file_players", file=name, count=len(players), limit=MAX_FILE_PLAYERS)
    if len(players) > room:
        raise MergeError("merge_players", file=name, limit=MAX_PLAYERS)
    claimed = _text(name, obj, "club", Tournament)
    club = claimed if club is None else club
    tops = [r.score for r in record.rounds]
    return Results(
        name=name,
        club=club,
        tournament=_text(name, obj, "tournament", Tournament, column="name"),
        date=_date(name, obj),
        lexicon_name=_text(name, lexicon, "name", LexiconList),
        lexicon_sha256=_sha256(name, lexicon),
        record=record,
        settings=_settings(name, obj.get("settings", {})),
        players=tuple(_player(name, (index, position), p, club, tops) for position, p in enumerate(players)),
    )


def _json(name: str, data: bytes) -> object:
    if len(data) > MAX_FILE_MB * _MB:
        raise MergeError("merge_file_too_big", file=name, limit=MAX_FILE_MB)
    try:
        return json.loads(data.decode("utf-8-sig"), object_pairs_hook=lambda pairs: _unique(name, pairs))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MergeError("merge_not_json", file=name) from None


def _unique(name: str, pairs: list[tuple[str, object]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        key = next(key for key in obj if sum(k == key for k, _ in pairs) > 1)
        raise MergeError("merge_duplicate_key", file=name, key=quoted(key))
    return obj


def _keys(name: str, obj: dict, required: tuple, optional: tuple = ()) -> None:
    for key in required:
        if key not in obj:
            raise MergeError("merge_malformed", file=name, key=key)
    for key in obj:
        if key not in required and key not in optional:
            raise MergeError("merge_unknown_key", file=name, key=quoted(key))


def _field(name: str, obj: object, key: str, kind: type):
    """``obj[key]`` when it is of ``kind``; a ``bool`` is no ``int`` here, though Python says so."""
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MergeError("merge_malformed", file=name, key=key)
    return value


def _text(name: str, obj: dict, key: str, model, *, column: str | None = None, player: int = 0) -> str:
    """A text as the column ``model.column`` (``key`` by default) holds it."""
    value = _field(name, obj, key, str)
    limit = model._meta.get_field(column or key).max_length
    where = {"file": name, "key": key, "player": player}
    char = forbidden_char(value)
    if char is not None:
        raise MergeError("merge_player_char" if player else "merge_char", **where, char=codepoint(char))
    if len(value) > limit:
        raise MergeError("merge_player_long" if player else "merge_long", **where, limit=limit)
    return value


def _date(name: str, obj: dict) -> str:
    value = _field(name, obj, "date", str)
    try:
        if _DATE.fullmatch(value):
            return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise MergeError("merge_date", file=name, value=quoted(value))


def _sha256(name: str, lexicon: dict) -> str:
    value = _field(name, lexicon, "sha256", str)
    if not _SHA256.fullmatch(value):
        raise MergeError("merge_malformed", file=name, key="sha256")
    return value


def _record(name: str, obj: dict) -> engine_record.GameRecord:
    try:
        record = engine_record.parse(_field(name, obj, "game", dict))
    except engine_record.RecordError as error:
        reasons = {f"reason_{lang}": error.message.text(lang) for lang in languages()}
        raise MergeError("merge_game_invalid", file=name, **reasons) from None
    for number, r in enumerate(record.rounds, 1):
        if r.score > MAX_ROUND_SCORE:
            raise MergeError("merge_top_range", file=name, round=number, limit=MAX_ROUND_SCORE)
    return record


def _settings(name: str, settings: object) -> dict:
    """The result settings, each among its choices (the tournament's field of the same name)."""
    if not isinstance(settings, dict):
        raise MergeError("merge_malformed", file=name, key="settings")
    _keys(name, settings, (), SETTINGS)
    for key, value in settings.items():
        field = Tournament._meta.get_field(key)
        allowed = [choice for choice, _label in field.choices] if field.choices else None
        if allowed is not None:
            good = any(type(value) is type(choice) and value == choice for choice in allowed)
            expected = ", ".join(str(choice) for choice in allowed)
        else:
            good = type(value) is int and 0 <= value <= _SMALL
            expected = f"0 – {_SMALL}"
        if not good:
            raise MergeError("merge_setting", file=name, key=key, value=quoted(value), expected=expected)
    return settings


def _player(
    name: str, key: tuple, obj: object, club: str, tops: list[int]
) -> tuple[Entrant, tuple[Score, ...]]:
    number = key[1] + 1
    if not isinstance(obj, dict):
        raise MergeError("merge_malformed", file=name, key="players")
    # A file written by a version without licences has none: the key is optional.
    _keys(name, obj, _PLAYER_KEYS, ("licence",))
    keys = ("name", "club", "series", "category") + (("licence",) if "licence" in obj else ())
    texts = {k: _text(name, obj, k, Player, player=number) for k in keys}
    if not texts["name"].strip():
        raise MergeError("merge_player_name", file=name, player=number)
    category = category_code(texts["category"])
    if category is None:
        raise MergeError("merge_player_category", file=name, player=number, value=quoted(texts["category"]))
    table = _field(name, obj, "table", int)
    if not 1 <= table <= MAX_TABLE:
        raise MergeError("merge_player_table", file=name, player=number, table=quoted(table), max=MAX_TABLE)
    entrant = Entrant(
        key=key, name=texts["name"], table=table, club=texts["club"] or club, series=texts["series"],
        category=category, licence=texts.get("licence", ""),
    )  # fmt: skip
    return entrant, _scores(name, number, _field(name, obj, "scores", list), tops)


def _scores(name: str, player: int, scores: list, tops: list[int]) -> tuple[Score, ...]:
    """``[paid, warning]`` per round: a whole number from 0 to the round's top, and a boolean."""
    if len(scores) != len(tops) or not all(_is_score(s) for s in scores):
        raise MergeError("merge_malformed", file=name, key="scores")
    for number, ((paid, _warning), top) in enumerate(zip(scores, tops), 1):
        if not 0 <= paid <= top:
            where = {"file": name, "player": player, "round": number}
            raise MergeError("merge_player_score", **where, score=quoted(paid), top=top)
    return tuple(Score(paid, warning) for paid, warning in scores)


def _is_score(value: object) -> bool:
    return (
        isinstance(value, list) and len(value) == 2 and type(value[0]) is int and isinstance(value[1], bool)
    )
