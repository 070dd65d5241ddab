"""The data the printed sheets show, gathered from the database before layout starts (pretix's habit):
the renderers in ``results.reports`` never query.  Labels come in the tournament's sheet language."""

from __future__ import annotations

import datetime
from dataclasses import replace

from django.utils import timezone
from django.utils.translation import gettext, override

from engine import alphabet
from engine.ranking import GameLine, GameRanking, TournamentRanking, rows
from results import exports, merges
from results.merges import Merged
from results.models import Printout
from results.reports import render
from results.reports.data import (
    CardRound,
    GamePapers,
    GameRound,
    GameSheet,
    RankingSheet,
    RoundTimes,
    ScoreCard,
    SheetHeader,
)
from results.reports.layout import Progress
from results.reports.text import labels as sheet_labels
from server.language import interface_language
from tournaments import standings
from tournaments.models import COUNTED, Game, Grading, PercentBase, Round, Submission, TieBreak, Tournament
from tournaments.selectors import SANCTIONS


def build(printout: Printout, progress: Progress | None = None) -> tuple[str, str, bytes]:
    """The PDF a printout asks for, as ``(filename, mimetype, bytes)``, its score cards
    ``printout.cards_per_page`` to a sheet."""
    tournament, game, per_page = printout.tournament, printout.game, printout.cards_per_page
    with override(tournament.sheet_language):  # the sheet's labels, and those of selectors.SANCTIONS
        if printout.kind == Printout.Kind.TOURNAMENT:
            return render.ranking_sheet(tournament_ranking_sheet(tournament))
        if printout.kind == Printout.Kind.EVENING:
            return render.evening(*evening_papers(tournament), progress=progress, per_page=per_page)
        if printout.kind == Printout.Kind.GAME:
            return render.game_sheet(game_sheet(game))
        ranking = standings.game_ranking(game)
        if printout.kind == Printout.Kind.RANKING:
            return render.ranking_sheet(game_ranking_sheet(game, ranking))
        cards = score_cards(game, ranking)
        if printout.kind == Printout.Kind.CARDS:
            return render.score_cards(cards, progress=progress, per_page=per_page)
        ranking_sheet = game_ranking_sheet(game, ranking)
        return render.bundle(ranking_sheet, game_sheet(game), cards, progress=progress, per_page=per_page)


def evening_papers(tournament: Tournament) -> tuple[RankingSheet, list[GamePapers]]:
    """The tournament's ranking, then every ranked game (an abandoned one is not) that has a counted
    round, in order: its ranking, its game sheet, its players' cards.  The tournament's ranking ranks
    each game once for all of them."""
    games = standings.ranked_games(tournament)
    ranking = standings.tournament_ranking(tournament, games)
    played = set(Round.objects.filter(game__in=games, status__in=COUNTED).values_list("game_id", flat=True))
    papers = [
        GamePapers(game_ranking_sheet(game, ranked), game_sheet(game), tuple(score_cards(game, ranked)))
        for game, ranked in zip(games, ranking.games, strict=True)
        if game.pk in played
    ]
    return tournament_ranking_sheet(tournament, ranking, games), papers


# -- headers -------------------------------------------------------------------------------------


def header(
    tournament: Tournament, title: str, times: tuple[RoundTimes, ...] = (), variant: str = ""
) -> SheetHeader:
    """Every setting the results depend on, printed at the top of every sheet (§3.4, §4, §6);
    ``times``: the time per round its rounds were played at (``round_times``); ``variant``: an
    original game's name (a game's sheets)."""
    return SheetHeader(
        tournament=tournament.name,
        game=title,
        date=tournament.date,
        place=tournament.place,
        lexicon=tournament.lexicon.name,
        lexicon_checksum=tournament.lexicon.sha256,
        grading=str(tournament.get_grading_display()),
        grace_seconds=tournament.grace_seconds,
        round_seconds=tournament.round_seconds,
        base=str(tournament.get_percent_base_display()),
        tie_break=str(tournament.get_tie_break_display()),
        generated_at=timezone.localtime(),
        lang=tournament.sheet_language,
        round_times=times,
        variant=variant,
    )


def _game_header(game: Game) -> SheetHeader:
    """A game's sheets' header, naming its variant when it is an original game (in the sheet's
    language: ``build`` runs under it)."""
    variant = str(game.get_variant_display()).capitalize() if game.engine_variant.original else ""
    return header(game.tournament, _game_title(game), round_times([game]), variant)


