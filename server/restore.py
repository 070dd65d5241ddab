"""The evening resumed on another laptop (issue 25): a copy made by ``server.backup`` checked, then
put in place of this laptop's empty database.

A copy is refused, with a sentence and nothing changed here, when it is missing, not an SQLite file
(random bytes), shorter than its header says (truncated), damaged (``PRAGMA integrity_check``), an
SQLite database of another application (no ``django_migrations`` naming this application's rooms),
or from a newer version (a migration this code does not have).  A copy from an older version is
migrated by ``manage.py migrate`` after it is in place.  This laptop's database is never overwritten
when it holds an evening (more than a fresh installation's arbiter, club and shipped list), unless
asked (``replace``): the old one is then moved aside, not deleted.

The files under ``MEDIA_ROOT`` (the clubs' uploaded word lists) are copied beside the database by the
backup (``<folder>/media/``) and put back here; each room's ``AppConfig.resumed()`` then mends what
named the old laptop's paths."""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import shutil
import sqlite3
from pathlib import Path

from server import backup
from server.writes import ServiceError

HEADER = b"SQLite format 3\x00"
#: The rooms a copy of this application must have migrations of.
OWN_APPS = ("clubs", "tournaments")
#: Django's bookkeeping, the same on every installation.
BOOKKEEPING = {
    "django_migrations",
    "sqlite_sequence",
    "django_content_type",
    "auth_permission",
    "django_session",
}
#: What a fresh installation holds (the arbiter's account, its club, the shipped word list): at most
#: one row each, and still "empty".
FRESH_ROWS = {"auth_user", "clubs_club", "tournaments_lexiconlist"}


def chosen_copy(path: Path) -> Path:
    """The copy named, or in a folder (the arbiter's key) the newest complete one."""
    if path.is_dir():
        found = backup.copies(path)
        if not found:
            raise ServiceError("copy_missing", path=str(path))
        return found[-1]
    if not path.is_file():
        raise ServiceError("copy_missing", path=str(path))
    return path


def check_copy(path: Path, applied_here_known: set[tuple[str, str]]) -> None:
    """Refuse (ServiceError) a copy that is not a whole, sound copy of this application no newer than
    this code (``applied_here_known``: every migration this code has, as (app, name))."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
        size = path.stat().st_size
    except OSError as error:
        raise ServiceError("copy_missing", path=f"{path} ({error.strerror})") from error
    if len(header) < 100 or not header.startswith(HEADER):
        raise ServiceError("copy_not_sqlite", path=str(path))
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if page_size < 512 or size < page_size * pages or size % page_size:
        raise ServiceError("copy_truncated", path=str(path))
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as error:
        raise ServiceError("copy_corrupt", path=str(path), reason=str(error)) from error
    try:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":
            raise ServiceError("copy_corrupt", path=str(path), reason=verdict[:200])
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "django_migrations" not in tables:
            raise ServiceError("copy_foreign", path=str(path))
        applied = set(connection.execute("SELECT app, name FROM django_migrations"))
    except sqlite3.Error as error:
        raise ServiceError("copy_corrupt", path=str(path), reason=str(error)) from error
    finally:
        connection.close()
    if not all(any(app == own for app, _ in applied) for own in OWN_APPS):
        raise ServiceError("copy_foreign", path=str(path))
    newer = sorted(applied - applied_here_known)
    if newer:
        raise ServiceError("copy_newer", path=str(path), migration=f"{newer[0][0]}.{newer[0][1]}")


def holds_an_evening(database: Path) -> bool:
    """Whether this laptop's database holds more than a fresh installation."""
    if not database.exists():
        return False
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            if table in BOOKKEEPING or table.startswith("axes_"):  # the login log (django-axes)
                continue
            rows = connection.execute(f'SELECT count(*) FROM (SELECT 1 FROM "{table}" LIMIT 2)').fetchone()[0]
            if rows > (1 if table in FRESH_ROWS else 0):
                return True
        return False
    finally:
        connection.close()


