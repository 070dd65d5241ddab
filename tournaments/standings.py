"""Standings: the database turned into the plain data ``engine.ranking`` ranks, the rankings shared by
every screen that shows them during the evening (the phones, the projector, the arbiter's screen) and
turned into rows.  One query for the rounds, one for the slips, whatever the number of players; the
results room (sheets, files, merges) builds on these."""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Sum

from engine import ranking as engine_ranking
from engine.ranking import Entrant, GameRanking, GameScores, Row, Rules, Score, TournamentRanking, rows
from server import memo
from server.language import interface_language
from tournaments import marks
from tournaments.models import COUNTED, Game, Player, Round, Submission, SubmissionChange, Tournament

log = logging.getLogger(__name__)
T = TypeVar("T")

#: How long a computed ranking is kept; its key changes with every result anyway.
RANKING_SECONDS = 600


def warning_threshold(tournament: Tournament, game: Game) -> int:
    """The warnings free before ``game``'s end-of-game penalty (§3.4).  A classic game: the
    tournament's setting as it is (3 by default, 5 in blitz, or the club's own).  An original game:
    the higher of that setting and the variant's (``Variant.free_warnings``, 5), so it has the five
    the rules give it in a tournament set to 3, and a tournament set higher keeps its setting."""
    variant = game.engine_variant
    if not variant.original:
        return tournament.warning_threshold
    return max(tournament.warning_threshold, variant.free_warnings)


def rules_of(tournament: Tournament, game: Game | None = None) -> Rules:
    """The tournament's result settings as the ranking module takes them (§3.4, §3.5, §4); with
    ``game``, that game's warning threshold (``warning_threshold``)."""
    threshold = tournament.warning_threshold if game is None else warning_threshold(tournament, game)
    return Rules(
        solo_value=tournament.solo_value,
        solo_min_players=tournament.solo_min_players,
        warning_threshold=threshold,
        warning_penalty=tournament.warning_penalty,
        base=engine_ranking.Base(tournament.percent_base),
        tie_break=engine_ranking.TieBreak(tournament.tie_break),
        aggregate=engine_ranking.Aggregate(tournament.aggregate),
    )


def entrant(player: Player) -> Entrant:
    """The player as the results know them (key, name, table, club, series, category)."""
    return Entrant(
        player.pk, player.name, player.table_number, player.club, player.series, player.category,
        player.licence,
    )  # fmt: skip


def entrants(tournament_id: int) -> list[Entrant]:
    return [entrant(p) for p in Player.objects.filter(tournament_id=tournament_id).order_by("table_number")]


def counted_rounds(games) -> dict[int, list[Round]]:
    """Each game's rounds whose scores count (closed or placed), in order; cancelled draws left out."""
    rounds: dict[int, list[Round]] = defaultdict(list)
    query = Round.objects.filter(game__in=games, status__in=COUNTED).order_by("game_id", "number", "attempt")
    for rnd in query.only("id", "game_id", "number", "top_score"):
        rounds[rnd.game_id].append(rnd)
    return rounds


def scores_of(rounds: list[Round]) -> GameScores:
    """What each player was paid in each counted round and whether the slip got a warning (§3.4)."""
    index = {rnd.pk: i for i, rnd in enumerate(rounds)}
    scores: dict[int, list[Score]] = defaultdict(lambda: [engine_ranking.NO_SCORE] * len(rounds))
    slips = Submission.objects.filter(round_id__in=index).values_list(
        "round_id", "player_id", "paid", "sanction"
    )
    for round_id, player_id, paid, sanction in slips:
        scores[player_id][index[round_id]] = Score(paid or 0, sanction == "warning")
    return GameScores(tops=tuple(rnd.top_score or 0 for rnd in rounds), scores=dict(scores))


def game_ranking(game: Game) -> GameRanking:
    rounds = counted_rounds([game])[game.pk]
    tournament = game.tournament
    return engine_ranking.rank_game(entrants(tournament.pk), scores_of(rounds), rules_of(tournament, game))


