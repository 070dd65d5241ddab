"""Results of games and tournaments (rules §3.4 penalties, §3.5 solos, §4 results), worked by hand.

Entrants are named by their key; unless a test says otherwise, each sits at the table of its number
("p3" at table 3) and the solo threshold is 16 players.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ranking import (
    NO_SCORE,
    Aggregate,
    Base,
    Entrant,
    GameScores,
    Rules,
    Score,
    TieBreak,
    percent,
    rank_game,
    rank_tournament,
    rows,
    series_group,
)


def player(n: int, *, series: str = "", category: str = "", table: int | None = None) -> Entrant:
    return Entrant(
        key=f"p{n}", name=f"Player {n}", table=n if table is None else table, series=series, category=category
    )


def field(count: int) -> list[Entrant]:
    return [player(n) for n in range(1, count + 1)]


def scores(*paid: int, warned: int = 0) -> tuple[Score, ...]:
    """One score per round; the first ``warned`` rounds carry a warning."""
    return tuple(Score(value, index < warned) for index, value in enumerate(paid))


def order(ranking) -> list[str]:
    return [line.entrant.key for line in ranking.lines]


def ranks(ranking) -> dict[str, int]:
    return {line.entrant.key: line.rank for line in ranking.lines}


def line_of(ranking, key: str):
    return next(line for line in ranking.lines if line.entrant.key == key)


def solo_game(count: int) -> GameScores:
    """Round 1 (top 30): p1 30, everyone else 12: p1's solo.  Round 2 (top 20): p2 18, everyone else 5:
    p2's solo below the top."""
    paid = {f"p{n}": scores(12, 5) for n in range(3, count + 1)}
    return GameScores(tops=(30, 20), scores={"p1": scores(30, 5), "p2": scores(12, 18), **paid})


# -- solos (§3.5) --------------------------------------------------------------------------------------


def test_with_15_players_solos_are_announced_but_worth_nothing():
    ranking = rank_game(field(15), solo_game(15))
    p1, p2 = line_of(ranking, "p1"), line_of(ranking, "p2")
    assert (p1.solo_rounds, p2.solo_rounds) == ((0,), (1,))
    assert (p1.solo_points, p2.solo_points) == (0, 0)
    # p1: 30 + 5 = 35; p2: 12 + 18 = 30; nothing added for the solos.
    assert (p1.total, p2.total) == (35, 30)
    assert [(index, entrant.key) for index, entrant in ranking.solos] == [(0, "p1"), (1, "p2")]


def test_with_16_players_each_solo_is_worth_10():
    ranking = rank_game(field(16), solo_game(16))
    p1, p2 = line_of(ranking, "p1"), line_of(ranking, "p2")
    assert (p1.solos, p1.solo_points, p2.solos, p2.solo_points) == (1, 10, 1, 10)
    # p1: 35 + 10 = 45; p2: 30 + 10 = 40; p3: 12 + 5 = 17, no solo.
    assert (p1.total, p2.total, line_of(ranking, "p3").total) == (45, 40, 17)


def test_the_solo_value_and_threshold_are_settings():
    ranking = rank_game(field(4), solo_game(4), Rules(solo_value=7, solo_min_players=4))
    # p1: 35 + 7 = 42.
    assert line_of(ranking, "p1").total == 42


def test_two_players_sharing_the_best_score_have_no_solo():
    # Round 1 (top 30): p1 and p2 both 25, the 14 others 10: nobody is above everyone else.
    game = GameScores(
        tops=(30,), scores={"p1": scores(25), "p2": scores(25)} | {f"p{n}": scores(10) for n in range(3, 17)}
    )
    ranking = rank_game(field(16), game)
    assert ranking.solos == ()
    assert all(line.solo_points == 0 and line.total == line.paid for line in ranking.lines)


def test_a_solo_below_the_top_still_counts():
    # Round 1 (top 40): p1 31, the others 20: 31 beats every other score though it is not the top.
    game = GameScores(tops=(40,), scores={f"p{n}": scores(31 if n == 1 else 20) for n in range(1, 17)})
    p1 = line_of(rank_game(field(16), game), "p1")
    assert (p1.solo_rounds, p1.tops, p1.total) == ((0,), 0, 41)


