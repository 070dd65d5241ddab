"""The merge of a simultaneous game (rules §5): the results files of the clubs that played one prepared
game, read, checked to hold the same game, and ranked together as one room."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import record as engine_record
from engine.messages import LANGUAGES
from engine.ranking import Base, Entrant, GameRanking, GameScores, Rules, Score, TieBreak, rank_game
from results.exports import RESULTS_FORMAT
from results.models import MergedResults
from server.writes import ServiceError


def rules_from_settings(settings: dict) -> Rules:
    """The ranking rules a results file carries; a file without them (or with odd values) gets the
    defaults of §3.4, §3.5 and §4."""
    defaults = Rules()
    number = {k: v for k, v in settings.items() if isinstance(v, int) and not isinstance(v, bool) and v >= 0}
    try:
        base = Base(settings.get("percent_base", defaults.base.value))
        tie_break = TieBreak(settings.get("tie_break", defaults.tie_break.value))
    except ValueError:
        base, tie_break = defaults.base, defaults.tie_break
    return Rules(
        solo_value=number.get("solo_value", defaults.solo_value),
        solo_min_players=number.get("solo_min_players", defaults.solo_min_players),
        warning_threshold=number.get("warning_threshold", defaults.warning_threshold),
        warning_penalty=number.get("warning_penalty", defaults.warning_penalty),
        base=base,
        tie_break=tie_break,
    )


class MergeError(ServiceError):
    """Results files that cannot be merged into one ranking.  Like every refusal of the services,
    ``message`` (an ``engine.messages.Message``) says which file and why: ``message.text("fr")``,
    ``message.text("en")``."""


@dataclass(frozen=True)
class Merged:
    """Several clubs' results of one game, ready for
    ``engine.ranking.rank_game(merged.entrants, merged.scores, rules)``."""

    #: The game every file holds.
    record: engine_record.GameRecord
    #: The first file's tournament name and date (ISO), for the merged sheet's heading.
    tournament: str
    date: str
    #: The word list's name and checksum, as the first file gives them.
    lexicon_name: str
    lexicon_sha256: str
    #: Each file's club, in the order of the files.
    clubs: tuple[str, ...]
    #: Every player of every file; ``key`` is (file index, player index in its file); ``club`` is the
    #: player's club, or the file's when the player has none.
    entrants: tuple[Entrant, ...]
    scores: GameScores
    #: The first file's result settings (see ``SETTINGS``), which the merged ranking follows.
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Results:
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


def results_merge(files: Sequence[tuple[str, bytes]]) -> Merged:
    """Merge the results files ``(file name, bytes)`` of one simultaneous game (§5).  Refused with a
    ``MergeError`` naming the file at fault unless every file holds the same game, round for round,
    played with the same word list: otherwise the tops, hence the percentages, would not compare."""
    if len(files) < 2:
        raise MergeError("merge_too_few", count=len(files))
    read = [_read_results(index, name, data) for index, (name, data) in enumerate(files)]
    for other in read[1:]:
        _check_same_game(read[0], other)
    players = [player for results in read for player in results.players]
    return Merged(
        record=read[0].record,
        tournament=read[0].tournament,
        date=read[0].date,
        lexicon_name=read[0].lexicon_name,
        lexicon_sha256=read[0].lexicon_sha256,
        clubs=tuple(results.club for results in read),
        settings=read[0].settings,
        entrants=tuple(entrant for entrant, _ in players),
        scores=GameScores(
            tops=tuple(r.score for r in read[0].record.rounds),
            scores={entrant.key: scores for entrant, scores in players},
        ),
    )


def merged_ranking(merged: Merged, rules: Rules | None = None) -> GameRanking:
    """The one ranking of every club's players (§5); solos are settled among all of them (§3.5)."""
    return rank_game(merged.entrants, merged.scores, rules or rules_from_settings(merged.settings))