def round_times(games: list[Game], numbered: bool = False) -> tuple[RoundTimes, ...]:
    """The time per round each counted round of ``games`` was played at, its clock's deadline less
    its start (the tournament's setting applies when the round is started, a later change applies to
    the rounds after it), as runs of rounds of one time; ``numbered``: each run names its game (a
    sheet of several games).  A round with no clock on record counts the tournament's time."""
    default = games[0].tournament.round_seconds if games else 0
    counted = Round.objects.filter(game__in=games, status__in=COUNTED).order_by("game__number", "number")
    clocks = counted.values_list("game__number", "number", "started_at", "deadline")
    played: dict[int, list[tuple[int, int]]] = {}
    for game, number, started, deadline in clocks:
        seconds = round((deadline - started).total_seconds()) if started and deadline else default
        played.setdefault(game, []).append((number, seconds))
    return tuple(span for game, rounds in played.items() for span in _runs(game if numbered else 0, rounds))


def _runs(game: int, rounds: list[tuple[int, int]]) -> list[RoundTimes]:
    runs: list[RoundTimes] = []
    for number, seconds in rounds:
        if runs and runs[-1].seconds == seconds:
            runs[-1] = RoundTimes(seconds, runs[-1].first, number, game)
        else:
            runs.append(RoundTimes(seconds, number, number, game))
    return [replace(run, whole=len(runs) == 1) for run in runs]


def _game_title(game: Game) -> str:
    return gettext("Partie %(number)s") % {"number": game.number}


# -- rankings ------------------------------------------------------------------------------------


def game_ranking_sheet(game: Game, ranking: GameRanking) -> RankingSheet:
    return RankingSheet(
        header=_game_header(game),
        top=ranking.top,
        rows=rows(ranking, game.tournament.sheet_language),
        solos=tuple(standings.solos_announced(ranking)),
    )


def tournament_ranking_sheet(
    tournament: Tournament, ranking: TournamentRanking | None = None, games: list[Game] | None = None
) -> RankingSheet:
    """The overall ranking; ``ranking`` and its ``games`` (``standings.ranked_games``), when the
    caller has them.  Its solos name their game, and so does its time per round when it changed."""
    if ranking is None or games is None:
        games = standings.ranked_games(tournament)
        ranking = standings.tournament_ranking(tournament, games)
    return RankingSheet(
        header=header(tournament, gettext("Classement général"), round_times(games, numbered=True)),
        top=ranking.top,
        rows=rows(ranking, tournament.sheet_language),
        game_solos=tuple(tournament_solos(games, ranking)),
    )


def tournament_solos(games: list[Game], ranking: TournamentRanking) -> list[tuple[int, int, str]]:
    """Every game's solos as announced (§3.5), each with its game's number: (game, round, name)."""
    return [
        (game.number, number, name)
        for game, ranked in zip(games, ranking.games, strict=True)
        for number, name in standings.solos_announced(ranked)
    ]


# -- the game sheet ------------------------------------------------------------------------------


def game_sheet(game: Game) -> GameSheet:
    """Every round as announced (reliquat + new letters, rejected draws marked) with its top, and the
    final board (§5)."""
    rounds, cumulated = [], 0
    cancelled = _cancelled_draws(game)
    for rnd in exports.placed_rounds(game):
        cumulated += rnd.placed["score"]
        redrawn = cancelled.get(rnd.number, ())
        rounds.append(
            GameRound(
                number=rnd.number,
                rack=_rack_after_cancel(rnd) if redrawn else rnd.rack,
                rejected=tuple(rnd.rejections),
                ref=rnd.placed["ref"],
                word=rnd.placed["word"],
                score=rnd.placed["score"],
                cumulated=cumulated,
                tied=len(rnd.tops),
                cancelled=redrawn,
            )
        )
    letters = game.tournament.letter_set
    board = tuple(_cell(code, letters) for code in game.board)
    values = None
    if letters.code != "fr":
        values = {
            name: letters.values[code] for code, name in enumerate(letters.names) if name and name != "?"
        }
    return GameSheet(
        header=_game_header(game), rounds=tuple(rounds), board=board, total=cumulated, tile_values=values
    )


def _cancelled_draws(game: Game) -> dict[int, tuple[str, ...]]:
    """Each round number's cancelled draws (§3.1.6), their racks in order."""
    cancelled: dict[int, tuple[str, ...]] = {}
    draws = game.rounds.filter(status=Round.Status.CANCELLED).order_by("number", "attempt")
    for number, rack in draws.values_list("number", "rack"):
        cancelled[number] = (*cancelled.get(number, ()), rack)
    return cancelled


