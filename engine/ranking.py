"""Results of duplicate games and tournaments as pure functions (rules §3.4, §3.5, §4).

Input is plain data: who plays (``Entrant``), what each was paid in each round and whether the slip
carried a warning (``Score``), the tops of the rounds (``GameScores``) and the tournament's settings
(``Rules``).  Output is the ranking: per game (``rank_game``) and per tournament (``rank_tournament``),
with the rank overall, within series and within category.  Nothing here knows about Django, so the same
functions rank a club's evening, a tournament of several games and the merged results of a simultaneous
tournament.

Percentages are exact fractions (``fractions.Fraction``): ranks never depend on float rounding; the
sheets round them for print.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum
from fractions import Fraction
from typing import TypeVar

from engine.categories import category_label
from engine.grading import end_penalty


class Base(Enum):
    """Which total the percentage, the négatif and the rank are computed on (§4); sheets print both."""

    #: Paid scores + solos − end-of-game penalties (the default).
    TOTAL = "total"
    #: Paid scores only.
    PAID = "paid"


class TieBreak(Enum):
    """How equal totals are separated (§4). Players still equal after the chain share a rank."""

    #: Equal totals share a rank.
    NONE = "none"
    #: The last game's score, then earlier games backwards; then the rounds backwards, last round of
    #: the last game first.  Within one game: the rounds backwards.
    LAST = "last"
    #: The number of tops (rounds paid the top score), then the best single move.
    TOPS = "tops"


class Aggregate(Enum):
    """How a tournament of several games is ranked (§4)."""

    #: Cumulated total, as a percentage of the summed tops.
    CUMULATED = "cumulated"
    #: The average of the per-game percentages (ranked on that average).
    AVERAGE = "average"


@dataclass(frozen=True)
class Rules:
    solo_value: int = 10
    solo_min_players: int = 16
    warning_threshold: int = 3
    warning_penalty: int = 5
    base: Base = Base.TOTAL
    tie_break: TieBreak = TieBreak.NONE
    aggregate: Aggregate = Aggregate.CUMULATED


@dataclass(frozen=True)
class Entrant:
    """A player as the results know them; ``key`` is unique among the entrants ranked together."""

    key: Hashable
    name: str
    table: int = 0
    club: str = ""
    #: As registered: ``1``…``7``, or a sub-series such as ``4A``.
    series: str = ""
    #: An age category code from the category table (``categories.json``), or empty.
    category: str = ""
    #: The federation's licence number, or empty (a player without a licence).
    licence: str = ""


@dataclass(frozen=True)
class Score:
    """One player's result in one round: what they were paid and whether the slip got a warning."""

    paid: int = 0
    warning: bool = False


#: No slip (or a player who was not there yet): paid zero, no warning.
NO_SCORE = Score()


@dataclass(frozen=True)
class GameScores:
    """One game as the ranking needs it: the top of each counted round, in order, and each entrant's
    ``Score`` per round (same length as ``tops``; a missing entrant or a short list counts as
    ``NO_SCORE`` for the rounds it lacks)."""

    tops: Sequence[int]
    scores: Mapping[Hashable, Sequence[Score]]


class _Totals:
    """What a game's or a tournament's line derives from its total, paid scores and top."""

    total: int
    paid: int
    top: int

    @property
    def percent_total(self) -> Fraction:
        return percent(self.total, self.top)

    @property
    def percent_paid(self) -> Fraction:
        return percent(self.paid, self.top)

    def based(self, base: Base) -> int:
        """The total the rules rank on."""
        return self.total if base is Base.TOTAL else self.paid


