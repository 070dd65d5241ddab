"""An upgrade from the previous version keeps the evening (CHANGELOG.md, "Upgrading"): a database at the
last schema of 0.1.0 (PREVIOUS: clubs and their arbiter, the word list, a tournament with its players'
join codes, two rounds placed with graded slips and a correction, a printout, a merge, a result waiting
in the outbox, a simultaneous with a registered centre), written with the models as that schema had
them, is migrated to this version's schema: every row is still there with every value it had (the
columns the migrations rewrite on purpose named in REWRITTEN), and the evening goes on (round 3 drawn
and its top found).  SQLite and PostgreSQL."""

from __future__ import annotations

import datetime
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
from tournaments.services.registration import codes_fresh

GAME = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"
#: The last migrations of 0.1.0, the version before 1.0.0 (its last one: the join codes).
PREVIOUS = [
    ("clubs", "0003_upload_token"),
    ("lexicons", "0002_lexiconlist_clubs"),
    ("tournaments", "0011_player_join_code_unique"),
    ("results", "0005_outbox"),
    ("simultaneous", "0003_registrations"),
]
#: Columns a later migration rewrites on purpose: a word list's path, kept relative to where the
#: installation keeps its lists (the evening going on proves the list is still found).
REWRITTEN = {("tournaments_lexiconlist", "path")}
PDF = b"%PDF-1.4 a printout kept across the upgrade"


def _migrate(targets) -> MigrationExecutor:
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection)


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _evening(apps) -> dict:
    """A club's evening as 0.1.0 wrote it, with its models as they were."""
    user = apps.get_model("auth", "User").objects.create(username="arbitre", password="!", is_superuser=True)
    club = apps.get_model("clubs", "Club").objects.create(name="Montluçon", upload_token="t" * 32)
    other = apps.get_model("clubs", "Club").objects.create(name="Vichy", upload_token="v" * 32)
    apps.get_model("clubs", "Member").objects.create(club=club, user=user, role="arbiter")
    lexicon = Lexicon.from_file(DEFAULT_PATH, DEFAULT_NAME)
    word_list = apps.get_model("lexicons", "LexiconList").objects.create(
        name=DEFAULT_NAME, sha256=lexicon.sha256, word_count=lexicon.word_count, path=str(DEFAULT_PATH)
    )
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Coupe d'avant", date=datetime.date(2026, 11, 26), place="Salle", lexicon=word_list,
        created_by=user, owner=club,
    )  # fmt: skip
    Player = apps.get_model("tournaments", "Player")
    codes = codes_fresh(3)
    players = [
        Player.objects.create(tournament=tournament, name=name, table_number=table, token=f"tok{table}",
                              join_code=codes[table - 1], licence=f"12{table}", club="Montluçon")
        for table, name in enumerate(("Alice", "Bruno", "Chloé"), 1)
    ]  # fmt: skip
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
            drawn_at=now, started_at=now, deadline=now, closed_at=now,
        )  # fmt: skip
        apply(board, play)
        for player in players:
            score = paid[player.name][number - 1]
            Submission.objects.create(
                round=rnd, player=player, ref=str(play.ref), word=play.word, received_at=now, paid=score,
                claimed=score, sanction="none" if score else "zero", graded_at=now,
            )  # fmt: skip
    game.bag, game.board = list(bag.tiles()), board.cells
    game.save()
    slip = Submission.objects.get(player=players[1], round__number=2)
    apps.get_model("tournaments", "SubmissionChange").objects.create(
        submission=slip, player=players[1], round=slip.round, changed_by=user, before=None,
        after={"slip": "G8 EH", "paid": 0},
    )  # fmt: skip
    apps.get_model("results", "Printout").objects.create(
        tournament=tournament, game=game, kind="ranking", status="done", filename="classement.pdf", pdf=PDF
    )
    apps.get_model("results", "MergedResults").objects.create(
        created_by=user, owner=club, files=[{"name": "club.json", "data": "{}"}]
    )
    apps.get_model("results", "Outbox").objects.create(
        game=game, url="https://federation.example/resultats/", token="u" * 32
    )
    event = apps.get_model("simultaneous", "Event").objects.create(
        name="Simultané d'hiver", date=datetime.date(2026, 11, 26), kind="live", created_by=user,
        lexicon=word_list, organiser=club, public_key="p" * 16,
    )  # fmt: skip
    apps.get_model("simultaneous", "Registration").objects.create(event=event, club=other, mode="live")
    return {"game": game.pk, "top": 50}


def _rows() -> dict[str, dict[object, dict[str, object]]]:
    """Every row of every table but the migrations' own, by its first column."""
    tables = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            if table == "django_migrations":
                continue
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            names = [column[0] for column in cursor.description]
            tables[table] = {
                row[0]: {name: bytes(v) if isinstance(v, memoryview) else v for name, v in zip(names, row)}
                for row in cursor.fetchall()
            }
    return tables


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_previous_version_keeps_every_row_and_the_evening_goes_on():
    executor = _migrate(PREVIOUS)
    try:
        made = _evening(executor.loader.project_state(PREVIOUS).apps)
        before = _rows()
        _migrate(_latest())
        after = _rows()
    finally:
        _migrate(_latest())

    assert sum(len(rows) for rows in before.values()) > 30
    changed = []
    for table, rows in before.items():
        for key, row in rows.items():
            now = after.get(table, {}).get(key)
            if now is None:
                changed.append((table, key, "row gone"))
                continue
            kept = [column for column in row if (table, column) not in REWRITTEN]
            changed += [(table, key, column) for column in kept if now.get(column, object()) != row[column]]
    assert changed == []

    from results.models import Outbox, Printout
    from simultaneous.models import Registration
    from tournaments import services, standings
    from tournaments.models import Game, Player

    game = Game.objects.get(pk=made["game"])
    ranking = standings.game_ranking(game)
    assert ranking.top == made["top"]
    totals = {line.entrant.name: line.total for line in ranking.lines}
    assert totals == {"Alice": 50, "Bruno": 30, "Chloé": 32}
    assert bytes(Printout.objects.get(game=game).pdf) == PDF
    assert Outbox.objects.get(game=game).status == before["results_outbox"][1]["status"]
    assert Registration.objects.get().club.name == "Vichy"
    assert len(set(Player.objects.values_list("join_code", flat=True))) == 3
    # The evening goes on: round 3 is drawn on the board the two tops left, its top found in the list.
    outcome = services.round_draw(game_id=game.pk, expected_number=3)
    assert outcome.round is not None and outcome.round.number == 3
    assert services.round_compute_top(round_id=outcome.round.pk).top_score > 0
