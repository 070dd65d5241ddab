"""The empty database this code makes for a migration state: what a resumed copy is compared with and
rebuilt into (server/copycheck.py).

A copy's applied migrations (its ``django_migrations``) must be a state this code reaches: every one
known here, and with each its predecessors (the set Django's executor applies to reach, in each app,
the latest migration the copy has).  The reference for that state is an empty SQLite file migrated
to exactly it by ``manage.py copy_reference`` in a process of its own: several migrations write
through the default manager (``RunPython``), so they must run on that process's default database,
never beside the laptop's.  The rows those migrations write are then deleted: the reference is the
schema alone.

Migrating takes seconds, so each reference is kept in ``<ARBITER_CACHE_DIR>/resume/`` under a key
made of the state, this code's migration files and the versions of Django and SQLite (what decides
the schema they write); it is written beside and renamed, so processes building the same one
together each leave a whole file."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

Node = tuple[str, str]
#: How long the migrating process may take (a first build takes a few seconds).
BUILD_SECONDS = 300


class ReferenceUnavailable(Exception):
    """The reference database could not be built (the reason in English, for the refusal)."""


def cache_folder() -> Path:
    """``ARBITER_CACHE_DIR`` (the user's cache folder by default), ``resume/`` in it."""
    base = os.environ.get("ARBITER_CACHE_DIR")
    return ((Path(base) if base else Path.home() / ".cache" / "duplicate-arbiter") / "resume").absolute()


@functools.cache
def _loader():
    """This code's migrations (read once: they do not change while the process runs)."""
    from django.db.migrations.loader import MigrationLoader

    return MigrationLoader(None, ignore_no_migrations=True)


def known_migrations() -> set[Node]:
    """Every migration this code has, as (app, name)."""
    return set(_loader().disk_migrations)


def inconsistency(applied: set[Node]) -> tuple[Node, Node] | None:
    """A migration of ``applied`` and one of its predecessors missing from it, or None when
    ``applied`` is closed under the predecessors (each one known here)."""
    graph = _loader().graph
    for node in sorted(applied):
        for before in graph.forwards_plan(node):
            if before not in applied:
                return node, before
    return None


def targets(applied: set[Node]) -> list[Node]:
    """The latest migrations of ``applied``: none of them is a predecessor of another of the set."""
    graph = _loader().graph
    earlier = set()
    for node in applied:
        earlier.update(before for before in graph.forwards_plan(node) if before != node)
    return sorted(applied - earlier)


def state_key(applied: set[Node]) -> str:
    """The cache's name for the reference of ``applied``, on this code."""
    import django

    loader = _loader()
    digest = hashlib.sha256()
    digest.update(f"django {django.get_version()} sqlite {sqlite3.sqlite_version}\n".encode())
    for app, name in sorted(applied):
        digest.update(f"{app}.{name}\n".encode())
    for node in sorted(loader.disk_migrations):
        digest.update(Path(inspect.getfile(type(loader.disk_migrations[node]))).read_bytes())
    return digest.hexdigest()[:32]


@contextlib.contextmanager
def reference_for(applied: set[Node]):
    """The empty reference database of the migration state ``applied`` (consistent: see
    ``inconsistency``), from the cache or built now (kept in the cache when it can be written).
    Raises ReferenceUnavailable when it cannot be built."""
    folder = cache_folder()
    cached = folder / f"{state_key(applied)}.sqlite3"
    if _holds(cached, applied):
        yield cached
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
    except OSError:  # a cache that cannot be written: built in a temporary folder, not kept
        work, cached = Path(tempfile.mkdtemp(prefix="arbiter-reference-")), None
    try:
        built = _build(applied, work)
        if cached is not None:
            os.replace(built, cached)
            built = cached
        yield built
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _holds(cached: Path, applied: set[Node]) -> bool:
    """Whether ``cached`` is a whole reference of ``applied`` (a file cut short by a power cut is
    built again)."""
    if not cached.is_file():
        return False
    try:
        connection = sqlite3.connect(f"{cached.as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            made = set(connection.execute("SELECT app, name FROM django_migrations"))
        finally:
            connection.close()
    except sqlite3.Error:
        return False
    return made == applied


def _build(applied: set[Node], work: Path) -> Path:
    """``manage.py copy_reference`` run on an empty database in ``work``; that database emptied of
    the rows its migrations wrote, made one self-contained file."""
    from django.conf import settings

    from server.commandline import manage

    database = work / f"reference-{secrets.token_hex(4)}.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "ARBITER_BACKUP_DIR")}
    env.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings",
        DATABASE_URL="sqlite:///" + urllib.parse.quote(database.as_posix()),
        ARBITER_VAR_DIR=str(work / "var"),
        ARBITER_STATIC_ROOT=str(work / "static"),
    )
    command = manage("copy_reference")
    command += [f"{app}.{name}" for app, name in targets(applied)]
    try:
        done = subprocess.run(command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True,
                              timeout=BUILD_SECONDS)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ReferenceUnavailable(str(error)[:200]) from error
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise ReferenceUnavailable(last[:200])
    connection = sqlite3.connect(database, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            if table not in ("django_migrations", "sqlite_sequence"):
                connection.execute(f'DELETE FROM "{table}"')
        connection.execute("DELETE FROM sqlite_sequence WHERE name <> 'django_migrations'")
        made = set(connection.execute("SELECT app, name FROM django_migrations"))
        connection.execute("VACUUM")
    finally:
        connection.close()
    if made != applied:
        raise ReferenceUnavailable(f"the reference holds {len(made)} migrations, not {len(applied)}")
    return database
