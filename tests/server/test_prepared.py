"""``server.prepared``: a query's SQL made once, run again with other values, its columns as the ORM
gives them (on SQLite and PostgreSQL alike: ./scripts/test runs this file on both)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from live import services as live_services
from server.prepared import Prepared
from tournaments import services
from tournaments.models import Round, Submission

pytestmark = pytest.mark.django_db


def test_each_value_goes_to_its_place_and_columns_come_back_as_the_orm_gives_them(players, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    deadline = timezone.now() + timedelta(seconds=90)
    Round.objects.filter(pk=rnd.pk).update(deadline=deadline)
    top = Round.objects.get(pk=rnd.pk).tops[0]
    live_services.submission_record(player=players[1], round_id=rnd.pk, text=f"{top['ref']} {top['word']}")
    # filter()'s keywords are sorted by Django (player_id before round_id): each value to its own.
    read = Prepared(
        lambda round_id, player_id: Submission.objects.filter(
            round_id=round_id, player_id=player_id
        ).values_list("player_id", "round_id", "received_at"),
        round_id=-1,
        player_id=-2,
    )
    expected = (
        Submission.objects.filter(round=rnd, player=players[1])
        .values_list("player_id", "round_id", "received_at")
        .get()
    )
    found = read.one(round_id=rnd.pk, player_id=players[1].pk)
    assert found == expected and timezone.is_aware(found[2])
    assert read.one(round_id=rnd.pk, player_id=players[0].pk) is None
    dated = Prepared(lambda pk: Round.objects.filter(pk=pk).values_list("deadline", "status"), pk=-1)
    assert dated.one(pk=rnd.pk) == (deadline, Round.Status.RUNNING)