@dataclass(frozen=True)
class GameLine(_Totals):
    entrant: Entrant
    rank: int
    #: Rank among the entrants of the same series group (see ``series_group``); 0 when no series.
    series_rank: int
    #: Rank among the entrants of the same category; 0 when no category.
    category_rank: int
    #: Paid score per round.
    rounds: tuple[int, ...]
    #: Round indexes (0-based) where this entrant had a solo (§3.5), whatever the number of players.
    solo_rounds: tuple[int, ...]
    #: Points the solos are worth (``solo_value`` each with at least ``solo_min_players``, else 0).
    solo_points: int
    warnings: int
    #: End-of-game penalty for the warnings beyond the threshold (§3.4).
    penalty: int
    #: Sum of paid scores.
    paid: int
    #: paid + solo_points − penalty.
    total: int
    #: The top of the game (sum of the round tops).
    top: int
    #: Rounds where the entrant was paid the top.
    tops: int
    #: Best single paid score.
    best: int

    @property
    def solos(self) -> int:
        return len(self.solo_rounds)


@dataclass(frozen=True)
class GameRanking:
    rules: Rules
    top: int
    #: Best first; equal entrants (after the tie-break chain) by table number.
    lines: tuple[GameLine, ...]

    def negatif(self, line: GameLine) -> int:
        """The based total minus the top of the game (§4), e.g. −35."""
        return line.based(self.rules.base) - self.top

    def percent(self, line: GameLine) -> Fraction:
        return percent(line.based(self.rules.base), self.top)

    def parts(self, line: GameLine) -> tuple[int, ...]:
        """What a row shows in detail: the paid score of each round."""
        return line.rounds

    @property
    def solos_counted(self) -> bool:
        """§3.5: solos count (and are announced) only with enough players."""
        return len(self.lines) >= self.rules.solo_min_players

    @property
    def solos(self) -> tuple[tuple[int, Entrant], ...]:
        """Every solo of the game as (round index, entrant), in round order: what the arbiter announces."""
        by_table = sorted(self.lines, key=lambda line: line.entrant.table)
        found = [(index, line.entrant) for line in by_table for index in line.solo_rounds]
        return tuple(sorted(found, key=lambda solo: solo[0]))


@dataclass(frozen=True)
class TournamentLine(_Totals):
    entrant: Entrant
    rank: int
    series_rank: int
    category_rank: int
    #: The entrant's line in each game, in game order.
    games: tuple[GameLine, ...]
    paid: int
    total: int
    top: int
    #: What the entrant is ranked on: the percentage of the summed tops (CUMULATED) or the average of
    #: the per-game percentages (AVERAGE), both on the rules' base.
    percent: Fraction

    @property
    def solos(self) -> int:
        return sum(g.solos for g in self.games)

    @property
    def warnings(self) -> int:
        return sum(g.warnings for g in self.games)

    @property
    def penalty(self) -> int:
        return sum(g.penalty for g in self.games)

    @property
    def solo_points(self) -> int:
        return sum(g.solo_points for g in self.games)


@dataclass(frozen=True)
class TournamentRanking:
    rules: Rules
    top: int
    games: tuple[GameRanking, ...]
    lines: tuple[TournamentLine, ...]

    def line_of(self, key: Hashable) -> TournamentLine | None:
        """The entrant's line (``Entrant.key``), found without walking the ranking: a room's phones
        each look up their own at the same moment."""
        return self._by_key.get(key)

    @functools.cached_property
    def _by_key(self) -> dict[Hashable, TournamentLine]:
        return {line.entrant.key: line for line in self.lines}

    def negatif(self, line: TournamentLine) -> int:
        """The based total minus the summed tops (§4)."""
        return line.based(self.rules.base) - self.top

    def percent(self, line: TournamentLine) -> Fraction:
        """What the entrant is ranked on (``TournamentLine.percent``), as ``GameRanking.percent``."""
        return line.percent

    def parts(self, line: TournamentLine) -> tuple[int, ...]:
        """What a row shows in detail: each game's paid scores, whatever the base (§4), so that a row
        always adds up: the games make the paid scores, and paid + solos − penalties make the total."""
        return tuple(game.paid for game in line.games)

    @property
    def solos_counted(self) -> bool:
        """§3.5: solos count only with enough players (the same entrants play every game)."""
        return len(self.lines) >= self.rules.solo_min_players