def test_a_lone_entrant_has_no_solo_to_beat_anyone():
    ranking = rank_game(
        [player(1)], GameScores(tops=(30,), scores={"p1": scores(30)}), Rules(solo_min_players=1)
    )
    assert ranking.solos == ()
    assert ranking.lines[0].total == 30


def test_penalties_do_not_change_who_has_the_solo():
    # 16 players, 4 rounds (tops 30, 10, 10, 10).  p1: 30 10 10 10, a warning each round; p2: 29 10 10 10;
    # the others 0 10 10 10.  Round 1: p1's 30 beats p2's 29 on paid scores, whatever the warnings.
    # p1: paid 60, solo +10, penalty 5 × (4 − 3) = 5: total 65.  p2: 59.
    game = GameScores(
        tops=(30, 10, 10, 10),
        scores={
            "p1": scores(30, 10, 10, 10, warned=4),
            "p2": scores(29, 10, 10, 10),
            **{f"p{n}": scores(0, 10, 10, 10) for n in range(3, 17)},
        },
    )
    ranking = rank_game(field(16), game)
    p1 = line_of(ranking, "p1")
    assert (p1.solo_rounds, p1.penalty, p1.total) == ((0,), 5, 65)
    assert line_of(ranking, "p2").solo_rounds == ()
    assert [(index, entrant.key) for index, entrant in ranking.solos] == [(0, "p1")]


def test_solos_are_listed_by_round_then_table():
    # Round 1: p2 (table 2) 30; round 2: p1 (table 1) 20.  Round order first: p2, then p1.
    game = GameScores(tops=(30, 20), scores={"p1": scores(10, 20), "p2": scores(30, 10)})
    ranking = rank_game(field(2), game)
    assert [(index, entrant.key) for index, entrant in ranking.solos] == [(0, "p2"), (1, "p1")]


# -- end-of-game penalty (§3.4) ------------------------------------------------------------------------


def warned_game(warnings: int) -> GameScores:
    """Six rounds paid 10 (top 10 each); the first ``warnings`` slips carry a warning."""
    return GameScores(tops=(10,) * 6, scores={"p1": scores(*(10,) * 6, warned=warnings)})


@pytest.mark.parametrize(("warnings", "penalty"), [(3, 0), (4, 5), (6, 15)])
def test_warnings_beyond_the_third_cost_5_each(warnings, penalty):
    # 5 × max(0, warnings − 3): 3 → 0, 4 → 5, 6 → 15; total = 60 − penalty.
    line = rank_game([player(1)], warned_game(warnings)).lines[0]
    assert (line.warnings, line.penalty, line.total) == (warnings, penalty, 60 - penalty)


@pytest.mark.parametrize(("warnings", "penalty"), [(5, 0), (6, 5)])
def test_in_blitz_the_threshold_is_5(warnings, penalty):
    # 5 × max(0, warnings − 5): 5 → 0, 6 → 5.
    line = rank_game([player(1)], warned_game(warnings), Rules(warning_threshold=5)).lines[0]
    assert (line.penalty, line.total) == (penalty, 60 - penalty)


# -- ranks and tie-breaks (§4) -------------------------------------------------------------------------


def test_equal_totals_share_a_rank_and_the_next_rank_is_skipped():
    # Tables 4, 3, 2, 1 for p1…p4; totals 50, 40, 40, 30.  p2 and p3 share rank 2, listed by table (p3
    # sits at table 2, p2 at table 3); p4 is 4th.
    entrants = [player(1, table=4), player(2, table=3), player(3, table=2), player(4, table=1)]
    game = GameScores(
        tops=(50,), scores={"p1": scores(50), "p2": scores(40), "p3": scores(40), "p4": scores(30)}
    )
    ranking = rank_game(entrants, game, Rules(tie_break=TieBreak.NONE))
    assert order(ranking) == ["p1", "p3", "p2", "p4"]
    assert [line.rank for line in ranking.lines] == [1, 2, 2, 4]


