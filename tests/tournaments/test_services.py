"""The services that run a round, against a real database (SQLite by default, PostgreSQL with
DATABASE_URL): draw, top, clock, slips, deadline, grading, corrections, placing, cancelling."""

from __future__ import annotations

import datetime
import json
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from engine.board import Board
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from server.writes import ServiceError
from tournaments import services
from tournaments.models import Game, Round, Submission, SubmissionChange

GAMES = Path(__file__).resolve().parents[1] / "data" / "reference-games"


def _draw_and_start(game, number=1) -> Round:
    outcome = services.round_draw(game_id=game.pk, expected_number=number)
    rnd = outcome.round
    rnd.refresh_from_db()
    assert rnd.top_state == Round.TopState.READY  # computed at commit (in-process without a broker)
    return services.round_start(round_id=rnd.pk)


def _top_slip(rnd: Round, score: bool = True) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']}" + (f" {top['score']}" if score else "")


def test_a_drawn_rack_gets_its_top_before_the_clock_can_start(game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd.refresh_from_db()
    assert len(rnd.tiles) == 7
    assert rnd.top_score and rnd.tops[0]["score"] == rnd.top_score
    started = services.round_start(round_id=rnd.pk)
    assert started.status == Round.Status.RUNNING
    assert started.deadline - started.started_at == timedelta(seconds=180)


def test_a_whole_round_grades_every_slip_and_places_the_top(game, players):
    rnd = _draw_and_start(game)
    alice, bruno, chloe = players
    live_services.submission_record(player=alice, round_id=rnd.pk, text=_top_slip(rnd))
    live_services.submission_record(player=bruno, round_id=rnd.pk, text=_top_slip(rnd, score=False) + " 999")
    live_services.submission_record(player=chloe, round_id=rnd.pk, text="H8 ZZZZ 10")
    after = rnd.deadline + timedelta(seconds=3)
    closed = services.round_close_if_due(round_id=rnd.pk, now=after)
    assert closed.status == Round.Status.CLOSED
    graded = {s.player.name: s for s in Submission.objects.filter(round=rnd).select_related("player")}
    assert graded["Alice"].paid == rnd.top_score and graded["Alice"].sanction == "none"
    assert graded["Bruno"].paid == 0  # a claim above the top
    assert (graded["Chloé"].paid, graded["Chloé"].reason) == (0, "word")
    placed = services.round_place_top(round_id=rnd.pk)
    assert placed.status == Round.Status.PLACED
    game.refresh_from_db()
    assert sum(1 for c in game.board if c) == len(placed.placed["tiles"])


def test_the_next_rack_keeps_the_reliquat(game):
    rnd = _draw_and_start(game)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    rnd.refresh_from_db()
    used = len(rnd.placed["tiles"])
    if not second.rack.startswith("-"):
        assert second.rack.count("+") == (1 if used < 7 else 0)
        assert len(second.rack.split("+")[0]) == 7 - used


def test_a_slip_after_the_deadline_and_grace_is_refused_and_says_so(game, players):
    rnd = _draw_and_start(game)
    within_grace = rnd.deadline + timedelta(seconds=1.5)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top_slip(rnd), now=within_grace)
    late = rnd.deadline + timedelta(seconds=2.5)
    with pytest.raises(ServiceError) as refused:
        live_services.submission_record(player=players[1], round_id=rnd.pk, text=_top_slip(rnd), now=late)
    assert refused.value.message.code == "slip_late"
    assert "Trop tard" in refused.value.message.text("fr")
    assert not Submission.objects.filter(player=players[1]).exists()


def test_the_last_slip_counts_and_a_retried_request_is_stored_once(game, players):
    rnd = _draw_and_start(game)
    player = players[0]
    live_services.submission_record(player=player, round_id=rnd.pk, text="H8 AB 2", request_id="r1")
    live_services.submission_record(player=player, round_id=rnd.pk, text=_top_slip(rnd), request_id="r2")
    live_services.submission_record(player=player, round_id=rnd.pk, text=_top_slip(rnd), request_id="r2")
    sub = Submission.objects.get(round=rnd, player=player)
    assert sub.revision == 2
    assert sub.slip_text() == _top_slip(rnd)


