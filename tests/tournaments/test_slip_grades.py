"""A running round's slips graded once per slip and process (``services.slips._grade_early``): a
hall hands in the same few slips, and each is graded as grading it afresh would grade it; whatever
its grade depends on changed (the tournament's grading, the round's state, the board), it is graded
again."""

from __future__ import annotations

import pytest
from django.utils import timezone

from live.services import slips
from live.services.slips import submission_prepare
from tests.fixtures import calls_to
from tournaments import services
from tournaments.models import Game, Round
from tournaments.services import grading
from tournaments.services.grading import grade_fields
from tournaments.services.tops import position_of

from .test_slipgate import _running, _top

COMPARED = ("paid", "sanction", "reason", "message", "message_en")


@pytest.fixture
def many(tournament):
    return [services.player_register(tournament=tournament, name=f"Joueur {i}") for i in range(6)]


@pytest.fixture
def graded(monkeypatch):
    """The slips the engine was asked to grade, in order."""
    return calls_to(monkeypatch, slips, "grade")


def _fresh(rnd: Round, text: str) -> dict:
    rnd = Round.objects.select_related("game__tournament__lexicon").get(pk=rnd.pk)
    fields = grade_fields(grading.grade(rnd, position_of(rnd.game, rnd), text))
    return {key: fields[key] for key in COMPARED}


def _prepared(player, rnd, text) -> dict:
    fields = submission_prepare(player=player, round_id=rnd.pk, text=text, now=timezone.now())
    return {key: fields[key] for key in COMPARED}


def test_the_same_slip_from_a_whole_room_is_graded_once_and_as_grading_it_afresh(many, game, graded):
    rnd = _running(game)
    score = rnd.tops[0]["score"]
    right, wrong, unreadable = f"{_top(rnd)} {score}", f"{_top(rnd)} {score + 3}", "H8 ZZZZQ 12"
    for player in many:
        for text in (right, wrong, unreadable):
            assert _prepared(player, rnd, text) == _fresh(rnd, text), text
    assert len(graded) == 3  # one grading per distinct slip, not one per player
    assert _fresh(rnd, right)["paid"] == score and _fresh(rnd, wrong)["paid"] != score


def test_a_slip_is_graded_again_once_what_decides_its_grade_changed(many, tournament, game, graded):
    rnd = _running(game)
    wrong = f"{_top(rnd)} {rnd.tops[0]['score'] + 3}"  # a wrong score announced: FISF gives a warning
    fisf = _prepared(many[0], rnd, wrong)
    tournament.grading = "computed"  # the score is worked out: the same slip is right
    tournament.save(update_fields=["grading"])
    computed = _prepared(many[1], rnd, wrong)
    assert fisf != computed and computed == _fresh(rnd, wrong)
    assert len(graded) == 2

    Round.objects.filter(pk=rnd.pk).update(version=rnd.version + 1)  # its state moved (a close)
    assert _prepared(many[2], rnd, wrong) == computed and len(graded) == 3

    board = list(Game.objects.get(pk=game.pk).board)
    board[0] = 1  # another board (a tile on A1): the slip is read on it
    Game.objects.filter(pk=game.pk).update(board=board)
    _prepared(many[3], rnd, wrong)
    assert len(graded) == 4
    _prepared(many[4], rnd, wrong)
    assert len(graded) == 4