def ranked_games(tournament: Tournament) -> list[Game]:
    """The games a tournament's ranking ranks, in the order of its ``games``: every game but those
    abandoned (started by mistake, they leave the rankings)."""
    return list(tournament.games.exclude(status=Game.Status.ABANDONED).order_by("number"))


def tournament_ranking(tournament: Tournament, games: list[Game] | None = None) -> TournamentRanking:
    """The tournament's games, each ranked, and the cumulated ranking (§4); ``games``: the
    ``ranked_games`` the caller has read already."""
    games = ranked_games(tournament) if games is None else games
    rounds = counted_rounds(games)
    played = [scores_of(rounds[g.pk]) for g in games]
    return _rank_tournament(
        entrants(tournament.pk), played, rules_of(tournament), [rules_of(tournament, g) for g in games]
    )


def _rank_tournament(
    people: list[Entrant], played: list[GameScores], rules: Rules, game_rules: list[Rules]
) -> TournamentRanking:
    """``engine.ranking.rank_tournament`` with each game ranked by its own rules: a tournament of
    classic and original games has two warning thresholds (``warning_threshold``), and the engine's
    takes one ``Rules`` for every game.  The same steps as the engine's when the games differ: each
    game ranked alone, then the games added up by the tournament's rules (its private helpers, the
    one place outside the engine that calls them)."""
    if all(each == rules for each in game_rules):
        return engine_ranking.rank_tournament(people, played, rules)
    rankings = tuple(
        engine_ranking.rank_game(people, game, each) for game, each in zip(played, game_rules, strict=True)
    )
    by_key = [{line.entrant.key: line for line in ranking.lines} for ranking in rankings]
    lines = [
        engine_ranking._tournament_line(who, tuple(game[who.key] for game in by_key), rules) for who in people
    ]
    ranked = tuple(engine_ranking._ranked(lines, lambda line: engine_ranking._tournament_key(line, rules)))
    top = sum(ranking.top for ranking in rankings)
    return TournamentRanking(rules=rules, top=top, games=rankings, lines=ranked)


#: Rankings this process computed or fetched, by their key (which names their content): the room's
#: phones read it without unpickling it from the cache each time.
_rankings: memo.Kept[TournamentRanking] = memo.Kept(16)
_results_keys: memo.Recent[str] = memo.Recent()


def tournament_ranking_shared(tournament: Tournament, changes: str | None = None) -> TournamentRanking:
    """The tournament's ranking, computed once per change and shared by every request that shows it:
    after a round every phone asks for its standing at the same moment.  ``changes``: the
    ``results_key`` the caller has just read (a page sends it with the ranking); else it is read at
    most ``settings.POLL_MEMO_SECONDS`` ago (``server.memo``)."""
    if changes is None:
        changes = _results_keys.get(tournament.pk, lambda: results_key(tournament.pk))
    # Each game's own rules follow from the tournament's and its variant, fixed when it starts: the
    # games themselves are in ``changes``.
    rules = repr(rules_of(tournament)).encode()
    digest = hashlib.sha1(rules + changes.encode()).hexdigest()
    key = f"ranking:{tournament.pk}:{digest}"
    return _kept_or_shared(_rankings, key, lambda: tournament_ranking(tournament))


def _kept_or_shared(kept: memo.Kept[T], key: str, make: Callable[[], T]) -> T:
    """The value under ``key`` (which names its content) as this process keeps it, else as another
    process left it in the shared cache, else made here and left there for the others."""
    value = kept.get(key)
    if value is not None:
        return value
    try:
        value = cache.get(key)
    except Exception:  # the cache is Redis and Redis is down: the value is still right, only slower
        log.warning("cache unreachable: %s made by this process only", key, exc_info=True)
    if value is None:
        value = make()
        with contextlib.suppress(Exception):
            cache.set(key, value, RANKING_SECONDS)
    kept.put(key, value)
    return value