def test_a_malformed_slip_gets_a_clear_message_and_keeps_the_previous_one(game, players):
    rnd = _draw_and_start(game)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top_slip(rnd))
    with pytest.raises(ServiceError) as refused:
        live_services.submission_record(player=players[0], round_id=rnd.pk, text="Z99 M0T!")
    assert refused.value.message.code == "slip_unreadable"
    assert Submission.objects.get(round=rnd, player=players[0]).slip_text() == _top_slip(rnd)


def test_a_slip_for_a_round_not_running_is_refused(game, players):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    with pytest.raises(ServiceError) as refused:
        live_services.submission_record(player=players[0], round_id=rnd.pk, text="H8 MOT")
    assert refused.value.message.code == "slip_round_not_running"


def test_a_second_tab_asking_for_the_same_round_draws_nothing_more(game):
    first = services.round_draw(game_id=game.pk, expected_number=1).round
    again = services.round_draw(game_id=game.pk, expected_number=1).round
    assert again.pk == first.pk
    assert Round.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_tabs_pressing_next_round_at_once_draw_one_rack(tournament):
    game = services.game_start(tournament=tournament, seed=7)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def press():
        try:
            barrier.wait()
            results.append(services.round_draw(game_id=game.pk, expected_number=1).round.pk)
        except Exception as error:  # reported below: the test shows what went wrong
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=press) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert Round.objects.filter(game=game).count() == 1
    assert len(set(results)) == 1
    game.refresh_from_db()
    assert len(game.bag) == 102 - 7


def test_the_arbiter_corrects_a_slip_and_the_change_is_logged(game, players, arbiter):
    rnd = _draw_and_start(game)
    services.round_close(round_id=rnd.pk)
    sub = live_services.submission_correct(
        round_id=rnd.pk, player=players[2], text=_top_slip(rnd), user=arbiter
    )
    assert sub.paid == rnd.top_score and sub.entered_by == arbiter
    change = SubmissionChange.objects.get(submission=sub)
    assert change.before is None and change.after["paid"] == rnd.top_score
    live_services.submission_correct(round_id=rnd.pk, player=players[2], text="H8 ZZZZ", user=arbiter)
    latest = SubmissionChange.objects.filter(submission=sub).first()
    assert latest.before["paid"] == rnd.top_score and latest.after["paid"] == 0


def test_correcting_during_the_round_is_refused(game, players, arbiter):
    rnd = _draw_and_start(game)
    with pytest.raises(ServiceError):
        live_services.submission_correct(round_id=rnd.pk, player=players[0], text="H8 MOT", user=arbiter)


