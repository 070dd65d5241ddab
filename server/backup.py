"""The evening saved as it goes: a consistent copy of the laptop's SQLite database in a
folder the arbiter chooses (a USB key, a second disk; ``var/backups/`` by default).

One daemon thread of ``manage.py serve`` (never a request's thread: a slip's answer never waits for a
copy) holds its own connection to the database and asks it, twice a second, ``PRAGMA data_version``:
the number changes whenever any other connection (this process's threads, another process) has
committed.  A change is copied at once if the last copy is at least ``MIN_SECONDS`` old, else as
soon as it is: a round's close, placement or correction, a slip acknowledged, is in the copy within
``MIN_SECONDS`` + the copy's own time.  The copy is SQLite's online backup (a snapshot, consistent
while the other threads write under WAL) into ``<folder>/.tmp-arbiter-<pid>.sqlite3``, made a
self-contained file (journal DELETE), flushed to the disk, then renamed to
``arbiter-<UTC timestamp>.sqlite3``: a crash while writing leaves only a ``.tmp-`` file, never counted;
the last ``KEEP`` copies are kept.

What the arbiter's screen says (where, how long ago, or why it cannot) is kept in memory here
(``status()``).  A failure (key pulled out, disk full, folder turned read-only) is retried at the
next change or every ``MIN_SECONDS``; the room never waits for it.

The copy holds the database only, not ``var/secret_key``: the accounts and their passwords are in
the database (the arbiter logs in again on the new laptop), the players' links are tokens in the
database; a signing key on a USB key would let whoever finds it forge the arbiter's session."""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from server.files import private

logger = logging.getLogger(__name__)

#: At most one copy per this many seconds while slips arrive.
MIN_SECONDS = 3.0
#: How often the thread asks the database whether it changed.
POLL_SECONDS = 0.5
#: Complete copies kept in the folder.
KEEP = 5
PREFIX = "arbiter-"
SUFFIX = ".sqlite3"
TMP_PREFIX = ".tmp-arbiter-"


#: Beside the database: the folder the arbiter chose on the screen, kept for the next starts.
CHOSEN = "backup_dir"


def default_folder() -> Path:
    """The folder the arbiter chose on the screen, else ``ARBITER_BACKUP_DIR``, else ``var/backups/``
    (``manage.py serve --backup-dir`` comes before all three)."""
    from django.conf import settings

    with contextlib.suppress(OSError):
        chosen = (Path(settings.VAR_DIR) / CHOSEN).read_text(encoding="utf-8").strip()
        if chosen:
            return Path(chosen)
    chosen = os.environ.get("ARBITER_BACKUP_DIR", "").strip()
    return Path(chosen).expanduser() if chosen else Path(settings.VAR_DIR) / "backups"


def folder_choose(path: str) -> Path:
    """The arbiter's choice on the screen: an absolute folder, created if missing and checked by
    writing a file there; copied to from the next pass on, and kept for the next starts.  Refusals
    are ServiceError, with the folder in use unchanged."""
    from django.conf import settings

    from server.writes import ServiceError

    text = path.strip()
    folder = Path(text).expanduser()
    if not text or not folder.is_absolute():
        raise ServiceError("backup_folder_relative", path=text)
    probe = folder / f"{TMP_PREFIX}probe-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"arbiter")
        probe.unlink()
    except OSError as error:
        raise ServiceError(
            "backup_folder_unwritable", path=str(folder), reason=error.strerror or str(error)
        ) from error
    (Path(settings.VAR_DIR) / CHOSEN).write_text(str(folder), encoding="utf-8")
    if _saver is not None:
        _saver.move_to(folder)
    return folder


@dataclass
class Status:
    folder: Path | None = None
    last_ok: datetime.datetime | None = None
    last_path: Path | None = None
    last_bytes: int = 0
    last_seconds: float = 0.0
    error: str = ""
    error_since: datetime.datetime | None = None


_status = Status()
_lock = threading.Lock()
#: The saving thread of this process (``manage.py serve``), if any.
_saver: Saver | None = None


def status() -> Status:
    """A snapshot of what the saving thread last did (folder None: no saving thread here)."""
    with _lock:
        return Status(**vars(_status))


def _set(**changes) -> None:
    with _lock:
        for name, value in changes.items():
            setattr(_status, name, value)


def copies(folder: Path) -> list[Path]:
    """The complete copies in ``folder``, oldest first (the names sort by their UTC time)."""
    try:
        found = [p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX)]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)