def test_equal_entrants_at_the_same_table_are_listed_by_key():
    entrants = [Entrant(key="y", name="Y"), Entrant(key="x", name="X")]
    ranking = rank_game(entrants, GameScores(tops=(10,), scores={"x": scores(5), "y": scores(5)}))
    assert order(ranking) == ["x", "y"]
    assert [line.rank for line in ranking.lines] == [1, 1]


def last(*paid_by_player: tuple[int, ...]) -> GameScores:
    return GameScores(
        tops=tuple(map(max, zip(*paid_by_player))),
        scores={f"p{n}": scores(*paid) for n, paid in enumerate(paid_by_player, 1)},
    )


def test_tie_break_last_decides_on_the_last_round():
    # p1 20 + 10 = 30, p2 10 + 20 = 30; last round: p2's 20 beats p1's 10.
    ranking = rank_game(field(2), last((20, 10), (10, 20)), Rules(tie_break=TieBreak.LAST))
    assert (order(ranking), ranks(ranking)) == (["p2", "p1"], {"p1": 2, "p2": 1})


def test_tie_break_last_goes_back_to_an_earlier_round_when_the_last_is_equal():
    # p1 20 + 10 + 15 = 45, p2 10 + 20 + 15 = 45; last round equal (15); round 2: p2's 20 beats 10.
    ranking = rank_game(field(2), last((20, 10, 15), (10, 20, 15)), Rules(tie_break=TieBreak.LAST))
    assert ranks(ranking) == {"p1": 2, "p2": 1}


def test_a_tie_survives_the_last_chain_when_every_round_is_equal():
    ranking = rank_game(field(3), last((10, 20), (10, 20), (5, 5)), Rules(tie_break=TieBreak.LAST))
    assert ranks(ranking) == {"p1": 1, "p2": 1, "p3": 3}


def test_without_a_tie_break_the_same_totals_share_the_rank():
    ranking = rank_game(field(2), last((20, 10), (10, 20)), Rules(tie_break=TieBreak.NONE))
    assert ranks(ranking) == {"p1": 1, "p2": 1}


def test_tie_break_tops_counts_the_tops_before_the_best_move():
    # Tops 20, 20, 40.  p1 20 + 20 + 10 = 50: 2 tops, best 20.  p2 10 + 5 + 35 = 50: no top, best 35.
    # The tops decide: p1 first although p2 made the best move.
    game = GameScores(tops=(20, 20, 40), scores={"p1": scores(20, 20, 10), "p2": scores(10, 5, 35)})
    ranking = rank_game(field(2), game, Rules(tie_break=TieBreak.TOPS))
    assert ranks(ranking) == {"p1": 1, "p2": 2}
    assert (line_of(ranking, "p1").tops, line_of(ranking, "p2").tops) == (2, 0)


def test_tie_break_tops_then_takes_the_best_single_move():
    # Tops 30, 20, 40.  p1 10 + 20 + 20 = 50: 1 top (round 2), best 20.  p2 30 + 5 + 15 = 50: 1 top
    # (round 1), best 30: p2 first.
    game = GameScores(tops=(30, 20, 40), scores={"p1": scores(10, 20, 20), "p2": scores(30, 5, 15)})
    ranking = rank_game(field(2), game, Rules(tie_break=TieBreak.TOPS))
    assert ranks(ranking) == {"p1": 2, "p2": 1}
    assert (line_of(ranking, "p1").best, line_of(ranking, "p2").best) == (20, 30)


def test_a_tie_survives_the_tops_chain_with_the_same_tops_and_best_move():
    # Tops 30, 20, 40.  p1 30 + 10 + 10 = 50, p2 30 + 5 + 15 = 50: 1 top and a best of 30 each.
    game = GameScores(tops=(30, 20, 40), scores={"p1": scores(30, 10, 10), "p2": scores(30, 5, 15)})
    assert ranks(rank_game(field(2), game, Rules(tie_break=TieBreak.TOPS))) == {"p1": 1, "p2": 1}


def test_a_round_whose_top_is_zero_counts_no_top():
    game = GameScores(tops=(0, 10), scores={"p1": scores(0, 10)})
    assert rank_game([player(1)], game).lines[0].tops == 1


