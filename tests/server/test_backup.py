"""The evening saved as it goes.  A real ``manage.py serve`` in its own ``var/`` copies its database
to the arbiter's folder within 5 s of a write made by another process; when the folder goes away
(the key pulled out), fills up or turns read-only, the arbiter's screen says so and the room goes
on; when it comes back the next copy succeeds.  The copies are written beside then renamed: a
partial ``.tmp-`` is never a copy, and only the last few are kept."""

from __future__ import annotations

import datetime
import http.cookiejar
import os
import re
import sqlite3
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from server import backup
from tests.live_services import free_port, listening, wait_for

ROOT = Path(__file__).resolve().parents[2]


def _laptop_env(var: Path) -> dict:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "ARBITER_BACKUP_DIR")
    }
    env.update(ARBITER_VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="arbiter.settings")
    return env


def _write(env: dict, name: str) -> float:
    """A club created by another process (a write the server did not make); when it was committed."""
    code = (
        "import django, sys, time; django.setup(); from clubs.models import Club; "
        "Club.objects.create(name=sys.argv[1]); print(time.time())"
    )
    done = subprocess.run([sys.executable, "-c", code, name], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return float(done.stdout.strip().splitlines()[-1])


def _copy_with(folder: Path, name: str) -> Path | None:
    for path in reversed(backup.copies(folder)):
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if connection.execute("SELECT 1 FROM clubs_club WHERE name = ?", (name,)).fetchone():
                return path
        except sqlite3.Error:
            pass
        finally:
            connection.close()
    return None


def _stamp(path: Path) -> float:
    text = path.name[len(backup.PREFIX) : -len(backup.SUFFIX)]
    return datetime.datetime.strptime(text, "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=datetime.UTC).timestamp()


class Arbiter:
    def __init__(self, port: int, password: str):
        self.port = port
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        html = self.get("/login/")
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        data = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": csrf, "username": "arbitre", "password": password}
        )
        request = urllib.request.Request(self.url("/login/"), data=data.encode(),
                                         headers={"Referer": self.url("/login/")})  # fmt: skip
        with self.opener.open(request, timeout=20) as answer:
            assert answer.status == 200

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> str:
        with self.opener.open(self.url(path), timeout=20) as answer:
            return answer.read().decode()

    def post(
        self, path: str, form: str, files: dict[str, tuple[str, bytes]], fields: dict | None = None
    ) -> str:
        """A multipart form sent from the page at ``form`` (its CSRF token), the page it leads to."""
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.get(form)).group(1)
        boundary = "----arbiter-test-boundary"
        body = b""
        for name, value in {"csrfmiddlewaretoken": csrf, **(fields or {})}.items():
            body += (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            )
        for name, (filename, data) in files.items():
            body += (
                (
                    f"--{boundary}\r\n"
                    f'Content-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                    "Content-Type: application/octet-stream\r\n\r\n"
                ).encode()
                + data
                + b"\r\n"
            )
        body += f"--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Referer": self.url(form)}
        request = urllib.request.Request(self.url(path), data=body, headers=headers)
        with self.opener.open(request, timeout=60) as answer:
            return answer.read().decode()