def results_key(tournament_id: int) -> str:
    """Changes whenever a ranking of the tournament can change: a round counted, placed or cancelled,
    a slip corrected, a player added, a game added or abandoned.  Pages poll it and redraw only when
    it moves.  Only the counted rounds (closed or placed) are in it: a rack drawn or a clock started
    changes no ranking, and ranking a hall of 1,500 players again at each would cost every screen
    that polls the key."""
    counted = Round.objects.filter(game__tournament_id=tournament_id, status__in=COUNTED)
    rounds = counted.aggregate(v=Sum("version"), n=Max("id"), c=Count("id"))
    games = Game.objects.filter(tournament_id=tournament_id).exclude(status=Game.Status.ABANDONED)
    played = games.aggregate(n=Max("id"), c=Count("id"))
    changes = SubmissionChange.objects.filter(player__tournament_id=tournament_id)
    corrected = changes.aggregate(n=Max("id"))["n"]
    players = Player.objects.filter(tournament_id=tournament_id).aggregate(n=Max("id"))["n"]
    return f"{rounds['n']}.{rounds['v']}.{rounds['c']}.{corrected}.{players}.{played['n']}.{played['c']}"


def printed_key(tournament_id: int) -> str:
    """``results_key`` and what the sheets print of each player (a rename moves no ranking, but a
    printed sheet with the old name is out of date)."""
    names = Player.objects.filter(tournament_id=tournament_id).order_by("id")
    printed = names.values_list("id", "name", "club", "licence", "series", "category", "table_number")
    digest = hashlib.sha256(repr(list(printed)).encode()).hexdigest()[:16]
    return f"{results_key(tournament_id)}.{digest}"


# -- rankings for the screens ---------------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    """A ranking as a screen shows it: the top, the rows (``engine.ranking.Row``) and the solos."""

    top: int
    rows: tuple[Row, ...]
    solos: list[tuple[int, str]]


def solos_announced(ranking: GameRanking) -> list[tuple[int, str]]:
    """The game's solos as the arbiter announces them: (round number, player name), §3.5; none
    below the solo threshold of players, where they do not count."""
    if not ranking.solos_counted:
        return []
    return [(index + 1, who.name) for index, who in ranking.solos]


def game_rows(ranking: GameRanking, lang: str | None = None) -> Ranking:
    """The game's ranking for a screen, categories named in ``lang`` (default: the interface's)."""
    return Ranking(ranking.top, rows(ranking, lang or interface_language()), solos_announced(ranking))


#: A few games' rankings as the arbiter's game screen shows them, under what names their content.
_game_rows: memo.Kept[Ranking] = memo.Kept(32)


def game_rows_shared(game: Game) -> Ranking:
    """``game_rows(game_ranking(game))``, made once per change of what it shows and kept by the process:
    the arbiter's game screen is redrawn every second while slips come in, and ranking a hall of 1,500
    players is a large share of each redraw (measured: docs/developer/benchmarks.md).  Kept under the
    tournament's ``results_key`` (read at most ``settings.POLL_MEMO_SECONDS`` ago, as the phones'
    ranking), the room's players' mark (a name or a category changed: ``marks.players_mark``), the rules
    and the language; made afresh when the shared cache does not answer."""
    tournament = game.tournament
    mark = marks.players_mark(tournament.pk)
    if mark is None:
        return game_rows(game_ranking(game))
    changes = _results_keys.get(tournament.pk, lambda: results_key(tournament.pk))
    names = (game.pk, changes, mark, repr(rules_of(tournament, game)), interface_language())
    # Shared by the server's processes: the arbiter's screen and the projector ask at the same
    # change, each in whichever process takes it, and ranking a hall is dear.
    key = f"game-rows:{game.pk}:{hashlib.sha1(repr(names).encode()).hexdigest()}"
    return _kept_or_shared(_game_rows, key, lambda: game_rows(game_ranking(game)))


#: Rows made lately, under the ranking object and the language: the shared ranking
#: (``tournament_ranking_shared``) is shown again and again between two changes, and its rows (and
#: their text, ``templatetags.rows``) are made once.
_tournament_rows: memo.Derived[Ranking] = memo.Derived(16)


def tournament_rows(ranking: TournamentRanking, lang: str | None = None) -> Ranking:
    lang = lang or interface_language()

    def make() -> Ranking:
        solos = [solo for game in ranking.games for solo in solos_announced(game)]
        return Ranking(ranking.top, rows(ranking, lang), solos)

    return _tournament_rows.of(ranking, lang, make)