# -- base, négatif, percentage (§4) --------------------------------------------------------------------


def base_game() -> GameScores:
    """Tops 20 × 5 = 100.  p1: 20 × 5 = 100 paid, a warning each round: penalty 5 × (5 − 3) = 10,
    total 90.  p2: 20 + 20 + 20 + 20 + 15 = 95 paid and total."""
    return GameScores(
        tops=(20,) * 5, scores={"p1": scores(20, 20, 20, 20, 20, warned=5), "p2": scores(20, 20, 20, 20, 15)}
    )


def test_on_the_total_the_penalty_puts_the_paid_leader_second():
    ranking = rank_game(field(2), base_game(), Rules(base=Base.TOTAL))
    assert order(ranking) == ["p2", "p1"]
    # négatif = total − 100: p2 −5, p1 −10; percentage = total.
    assert [ranking.negatif(line) for line in ranking.lines] == [-5, -10]
    assert [ranking.percent(line) for line in ranking.lines] == [Fraction(95), Fraction(90)]


def test_on_paid_scores_the_penalty_is_ignored():
    ranking = rank_game(field(2), base_game(), Rules(base=Base.PAID))
    assert order(ranking) == ["p1", "p2"]
    # négatif = paid − 100: p1 0, p2 −5.  Both bases stay printed on each line.
    assert [ranking.negatif(line) for line in ranking.lines] == [0, -5]
    p1 = ranking.lines[0]
    assert (p1.percent_paid, p1.percent_total) == (Fraction(100), Fraction(90))


def test_percentages_are_exact_fractions():
    # 100 × 200 / 300 = 200/3, not 66.66…
    ranking = rank_game([player(1)], GameScores(tops=(100, 200), scores={"p1": scores(100, 100)}))
    assert ranking.top == 300
    assert ranking.percent(ranking.lines[0]) == Fraction(200, 3)
    assert percent(1, 3) == Fraction(100, 3)
    assert percent(50, 0) == 0


# -- missing scores and empty games --------------------------------------------------------------------


def test_missing_entrants_and_missing_rounds_count_zero():
    # p1 handed in round 1 only (short list); p2 has no scores at all.
    ranking = rank_game(field(2), GameScores(tops=(10, 20), scores={"p1": [Score(10)]}))
    assert line_of(ranking, "p1").rounds == (10, 0)
    assert line_of(ranking, "p2").rounds == (0, 0)
    assert (line_of(ranking, "p2").paid, line_of(ranking, "p2").warnings) == (0, 0)
    assert Score(0, False) == NO_SCORE


def test_a_game_with_no_rounds_ranks_everyone_first_with_zeros():
    ranking = rank_game(field(3), GameScores(tops=(), scores={}), Rules(tie_break=TieBreak.LAST))
    assert [line.rank for line in ranking.lines] == [1, 1, 1]
    assert all((line.total, line.best, line.top) == (0, 0, 0) for line in ranking.lines)
    assert ranking.solos == ()


def test_a_tournament_with_no_games_ranks_everyone_first_with_zeros():
    for aggregate in Aggregate:
        ranking = rank_tournament(field(3), [], Rules(aggregate=aggregate, tie_break=TieBreak.TOPS))
        assert [line.rank for line in ranking.lines] == [1, 1, 1]
        assert all((line.total, line.percent, line.games) == (0, 0, ()) for line in ranking.lines)
        assert (ranking.top, ranking.games) == (0, ())


def test_entrants_must_have_distinct_keys():
    with pytest.raises(ValueError):
        rank_game([player(1), player(1)], GameScores(tops=(), scores={}))


# -- tournaments (§4) ----------------------------------------------------------------------------------


def two_games() -> list[GameScores]:
    """Game 1 (top 100): p1 100, p2 50.  Game 2 (top 4 × 250 = 1000): p1 4 × 125 = 500, p2 4 × 175 = 700."""
    return [
        GameScores(tops=(100,), scores={"p1": scores(100), "p2": scores(50)}),
        GameScores(tops=(250,) * 4, scores={"p1": scores(*(125,) * 4), "p2": scores(*(175,) * 4)}),
    ]