def percent(score: int, top: int) -> Fraction:
    """100 × score / top, exactly; 0 when there is no top yet."""
    return Fraction(100 * score, top) if top else Fraction(0)


_CENT = Decimal("0.01")


def rounded(value: Fraction) -> Decimal:
    """A percentage as a results sheet prints it: two decimals, rounded half up on the exact fraction
    (53.125 → 53.13, where ``round(53.125, 2)`` on a float gives 53.12).  The one rounding every
    screen, sheet and file uses."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(_CENT, rounding=ROUND_HALF_UP)


# -- rows: a ranking as every screen, sheet and file prints it -----------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of a ranking as it is printed: on the arbiter's screen, the projector, the results
    pages, the PDF sheets and the CSV.  Percentages are ``rounded``; the category is named in the
    row's language."""

    rank: int
    #: 0 when the entrant has no series (or no category).
    series_rank: int
    category_rank: int
    table: int
    name: str
    club: str
    series: str
    category: str
    #: Paid scores + solos − penalties (§4).
    total: int
    #: Paid scores only.
    paid: int
    #: The based total minus the top (§4), e.g. −35.
    negatif: int
    #: On the rules' base, then with solos and penalties, then on paid scores only.
    percent: Decimal
    percent_total: Decimal
    percent_paid: Decimal
    #: The solos that count (§3.5: none below the solo threshold of players).
    solos: int
    warnings: int
    #: Points taken off at the end of the game (§3.4).
    penalty: int
    #: Per round (a game's ranking) or per game (a tournament's).
    parts: tuple[int, ...] = ()
    #: The entrant's ``key``.
    key: Hashable = None
    #: The federation's licence number, or empty.
    licence: str = ""
    #: The points the counted solos add to the total (§3.5).
    solo_points: int = 0
    #: Which of ``total`` and ``paid`` the ranking is on (§4): the one a ranking shows as its main figure.
    base: Base = Base.TOTAL

    @property
    def score(self) -> int:
        """The figure the line is ranked on (§4), which every ranking shows as its main column: the
        total with solos and penalties, or the paid scores alone ("scores seuls").  ``paid`` + the
        solos' points − ``penalty`` = ``total`` on every line, whatever the base."""
        return self.total if self.base is Base.TOTAL else self.paid


def rows(ranking: GameRanking | TournamentRanking, lang: str = "fr") -> tuple[Row, ...]:
    """Every line of ``ranking`` as a ``Row``, best first, categories named in ``lang``."""
    return tuple(_row(ranking, line, lang) for line in ranking.lines)


def _row(ranking: GameRanking | TournamentRanking, line, lang: str) -> Row:
    who = line.entrant
    return Row(
        rank=line.rank,
        series_rank=line.series_rank,
        category_rank=line.category_rank,
        table=who.table,
        name=who.name,
        club=who.club,
        series=who.series,
        category=category_label(who.category, lang),
        total=line.total,
        paid=line.paid,
        negatif=ranking.negatif(line),
        percent=rounded(ranking.percent(line)),
        percent_total=rounded(line.percent_total),
        percent_paid=rounded(line.percent_paid),
        solos=line.solos if ranking.solos_counted else 0,
        warnings=line.warnings,
        penalty=line.penalty,
        parts=ranking.parts(line),
        key=who.key,
        licence=who.licence,
        solo_points=line.solo_points,
        base=ranking.rules.base,
    )


_LEADING_DIGITS = re.compile(r"\d+")


def series_group(series: str) -> str:
    """The series a sub-series belongs to (``4A`` → ``4``): ranks within series are per group."""
    text = series.strip().upper()
    digits = _LEADING_DIGITS.match(text)
    return digits.group() if digits else text


