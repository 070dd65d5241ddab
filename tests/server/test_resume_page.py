"""The first page's "Reprendre une soirée depuis une copie" (tournaments/views/resume.py) and the
backup folder's form (server/copies.py): replacing the installation's evening is its administrator's
act alone, on the laptop only.  On a server (PostgreSQL) neither page exists: every account is
answered 404 whatever it sends, and nothing reaches the server's folders.  On the laptop a club's
arbiter is refused (403) before the form is read; the administrator naming a place that holds no
usable copy is answered one sentence whatever the place (missing, a system file, another SQLite
file, a folder whose newest copy is not one): the page never tells whether a path exists or what a
folder holds.  A good copy named is checked and rebuilt, and noted for the next start."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.urls import NoReverseMatch, reverse

from server import backup

laptop_only = pytest.mark.skipif(connection.vendor != "sqlite", reason="the laptop's deployment (SQLite)")
server_only = pytest.mark.skipif(connection.vendor == "sqlite", reason="a server's deployment (PostgreSQL)")
#: A file every server has, and a path nothing is at: a refusal must not tell them apart.
PATHS = ("/etc/passwd", "/nowhere/at/all.sqlite3")
OFFER = "Reprendre une soirée depuis une copie"


@pytest.fixture
def var(settings, tmp_path) -> Path:
    """The installation's folder, empty: whatever a request writes there shows."""
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    return settings.VAR_DIR


@pytest.fixture
def admin(db) -> User:
    return User.objects.create_superuser("admin", password="secret-123")


def _page(answer) -> str:
    """An answer's page without its CSRF tokens (masked anew for every answer)."""
    page = answer.content.decode()
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", page)


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@server_only
def test_on_a_server_neither_page_exists_for_any_account(client, arbiter, admin, var, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    with pytest.raises(NoReverseMatch):
        reverse("tournaments:evening_resume")
    for user in (arbiter, admin):
        client.force_login(user)
        home = client.get("/").content.decode()
        assert OFFER not in home and 'name="path"' not in home
        answers = [client.post("/reprendre/", {"path": path}) for path in PATHS]
        answers.append(
            client.post("/reprendre/", {"copy": _upload(b"SQLite format 3\x00" + os.urandom(4000))})
        )
        answers.append(client.post("/copies/dossier/", {"folder": str(elsewhere), "next": "/"}))
        assert {a.status_code for a in answers} == {404}, user
        assert len({_page(a) for a in answers}) == 1, user  # one answer, whatever was sent
    assert _files(var) == [] and not elsewhere.exists()


@laptop_only
def test_a_club_arbiter_is_refused_before_the_form_is_read(arbiter_client, var):
    home = arbiter_client.get("/").content.decode()
    assert OFFER not in home and 'name="path"' not in home
    answers = [arbiter_client.post("/reprendre/", {"path": path}) for path in PATHS]
    answers.append(arbiter_client.post("/reprendre/", {"copy": _upload(os.urandom(4096))}))
    assert {a.status_code for a in answers} == {403}
    assert len({_page(a) for a in answers}) == 1
    assert "Seul l&#x27;administrateur de ce portable" in _page(answers[0])
    assert _files(var) == []


def _said(client, **form) -> list[str]:
    answer = client.post("/reprendre/", form, follow=True)
    assert answer.status_code == 200
    return [str(m) for m in answer.context["messages"]]


@laptop_only
def test_the_administrator_naming_a_place_without_a_usable_copy_learns_nothing_of_it(
    client, admin, var, tmp_path
):
    client.force_login(admin)
    assert OFFER in client.get("/").content.decode()
    key = tmp_path / "key"
    key.mkdir()
    (key / "arbiter-20260101T000000.000000Z.sqlite3").write_bytes(os.urandom(8192))
    (key / "arbiter-20991231T235959.000000Z.sqlite3").write_bytes(b"SQLite format 3\x00" + os.urandom(8176))
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE recipes (name TEXT)").connection.close()
    newest = key / "arbiter-20991231T235959.000000Z.sqlite3"
    places = [*PATHS, str(key), str(newest), str(other), str(tmp_path), "etc/passwd", "~nobody-here/copies"]
    sentences = {place: _said(client, path=place) for place in places}
    shapes = {place: [s.replace(place, "<place>") for s in said] for place, said in sentences.items()}
    assert len({json.dumps(shape) for shape in shapes.values()}) == 1, shapes
    assert "Pas de copie de l'arbitre utilisable à cet endroit : <place>" in shapes[str(key)][0]
    assert not any("20991231" in s for s in sentences[str(key)])  # the newest file's name is not told
    assert _files(var) == []


@laptop_only
def test_the_administrator_names_the_key_and_its_copy_is_rebuilt_for_the_next_start(
    client, admin, var, tmp_path
):
    from django.conf import settings

    key = tmp_path / "key"
    source = sqlite3.connect(settings.DATABASES["default"]["NAME"])
    copy = backup.copy_database(source, key)
    source.close()
    (key / "media").mkdir()
    client.force_login(admin)
    said = _said(client, path=str(key))
    assert said == [
        f"Copie vérifiée ({copy}). Pour reprendre la soirée : arrêtez le serveur (Ctrl+C dans sa fenêtre) "
        "et relancez « python3 run.py » ; il reprend cette copie."
    ]
    assert _files(var) == ["pending-resume.json", "pending-resume.sqlite3"]
    note = json.loads((var / "pending-resume.json").read_text(encoding="utf-8"))
    assert note == {"path": str(var / "pending-resume.sqlite3"), "media": str(key / "media")}
    rebuilt = sqlite3.connect(var / "pending-resume.sqlite3")
    clubs = rebuilt.execute("SELECT name FROM clubs_club ORDER BY id").fetchall()
    rebuilt.close()
    committed = sqlite3.connect(copy).execute("SELECT name FROM clubs_club ORDER BY id").fetchall()
    assert clubs == committed and clubs


def _upload(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("arbiter-x.sqlite3", data, content_type="application/octet-stream")
