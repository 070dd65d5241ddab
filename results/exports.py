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
from decimal import Decimal

from django.utils.text import slugify

from engine import record as engine_record
from engine.notation import RackText, parse_rack
from engine.ranking import NO_SCORE, Base, GameRanking, Row, TournamentRanking, rows
from results.reports.text import decimal_mark
from server.writes import ServiceError
from tournaments import disclosure, standings
from tournaments.models import Game, Round
from tournaments.plays import play_from_json

RESULTS_FORMAT = "duplicate-results/1"

Ranking = GameRanking | TournamentRanking


# -- the game record ---------------------------------------------------------------------------------


def placed_rounds(game: Game) -> list[Round]:
    """The rounds whose top is on the board, in order: a cancelled draw (§3.1.6) and the round still
    being played are not part of the game another centre replays."""
    return list(game.rounds.filter(status=Round.Status.PLACED).order_by("number"))


def game_record(game: Game) -> dict:
    """The game as a ``duplicate-game/1`` record (formats/game-record.md), ``/2`` with its letter set
    or variant when not French or classic: what another centre loads as a prepared game (§5) and what
    ``python -m engine replay`` checks."""
    return engine_record.to_dict(_record(game, placed_rounds(game)))


def placed_record(game: Game) -> engine_record.GameRecord | None:
    """The game's placed rounds as a record, None before the first top is placed."""
    rounds = placed_rounds(game)
    return _record(game, rounds) if rounds else None


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
        [_written_rack(r.rack, tournament.letter_set, game.engine_variant.rack_size) for r in rounds],
        [play_from_json(r.placed) for r in rounds],
        tied=[len(r.tops) for r in rounds],
        title=f"{tournament.name} — partie {game.number}",
        date=tournament.date.isoformat(),
        seed=disclosure.seed_shown(game),
        letters=tournament.letter_set,
        variant=game.engine_variant,
    )


def _written_rack(text: str, letters, most: int) -> RackText:
    """The round's rack in the record's notation.  The services write ``AEI+BLRN`` and, after a
    rejection or a cancellation, ``-BBNOORS``, as the format does; when the bag is empty and nothing
    is drawn they write ``CEJP+``, which the format writes ``CEJP`` (as the reference games do)."""
    rack = parse_rack(text, letters, most)
    if rack.reliquat and not rack.new:
        return RackText((), rack.reliquat, letter_set=letters)
    return rack


# -- the ranking for a spreadsheet -------------------------------------------------------------------

_CSV_HEADERS = {
    "fr": (
        "Rang", "Rang série", "Rang catégorie", "Table", "Nom", "Club", "Licence", "Série", "Catégorie",
        "Total", "Scores", "Solos", "Points de solo", "Avertissements", "Pénalité", "Négatif",
        "Pourcentage (base : {base})", "% total", "% scores",
    ),
    "en": (
        "Rank", "Series rank", "Category rank", "Table", "Name", "Club", "Licence", "Series", "Category",
        "Total", "Scores", "Solos", "Solo points", "Warnings", "Penalty", "Below top",
        "Percentage (base: {base})", "% total", "% scores",
    ),
    "es": (
        "Puesto", "Puesto en la serie", "Puesto en la categoría", "Mesa", "Nombre", "Club", "Licencia",
        "Serie", "Categoría", "Total", "Puntuaciones", "Solos", "Puntos de solo", "Advertencias",
        "Penalización", "Negativo", "Porcentaje (base: {base})", "% total", "% puntuaciones",
    ),
    "ca": (
        "Posició", "Posició a la sèrie", "Posició a la categoria", "Taula", "Nom", "Club", "Llicència",
        "Sèrie", "Categoria", "Total", "Puntuacions", "Solos", "Punts de solo", "Advertiments",
        "Penalització", "Negatiu", "Percentatge (base: {base})", "% total", "% puntuacions",
    ),
}  # fmt: skip

#: The base the ranking is on (§4), written in the percentage's header: the order of the lines follows
#: that figure ("Total" or "Scores"), and Scores + Points de solo − Pénalité = Total on every line.
_CSV_BASES = {
    "fr": {Base.TOTAL: "total avec solos et pénalités", Base.PAID: "scores seuls"},
    "en": {Base.TOTAL: "total with solos and penalties", Base.PAID: "scores only"},
    "es": {Base.TOTAL: "total con solos y penalizaciones", Base.PAID: "solo puntuaciones"},
    "ca": {Base.TOTAL: "total amb solos i penalitzacions", Base.PAID: "només puntuacions"},
}


