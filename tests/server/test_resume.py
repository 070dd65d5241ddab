"""The evening resumed on another laptop.  A copy of an evening played in one ``var/`` (a running
round in it) is resumed by ``manage.py serve --resume`` in another, freshly installed ``var/``: the
same tournaments, players, rounds, slips and accounts, every row as it was, the round left running
for the arbiter, its word list found, and the game goes on; a copy from an older version keeps every
row and is migrated.  Copies that are truncated, random bytes, another application's SQLite database
or from a newer version are refused with a clear sentence and nothing changed; so is a copy that is
not as this application writes it (a trigger, a view, a table, index or column of its own, a virtual
table, migrations out of order, values Django cannot read back, a broken foreign key): the evening
is rebuilt from the copy's rows, never taken as its file.  An evening already on the laptop is not
overwritten."""

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
    # As an older version wrote it, with absolute paths (lexicons.files writes "shipped:<file>").
    edited.execute("UPDATE tournaments_lexiconlist SET path = '/old-laptop/arbiter/engine/lexicon/data/' || "
                   "substr(path, length('shipped:') + 1) WHERE path LIKE 'shipped:%'")  # fmt: skip
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


#: Rows a resume may change: the migrations' bookkeeping, SQLite's counters, the sessions this laptop
#: cannot read, and the word lists' paths (mended to this laptop's files).
NOT_COMPARED = {"django_migrations", "sqlite_sequence", "django_session"}
LEXICON_PATH = ("tournaments_lexiconlist", "path")


def _rows(database: Path, columns_of: Path | None = None) -> dict[str, list[tuple]]:
    """Every table's rows in ``database``, on the tables and columns of ``columns_of`` (default: its own)."""
    shape = sqlite3.connect(columns_of or database)
    tables = {
        name: [c[1] for c in shape.execute(f'PRAGMA table_info("{name}")') if (name, c[1]) != LEXICON_PATH]
        for (name,) in shape.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if name not in NOT_COMPARED
    }
    shape.close()
    connection = sqlite3.connect(database)
    rows = {
        name: connection.execute(f'SELECT {", ".join(f"{chr(34)}{c}{chr(34)}" for c in columns)} '
                                 f'FROM "{name}" ORDER BY rowid').fetchall()
        for name, columns in tables.items()
    }  # fmt: skip
    connection.close()
    return rows


def test_the_copy_resumes_on_a_fresh_laptop_and_the_game_goes_on(played, fresh):
    key, copy, held = played
    done = _run(fresh, "manage.py", "serve", "--no-serve", "--resume", str(key))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Soirée reprise depuis " in done.stdout and "Annuler le coup" in done.stdout
    kept = _rows(fresh / "arbiter.sqlite3", columns_of=copy)
    assert kept == _rows(copy) and sum(map(len, kept.values())) > 100  # every row, as it was
    assert _evening(fresh, "count") == held  # the round that was running is still running
    assert [3, "running"] in held["rounds"]
    # Each player's join code (kept with the rest) brings the phone back to its own seat.
    assert _evening(fresh, "join") == {name: f"/j/{token}/" for name, _code, token in held["join_codes"]}
    went_on = _evening(fresh, "go_on")
    assert went_on["placed"] == 3 and went_on["next"] == 4 and went_on["top"]


def _line(text: str, *words: str) -> str:
    """The one line of a sheet (a table's row, laid out as printed) that holds every one of ``words``."""
    found = [line for line in text.splitlines() if all(word in line for word in words)]
    assert len(found) == 1, (words, text)
    return " ".join(found[0].split())


