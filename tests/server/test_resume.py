"""Issue 25 (2): the evening resumed on another laptop.  A copy of an evening played in one ``var/``
(a running round in it) is resumed by ``manage.py serve --resume`` in another, freshly installed
``var/``: the same tournaments, players, rounds, slips and accounts, the round left running for the
arbiter, its word list found, and the game goes on.  Copies that are truncated, random bytes,
another application's SQLite database or from a newer version are refused with a clear sentence and
nothing changed; an evening already on the laptop is not overwritten."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from server import backup

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "reference-games" / "game-001.json"


def _env(var: Path) -> dict:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "ARBITER_BACKUP_DIR")
    }
    env.update(ARBITER_VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="arbiter.settings")
    return env


def _run(var: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *arguments], cwd=ROOT, env=_env(var),
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def _evening(var: Path, action: str, *arguments: str) -> dict:
    done = _run(var, "-m", "tests.server.evening", action, *arguments)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _digest(var: Path) -> str:
    return hashlib.sha256((var / "arbiter.sqlite3").read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """An evening played on the first laptop, copied to its key as the server's saver copies it;
    the copy names the word list's file as it was on that laptop (another folder)."""
    root = tmp_path_factory.mktemp("first")
    held = _evening(root / "var", "play", str(RECORD), "2")
    key = root / "key"
    source = sqlite3.connect(root / "var" / "arbiter.sqlite3")
    copy = backup.copy_database(source, key)
    source.close()
    edited = sqlite3.connect(copy)
    edited.execute("UPDATE tournaments_lexiconlist SET path = '/old-laptop/arbiter/engine/lexicon/data/' || "
                   "replace(path, rtrim(path, replace(path, '/', '')), '')")  # fmt: skip
    edited.commit()
    edited.close()
    return key, copy, held


@pytest.fixture
def fresh(tmp_path):
    """The second laptop after its first start: the arbiter's account, its club, the shipped list."""
    var = tmp_path / "var"
    done = _run(var, "manage.py", "serve", "--no-serve")
    assert done.returncode == 0, done.stderr[-3000:]
    return var


def test_the_copy_resumes_on_a_fresh_laptop_and_the_game_goes_on(played, fresh):
    key, _copy, held = played
    done = _run(fresh, "manage.py", "serve", "--no-serve", "--resume", str(key))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Soirée reprise depuis " in done.stdout and "Annuler le coup" in done.stdout
    assert _evening(fresh, "count") == held  # the round that was running is still running
    assert [3, "running"] in held["rounds"]
    # Each player's join code (kept with the rest) brings the phone back to its own seat.
    assert _evening(fresh, "join") == {name: f"/j/{token}/" for name, _code, token in held["join_codes"]}
    went_on = _evening(fresh, "go_on")
    assert went_on["placed"] == 3 and went_on["next"] == 4 and went_on["top"]


