"""The laptop's logs: the terminal says what the arbiter must know, a file keeps everything.

``manage.py serve`` prints the addresses, the arbiter's account and where the copies go.  Beyond
that its terminal shows a line only when something failed that the arbiter may have to act on: an
error (a page that failed with a 500, the server's own fault) or a warning of the application's
rooms (a copy that could not be written, a database that refused a write).  Each is one line in
French, without its traceback, naming the log file; the same line again within ``REPEAT_SECONDS`` is
not printed (a failing poll of 300 phones would fill the terminal).

Everything, tracebacks included, goes to ``var/log/<name>.log``, rotated (``FILE_BYTES``, and
``FILES_KEPT`` older files): ``arbiter.log`` for the room's process, ``strangers.log`` for the
strangers' (each process its own file: two processes rotating one file lose lines).  The refusals
an evening is made of go there only: a deputy's 403, a 404, a stranger's malformed request, a
session cookie signed on another laptop, waitress's queue, Python's warnings.
"""

from __future__ import annotations

import logging
import logging.config
import time
from pathlib import Path

from django.conf import settings

from server.files import private

#: The folder under ``VAR_DIR``.
FOLDER = "log"
#: A file's size before it is set aside, and how many set aside are kept: 20 MB at most in all.
FILE_BYTES = 5 * 1024 * 1024
FILES_KEPT = 3
#: The same line at most this often on the terminal; the file has each one.
REPEAT_SECONDS = 60
#: The application's own loggers (its rooms): their warnings are the arbiter's to know.
ROOMS = frozenset(
    {"arbiter", "engine", "server", "clubs", "lexicons", "tournaments", "results", "simultaneous",
     "review", "training"}
)  # fmt: skip
#: Longest message shown on the terminal (the rest is in the file).
SHOWN_CHARACTERS = 200


def log_to_file(name: str) -> Path:
    """This process's log records: every one to ``var/log/<name>.log``, those for the arbiter to
    the terminal (stderr) too, each in one line; Python's warnings among them.  The file's path.

    Django sets logging up again from ``settings.LOGGING`` whenever it is set up (the WSGI
    application's module does it as it loads): the laptop's configuration is put there too."""
    folder = Path(settings.VAR_DIR) / FOLDER
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    private(folder, 0o700)
    path = folder / f"{name}.log"
    settings.LOGGING = laptop_logging(path, settings.LOGGING)
    logging.config.dictConfig(settings.LOGGING)
    logging.captureWarnings(True)
    return path


def laptop_logging(path: Path, site: dict) -> dict:
    """The site's logging configuration (``site``: its loggers and level kept) with its handlers
    replaced by the file at ``path`` and the arbiter's terminal."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"for_the_arbiter": {"()": ForTheArbiter}},
        "formatters": {
            "file": {"format": "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"},
            "one_line": {"()": OneLine, "path": path},
        },
        "handlers": {
            "file": {
                "class": "logging.handlers.RotatingFileHandler",
                "filename": str(path),
                "delay": True,
                "maxBytes": FILE_BYTES,
                "backupCount": FILES_KEPT,
                "encoding": "utf-8",
                "formatter": "file",
            },
            "terminal": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["for_the_arbiter"],
                "formatter": "one_line",
            },
        },
        "root": {"handlers": ["file", "terminal"], "level": site.get("root", {}).get("level", "INFO")},
        "loggers": site.get("loggers", {}),
    }


class ForTheArbiter(logging.Filter):
    """Errors, and the rooms' warnings; each at most once per ``REPEAT_SECONDS``.  A 5xx answer
    Django logs without an exception is one the application chose (503: try again in a moment),
    not a failure."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: dict[tuple[str, str], float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return False
        if record.levelno < logging.ERROR and record.name.split(".", 1)[0] not in ROOMS:
            return False
        if record.name == "django.request" and not record.exc_info:
            return False
        kind, now = (record.name, str(record.msg)[:60]), time.monotonic()
        if now - self.shown.get(kind, -REPEAT_SECONDS) < REPEAT_SECONDS:
            return False
        self.shown[kind] = now
        return True


class OneLine(logging.Formatter):
    """A record as one line in French: the time, what happened, and where its details are."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def format(self, record: logging.LogRecord) -> str:
        at = time.strftime("%H:%M:%S", time.localtime(record.created))
        where = f"le détail est dans {self.path}"
        request = getattr(record, "request", None)
        status = getattr(record, "status_code", None)
        if request is not None and isinstance(status, int) and status >= 500:
            method, page = getattr(request, "method", ""), getattr(request, "path", "")
            return f"{at} Erreur {status} sur la page {method} {page} : {where}"
        if record.levelno >= logging.ERROR:
            return f"{at} Erreur : {_message(record)} ({where})"
        details = f" ({where})" if record.exc_info else ""
        return f"{at} Attention : {_message(record)}{details}"


def _message(record: logging.LogRecord) -> str:
    try:
        text = record.getMessage()
    except Exception:  # arguments that do not fit the message: the message as written
        text = str(record.msg)
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= SHOWN_CHARACTERS else line[: SHOWN_CHARACTERS - 1] + "…"