@pytest.fixture
def laptop(tmp_path):
    var, key = tmp_path / "var", tmp_path / "key"
    env = _laptop_env(var)
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--backup-dir", str(key)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        assert wait_for(lambda: listening(port), 120), log_path.read_text()
        password = re.search(r"mot de passe « ([^»]+) »", log_path.read_text()).group(1)
        yield env, key, port, password
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_write_is_in_the_copy_within_5_s_and_a_pulled_key_is_said_and_the_room_goes_on(laptop):
    env, key, port, password = laptop
    assert wait_for(lambda: backup.copies(key), 20), "no first copy"
    committed = _write(env, "Copie une")
    assert wait_for(lambda: _copy_with(key, "Copie une"), 15)
    # The first copy holding the write was made within 5 s of its commit.
    assert _stamp(_copy_with(key, "Copie une")) - committed <= 5.0
    arbiter = Arbiter(port, password)
    assert "Soirée copiée dans " + str(key) in arbiter.get("/")

    # The arbiter chooses another folder on the screen: refused when relative or not writable.
    page = arbiter.post("/copies/dossier/", "/", {}, {"folder": "cle", "next": "/"})
    assert "Indiquez le chemin complet du dossier" in page and "Soirée copiée dans " + str(key) in page
    blocked = key.with_name("a-file")
    blocked.write_text("x")
    page = arbiter.post("/copies/dossier/", "/", {}, {"folder": str(blocked / "copies"), "next": "/"})
    assert "Impossible d&#x27;écrire dans " + str(blocked / "copies") in page
    second = key.with_name("second-key")
    page = arbiter.post("/copies/dossier/", "/", {}, {"folder": str(second), "next": "/"})
    assert "Les copies de la soirée vont maintenant dans " + str(second) in page
    assert wait_for(lambda: _copy_with(second, "Copie une"), 10)
    assert (key.parent / "var" / "backup_dir").read_text() == str(second)  # kept for the next starts
    page = arbiter.post("/copies/dossier/", "/", {}, {"folder": str(key), "next": "/"})
    assert "Les copies de la soirée vont maintenant dans " + str(key) in page

    # The key pulled out: a file where the folder was (nothing can be written there).
    key.rename(key.with_name("key-out"))
    key.write_text("not a folder")
    _write(env, "Copie deux")
    assert wait_for(lambda: "Copie de la soirée impossible" in arbiter.get("/"), 15)
    page = arbiter.get("/")
    assert 'class="backup error" role="alert"' in page and str(key) in page
    _write(env, "Copie trois")  # the room goes on

    # Back: the next copy succeeds, and holds what was written meanwhile.
    key.unlink()
    key.with_name("key-out").rename(key)
    assert wait_for(lambda: _copy_with(key, "Copie trois"), 15)
    assert wait_for(lambda: "Soirée copiée dans " in arbiter.get("/"), 10)
    assert "Copie de la soirée impossible" not in arbiter.get("/")


def test_a_partial_copy_is_never_counted_and_only_the_last_few_are_kept(tmp_path):
    database, folder = tmp_path / "db.sqlite3", tmp_path / "key"
    writer = sqlite3.connect(database)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (n INTEGER)")
    writer.commit()
    folder.mkdir()
    (folder / f"{backup.TMP_PREFIX}12345{backup.SUFFIX}").write_bytes(b"SQLite format 3\x00" + b"\x00" * 10)
    saver = backup.Saver(database, folder, min_seconds=0, keep=3)
    for n in range(6):
        writer.execute("INSERT INTO t VALUES (?)", (n,))
        writer.commit()
        assert saver.step()
    assert not saver.step()  # nothing changed: no copy
    kept = backup.copies(folder)
    assert len(kept) == 3 and all(p.name.startswith("arbiter-") for p in kept)
    newest = sqlite3.connect(kept[-1])
    assert newest.execute("SELECT count(*) FROM t").fetchone()[0] == 6
    assert newest.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    newest.close()
    assert not list(folder.glob(f"{backup.TMP_PREFIX}{os.getpid()}*"))  # its own draft renamed away


@pytest.fixture
def small_key(tmp_path):
    """A key of 64 KB (a tmpfs: mounting needs root, as in the CI's container), grown later."""
    key = tmp_path / "small-key"
    key.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(key)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("a tmpfs cannot be mounted here (not root)")
    yield key
    subprocess.run(["umount", "-l", str(key)], capture_output=True)