def test_cumulated_ranks_on_the_total_over_the_summed_tops():
    ranking = rank_tournament(field(2), two_games(), Rules(aggregate=Aggregate.CUMULATED))
    # p1 100 + 500 = 600, p2 50 + 700 = 750 of 1100: 100 × 750 / 1100 = 750/11; 600/11.
    assert order(ranking) == ["p2", "p1"]
    assert [line.percent for line in ranking.lines] == [Fraction(750, 11), Fraction(600, 11)]
    assert [(line.total, line.top) for line in ranking.lines] == [(750, 1100), (600, 1100)]
    assert [ranking.negatif(line) for line in ranking.lines] == [-350, -500]


def test_average_ranks_on_the_mean_of_the_game_percentages():
    ranking = rank_tournament(field(2), two_games(), Rules(aggregate=Aggregate.AVERAGE))
    # p1 (100 % + 50 %) / 2 = 75 %; p2 (50 % + 70 %) / 2 = 60 %: the other winner.
    assert order(ranking) == ["p1", "p2"]
    assert [line.percent for line in ranking.lines] == [Fraction(75), Fraction(60)]


def test_the_average_skips_games_without_a_top():
    games = [*two_games(), GameScores(tops=(), scores={})]
    ranking = rank_tournament(field(2), games, Rules(aggregate=Aggregate.AVERAGE))
    assert [line.percent for line in ranking.lines] == [Fraction(75), Fraction(60)]


def test_a_tournament_line_gathers_the_game_lines_and_sums_them():
    games = [
        GameScores(tops=(30,), scores={"p1": scores(30, warned=1)}),
        GameScores(tops=(20, 20), scores={"p1": scores(20, 5, warned=2)}),
    ]
    ranking = rank_tournament([player(1)], games, Rules(warning_threshold=1))
    line = ranking.lines[0]
    # Game 1: 30, 1 warning, no penalty; game 2: 25, 2 warnings, 5 × (2 − 1) = 5: total 20.
    assert [game.total for game in line.games] == [30, 20]
    assert (line.paid, line.total, line.top, line.warnings, line.penalty) == (55, 50, 70, 3, 5)
    assert [game.lines[0] for game in ranking.games] == list(line.games)


def test_tournament_tie_break_last_looks_at_the_last_game_first():
    # Game 1: p1 50, p2 40.  Game 2: p1 10 + 20 = 30, p2 25 + 15 = 40.  Both 80; the last game's 40
    # beats 30 before any round is looked at (p1 won the last round, 20 against 15).
    games = [last((50,), (40,)), last((10, 20), (25, 15))]
    ranking = rank_tournament(field(2), games, Rules(tie_break=TieBreak.LAST))
    assert ranks(ranking) == {"p1": 2, "p2": 1}


def test_tournament_tie_break_last_then_reads_the_rounds_backwards_across_games():
    # Game 1: p1 20 + 20 = 40, p2 30 + 10 = 40; game 2: both 25 + 15 = 40.  Totals and games equal; the
    # rounds of game 2 are equal; game 1's last round: p1's 20 beats p2's 10.
    games = [last((20, 20), (30, 10)), last((25, 15), (25, 15))]
    ranking = rank_tournament(field(2), games, Rules(tie_break=TieBreak.LAST))
    assert ranks(ranking) == {"p1": 1, "p2": 2}


def test_tournament_tie_break_tops_sums_the_tops_then_takes_the_best_move():
    # Game 1 (tops 20, 40): p1 20 + 10 = 30 (1 top, best 20), p2 5 + 25 = 30 (no top, best 25).
    # Game 2 (tops 40, 40): both 10 + 10 = 20.  Both 50; p1's top beats p2's better move.
    game_1 = GameScores(tops=(20, 40), scores={"p1": scores(20, 10), "p2": scores(5, 25)})
    game_2 = GameScores(tops=(40, 40), scores={"p1": scores(10, 10), "p2": scores(10, 10)})
    tops = Rules(tie_break=TieBreak.TOPS)
    assert ranks(rank_tournament(field(2), [game_1, game_2], tops)) == {"p1": 1, "p2": 2}
    # Game 2 now (tops 10, 40): p1 0 + 38 = 38 (no top), p2 10 + 28 = 38 (a top).  Both 68 with 1 top over
    # the games; best move over the games: p1 38 (game 2) against p2 28 (game 1's best was p2's 25): p1.
    game_2 = GameScores(tops=(10, 40), scores={"p1": scores(0, 38), "p2": scores(10, 28)})
    assert ranks(rank_tournament(field(2), [game_1, game_2], tops)) == {"p1": 1, "p2": 2}