def test_every_sheet_of_the_resumed_evening_prints_its_players_and_totals(played, fresh):
    """Émile plays every top of the record (30, 20, then 15 in round 3, which was running when the
    copy was made), Fanny hands in nothing."""
    key, _copy, _held = played
    assert _run(fresh, "manage.py", "serve", "--no-serve", "--resume", str(key)).returncode == 0

    before = _evening(fresh, "printed")
    _evening(fresh, "go_on")
    after = _evening(fresh, "printed")

    for printed, total, rounds in ((before, 50, 2), (after, 65, 3)):
        sheets = printed["sheets"]
        assert printed["errors"] == {}
        assert set(sheets) == {"tournament", "evening", "ranking 1", "game 1", "cards 1", "bundle 1"}
        for name, text in sheets.items():
            assert "Simultané" in text and "Temps par coup : 3 min" in text, name
        for name in ("tournament", "ranking 1"):
            assert _line(sheets[name], "Émile").startswith("1 "), name
            assert f" {total} {total} 0 100,00 " in _line(sheets[name], "Émile"), name
            assert f" 0 0 -{total} 0,00 " in _line(sheets[name], "Fanny"), name
        assert f"Top de la partie {total}" in _line(sheets["game 1"], "Top de la partie")
        assert f"Coups : {rounds}" in sheets["game 1"]
        record = json.loads(RECORD.read_text())["rounds"]
        for number, top in enumerate(record[:rounds], 1):
            row = _line(sheets["game 1"], f" {top['ref']} ")
            assert row.startswith(f"{number} ") and f" {top['score']} " in row, row
        for name in ("evening", "bundle 1", "cards 1"):
            assert "Émile" in sheets[name] and "Fanny" in sheets[name], name


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
    trigger = folder / "trigger.sqlite3"
    _altered(good, trigger, HOSTILE["trigger_on_login"][0])
    return {
        "trigger": (
            trigger,
            "n'est pas telle que l'arbitre l'écrit (elle contient un déclencheur, rename_all)",
        ),
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


#: Copies that are not as the arbiter writes them: what is done to a good one (constraints not
#: enforced meanwhile), and the reason each refusal gives.
_FIRST_PLAYER = "WHERE id = (SELECT min(id) FROM tournaments_player)"
HOSTILE = {
    # Code: the arbiter's next login would rename every player, a slip would be refused, a session
    # would empty the rounds; a view where the slips' table was (every slip 503, the game page 500).
    "trigger_on_login": (
        "CREATE TRIGGER rename_all AFTER UPDATE OF last_login ON auth_user "
        "BEGIN UPDATE tournaments_player SET name = 'x'; END",
        "elle contient un déclencheur, rename_all",
    ),
    "trigger_on_slip": (
        "CREATE TRIGGER no_slip BEFORE INSERT ON tournaments_submission BEGIN SELECT RAISE(ABORT, 'no'); END",
        "elle contient un déclencheur, no_slip",
    ),
    "trigger_on_session": (
        "CREATE TRIGGER wipe AFTER INSERT ON django_session BEGIN DELETE FROM tournaments_round; END",
        "elle contient un déclencheur, wipe",
    ),
    "view_like_a_table": (
        "DROP TABLE tournaments_submission; CREATE VIEW tournaments_submission AS SELECT 1 AS id",
        "elle contient une vue, tournaments_submission",
    ),
    "view_new": (
        "CREATE VIEW everyone AS SELECT name FROM tournaments_player",
        "elle contient une vue, everyone",
    ),
    # Another schema: what ``migrate`` and ``serve`` would trip on at every start.
    "extra_table": ("CREATE TABLE notes (body TEXT)", "un objet que l'arbitre ne crée pas : table notes"),
    "extra_index": (
        "CREATE INDEX sneaky ON tournaments_player (name)",
        "un objet que l'arbitre ne crée pas : index sneaky",
    ),
    "extra_column": (
        "ALTER TABLE tournaments_player ADD COLUMN nickname TEXT",
        "les colonnes de sa table tournaments_player diffèrent de celles de l'arbitre (nickname)",
    ),
    "missing_column": (
        "ALTER TABLE tournaments_player DROP COLUMN licence",
        "les colonnes de sa table tournaments_player diffèrent de celles de l'arbitre (licence)",
    ),
    "virtual_table": (
        "DROP TABLE clubs_invitation; CREATE VIRTUAL TABLE clubs_invitation USING fts5(code)",
        "sa table clubs_invitation n'est pas une table ordinaire",
    ),
    "without_rowid": (
        "DROP TABLE tournaments_lexiconlist_clubs; CREATE TABLE tournaments_lexiconlist_clubs "
        "(id integer NOT NULL PRIMARY KEY, lexiconlist_id bigint NOT NULL, club_id bigint NOT NULL)"
        " WITHOUT ROWID",
        "sa table tournaments_lexiconlist_clubs n'est pas une table ordinaire",
    ),
    "migrations_out_of_order": (
        "DELETE FROM django_migrations WHERE app = 'tournaments' AND name = '0011_player_join_code_unique'",
        "sans tournaments.0011_player_join_code_unique, qui la précède",
    ),
    # Values Django cannot read back (or that a column never holds), and a broken foreign key.
    "text_in_integer": (
        f"UPDATE tournaments_player SET table_number = 'douze' {_FIRST_PLAYER}",
        "colonne table_number, ligne 1 : un nombre entier attendu",
    ),
    "real_in_integer": ("UPDATE tournaments_game SET seed = 1.5", "colonne seed, ligne 1 : un nombre entier"),
    "bool_two": (
        "UPDATE auth_user SET is_superuser = 2",
        "table auth_user, colonne is_superuser, ligne 1 : 0 ou 1",
    ),
    "impossible_date": (
        "UPDATE tournaments_submission SET received_at = '2026-02-31 10:00:00'",
        "colonne received_at, ligne 1 : une date et heure",
    ),
    "word_for_a_date": (
        "UPDATE tournaments_round SET drawn_at = 'now'",
        "colonne drawn_at, ligne 1 : une date et heure",
    ),
    "invalid_json": (
        "UPDATE tournaments_round SET tiles = '{nope'",
        "colonne tiles, ligne 1 : du JSON attendu",
    ),
    "invalid_utf8": (
        f"UPDATE tournaments_player SET name = CAST(X'416CC3' AS TEXT) {_FIRST_PLAYER}",
        "colonne name, ligne 1 : un texte UTF-8 sans caractère nul",
    ),
    "nul_in_text": (
        f"UPDATE tournaments_player SET club = CAST(X'410042' AS TEXT) {_FIRST_PLAYER}",
        "colonne club, ligne 1 : un texte UTF-8 sans caractère nul",
    ),
    "text_too_long": (
        f"UPDATE tournaments_player SET series = 'ABCDEFGH' {_FIRST_PLAYER}",
        "colonne series, ligne 1 : un texte UTF-8 sans caractère nul, de 4 caractères au plus",
    ),
    "check_broken": (
        f"UPDATE tournaments_player SET table_number = -1 {_FIRST_PLAYER}",
        "les lignes de sa table tournaments_player ne respectent pas ses contraintes",
    ),
    "foreign_key_broken": (
        "UPDATE tournaments_submission SET player_id = 9999",
        "table tournaments_submission, ligne 1 : renvoie à une ligne absente de tournaments_player",
    ),
}


#: Values Django writes that the checks must take: a fraction of a second SQLite would round up, none
#: at all, letters beyond ASCII, a JSON null and an SQL NULL.
EDGES = (
    "UPDATE tournaments_submission SET received_at = '2026-11-28 18:04:55.999999', graded_at = "
    "'2026-11-28 18:04:56'; UPDATE tournaments_player SET name = 'Zoé Ñandú 名人' "
    f"{_FIRST_PLAYER}; UPDATE tournaments_game SET prepared = 'null'; "
    "UPDATE tournaments_round SET placed = NULL"
)


def _altered(good: Path, path: Path, sql: str) -> Path:
    path.write_bytes(good.read_bytes())
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA ignore_check_constraints = ON")
    connection.executescript(sql)
    connection.commit()
    connection.close()
    return path


def test_a_copy_not_as_the_arbiter_writes_it_is_refused_saying_why_and_nothing_changes(
    played, fresh, tmp_path
):
    from tests.server.evening import var_digest

    _key, copy, _held = played
    (tmp_path / "hostile").mkdir()
    copies = {
        name: _altered(copy, tmp_path / "hostile" / f"{name}.sqlite3", sql)
        for name, (sql, _) in HOSTILE.items()
    }
    edges = _altered(copy, tmp_path / "edges.sqlite3", EDGES)
    before = var_digest(fresh)
    *said, taken = _evening(fresh, "refusals", *map(str, copies.values()), str(edges))
    for name, answer in zip(copies, said, strict=True):
        refusal = answer["refusal"]
        assert refusal is not None, f"{name} was resumed"
        assert HOSTILE[name][1] in refusal["fr"], (name, refusal["fr"])
        assert refusal["fr"].endswith("Rien n'a été changé.") and refusal["en"].endswith(
            "Nothing was changed."
        )
        assert answer["var"] == before, name  # the database and every file of var/ as they were
    assert taken["refusal"] is None and taken["var"] != before  # the same evening, as Django writes it
    assert _rows(fresh / "arbiter.sqlite3", columns_of=edges) == _rows(edges)


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
    for path in ("/", reverse("live:projector", args=[game.pk])):
        page = arbiter_client.get(path, HTTP_HOST="192.168.1.20:8000").content.decode()
        assert "Nouvelle adresse" in page and "http://192.168.1.20:8000/" in page, path
        assert '<section class="resumed-address' in page and "<svg" in page, path


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


def test_a_copy_from_an_older_version_keeps_every_row_and_is_migrated(played, tmp_path):
    """The played evening on a laptop one version behind (``tournaments.0008``: without the join
    codes, the tried slips and the results' outbox): rebuilt at its own migrations, then migrated."""
    _key, copy, _held = played
    older = tmp_path / "older"
    older.mkdir()
    (older / "arbiter.sqlite3").write_bytes(copy.read_bytes())
    back = _run(older, "manage.py", "migrate", "tournaments", "0008", "--verbosity", "0")
    assert back.returncode == 0, back.stderr[-2000:]
    source = sqlite3.connect(older / "arbiter.sqlite3")
    old_copy = backup.copy_database(source, tmp_path / "key")
    source.close()
    var = tmp_path / "var"
    done = _run(var, "manage.py", "resume", str(old_copy))
    assert done.returncode == 0, done.stderr[-3000:]
    resumed = var / "arbiter.sqlite3"
    assert _rows(resumed, columns_of=old_copy) == _rows(old_copy)
    connection = sqlite3.connect(resumed)
    applied = {
        name for (name,) in connection.execute("SELECT name FROM django_migrations WHERE app='tournaments'")
    }
    codes = connection.execute("SELECT count(DISTINCT join_code) FROM tournaments_player").fetchone()[0]
    connection.close()
    assert {"0009_game_growing", "0012_tried_slip"} <= applied and codes == 2


def test_every_column_this_code_makes_has_its_values_checked():
    """A migration that adds a column of a type the rebuild has no check for fails here, not at a
    resume."""
    from server import copycheck, reference

    with reference.reference_for(reference.known_migrations()) as empty:
        connection = sqlite3.connect(empty)
        tables = [t for (t,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        declared = {
            column[2].lower()
            for table in tables
            if table not in copycheck.NOT_COPIED
            for column in connection.execute(f'PRAGMA table_xinfo("{table}")')
        }
        connection.close()
    assert {"integer", "bool", "datetime", "text", "varchar(120)"} <= declared
    for kind in declared:
        copycheck._expected(kind, json=False)  # raises LookupError for a type without a check