def rank_game(entrants: Sequence[Entrant], game: GameScores, rules: Rules = Rules()) -> GameRanking:
    """Rank one game (§3.4, §3.5, §4).

    Only ``entrants`` are ranked and only they compete for solos; scores under other keys are ignored,
    and rounds beyond ``game.tops`` are not counted (the tops list the counted rounds).  A solo needs
    someone to beat: a lone entrant never has one.
    """
    _check_unique(entrants)
    rounds = [_paid_rounds(game, entrant.key) for entrant in entrants]
    solos = _solo_rounds(rounds)
    worth = rules.solo_value if len(entrants) >= rules.solo_min_players else 0
    top = sum(game.tops)
    lines = [
        _game_line(entrant, game, paid, solo, worth, rules)
        for entrant, paid, solo in zip(entrants, rounds, solos)
    ]
    ranked = _ranked(lines, lambda line: _game_key(line, rules))
    return GameRanking(rules=rules, top=top, lines=tuple(ranked))


def rank_tournament(
    entrants: Sequence[Entrant], games: Sequence[GameScores], rules: Rules = Rules()
) -> TournamentRanking:
    """Rank a tournament of several games (§4): each game is ranked alone, then the games are added up
    (``Aggregate.CUMULATED``) or their percentages averaged (``Aggregate.AVERAGE``)."""
    _check_unique(entrants)
    rankings = tuple(rank_game(entrants, game, rules) for game in games)
    by_key = [{line.entrant.key: line for line in ranking.lines} for ranking in rankings]
    lines = [
        _tournament_line(entrant, tuple(game[entrant.key] for game in by_key), rules) for entrant in entrants
    ]
    ranked = tuple(_ranked(lines, lambda line: _tournament_key(line, rules)))
    top = sum(ranking.top for ranking in rankings)
    return TournamentRanking(rules=rules, top=top, games=rankings, lines=ranked)


# -- one game ------------------------------------------------------------------------------------------


def _check_unique(entrants: Sequence[Entrant]) -> None:
    keys = [entrant.key for entrant in entrants]
    if len(set(keys)) != len(keys):
        raise ValueError("two entrants share a key")


def _paid_rounds(game: GameScores, key: Hashable) -> tuple[Score, ...]:
    """The entrant's scores, one per counted round: a missing entrant or round is ``NO_SCORE`` (§3.4)."""
    scores = tuple(game.scores.get(key, ()))[: len(game.tops)]
    return scores + (NO_SCORE,) * (len(game.tops) - len(scores))


def _solo_rounds(rounds: Sequence[tuple[Score, ...]]) -> list[tuple[int, ...]]:
    """§3.5: in each round, the one entrant paid strictly more than every other has a solo.  Paid scores
    are compared, so penalties never take a solo away."""
    if len(rounds) < 2:
        return [()] * len(rounds)
    solos: list[list[int]] = [[] for _ in rounds]
    for index, column in enumerate(zip(*rounds)):
        paid = [score.paid for score in column]
        best = max(paid)
        if paid.count(best) == 1:
            solos[paid.index(best)].append(index)
    return [tuple(found) for found in solos]


def _game_line(
    entrant: Entrant,
    game: GameScores,
    scores: tuple[Score, ...],
    solo_rounds: tuple[int, ...],
    solo_worth: int,
    rules: Rules,
) -> GameLine:
    """The entrant's line before ranking (ranks 0): §4 total = paid + solos − penalties."""
    rounds = tuple(score.paid for score in scores)
    warnings = sum(score.warning for score in scores)
    # §3.4: the penalty falls at the end of the game, on the warnings beyond the threshold.
    penalty = end_penalty(warnings, rules.warning_threshold, rules.warning_penalty)
    solo_points = solo_worth * len(solo_rounds)
    paid = sum(rounds)
    return GameLine(
        entrant=entrant,
        rank=0,
        series_rank=0,
        category_rank=0,
        rounds=rounds,
        solo_rounds=solo_rounds,
        solo_points=solo_points,
        warnings=warnings,
        penalty=penalty,
        paid=paid,
        total=paid + solo_points - penalty,
        top=sum(game.tops),
        tops=sum(1 for got, top in zip(rounds, game.tops) if top > 0 and got == top),
        best=max(rounds, default=0),
    )