def _read_results(index: int, name: str, data: bytes) -> _Results:
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MergeError("merge_not_json", file=name) from None
    if not isinstance(obj, dict) or obj.get("format") != RESULTS_FORMAT:
        raise MergeError("merge_format", file=name, format=RESULTS_FORMAT)
    try:
        record = engine_record.parse(_field(name, obj, "game", dict))
    except engine_record.RecordError as error:
        reasons = {f"reason_{lang}": error.message.text(lang) for lang in LANGUAGES}
        raise MergeError("merge_game_invalid", file=name, **reasons) from None
    club = _field(name, obj, "club", str)
    lexicon = _field(name, obj, "lexicon", dict)
    players = _field(name, obj, "players", list)
    return _Results(
        name=name,
        club=club,
        tournament=_field(name, obj, "tournament", str),
        date=_field(name, obj, "date", str),
        lexicon_name=_field(name, lexicon, "name", str),
        lexicon_sha256=_field(name, lexicon, "sha256", str),
        record=record,
        settings=obj["settings"] if isinstance(obj.get("settings"), dict) else {},
        players=tuple(
            _read_player(name, (index, position), p, club, len(record.rounds))
            for position, p in enumerate(players)
        ),
    )


def _read_player(
    name: str, key: tuple, obj: object, club: str, rounds: int
) -> tuple[Entrant, tuple[Score, ...]]:
    entrant = Entrant(
        key=key,
        name=_field(name, obj, "name", str),
        table=_field(name, obj, "table", int),
        club=_field(name, obj, "club", str) or club,
        series=_field(name, obj, "series", str),
        category=_field(name, obj, "category", str),
    )
    scores = _field(name, obj, "scores", list)
    if len(scores) != rounds or not all(_is_score(s) for s in scores):
        raise MergeError("merge_malformed", file=name, key="scores")
    return entrant, tuple(Score(paid, warning) for paid, warning in scores)


def _field(name: str, obj: object, key: str, kind: type):
    """``obj[key]`` when it is of ``kind``; a ``bool`` is no ``int`` here, though Python says so."""
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MergeError("merge_malformed", file=name, key=key)
    return value


def _is_score(value: object) -> bool:
    """``[paid, warning]``: a whole number and a boolean."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and not isinstance(value[0], bool)
        and isinstance(value[1], bool)
    )


def _check_same_game(first: _Results, other: _Results) -> None:
    if other.lexicon_sha256 != first.lexicon_sha256:
        raise MergeError(
            "merge_lexicon", file=other.name, first=first.name,
            lexicon=_list_name(other), expected=_list_name(first),
        )  # fmt: skip
    pairs = zip(first.record.rounds, other.record.rounds)
    for number, (expected, found) in enumerate(pairs, 1):
        _check_same_round(first.name, other.name, number, expected, found)
    if len(other.record.rounds) != len(first.record.rounds):
        raise MergeError(
            "merge_round_count", file=other.name, count=len(other.record.rounds), first=first.name,
            expected=len(first.record.rounds),
        )  # fmt: skip


def _list_name(results: _Results) -> str:
    """The list's name and the start of its checksum, which tells apart two lists of the same name."""
    return f"{results.lexicon_name} {results.lexicon_sha256[:12]}"


def _check_same_round(
    first: str, file: str, number: int, expected: engine_record.RecordRound, found: engine_record.RecordRound
) -> None:
    """The same rack (its letters: how a file marks an empty bag does not matter) and the same top."""
    where = {"file": file, "first": first, "round": number}
    if sorted(found.rack.tiles) != sorted(expected.rack.tiles):
        raise MergeError("merge_rack", **where, found=str(found.rack), expected=str(expected.rack))
    if (str(found.ref), found.word, found.score) != (str(expected.ref), expected.word, expected.score):
        raise MergeError("merge_top", **where, found=_top(found), expected=_top(expected))


def _top(r: engine_record.RecordRound) -> str:
    return f"{r.ref} {r.word} {r.score}"


def merged_results(merged: MergedResults) -> Merged:
    """The clubs' files kept with the merge, read again (they were checked when it was made)."""
    return results_merge([(f["name"], f["data"].encode("utf-8")) for f in merged.files])