def put_in_place(copy: Path, database: Path, media_root: Path, *, replace: bool = False) -> Path | None:
    """The checked copy made this laptop's database (written beside, then renamed), its media files
    put back; the old database's new name when ``replace`` moved it aside."""
    if holds_an_evening(database) and not replace:
        raise ServiceError("resume_not_empty", path=str(database))
    database.parent.mkdir(parents=True, exist_ok=True)
    draft = database.with_name(f".resume-{os.getpid()}-{database.name}")
    with contextlib.suppress(FileNotFoundError):
        draft.unlink()
    source = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    target = sqlite3.connect(draft)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
        source.close()
    fd = os.open(draft, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    aside = None
    if database.exists():
        settled = sqlite3.connect(database)
        try:
            settled.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the old evening whole in its file
        finally:
            settled.close()
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = database.with_name(f"replaced-{stamp}-{database.name}")
        os.replace(database, aside)
    for suffix in ("-wal", "-shm"):  # the old database's log must not be replayed into the copy
        with contextlib.suppress(FileNotFoundError):
            os.unlink(database.with_name(database.name + suffix))
    os.replace(draft, database)
    media = copy.parent / "media"
    if media.is_dir():
        shutil.copytree(media, media_root, dirs_exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).isoformat()
    (database.parent / MARKER).write_text(json.dumps({"copy": str(copy), "at": stamp}), encoding="utf-8")
    return aside


#: Written beside the database by a resume: the arbiter's screens and the projector show the new
#: address, large, with its QR code, for ``SHOWN_HOURS`` after it.
MARKER = "resumed.json"
SHOWN_HOURS = 6


def resumed_recently(var_dir: Path) -> dict | None:
    """The resume's copy and time when this laptop resumed an evening in the last ``SHOWN_HOURS``."""
    try:
        marker = json.loads((Path(var_dir) / MARKER).read_text(encoding="utf-8"))
        at = datetime.datetime.fromisoformat(marker["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if datetime.datetime.now(datetime.UTC) - at > datetime.timedelta(hours=SHOWN_HOURS):
        return None
    return marker


def resume_evening(path: Path, *, replace: bool = False) -> tuple[Path, Path | None]:
    """``manage.py resume``/``serve --resume``: the copy at ``path`` (a file, or the newest in a
    folder) checked, put in place of this laptop's database, migrated, and each room's
    ``resumed()`` run; the copy used and where the replaced database went (None: nothing replaced).
    Refusals are ServiceError, with nothing changed."""
    from django.apps import apps
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections
    from django.db.migrations.loader import MigrationLoader

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        raise ServiceError("resume_not_sqlite")
    copy = chosen_copy(Path(path).expanduser())
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    check_copy(copy, known)
    connections.close_all()
    aside = put_in_place(copy, Path(database["NAME"]), Path(settings.MEDIA_ROOT), replace=replace)
    call_command("migrate", interactive=False, verbosity=0)
    for config in apps.get_app_configs():
        resumed = getattr(config, "resumed", None)
        if resumed is not None:
            resumed()
    connections.close_all()
    return copy, aside


#: A copy the first page of a fresh installation checked, resumed at the server's next start.
PENDING = "pending-resume.json"
UPLOADED = "pending-resume.sqlite3"


def resume_prepare(*, var_dir: Path, database: Path, chunks=None, name: str = "", path: str = "") -> Path:
    """The first page's "Reprendre une soirée depuis une copie": the copy sent (``chunks`` of an
    upload) or named (``path``: a copy or the folder of the copies) checked now, and noted to be
    resumed at the server's next start (the running server keeps its database open: it is not
    swapped under it).  The copy's place; refusals are ServiceError, with nothing changed."""
    from django.db.migrations.loader import MigrationLoader

    if holds_an_evening(database):
        raise ServiceError("resume_not_empty", path=str(database))
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    var_dir = Path(var_dir)
    if chunks is not None:
        draft = var_dir / f".upload-{os.getpid()}-{UPLOADED}"
        try:
            with draft.open("wb") as out:
                for chunk in chunks:
                    out.write(chunk)
            check_copy(draft, known)
        except ServiceError as error:
            draft.unlink(missing_ok=True)
            raise ServiceError(error.message.code, **{**error.message.params, "path": name}) from error
        copy = var_dir / UPLOADED
        os.replace(draft, copy)
    else:
        copy = chosen_copy(Path(path.strip()).expanduser())
        check_copy(copy, known)
    (var_dir / PENDING).write_text(json.dumps({"path": str(copy)}), encoding="utf-8")
    return copy


def pending_resume(var_dir: Path) -> Path | None:
    """The copy the first page noted, if any; the note is removed (it is taken once)."""
    note = Path(var_dir) / PENDING
    try:
        path = Path(json.loads(note.read_text(encoding="utf-8"))["path"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    finally:
        note.unlink(missing_ok=True)
    return path