def test_a_full_key_is_said_the_room_goes_on_and_the_copy_resumes_when_there_is_room(tmp_path, small_key):
    var = tmp_path / "var"
    env = _laptop_env(var)
    port, log_path = free_port(), tmp_path / "serve.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--backup-dir", str(small_key)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        assert wait_for(lambda: listening(port), 120), log_path.read_text()
        password = re.search(r"mot de passe « ([^»]+) »", log_path.read_text()).group(1)
        arbiter = Arbiter(port, password)
        assert wait_for(lambda: "Copie de la soirée impossible" in arbiter.get("/"), 15)
        page = arbiter.get("/")
        assert str(small_key) in page and "disk is full" in page  # SQLite's words for ENOSPC
        assert backup.copies(small_key) == [] and list(small_key.iterdir()) == []  # no half copy left
        _write(env, "Pendant la panne")  # the room goes on
        grown = subprocess.run(["mount", "-o", "remount,size=32m", str(small_key)], capture_output=True)
        assert grown.returncode == 0, grown.stderr
        assert wait_for(lambda: _copy_with(small_key, "Pendant la panne"), 15)
        assert wait_for(lambda: "Copie de la soirée impossible" not in arbiter.get("/"), 10)
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def mounted_key(tmp_path):
    """A key of its own (a tmpfs: mounting needs root, as in the CI's container), so that it can be
    made read-only: root writes through a folder's modes, not through a read-only mount."""
    key = tmp_path / "mounted-key"
    key.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(key)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("a tmpfs cannot be mounted here (not root)")
    yield key
    subprocess.run(["umount", "-l", str(key)], capture_output=True)


def test_a_read_only_key_is_said_the_room_goes_on_and_the_copy_resumes_when_writable(tmp_path, mounted_key):
    var = tmp_path / "var"
    env = _laptop_env(var)
    port, log_path = free_port(), tmp_path / "serve.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--backup-dir", str(mounted_key)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        assert wait_for(lambda: listening(port), 120), log_path.read_text()
        password = re.search(r"mot de passe « ([^»]+) »", log_path.read_text()).group(1)
        assert wait_for(lambda: backup.copies(mounted_key), 20), "no first copy"
        locked = subprocess.run(["mount", "-o", "remount,ro", str(mounted_key)], capture_output=True)
        assert locked.returncode == 0, locked.stderr
        _write(env, "Clé en lecture seule")
        arbiter = Arbiter(port, password)
        assert wait_for(lambda: "Copie de la soirée impossible" in arbiter.get("/"), 15)
        assert "Read-only file system" in arbiter.get("/")  # the system's words for EROFS
        _write(env, "Pendant la panne")  # the room goes on
        unlocked = subprocess.run(["mount", "-o", "remount,rw", str(mounted_key)], capture_output=True)
        assert unlocked.returncode == 0, unlocked.stderr
        assert wait_for(lambda: _copy_with(mounted_key, "Pendant la panne"), 15)
        assert wait_for(lambda: "Copie de la soirée impossible" not in arbiter.get("/"), 10)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _club_now(var: Path, name: str) -> None:
    """A write straight into the laptop's database (another connection, at once)."""
    connection = sqlite3.connect(var / "arbiter.sqlite3", timeout=20)
    connection.execute(
        "INSERT INTO clubs_club (name, upload_token, created_at) VALUES (?, ?, '2026-11-26 10:00:00')",
        (name, os.urandom(8).hex()),
    )
    connection.commit()
    connection.close()


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")
def test_ctrl_c_copies_the_last_change_before_the_server_stops(tmp_path):
    import signal

    var, key = tmp_path / "var", tmp_path / "key"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--backup-dir", str(key)],
        cwd=ROOT, env=_laptop_env(var), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert wait_for(lambda: listening(port), 120)
        _club_now(var, "Avant")
        assert wait_for(lambda: _copy_with(key, "Avant"), 15)
        _club_now(var, "Au dernier moment")  # within the 3 s after a copy: not copied yet
        os.killpg(server.pid, signal.SIGINT)
        _out, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    assert server.returncode == 0, err[-2000:]
    assert _copy_with(key, "Au dernier moment")
