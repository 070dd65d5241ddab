"""The evening resumed on another laptop: a copy made by ``server.backup`` checked and
rebuilt by this code (server/copycheck.py), then put in place of this laptop's empty database.

A copy is refused, with a sentence and nothing changed here, when it is not a whole, sound copy this
application wrote (server/copycheck.py says what that means).  A copy from an older version is
rebuilt at its own migrations and migrated by ``manage.py migrate`` once in place.  This laptop's
database is never overwritten when it holds an evening (more than a fresh installation's arbiter,
club and shipped list), unless asked (``replace``): the old one is then moved aside, not deleted.
Resuming is the laptop's (SQLite) alone: a server's database is restored with ``pg_restore``.

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

from server import backup, copycheck
from server.writes import ServiceError

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


def holds_an_evening(database: Path) -> bool:
    """Whether this laptop's database holds more than a fresh installation."""
    if not database.exists():
        return False
    # Read only, but not opened read-only: a read-only connection to a database in WAL mode leaves
    # its -wal and -shm files behind; this one, the last to close, removes them as it found them.
    connection = sqlite3.connect(database)
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


def on_the_laptop() -> bool:
    """Whether this installation's database is the laptop's SQLite file: only there is an evening
    resumed from a copy (a server restores its own with ``pg_restore``)."""
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"


def put_in_place(rebuilt: Path, database: Path, media: Path | None, media_root: Path) -> Path | None:
    """The rebuilt copy (a file flushed beside ``database``) made this laptop's database by a rename,
    the copy's media files put back; the old database's new name (it is moved aside)."""
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
    os.replace(rebuilt, database)
    if media is not None and media.is_dir() and media.resolve() != media_root.resolve():
        shutil.copytree(media, media_root, dirs_exist_ok=True)
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


def resume_evening(
    path: Path, *, replace: bool = False, media: Path | None = None, told: list | None = None
) -> tuple[Path, Path | None]:
    """``manage.py resume``/``serve --resume``: the copy at ``path`` (a file, or the newest in a
    folder) checked and rebuilt, put in place of this laptop's database with the media files of
    ``media`` (default: the copy's folder's ``media/``), migrated, and each room's ``resumed()`` run
    (what one returns, messages for the arbiter such as a word list the copy came without, is
    added to ``told``); the copy used and where the replaced database went (None: nothing
    replaced).  Refusals are ServiceError, with nothing changed."""
    from django.apps import apps
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    if not on_the_laptop():
        raise ServiceError("resume_not_sqlite")
    database = Path(settings.DATABASES["default"]["NAME"])
    copy = chosen_copy(Path(path).expanduser())
    if holds_an_evening(database) and not replace:
        raise ServiceError("resume_not_empty", path=str(database))
    draft = database.with_name(f".resume-{os.getpid()}-{database.name}")
    draft.unlink(missing_ok=True)
    copycheck.rebuild(copy, draft)
    connections.close_all()
    try:
        aside = put_in_place(draft, database, copy.parent / "media" if media is None else media,
                             Path(settings.MEDIA_ROOT))  # fmt: skip
    finally:
        draft.unlink(missing_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).isoformat()
    (database.parent / MARKER).write_text(json.dumps({"copy": str(copy), "at": stamp}), encoding="utf-8")
    call_command("migrate", interactive=False, verbosity=0)
    for config in apps.get_app_configs():
        resumed = getattr(config, "resumed", None)
        if resumed is not None:
            said = resumed()
            if told is not None and said:
                told.extend(said)
    connections.close_all()
    return copy, aside


#: A copy the first page of a fresh installation checked and rebuilt, resumed at the server's next
#: start: the note, and the rebuilt file.
PENDING = "pending-resume.json"
UPLOADED = "pending-resume.sqlite3"


def resume_prepare(*, var_dir: Path, database: Path, chunks=None, name: str = "", path: str = "") -> Path:
    """The first page's "Reprendre une soirée depuis une copie": the copy sent (``chunks`` of an
    upload named ``name``) or named (``path``: a copy or the folder of the copies, absolute) checked
    and rebuilt now, the rebuilt file noted to be resumed at the server's next start (the running
    server keeps its database open: it is not swapped under it).  The copy's place; refusals are
    ServiceError, with nothing changed.  A named place that is refused, for whatever reason, is
    answered one sentence: the page never tells whether a path exists or what a folder holds."""
    if not on_the_laptop():
        raise ServiceError("resume_not_sqlite")
    if holds_an_evening(database):
        raise ServiceError("resume_not_empty", path=str(database))
    var_dir = Path(var_dir)
    rebuilt = var_dir / f".rebuilt-{os.getpid()}-{UPLOADED}"
    media = None
    if chunks is not None:
        copy = var_dir / f".upload-{os.getpid()}-{UPLOADED}"
        try:
            with copy.open("wb") as out:
                for chunk in chunks:
                    out.write(chunk)
            copycheck.rebuild(copy, rebuilt)
        except ServiceError as error:
            raise ServiceError(error.message.code, **{**error.message.params, "path": name}) from error
        finally:
            copy.unlink(missing_ok=True)
        copy = Path(name)
    else:
        typed = path.strip()
        try:
            named = Path(typed).expanduser()
            if not named.is_absolute():
                raise ServiceError("copy_missing", path=typed)
            copy = chosen_copy(named)
            copycheck.rebuild(copy, rebuilt)
        except (ServiceError, OSError, ValueError, RuntimeError) as error:  # RuntimeError: ~nobody
            raise ServiceError("copy_none_there", path=typed) from error
        media = copy.parent / "media"
    os.replace(rebuilt, var_dir / UPLOADED)
    note = {"path": str(var_dir / UPLOADED), "media": str(media) if media is not None else None}
    (var_dir / PENDING).write_text(json.dumps(note), encoding="utf-8")
    return copy


def pending_resume(var_dir: Path) -> tuple[Path, Path | None] | None:
    """The rebuilt copy the first page noted and the media folder to put back with it, if any; the
    note is removed (it is taken once)."""
    note = Path(var_dir) / PENDING
    try:
        noted = json.loads(note.read_text(encoding="utf-8"))
        path, media = Path(noted["path"]), noted.get("media")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    finally:
        note.unlink(missing_ok=True)
    return path, Path(media) if isinstance(media, str) else None
