"""The merge of a simultaneous game (rules §5): the results files of the clubs that played one prepared
game, read, checked to hold the same game, and ranked together as one room."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import record as engine_record
from engine.ranking import Base, Entrant, GameRanking, GameScores, Rules, TieBreak, rank_game
from results import reading
from results.models import MergedResults
from results.reading import MergeError, Results


def rules_from_settings(settings: dict) -> Rules:
    """The ranking rules a results file carries (checked against their choices by ``reading``); a file
    written before it carried them gets the defaults of §3.4, §3.5 and §4."""
    defaults = Rules()
    return Rules(
        solo_value=settings.get("solo_value", defaults.solo_value),
        solo_min_players=settings.get("solo_min_players", defaults.solo_min_players),
        warning_threshold=settings.get("warning_threshold", defaults.warning_threshold),
        warning_penalty=settings.get("warning_penalty", defaults.warning_penalty),
        base=Base(settings.get("percent_base", defaults.base.value)),
        tie_break=TieBreak(settings.get("tie_break", defaults.tie_break.value)),
    )


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


def results_merge(files: Sequence[tuple[str, bytes]]) -> Merged:
    """Merge the results files ``(file name, bytes)`` of one simultaneous game (§5).  Refused with a
    ``MergeError`` naming the file at fault unless each is a sound results file within the limits
    (``reading``) and every file holds the same game, round for round, played with the same word list:
    otherwise the tops, hence the percentages, would not compare."""
    if len(files) < 2:
        raise MergeError("merge_too_few", count=len(files))
    reading.check_sizes([(name, len(data)) for name, data in files])
    read: list[Results] = []
    for index, (name, data) in enumerate(files):
        room = reading.MAX_PLAYERS - sum(len(results.players) for results in read)
        read.append(reading.read_results(index, name, data, room=room))
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


def centre_of(merged: Merged, key) -> str:
    """The centre (the club whose file it is) of the entrant ``key``: table numbers are each centre's
    own, and two centres' table 1 are told apart by it."""
    return merged.clubs[key[0]]


def _check_same_game(first: Results, other: Results) -> None:
    check_against(first.name, first.record.rounds, first.lexicon_sha256, other, lexicon=_list_name(first))
    if len(other.record.rounds) < len(first.record.rounds):
        _round_count(first.name, len(first.record.rounds), other)


def check_against(
    reference: str, rounds, lexicon_sha256: str, other: Results, *, lexicon: str | None = None
) -> None:
    """``other`` was played with the same word list (``lexicon``: how a refusal names it) and, round
    for round, the same game as ``rounds`` (``engine.record.RecordRound``, named ``reference`` in
    the refusals); it may have played fewer rounds, none more."""
    if other.lexicon_sha256 != lexicon_sha256:
        raise MergeError(
            "merge_lexicon", file=other.name, first=reference, lexicon=_list_name(other),
            expected=lexicon or lexicon_sha256[:12],
        )  # fmt: skip
    for number, (expected, found) in enumerate(zip(rounds, other.record.rounds), 1):
        _check_same_round(reference, other.name, number, expected, found)
    if len(other.record.rounds) > len(rounds):
        _round_count(reference, len(rounds), other)


def _round_count(reference: str, expected: int, other: Results) -> None:
    raise MergeError(
        "merge_round_count", file=other.name, count=len(other.record.rounds), first=reference,
        expected=expected,
    )  # fmt: skip


def _list_name(results: Results) -> str:
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
    """The clubs' files kept with the merge, read again: checked when it was made, they are refused
    now (``merge_unreadable``) only if kept before the checks of ``reading``."""
    try:
        return results_merge([(f["name"], f["data"].encode("utf-8")) for f in merged.files])
    except MergeError as error:
        raise MergeError.because("merge_unreadable", error.message) from None