def copy_database(source: sqlite3.Connection, folder: Path, keep: int = KEEP) -> Path:
    """One complete copy of ``source`` in ``folder`` (created if missing); the oldest beyond ``keep``
    removed.  Raises OSError or sqlite3.Error, leaving at most a ``.tmp-`` file behind."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{TMP_PREFIX}{os.getpid()}{SUFFIX}"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        target = sqlite3.connect(tmp)
        with contextlib.suppress(OSError):
            private(tmp, 0o600)  # the players' data, as var/ keeps it (a FAT key has no modes)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
        fd = os.open(tmp, os.O_RDWR | getattr(os, "O_BINARY", 0))  # Windows flushes a writable handle only
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()  # the key's space back (a full disk), no half copy left
        raise
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    final = folder / f"{PREFIX}{stamp}{SUFFIX}"
    os.replace(tmp, final)
    _fsync_folder(folder)
    for old in copies(folder)[:-keep]:
        with contextlib.suppress(OSError):
            old.unlink()
    return final


def mirror_media(media_root: Path, folder: Path) -> int:
    """The files under ``media_root`` (the clubs' uploaded word lists, named by their content) copied
    to ``folder`` when missing there or of another size, each beside then renamed; how many."""
    copied = 0
    if not media_root.is_dir():
        return 0
    for source in media_root.rglob("*"):
        if not source.is_file() or source.name.endswith(".tmp"):
            continue
        target = folder / source.relative_to(media_root)
        with contextlib.suppress(OSError):
            if target.stat().st_size == source.stat().st_size:
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        draft = target.with_name(f"{TMP_PREFIX}{target.name}")
        shutil.copyfile(source, draft)
        os.replace(draft, target)
        copied += 1
    return copied


def _fsync_folder(folder: Path) -> None:
    """The rename itself on the disk (POSIX; Windows has no directory handles to flush)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Saver:
    """The saving loop over one database file; ``start()`` runs it in a daemon thread."""

    def __init__(self, database: Path, folder: Path, *, min_seconds: float = MIN_SECONDS,
                 poll_seconds: float = POLL_SECONDS, keep: int = KEEP,
                 media_root: Path | None = None):  # fmt: skip
        self.database, self.folder = Path(database), Path(folder)
        self.media_root = Path(media_root) if media_root else None
        self.min_seconds, self.poll_seconds, self.keep = min_seconds, poll_seconds, keep
        self.stop = threading.Event()
        self._connection: sqlite3.Connection | None = None
        self._seen: int | None = None
        self._last_try = float("-inf")

    def start(self) -> threading.Event:
        global _saver
        _saver = self
        _set(folder=self.folder, error="", error_since=None)
        self.thread = threading.Thread(target=self._loop, name="backup", daemon=True)
        self.thread.start()
        return self.stop

    def finish(self, seconds: float = 30) -> None:
        """Stop the thread, the last change copied first (the server stopped by Ctrl+C)."""
        self.stop.set()
        self.thread.join(seconds)

    def move_to(self, folder: Path) -> None:
        """Copy to ``folder`` from the next pass on (at once: its first copy is due)."""
        self.folder, self._seen, self._last_try = Path(folder), None, float("-inf")
        _set(folder=self.folder, last_ok=None, last_path=None, error="", error_since=None)

    def _loop(self) -> None:
        while True:
            try:
                self.step()
            except Exception:  # never let the thread die: the next pass tries again
                logger.warning("backup pass failed", exc_info=True)
            if self.stop.wait(self.poll_seconds):
                break
        self.step(force=True)  # the last change before a clean stop is in the copy too
        if self._connection is not None:
            self._connection.close()

    def step(self, force: bool = False) -> bool:
        """Copy if the database changed since the last good copy and the last try is old enough."""
        if self._connection is None:
            self._connection = sqlite3.connect(self.database, timeout=20, check_same_thread=False)
        version = self._connection.execute("PRAGMA data_version").fetchone()[0]
        if version == self._seen and not force:
            return False
        if not force and time.monotonic() - self._last_try < self.min_seconds:
            return False
        if force and version == self._seen:
            return False
        self._last_try = time.monotonic()
        started = time.perf_counter()
        try:
            if self.media_root is not None:
                mirror_media(self.media_root, self.folder / "media")
            path = copy_database(self._connection, self.folder, self.keep)
            size = path.stat().st_size
        except (OSError, sqlite3.Error) as error:
            now = datetime.datetime.now(datetime.UTC)
            with _lock:
                if not _status.error:
                    _status.error_since = now
                _status.error = str(error) or error.__class__.__name__
            logger.warning("backup to %s failed: %s", self.folder, error)
            return False
        self._seen = version
        _set(last_ok=datetime.datetime.now(datetime.UTC), last_path=path, last_bytes=size,
             last_seconds=time.perf_counter() - started, error="", error_since=None)  # fmt: skip
        return True


def start_saver(database: Path, folder: Path, **options) -> Saver:
    """The saving thread of ``manage.py serve``; ``finish()`` stops it after one last copy."""
    saver = Saver(database, folder, **options)
    saver.start()
    return saver
