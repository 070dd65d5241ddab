"""Files a played game leaves behind (rules §4, §5): its game record, which replays it; the ranking
for a spreadsheet; the federation's plain results file; and the results file clubs exchange to merge
a simultaneous tournament into one ranking.

Functions return bytes or plain data and read the database only through the ``Game`` they are given;
the views choose file names and send them.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.text import slugify

from engine import record as engine_record
from engine.messages import LANGUAGES, register
from engine.notation import RackText, parse_rack
from engine.ranking import (
    NO_SCORE,
    Base,
    Entrant,
    GameLine,
    GameRanking,
    GameScores,
    Rules,
    Score,
    TieBreak,
    TournamentLine,
    TournamentRanking,
    category_label,
    rank_game,
)
from tournaments import result_reads
from tournaments.models import Game, Round
from tournaments.services import ServiceError, play_from_json

RESULTS_FORMAT = "duplicate-results/1"

Ranking = GameRanking | TournamentRanking
Line = GameLine | TournamentLine


# -- the game record ---------------------------------------------------------------------------------


def placed_rounds(game: Game) -> list[Round]:
    """The rounds whose top is on the board, in order: a cancelled draw (§3.1.6) and the round still
    being played are not part of the game another centre replays."""
    return list(game.rounds.filter(status=Round.Status.PLACED).order_by("number"))


def game_record(game: Game) -> dict:
    """The game as a ``duplicate-game/1`` record (formats/game-record.md): what another centre loads as
    a prepared game (§5) and what ``python -m engine replay`` checks."""
    return engine_record.to_dict(_record(game, placed_rounds(game)))


def game_record_text(game: Game) -> str:
    """The record's file text (UTF-8 JSON), laid out like the reference games."""
    return engine_record.dumps(_record(game, placed_rounds(game)))


def game_record_file(game: Game) -> tuple[str, str, bytes]:
    """The record as a download: (file name, media type, bytes)."""
    return f"partie-{game.number}.json", "application/json", game_record_text(game).encode("utf-8")


def _record(game: Game, rounds: list[Round]) -> engine_record.GameRecord:
    if not rounds:
        raise ServiceError("export_no_round")  # the format has no empty game
    tournament = game.tournament
    return engine_record.from_plays(
        tournament.lexicon.name,
        [_written_rack(r.rack) for r in rounds],
        [play_from_json(r.placed) for r in rounds],
        tied=[len(r.tops) for r in rounds],
        title=f"{tournament.name} — partie {game.number}",
        date=tournament.date.isoformat(),
        seed=game.seed if game.source == Game.Source.RANDOM else None,
    )


def _written_rack(text: str) -> RackText:
    """The round's rack in the record's notation.  The services write ``AEI+BLRN`` and, after a
    rejection or a cancellation, ``-BBNOORS``, as the format does; when the bag is empty and nothing
    is drawn they write ``CEJP+``, which the format writes ``CEJP`` (as the reference games do)."""
    rack = parse_rack(text)
    if rack.reliquat and not rack.new:
        return RackText((), rack.reliquat)
    return rack


# -- the ranking for a spreadsheet -------------------------------------------------------------------

_CSV_HEADERS = {
    "fr": (
        "Rang", "Rang série", "Rang catégorie", "Table", "Nom", "Club", "Série", "Catégorie", "Total",
        "Scores", "Solos", "Avertissements", "Pénalité", "Négatif", "Pourcentage (base)", "% total",
        "% scores",
    ),
    "en": (
        "Rank", "Series rank", "Category rank", "Table", "Name", "Club", "Series", "Category", "Total",
        "Scores", "Solos", "Warnings", "Penalty", "Below top", "Percentage (base)", "% total",
        "% scores",
    ),
}  # fmt: skip


def ranking_csv(ranking: Ranking, *, lang: str = "fr") -> bytes:
    """A game's or a tournament's ranking as CSV: UTF-8 with a byte-order mark and ``;`` between
    cells, which French spreadsheets open as they are; percentages rounded to two decimals with the
    decimal mark of ``lang`` (a comma in French).  "Pourcentage (base)" is the one the ranking uses
    (§4: with or without solos and penalties, or the average of the games)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(_CSV_HEADERS[lang])
    writer.writerows(_csv_row(ranking, line, lang) for line in ranking.lines)
    return out.getvalue().encode("utf-8-sig")


def _csv_row(ranking: Ranking, line: Line, lang: str) -> list:
    who = line.entrant
    percents = (ranking.percent(line), line.percent_total, line.percent_paid)
    return [
        line.rank, line.series_rank or "", line.category_rank or "", who.table or "", who.name, who.club,
        who.series, category_label(who.category, lang), line.total, line.paid, line.solos, line.warnings,
        line.penalty, ranking.negatif(line), *(_decimal(p, lang) for p in percents),
    ]  # fmt: skip


def _decimal(value: Fraction, lang: str) -> str:
    """Rounded half up, as a percentage is read on a results sheet (87,455 → 87,46)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    text = str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return text.replace(".", ",") if lang == "fr" else text


# -- the federation's results file -------------------------------------------------------------------


def federation_file(ranking: Ranking) -> bytes:
    """The federation's plain results file: ``table;name;score`` per player in rank order, the score
    being the total the ranking is based on; Latin-1 with CRLF line ends, as its software reads."""
    lines = (
        f"{line.entrant.table};{_federation_name(line.entrant.name)};{line.based(ranking.rules.base)}\r\n"
        for line in ranking.lines
    )
    return "".join(lines).encode("latin-1")


def _federation_name(name: str) -> str:
    # A ";" in a name would split its line into one field too many.
    return to_latin1(" ".join(name.split())).replace(";", ",")