def ranking_csv(ranking: Ranking, *, lang: str = "fr") -> bytes:
    """A game's or a tournament's ranking as CSV: UTF-8 with a byte-order mark and ``;`` between
    cells, which French spreadsheets open as they are; headers in ``lang``; percentages rounded to
    two decimals with the decimal mark of ``lang`` (a comma in French, Spanish and Catalan, a point
    in English).  "Pourcentage (base : …)" is the one the ranking uses, its header naming the base
    (§4: with or without solos and penalties; the average of the games when the tournament says so).
    Every text cell is ``spreadsheet_text``: a name never runs as a formula."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    base = _CSV_BASES[lang][ranking.rules.base]
    writer.writerow(_csv_cells([name.format(base=base) for name in _CSV_HEADERS[lang]], lang))
    writer.writerows(_csv_cells(_csv_row(row), lang) for row in rows(ranking, lang))
    return out.getvalue().encode("utf-8-sig")


def _csv_row(row: Row) -> list:
    return [
        row.rank, row.series_rank or "", row.category_rank or "", row.table or "", row.name, row.club,
        row.licence, row.series, row.category, row.total, row.paid, row.solos, row.solo_points,
        row.warnings, row.penalty,
        row.negatif, row.percent, row.percent_total, row.percent_paid,
    ]  # fmt: skip


def _csv_cells(values, lang: str) -> list:
    """Numbers as numbers (the négatif ``-35`` stays one), percentages with the decimal mark of
    ``lang``, and any text, ours or a player's, made safe for a spreadsheet."""
    return [
        value if isinstance(value, int) else _decimal(value, lang) if isinstance(value, Decimal)
        else spreadsheet_text(value)
        for value in values
    ]  # fmt: skip


def _decimal(value: Decimal, lang: str) -> str:
    """A rounded percentage (``engine.ranking.rounded``) with the decimal mark of ``lang``, the printed
    sheets' (``results.reports.text.decimal_mark``)."""
    return str(value).replace(".", decimal_mark(lang))


#: What makes a spreadsheet read a cell as a formula (OWASP's "CSV Injection" and ASVS 1.2.10): = + - @,
#: and tab, CR, LF and NUL, which some skip before them; and the full-width signs some spreadsheets
#: take for the ASCII ones.
_FORMULA_START = frozenset("=+-@\t\r\n\x00\uff1d\uff0b\uff0d\uff20")


def spreadsheet_text(text: str) -> str:
    """A text cell that a spreadsheet shows and never runs: one starting with a formula sign, even
    after spaces, is written after an apostrophe (which the spreadsheet hides), as OWASP says."""
    start = text.lstrip(" \u00a0")[:1]
    return "'" + text if start and start in _FORMULA_START else text


# -- the federation's results file -------------------------------------------------------------------


#: The licence field of a player who has none: the federation's software lists them apart.
NO_LICENCE = "NL"


def federation_file(ranking: Ranking) -> bytes:
    """The federation's plain results file: ``table;licence;name;club;score`` per player in rank
    order (``NL`` for a player without a licence), the score being the total the ranking is based
    on; Latin-1 with CRLF line ends, as its software reads.  Every text is ``spreadsheet_text``:
    the file is opened in spreadsheets too."""
    lines = (
        ";".join(
            (
                str(line.entrant.table),
                _federation_name(line.entrant.licence) or NO_LICENCE,
                _federation_name(line.entrant.name),
                _federation_name(line.entrant.club),
                str(line.based(ranking.rules.base)),
            )
        )
        + "\r\n"
        for line in ranking.lines
    )
    return "".join(lines).encode("latin-1")


def _federation_name(name: str) -> str:
    # A ";" in a name would split its line into one field too many.
    return spreadsheet_text(to_latin1(" ".join(name.split())).replace(";", ","))


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
        "club": tournament.club or tournament.place or tournament.name,
        "tournament": tournament.name,
        "date": tournament.date.isoformat(),
        "lexicon": {"name": tournament.lexicon.name, "sha256": tournament.lexicon.sha256},
        "settings": _settings(game),
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


def _settings(game: Game) -> dict:
    """The settings the merged ranking takes, the warning threshold the game's own (an original
    game's, ``standings.warning_threshold``)."""
    tournament = game.tournament
    settings = {name: getattr(tournament, name) for name in SETTINGS}
    settings["warning_threshold"] = standings.warning_threshold(tournament, game)
    return settings


def results_file(game: Game) -> tuple[str, str, bytes]:
    """The results file as a download: (file name, media type, bytes); the name carries the club, so
    the merging centre's files and its refusals ("le fichier « … »") tell the clubs apart."""
    tournament = game.tournament
    club = slugify(tournament.club or tournament.place or tournament.name) or "club"
    return f"resultats-{club}-partie-{game.number}.json", "application/json", results_export(game)


def _players_scores(game: Game, rounds: list[Round]) -> list[dict]:
    """Every player of the tournament with ``[paid, warning]`` per round; no slip is ``[0, false]``
    (§3.4), whether the player was absent or registered later."""
    scores = standings.scores_of(rounds).scores
    unplayed = [NO_SCORE] * len(rounds)
    return [
        {
            "name": e.name,
            "club": e.club,
            "licence": e.licence,
            "series": e.series,
            "category": e.category,
            "table": e.table,
            "scores": [[score.paid, score.warning] for score in scores.get(e.key, unplayed)],
        }
        for e in standings.entrants(game.tournament_id)
    ]