def test_each_game_of_a_tournament_counts_solos_over_the_whole_field():
    ranking = rank_tournament(field(16), [solo_game(16), solo_game(16)])
    # p1: 45 per game (see test_with_16_players_each_solo_is_worth_10).
    assert (line_of(ranking, "p1").total, line_of(ranking, "p1").solos) == (90, 2)
    assert len(ranking.games) == 2


# -- series and categories (§4) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("series", "group"), [("4A", "4"), ("4", "4"), (" 5 ", "5"), ("", ""), ("4b", "4"), (" open ", "OPEN")]
)
def test_series_group(series, group):
    assert series_group(series) == group


def ranked_field() -> tuple[list[Entrant], GameScores]:
    """Paid 100, 90, 80, 80, 70 for p1…p5."""
    entrants = [
        player(1, series="1", category="S"),
        player(2, series="4A", category="V"),
        player(3, series="4B", category="v "),
        player(4, series="4A", category=""),
        player(5, series="", category="V"),
    ]
    paid = {"p1": 100, "p2": 90, "p3": 80, "p4": 80, "p5": 70}
    return entrants, GameScores(tops=(100,), scores={key: scores(value) for key, value in paid.items()})


def test_ranks_within_a_series_put_sub_series_together():
    ranking = rank_game(*ranked_field())
    # Series 4 (4A and 4B): p2 90 → 1, p3 and p4 80 → 2 and 2.  p1 alone in 1; p5 has no series.
    assert {line.entrant.key: line.series_rank for line in ranking.lines} == {
        "p1": 1,
        "p2": 1,
        "p3": 2,
        "p4": 2,
        "p5": 0,
    }
    assert ranks(ranking) == {"p1": 1, "p2": 2, "p3": 3, "p4": 3, "p5": 5}


def test_ranks_within_a_category_ignore_case_and_spaces():
    ranking = rank_game(*ranked_field())
    # V: p2 90 → 1, p3 80 → 2, p5 70 → 3.  S: p1 → 1.  p4 has no category.
    assert {line.entrant.key: line.category_rank for line in ranking.lines} == {
        "p1": 1,
        "p2": 1,
        "p3": 2,
        "p4": 0,
        "p5": 3,
    }


def test_series_ranks_follow_the_tie_break():
    entrants, _ = ranked_field()
    # p3 and p4 both 80, separated on the last round: p4 (series 4A) before p3 (4B).
    game = GameScores(
        tops=(50, 50),
        scores={"p1": scores(50, 50), "p2": scores(45, 45), "p3": scores(50, 30), "p4": scores(30, 50)},
    )
    ranking = rank_game(entrants, game, Rules(tie_break=TieBreak.LAST))
    assert {line.entrant.key: line.series_rank for line in ranking.lines if line.entrant.series} == {
        "p1": 1,
        "p2": 1,
        "p3": 3,
        "p4": 2,
    }


def test_tournament_lines_carry_series_and_category_ranks():
    entrants, game = ranked_field()
    ranking = rank_tournament(entrants, [game, game])
    assert [(line.series_rank, line.category_rank) for line in ranking.lines] == [
        (1, 1),
        (1, 1),
        (2, 2),
        (2, 0),
        (0, 3),
    ]


# -- properties ----------------------------------------------------------------------------------------