#: Characters Latin-1 lacks that a name or a club may carry, spelt the way French typing does.
_SPELLED = str.maketrans(
    {"Œ": "OE", "œ": "oe", "’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "Ł": "L", "ł": "l"}
)
#: Marks and format characters (combining accents, variation selectors, joiners): dropped, not "?".
_INVISIBLE = frozenset({"Mn", "Me", "Cf"})


def to_latin1(text: str) -> str:
    """``text`` in Latin-1's characters: a few spelt out (Œ → OE, ’ → '), other letters without their
    accents (Ş → S), and "?" for whatever is left (an emoji)."""
    text = unicodedata.normalize("NFC", text).translate(_SPELLED)
    return "".join(_latin1_char(ch) for ch in text)


def _latin1_char(ch: str) -> str:
    if ord(ch) < 256:
        return ch
    bare = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if bare and all(ord(c) < 256 for c in bare):
        return bare
    return "" if unicodedata.category(ch) in _INVISIBLE else "?"


# -- results of a simultaneous game (§5) -------------------------------------------------------------


def results_export(game: Game) -> bytes:
    """A club's results of one game, for the centre that merges several clubs' results into one
    ranking (§5): the game as played (the same tops everywhere is checked on merging), the word list's
    checksum, and each player's paid score and warning per round; solos and penalties are worked out
    again on the merged ranking, since they depend on everyone who played."""
    tournament = game.tournament
    rounds = placed_rounds(game)
    data = {
        "format": RESULTS_FORMAT,
        "club": tournament.place or tournament.name,
        "tournament": tournament.name,
        "date": tournament.date.isoformat(),
        "lexicon": {"name": tournament.lexicon.name, "sha256": tournament.lexicon.sha256},
        "settings": _settings(tournament),
        "game": engine_record.to_dict(_record(game, rounds)),
        "players": _players_scores(game, rounds),
    }
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


#: The club's result settings the merged ranking takes from the first file (the organiser's).
SETTINGS = (
    "solo_value",
    "solo_min_players",
    "warning_threshold",
    "warning_penalty",
    "percent_base",
    "tie_break",
    "grading",
    "round_seconds",
    "grace_seconds",
)


def _settings(tournament) -> dict:
    return {name: getattr(tournament, name) for name in SETTINGS}


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


def results_file(game: Game) -> tuple[str, str, bytes]:
    """The results file as a download: (file name, media type, bytes); the name carries the club, so
    the merging centre's files and its refusals ("le fichier « … »") tell the clubs apart."""
    club = slugify(game.tournament.place or game.tournament.name) or "club"
    return f"resultats-{club}-partie-{game.number}.json", "application/json", results_export(game)


def _players_scores(game: Game, rounds: list[Round]) -> list[dict]:
    """Every player of the tournament with ``[paid, warning]`` per round; no slip is ``[0, false]``
    (§3.4), whether the player was absent or registered later."""
    scores = result_reads.scores_of(rounds).scores
    unplayed = [NO_SCORE] * len(rounds)
    return [
        {
            "name": e.name,
            "club": e.club,
            "series": e.series,
            "category": e.category,
            "table": e.table,
            "scores": [[score.paid, score.warning] for score in scores.get(e.key, unplayed)],
        }
        for e in result_reads.entrants(game.tournament_id)
    ]


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


register(
    {
        "export_no_round": {
            "fr": "Aucun coup n'a encore été placé : la partie n'a rien à exporter.",
            "en": "No round has been placed yet: the game has nothing to export.",
        },
        "merge_too_few": {
            "fr": "Une fusion demande au moins deux fichiers de résultats (ici {count}).",
            "en": "A merge needs at least two results files (here {count}).",
        },
        "merge_not_json": {
            "fr": "Le fichier « {file} » n'est pas un fichier JSON lisible.",
            "en": "The file '{file}' is not a readable JSON file.",
        },
        "merge_format": {
            "fr": "Le fichier « {file} » n'est pas un fichier de résultats ({format}).",
            "en": "The file '{file}' is not a results file ({format}).",
        },
        "merge_malformed": {
            "fr": "Le fichier « {file} » est incomplet ou abîmé (« {key} » manque ou est illisible).",
            "en": "The file '{file}' is incomplete or damaged ('{key}' is missing or unreadable).",
        },
        "merge_game_invalid": {
            "fr": "La partie du fichier « {file} » est illisible : {reason_fr}",
            "en": "The game in the file '{file}' cannot be read: {reason_en}",
        },
        "merge_lexicon": {
            "fr": "Le fichier « {file} » a été joué avec une autre liste de mots que « {first} » : "
            "{lexicon} au lieu de {expected}.",
            "en": "The file '{file}' was played with another word list than '{first}': {lexicon} "
            "instead of {expected}.",
        },
        "merge_round_count": {
            "fr": "Le fichier « {file} » n'a pas la même partie que « {first} » : {count} coups au lieu "
            "de {expected}.",
            "en": "The file '{file}' does not hold the same game as '{first}': {count} rounds instead "
            "of {expected}.",
        },
        "merge_rack": {
            "fr": "Le fichier « {file} » n'a pas la même partie que « {first} » : coup {round}, tirage "
            "{found} au lieu de {expected}.",
            "en": "The file '{file}' does not hold the same game as '{first}': round {round}, rack "
            "{found} instead of {expected}.",
        },
        "merge_top": {
            "fr": "Le fichier « {file} » n'a pas la même partie que « {first} » : coup {round}, top "
            "{found} au lieu de {expected}.",
            "en": "The file '{file}' does not hold the same game as '{first}': round {round}, top "
            "{found} instead of {expected}.",
        },
    }
)