def test_cancelling_a_round_returns_its_tiles_and_draws_a_different_rack(game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    outcome = services.round_cancel(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CANCELLED
    assert outcome.round.number == 1 and outcome.round.attempt == 2
    assert sorted(outcome.round.tiles) != sorted(rnd.tiles)
    game.refresh_from_db()
    assert len(game.bag) == 102 - 7


def test_a_prepared_game_replays_its_racks(tournament):
    data = (GAMES / "game-001.json").read_text()
    game = services.game_start(tournament=tournament, prepared=data)
    assert game.source == Game.Source.PREPARED
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    assert rnd.rack == json.loads(data)["rounds"][0]["rack"]


def test_a_prepared_game_that_does_not_replay_is_refused_with_the_round_and_reason(tournament):
    data = json.loads((GAMES / "game-001.json").read_text())
    data["rounds"][3]["score"] += 2
    data["total"] += 2
    with pytest.raises(ServiceError) as refused:
        services.game_start(tournament=tournament, prepared=json.dumps(data))
    assert "Tour 4" in refused.value.message.text("fr")
    assert not Game.objects.exists()


def test_the_clock_never_starts_before_the_top_is_known(game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    Round.objects.filter(pk=rnd.pk).update(top_state=Round.TopState.PENDING, tops=[])
    with pytest.raises(ServiceError) as refused:
        services.round_start(round_id=rnd.pk)
    assert refused.value.message.code == "round_top_not_ready"


def test_players_import_from_a_french_spreadsheet_csv(tournament):
    data = "Nom;Club;Licence;Série;Catégorie;Table\nÉlise Dupré;Lyon;123;4B;Vermeil;7\nMarc;Nice;;2;;\n"
    created = services.players_import_csv(tournament=tournament, data=data.encode("cp1252"))
    assert [(p.name, p.table_number, p.series) for p in created] == [
        ("Élise Dupré", 7, "4B"),
        ("Marc", 1, "2"),
    ]
    assert all(len(p.token) >= 32 for p in created)


def test_a_round_closes_on_time_even_without_a_worker(game, players):
    rnd = _draw_and_start(game)
    assert services.round_close_if_due(round_id=rnd.pk, now=rnd.deadline).status == Round.Status.RUNNING
    later = timezone.now() + timedelta(seconds=400)
    assert services.round_close_if_due(round_id=rnd.pk, now=later).status == Round.Status.CLOSED


def test_a_refusal_carries_its_engine_reason_in_each_language(game, players):
    rnd = _draw_and_start(game)
    with pytest.raises(ServiceError) as refused:
        live_services.submission_record(player=players[0], round_id=rnd.pk, text="Z9 MOT")
    french, english = refused.value.message.text("fr"), refused.value.message.text("en")
    assert french.startswith("Bulletin illisible : ") and "ligne" in french
    assert english.startswith("Unreadable slip: ") and "row" in english


def test_a_slip_corrected_after_later_tops_were_placed_is_graded_on_the_board_of_its_round(
    game, players, arbiter
):
    """The arbiter corrects round 1 after rounds 1 and 2 are on the board: the top of round 1 is
    still paid the top (its squares were free when it was played)."""
    first = services.round_draw(game_id=game.pk, expected_number=1).round
    first = services.round_start(round_id=first.pk)
    services.round_close(round_id=first.pk)
    services.round_place_top(round_id=first.pk)
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    second = services.round_start(round_id=second.pk)
    services.round_close(round_id=second.pk)
    services.round_place_top(round_id=second.pk)
    first.refresh_from_db()
    top = first.placed
    sub = live_services.submission_correct(
        round_id=first.pk, player=players[0], text=f"{top['ref']} {top['word']} {top['score']}", user=arbiter
    )
    assert (sub.paid, sub.sanction) == (top["score"], "none")


def test_a_random_draw_searches_its_top_once_and_the_round_has_it_at_once(game, monkeypatch):
    """§3.1.5: the draw's check that a move exists is the top search itself; its result is the
    round's top, never searched again (no task queued, nothing for a worker to do)."""
    from tournaments.services import draws, tops

    searched = []
    real = draws.find_tops

    def counted(position):
        searched.append(position.rack)
        return real(position)

    monkeypatch.setattr(draws, "find_tops", counted)
    monkeypatch.setattr(tops, "find_tops", lambda position: pytest.fail("the top was searched again"))
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    assert rnd.top_state == Round.TopState.READY and searched[-1] == tuple(rnd.tiles)
    lexicon = draws.engine_lexicon(rnd.game.tournament.lexicon)
    expected = real(draws.Position(Board(), tuple(rnd.tiles), lexicon, first_move=True))
    assert rnd.top_score == expected.score
    assert {t["ref"] + t["word"] for t in rnd.tops} == {str(p.ref) + p.word for p in expected.plays}
    assert services.round_start(round_id=rnd.pk).status == Round.Status.RUNNING


def test_a_tournament_without_a_warning_threshold_gets_the_rules_one_for_its_round_time(arbiter):
    """§3.4: three warnings are free, five in blitz; a threshold given stands."""
    made = {
        (seconds, given): services.tournament_create(
            created_by=arbiter, lexicon=lexicon_default_row(), name="T", date=datetime.date(2026, 11, 20),
            round_seconds=seconds, warning_threshold=given,
        ).warning_threshold
        for seconds in (180, 60)
        for given in (None, 2)
    }  # fmt: skip
    assert made == {(180, None): 3, (60, None): 5, (180, 2): 2, (60, 2): 2}
