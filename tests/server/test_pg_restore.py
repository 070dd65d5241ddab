"""The federation's server backed up and restored with PostgreSQL's own tools.  A database migrated
and played on (a round drawn, slips, closed, its top placed) is dumped with ``pg_dump -Fc``,
restored with ``pg_restore`` into an empty database, and the application, pointed at the copy (with
the same var/ folder: its secret key and uploaded word lists), shows the same ranking and plays on:
the next round drawn, a slip, closed, placed.  Real processes (``manage.py`` and a script of the
services), real PostgreSQL; under CI=true never skipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.live_services import require_port

ROOT = Path(__file__).resolve().parents[2]
#: The server the test makes its two databases on (the maintenance database's URL).
SERVER = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/arbiter")

#: Run by ``python -c`` with Django set up on DATABASE_URL: play round ``NUMBER`` (creating the
#: tournament first when there is none), then print the state as JSON.
PLAY = """
import datetime, json, sys
import django
django.setup()
from django.contrib.auth.models import User
from clubs.access import first_club
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from tournaments import services, standings
from tournaments.models import Player, Round, Tournament

number = int(sys.argv[1])
tournament = Tournament.objects.filter(name="Sauvegarde").first()
if number and tournament is None:
    user = User.objects.create_user("arbitre", password="x-secret-123")
    tournament = services.tournament_create(
        created_by=user, owner=first_club(), lexicon=lexicon_default_row(), name="Sauvegarde",
        date=datetime.date(2026, 11, 26),
    )
    for name in ("Alice", "Bruno"):
        services.player_register(tournament=tournament, name=name)
    services.game_start(tournament=tournament, seed=42)
if number:
    game = tournament.games.get()
    alice, bruno = Player.objects.filter(tournament=tournament).order_by("table_number")
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    slip = f"{top['ref']} {top['word']}"
    live_services.submission_record(player=alice, round_id=rnd.pk, text=f"{slip} {top['score']}")
    live_services.submission_record(player=bruno, round_id=rnd.pk, text=slip)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
ranking = standings.game_rows(standings.game_ranking(tournament.games.get()))
print(json.dumps({
    "ranking": [[row.name, row.total] for row in ranking.rows],
    "tokens": sorted(Player.objects.values_list("token", flat=True)),
    "rounds": list(Round.objects.order_by("number").values_list("number", "status", "rack")),
}))
"""


def _server():
    parts = urlsplit(SERVER)
    return parts.hostname or "127.0.0.1", parts.port or 5432, parts.username or "postgres"


def _url(name: str) -> str:
    host, port, user = _server()
    return f"postgres://{user}@{host}:{port}/{name}"


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(_url("postgres"), autocommit=True, connect_timeout=5) as connection:
        connection.execute(sql)


def _run(args: list[str], env: dict) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{args[:3]}: {done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture
def databases():
    """Two empty databases of this process: the server's and the one it is restored into."""
    host, port, _user = _server()
    require_port("PostgreSQL", host, port)
    for tool in ("pg_dump", "pg_restore"):
        if shutil.which(tool) is None:
            if os.environ.get("CI") == "true":
                pytest.fail(f"{tool} is missing (postgresql-client): CI needs it.")
            pytest.skip(f"{tool} is missing (postgresql-client)")
    names = (f"arbiter_restore_{os.getpid()}", f"arbiter_restored_{os.getpid()}")
    for name in names:
        _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        _admin(f"CREATE DATABASE {name}")
    yield names
    for name in names:
        _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_a_dump_restored_into_an_empty_database_plays_on(databases, tmp_path):
    source, copy = databases
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(
        ARBITER_VAR_DIR=str(tmp_path / "var"), PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="arbiter.settings"
    )
    python = [sys.executable]

    def on(name: str) -> dict:
        return {**env, "DATABASE_URL": _url(name)}

    _run([*python, "manage.py", "migrate", "--noinput"], on(source))
    played = json.loads(_run([*python, "-c", PLAY, "1"], on(source)))
    assert [name for name, _total in played["ranking"]] == ["Alice", "Bruno"]
    assert played["ranking"][0][1] > 0 and [r[1] for r in played["rounds"]] == ["placed"]

    dump = tmp_path / "arbiter.dump"
    _run(["pg_dump", "-Fc", "--no-owner", "-f", str(dump), _url(source)], env)
    _run(["pg_restore", "--no-owner", "--exit-on-error", "-d", _url(copy), str(dump)], env)

    # Nothing to migrate in the copy, and it holds what the server held.
    _run([*python, "manage.py", "migrate", "--check"], on(copy))
    assert json.loads(_run([*python, "-c", PLAY, "0"], on(copy))) == played
    # It plays on: the next round drawn, slips, closed, its top placed.
    after = json.loads(_run([*python, "-c", PLAY, "2"], on(copy)))
    assert [r[:2] for r in after["rounds"]] == [[1, "placed"], [2, "placed"]]
    assert after["rounds"][0] == played["rounds"][0] and after["tokens"] == played["tokens"]
    assert after["ranking"][0][0] == "Alice" and after["ranking"][0][1] > played["ranking"][0][1]
    # The server itself was not touched by the copy's round.
    assert json.loads(_run([*python, "-c", PLAY, "0"], on(source))) == played