@st.composite
def games(draw) -> tuple[list[Entrant], list[GameScores], Rules]:
    count = draw(st.integers(1, 18))
    entrants = [
        Entrant(
            key=n,
            name=f"P{n}",
            table=draw(st.integers(0, 5)),
            series=draw(st.sampled_from(["", "4A", "4B"])),
            category=draw(st.sampled_from(["", "V", "S"])),
        )
        for n in range(count)
    ]
    played = []
    for _ in range(draw(st.integers(0, 3))):
        rounds = draw(st.integers(0, 5))
        board = {
            n: [Score(draw(st.integers(0, 6)), draw(st.booleans())) for _ in range(rounds)]
            for n in range(count)
        }
        tops = tuple(
            max([s[i].paid for s in board.values()] + [draw(st.integers(0, 6))]) for i in range(rounds)
        )
        played.append(GameScores(tops=tops, scores=board))
    rules = Rules(
        solo_min_players=draw(st.integers(1, 18)),
        warning_threshold=draw(st.integers(0, 3)),
        base=draw(st.sampled_from(Base)),
        tie_break=draw(st.sampled_from(TieBreak)),
        aggregate=draw(st.sampled_from(Aggregate)),
    )
    return entrants, played, rules


@settings(max_examples=200, deadline=None)
@given(games())
def test_game_lines_add_up_and_ranks_never_go_down(case):
    entrants, played, rules = case
    for game in played:
        ranking = rank_game(entrants, game, rules)
        lines = ranking.lines
        assert lines[0].rank == 1
        assert all(a.rank <= b.rank for a, b in pairwise(lines))
        assert all(a.based(rules.base) >= b.based(rules.base) for a, b in pairwise(lines))
        assert all(line.total == line.paid + line.solo_points - line.penalty for line in lines)
        # At most one solo per round (§3.5), and never one in a field of one.
        assert len({index for index, _ in ranking.solos}) == len(ranking.solos)
        assert len(entrants) > 1 or ranking.solos == ()


@settings(max_examples=200, deadline=None)
@given(games())
def test_without_a_tie_break_the_rank_counts_who_did_strictly_better(case):
    entrants, played, rules = case
    rules = Rules(base=rules.base, aggregate=rules.aggregate)
    ranking = rank_tournament(entrants, played, rules)

    def ranked_on(line):
        if rules.aggregate is Aggregate.AVERAGE:
            return line.percent
        return line.total if rules.base is Base.TOTAL else line.paid

    for line in ranking.lines:
        better = sum(1 for other in ranking.lines if ranked_on(other) > ranked_on(line))
        assert line.rank == better + 1
    assert len(ranking.lines) == len(entrants)
    assert all(a.rank <= b.rank for a, b in pairwise(ranking.lines))


@settings(max_examples=200, deadline=None)
@given(games())
def test_a_row_shows_the_figure_it_is_ranked_on_and_its_columns_add_up(case):
    """§4: on either base the main figure (``Row.score``) is the one ranked on, so a ranking read
    down that column never goes up; the games' columns add up to the paid scores, and paid + solos −
    penalties to the total."""
    entrants, played, rules = case
    rules = Rules(solo_min_players=rules.solo_min_players, base=rules.base)
    rankings = [rank_tournament(entrants, played, rules), *(rank_game(entrants, g, rules) for g in played)]
    for ranking in rankings:
        shown = rows(ranking)
        assert all(a.score >= b.score for a, b in pairwise(shown))
        assert all(row.score == (row.total if rules.base is Base.TOTAL else row.paid) for row in shown)
        assert all(sum(row.parts) == row.paid for row in shown)
        assert all(row.paid + row.solo_points - row.penalty == row.total for row in shown)


def test_on_scores_only_a_solo_does_not_lift_the_line_and_the_row_shows_the_scores():
    """On "scores seuls", 92 paid without a solo ranks above 86 paid with one (96 with it)."""
    game = GameScores(tops=(50, 50), scores={"p1": scores(46, 46), "p2": scores(50, 36), "p3": scores(0, 46)})
    ranking = rank_tournament(field(3), [game], Rules(solo_min_players=3, base=Base.PAID))
    first, second, _ = rows(ranking)
    assert (first.key, first.score, first.total) == ("p1", 92, 92)
    assert (second.key, second.score, second.total, second.solo_points) == ("p2", 86, 96, 10)
    assert (second.parts, second.base) == ((86,), Base.PAID)
