"""A laptop that upgrades keeps its tournaments: a database made by the schema before the rooms were
split (migrations up to ``tournaments.0002``, the word lists, printouts and merges still in the
``tournaments`` app), holding a game played two rounds in, is migrated to this version's schema and
the evening goes on (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from engine import draw as engine_draw
from engine.board import Board
from engine.lexicon import DEFAULT_NAME, DEFAULT_PATH, Lexicon
from engine.notation import parse_rack
from engine.record import check, parse
from engine.scoring import apply
from tournaments.plays import play_json

GAME = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"
#: The schema before the rooms: the last migration the previous version had, no room app yet.
BEFORE = [("tournaments", "0002_results"), ("lexicons", None), ("results", None), ("clubs", None)]
PDF = b"%PDF-1.4 a printout kept across the upgrade"


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _played_game(apps) -> dict:
    """Two rounds of the first reference game placed, three players' graded slips, a correction, a
    printout and a merge, written with the models as the previous schema had them."""
    user = apps.get_model("auth", "User").objects.create(username="arbitre", password="!")
    lexicon = Lexicon.from_file(DEFAULT_PATH, DEFAULT_NAME)
    row = apps.get_model("tournaments", "LexiconList").objects.create(
        name=DEFAULT_NAME, sha256=lexicon.sha256, word_count=lexicon.word_count, path=str(DEFAULT_PATH)
    )
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Coupe d'avant", date=datetime.date(2026, 11, 20), place="Salle", lexicon=row, created_by=user
    )
    Player = apps.get_model("tournaments", "Player")
    players = [
        Player.objects.create(tournament=tournament, name=name, table_number=table, token=f"tok{table}")
        for table, name in enumerate(("Alice", "Bruno", "Chloé"), 1)
    ]
    record = parse(GAME.read_text(encoding="utf-8"))
    plays = check(record, lexicon).plays[:2]
    bag, board = engine_draw.Bag.full(), Board()
    game = apps.get_model("tournaments", "Game").objects.create(
        tournament=tournament, number=1, seed=7, bag=[], board=board.cells
    )
    Round = apps.get_model("tournaments", "Round")
    Submission = apps.get_model("tournaments", "Submission")
    paid = {"Alice": [30, 20], "Bruno": [30, 0], "Chloé": [12, 20]}
    now = timezone.now()
    for number, (written, play) in enumerate(zip(record.rounds, plays, strict=False), 1):
        rack = parse_rack(str(written.rack))
        bag.take(rack.new)
        rnd = Round.objects.create(
            game=game, number=number, status="placed", rack=str(written.rack), tiles=list(rack.tiles),
            top_state="ready", top_score=play.score, tops=[play_json(play)], placed=play_json(play),
            started_at=now, deadline=now, closed_at=now,
        )  # fmt: skip
        apply(board, play)
        for player in players:
            score = paid[player.name][number - 1]
            Submission.objects.create(
                round=rnd, player=player, ref=str(play.ref), word=play.word, received_at=now, paid=score,
                sanction="none" if score else "zero", graded_at=now,
            )  # fmt: skip
    game.bag, game.board = list(bag.tiles()), board.cells
    game.save()
    slip = Submission.objects.get(player=players[1], round__number=2)
    apps.get_model("tournaments", "SubmissionChange").objects.create(
        submission=slip, changed_by=user, before=None, after={"slip": "G8 EH", "paid": 0}
    )
    apps.get_model("tournaments", "Printout").objects.create(
        tournament=tournament, game=game, kind="ranking", status="done", filename="classement.pdf", pdf=PDF
    )
    apps.get_model("tournaments", "MergedResults").objects.create(
        created_by=user, files=[{"name": "club.json", "data": json.dumps({"format": "x"})}]
    )
    return {"tournament": tournament.pk, "game": game.pk, "lexicon": lexicon.sha256, "top": 50}


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_previous_schema_keeps_its_played_game_and_the_evening_goes_on():
    executor = _migrate(BEFORE)
    try:
        made = _played_game(executor.loader.project_state(BEFORE[:1]).apps)
        _migrate(_latest())
    finally:
        _migrate(_latest())

    from lexicons.models import LexiconList
    from results import exports
    from results.models import MergedResults, Printout
    from tournaments import services, standings
    from tournaments.models import Game, Submission, SubmissionChange, Tournament

    tournament = Tournament.objects.get(pk=made["tournament"])
    assert isinstance(tournament.lexicon, LexiconList) and tournament.lexicon.sha256 == made["lexicon"]
    game = Game.objects.get(pk=made["game"])
    ranking = standings.game_ranking(game)
    assert ranking.top == made["top"]
    assert {line.entrant.name: line.total for line in ranking.lines} == {
        "Alice": 50,
        "Bruno": 30,
        "Chloé": 32,
    }
    assert [r["word"] for r in exports.game_record(game)["rounds"]] == ["FAVoRI", "EH"]
    assert Submission.objects.count() == 6 and SubmissionChange.objects.count() == 1
    assert bytes(Printout.objects.get(game=game).pdf) == PDF
    assert MergedResults.objects.get().files[0]["name"] == "club.json"
    # The upgrade brings clubs: everything belongs to the first club, whose arbiter the account is.
    from clubs.models import Club, Member

    club = Club.objects.get()
    assert tournament.owner == club and MergedResults.objects.get().owner == club
    assert Member.objects.get().club == club and Member.objects.get().role == "arbiter"
    # Every player upgraded has a join code of their own.
    from live.codes import code_ok
    from tournaments.models import Player

    held = list(Player.objects.values_list("join_code", flat=True))
    assert len(held) == 3 == len(set(held)) and all(code_ok(code) for code in held)
    # The evening goes on: round 3 is drawn on the board the two tops left.
    outcome = services.round_draw(game_id=game.pk, expected_number=3)
    assert outcome.round is not None and outcome.round.number == 3
    assert services.round_compute_top(round_id=outcome.round.pk).top_score > 0