def _game_key(line: GameLine, rules: Rules) -> tuple:
    """What one game ranks on, greatest first: the based total, then the §4 tie-break chain."""
    primary = line.based(rules.base)
    if rules.tie_break is TieBreak.LAST:
        return (primary, *reversed(line.rounds))
    if rules.tie_break is TieBreak.TOPS:
        return (primary, line.tops, line.best)
    return (primary,)


# -- several games -------------------------------------------------------------------------------------


def _tournament_line(entrant: Entrant, games: tuple[GameLine, ...], rules: Rules) -> TournamentLine:
    """The entrant's summed line before ranking (ranks 0)."""
    paid, total = sum(game.paid for game in games), sum(game.total for game in games)
    top = sum(game.top for game in games)
    if rules.aggregate is Aggregate.AVERAGE:
        share = _mean([percent(game.based(rules.base), game.top) for game in games if game.top])
    else:
        share = percent(total if rules.base is Base.TOTAL else paid, top)
    return TournamentLine(
        entrant=entrant,
        rank=0,
        series_rank=0,
        category_rank=0,
        games=games,
        paid=paid,
        total=total,
        top=top,
        percent=share,
    )


def _mean(values: Sequence[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def _tournament_key(line: TournamentLine, rules: Rules) -> tuple:
    """What a tournament ranks on, greatest first (§4): the cumulated based total (the same top for
    everyone, so the same order as its percentage) or the average percentage, then the tie-break chain."""
    if rules.aggregate is Aggregate.AVERAGE:
        primary: int | Fraction = line.percent
    else:
        primary = line.based(rules.base)
    if rules.tie_break is TieBreak.LAST:
        backwards = line.games[::-1]
        totals = (game.based(rules.base) for game in backwards)
        rounds = (paid for game in backwards for paid in reversed(game.rounds))
        return (primary, *totals, *rounds)
    if rules.tie_break is TieBreak.TOPS:
        best = max((game.best for game in line.games), default=0)
        return (primary, sum(game.tops for game in line.games), best)
    return (primary,)


# -- ranks ---------------------------------------------------------------------------------------------

_Line = TypeVar("_Line", GameLine, TournamentLine)


def _ranked(lines: Sequence[_Line], key: Callable[[_Line], tuple]) -> list[_Line]:
    """The lines best first, with their ranks overall, within series group and within category.

    Standard competition ranking (1, 2, 2, 4): entrants still equal after the tie-break chain share a
    rank and are listed by table number, then by key."""
    ordered = sorted(_by_table(lines), key=key, reverse=True)
    keys = [key(line) for line in ordered]
    overall = _ranks(keys, ["" for _ in ordered], every=True)
    series = _ranks(keys, [series_group(line.entrant.series) for line in ordered])
    category = _ranks(keys, [line.entrant.category.strip().casefold() for line in ordered])
    return [
        replace(line, rank=rank, series_rank=in_series, category_rank=in_category)
        for line, rank, in_series, in_category in zip(ordered, overall, series, category)
    ]


def _by_table(lines: Sequence[_Line]) -> list[_Line]:
    """The order of equal entrants: table number, then key (the order given if keys do not compare)."""
    try:
        return sorted(lines, key=lambda line: (line.entrant.table, line.entrant.key))
    except TypeError:
        return sorted(lines, key=lambda line: line.entrant.table)


def _ranks(keys: Sequence[tuple], groups: Sequence[str], every: bool = False) -> list[int]:
    """Competition ranks within each group of ``keys`` sorted greatest first; 0 for the empty group
    unless ``every`` (the overall rank, where everyone is in one group)."""
    seen: dict[str, tuple[int, tuple, int]] = {}
    ranks = []
    for key, group in zip(keys, groups):
        if not group and not every:
            ranks.append(0)
            continue
        count, last_key, last_rank = seen.get(group, (0, (), 0))
        rank = last_rank if count and key == last_key else count + 1
        seen[group] = (count + 1, key, rank)
        ranks.append(rank)
    return ranks