def _bad_copies(folder: Path, good: Path) -> dict[str, tuple[Path, str]]:
    folder.mkdir()
    whole = good.read_bytes()
    truncated = folder / "truncated.sqlite3"
    truncated.write_bytes(whole[: len(whole) // 2])
    noise = folder / "noise.sqlite3"
    noise.write_bytes(os.urandom(len(whole)))
    other = folder / "other.sqlite3"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.execute("CREATE TABLE django_migrations (app TEXT, name TEXT)")
    connection.execute("INSERT INTO django_migrations VALUES ('kitchen', '0001_initial')")
    connection.commit()
    connection.close()
    newer = folder / "newer.sqlite3"
    newer.write_bytes(whole)
    connection = sqlite3.connect(newer)
    connection.execute(
        "INSERT INTO django_migrations (app, name, applied) VALUES ('tournaments', '9999_later', '2030')"
    )
    connection.commit()
    connection.close()
    return {
        "truncated": (truncated, "est tronquée"),
        "noise": (noise, "n'est pas une copie de l'arbitre (ce n'est pas une base SQLite)"),
        "other": (other, "d'une autre application"),
        "newer": (newer, "version plus récente de l'arbitre (tournaments.9999_later)"),
        "missing": (folder / "nothing-here.sqlite3", "Pas de copie à cet endroit"),
    }


def test_bad_copies_are_refused_with_a_sentence_and_nothing_changes(played, fresh, tmp_path):
    _key, copy, _held = played
    before = _digest(fresh)
    for name, (path, sentence) in _bad_copies(tmp_path / "bad", copy).items():
        done = _run(fresh, "manage.py", "resume", str(path))
        assert done.returncode == 1, name
        assert sentence in done.stderr and "Nothing was changed." in done.stderr, (name, done.stderr)
        assert "Traceback" not in done.stderr, name
        assert _digest(fresh) == before, name


def test_an_evening_already_on_the_laptop_is_not_overwritten(played, tmp_path):
    _key, copy, _held = played
    var = tmp_path / "var"
    _evening(var, "play", str(RECORD), "1")
    before = _digest(var)
    done = _run(var, "manage.py", "resume", str(copy))
    assert done.returncode == 1 and "n'est pas écrasée" in done.stderr, done.stderr
    assert _digest(var) == before
    replaced = _run(var, "manage.py", "resume", str(copy), "--replace")
    assert replaced.returncode == 0, replaced.stderr[-3000:]
    aside = list(var.glob("replaced-*-arbiter.sqlite3"))
    assert len(aside) == 1 and "gardée sous" in replaced.stdout


def test_after_a_resume_the_new_address_is_shown_large_with_its_qr_code(
    arbiter_client, game, settings, tmp_path
):
    from django.urls import reverse

    settings.VAR_DIR = tmp_path
    home = arbiter_client.get("/", HTTP_HOST="192.168.1.20:8000").content.decode()
    assert "Nouvelle adresse" not in home
    copy = tmp_path / "arbiter-x.sqlite3"
    (tmp_path / "resumed.json").write_text(
        json.dumps({"copy": str(copy), "at": datetime.datetime.now(datetime.UTC).isoformat()}),
        encoding="utf-8",
    )
    for path in ("/", reverse("tournaments:projector", args=[game.pk])):
        page = arbiter_client.get(path, HTTP_HOST="192.168.1.20:8000").content.decode()
        assert "Nouvelle adresse" in page and "http://192.168.1.20:8000/" in page, path
        assert '<section class="resumed-address"' in page and "<svg" in page, path


def test_the_first_page_of_a_fresh_laptop_takes_a_copy_and_the_next_start_resumes_it(played, fresh, tmp_path):
    from tests.live_services import free_port, listening, wait_for
    from tests.server.test_backup import Arbiter

    _key, copy, held = played
    port, log_path = free_port(), tmp_path / "serve.log"
    reset = _run(fresh, "-c", "import django; django.setup(); from django.contrib.auth.models import User; "
                 "u = User.objects.get(username='arbitre'); u.set_password('x-secret-123'); "
                 "u.save()")  # fmt: skip
    assert reset.returncode == 0, reset.stderr[-2000:]
    with log_path.open("w") as log:
        server = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT,
                                  env=_env(fresh), stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        assert wait_for(lambda: listening(port), 120), log_path.read_text()
        arbiter = Arbiter(port, "x-secret-123")
        assert "Reprendre une soirée depuis une copie" in arbiter.get("/")
        refused = arbiter.post("/reprendre/", "/", {"copy": ("noise.sqlite3", os.urandom(8192))})
        assert "noise.sqlite3 n&#x27;est pas une copie de l&#x27;arbitre" in refused
        assert not (fresh / "pending-resume.json").exists()
        taken = arbiter.post("/reprendre/", "/", {"copy": (copy.name, copy.read_bytes())})
        assert "Copie vérifiée" in taken and "relancez « python3 run.py »" in taken
    finally:
        server.terminate()
        server.wait(timeout=30)
    again = _run(fresh, "manage.py", "serve", "--no-serve")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Soirée reprise depuis " in again.stdout
    assert _evening(fresh, "count") == held
    assert not (fresh / "pending-resume.json").exists() and not (fresh / "pending-resume.sqlite3").exists()


def test_a_copy_from_an_older_version_is_migrated(tmp_path):
    """The copy of a laptop one migration behind (``tournaments.0009`` not applied yet)."""
    older = tmp_path / "older"
    done = _run(older, "manage.py", "migrate", "--verbosity", "0")
    assert done.returncode == 0, done.stderr[-2000:]
    back = _run(older, "manage.py", "migrate", "tournaments", "0008", "--verbosity", "0")
    assert back.returncode == 0, back.stderr[-2000:]
    source = sqlite3.connect(older / "arbiter.sqlite3")
    copy = backup.copy_database(source, tmp_path / "key")
    source.close()
    var = tmp_path / "var"
    done = _run(var, "manage.py", "resume", str(copy))
    assert done.returncode == 0, done.stderr[-3000:]
    resumed = sqlite3.connect(var / "arbiter.sqlite3")
    applied = {
        name for (name,) in resumed.execute("SELECT name FROM django_migrations WHERE app='tournaments'")
    }
    resumed.close()
    assert "0009_game_growing" in applied