def _rack_after_cancel(rnd: Round) -> str:
    """The rack drawn again after a cancel: every tile went back, as after a rejection, and the record
    writes it ``-WEEKUSR`` (formats/game-record.md); the sheet says it was a cancel, so the "-" stays
    only when a rejection of this draw followed (§3.1.4)."""
    return rnd.rack if rnd.rejections else rnd.rack.lstrip("-")


def _cell(code: int, letters) -> str:
    return alphabet.char(code, letters) if code else ""


# -- score cards ---------------------------------------------------------------------------------


def score_cards(game: Game, ranking: GameRanking) -> list[ScoreCard]:
    """One card per player: each counted round's slip, what it was paid and why, the top, the running
    total; then the player's line of the ranking: solos, penalty and total (§3.4, §3.5, §4)."""
    tournament = game.tournament
    lang = tournament.sheet_language
    head = _game_header(game)
    rounds = list(game.rounds.filter(status__in=COUNTED).order_by("number", "attempt"))
    slips = {(s.round_id, s.player_id): s for s in Submission.objects.filter(round__in=rounds)}
    table = {row.key: row for row in rows(ranking, lang)}
    return [
        ScoreCard(
            head,
            table[line.entrant.key],
            _card_rounds(line, rounds, slips, lang),
            line.solo_points,
            ranking.top,
        )
        for line in sorted(ranking.lines, key=lambda line: line.entrant.table)
    ]


def _card_rounds(line: GameLine, rounds, slips, lang: str) -> tuple[CardRound, ...]:
    total, card_rounds = 0, []
    for rnd in rounds:
        sub = slips.get((rnd.pk, line.entrant.key))
        total += (sub.paid or 0) if sub else 0
        card_rounds.append(_card_round(rnd, sub, total, lang))
    return tuple(card_rounds)


def _card_round(rnd: Round, sub: Submission | None, total: int, lang: str) -> CardRound:
    top = rnd.placed or (rnd.tops[0] if rnd.tops else {"ref": "", "word": "", "score": rnd.top_score or 0})
    if sub is None:
        sanction, reason = str(SANCTIONS["zero"]), sheet_labels(lang)["no_slip_reason"]
    else:
        sanction = str(SANCTIONS.get(sub.sanction, ""))
        reason = sub.said(lang) if sub.sanction != "none" else ""
    return CardRound(
        number=rnd.number,
        slip=sub.slip_text() if sub else "",
        paid=(sub.paid or 0) if sub else 0,
        sanction=sanction,
        reason=reason,
        top=rnd.top_score or 0,
        top_move=f"{top['ref']} {top['word']}".strip(),
        total=total,
    )


# -- merged results of several clubs (§5) --------------------------------------------------------


def merged_ranking_pdf(result: Merged, ranking: GameRanking) -> tuple[str, str, bytes]:
    head = merged_header(result)
    table = rows(ranking, head.lang)
    sheet = RankingSheet(
        header=head,
        top=ranking.top,
        rows=table,
        solos=tuple(standings.solos_announced(ranking)),
        centres=tuple(merges.centre_of(result, row.key) for row in table),
    )
    return render.ranking_sheet(sheet)


def merged_header(merged: Merged) -> SheetHeader:
    """The merged sheet's heading: the first file's tournament and settings, every club as the place;
    in the interface's language (a merge has no tournament, hence no sheet language)."""
    settings = merged.settings
    labels = {
        "grading": dict(Grading.choices),
        "percent_base": dict(PercentBase.choices),
        "tie_break": dict(TieBreak.choices),
    }
    return SheetHeader(
        tournament=merged.tournament,
        game=gettext("Classement fusionné"),
        date=_date(merged.date),
        place=", ".join(merged.clubs),
        lexicon=merged.lexicon_name,
        lexicon_checksum=merged.lexicon_sha256,
        grading=str(labels["grading"].get(settings.get("grading"), "")),
        grace_seconds=_number(settings.get("grace_seconds")),
        round_seconds=_number(settings.get("round_seconds")),
        base=str(labels["percent_base"].get(settings.get("percent_base"), PercentBase.TOTAL.label)),
        tie_break=str(labels["tie_break"].get(settings.get("tie_break"), TieBreak.NONE.label)),
        generated_at=timezone.localtime(),
        lang=interface_language(),
    )


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return timezone.localdate()


def _number(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0
