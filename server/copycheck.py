"""A copy of the evening trusted as rows, never as code: the file a resume puts in place is rebuilt by
this code from the copy's rows, never the copy's own file.

A copy is refused (ServiceError, nothing changed) when it is missing, not an SQLite file, shorter
than its header says, damaged (``PRAGMA integrity_check``), another application's (no
``django_migrations`` naming this application's rooms), from a newer version (a migration this code
does not have), or when its migrations are not a state this code makes (one without a predecessor).
It is then compared with the empty database this code makes for the same migrations
(server/reference.py): the same tables, plain ones, with the same columns (names, declared types,
NOT NULL, primary key, none generated or hidden), the same indexes, and nothing else: no trigger, no
view.  The rebuilt file is a copy of that reference into which every table's rows are copied by
their columns' names; each value must be what Django reads back from such a column (an integer, 0
or 1, a number, UTF-8 text without NUL within its length, a date and time as Django writes it, JSON),
the reference's constraints (NOT NULL, CHECK, UNIQUE) hold for every row, every foreign key finds
its row, and ``PRAGMA integrity_check`` passes on the result.

Every connection to a copy is read-only and immutable.  The copy is checked with ``trusted_schema``
off (nothing its schema names runs with more than SQLite's innocuous functions); its rows are copied
once it is known to hold nothing that runs when read."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from engine.messages import Message, languages
from server import reference
from server.writes import ServiceError

HEADER = b"SQLite format 3\x00"
#: The rooms a copy of this application must have migrations of.
OWN_APPS = ("clubs", "tournaments")
#: Tables the rebuild does not copy: the reference's own migrations stay, SQLite keeps its counters.
NOT_COPIED = {"django_migrations", "sqlite_sequence"}


def uri(path: Path, **query: str) -> str:
    """An SQLite URI of ``path`` (any character in the path quoted) with ``query``."""
    text = "file:" + urllib.request.pathname2url(str(Path(path).absolute()))
    return text + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def altered(path: Path, code: str, **params) -> ServiceError:
    """The refusal of a copy that is not as this code writes it, the reason ``code`` in each language."""
    reason = Message(code, params)
    return ServiceError(
        "copy_altered", path=str(path), **{f"reason_{lang}": reason.text(lang) for lang in languages()}
    )


def applied_migrations(path: Path) -> set[tuple[str, str]]:
    """The migrations a whole, sound SQLite file says it has (its ``django_migrations``); refuses
    a missing, truncated, damaged file or one without that table."""
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
        connection = sqlite3.connect(uri(path, mode="ro", immutable="1"), uri=True)
    except sqlite3.Error as error:
        raise ServiceError("copy_corrupt", path=str(path), reason=str(error)) from error
    try:
        connection.execute("PRAGMA trusted_schema=OFF")
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":
            raise ServiceError("copy_corrupt", path=str(path), reason=verdict[:200])
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "django_migrations" not in tables:
            raise ServiceError("copy_foreign", path=str(path))
        rows = connection.execute("SELECT app, name FROM django_migrations").fetchall()
    except sqlite3.Error as error:
        raise ServiceError("copy_corrupt", path=str(path), reason=str(error)) from error
    finally:
        connection.close()
    return {(app, name) for app, name in rows if isinstance(app, str) and isinstance(name, str)}


def check_migrations(path: Path, applied: set[tuple[str, str]]) -> None:
    """Refuses a copy of another application, of a newer version, or whose migrations are not a
    state this code makes."""
    if not all(any(app == own for app, _ in applied) for own in OWN_APPS):
        raise ServiceError("copy_foreign", path=str(path))
    newer = sorted(applied - reference.known_migrations())
    if newer:
        raise ServiceError("copy_newer", path=str(path), migration=f"{newer[0][0]}.{newer[0][1]}")
    gap = reference.inconsistency(applied)
    if gap is not None:
        (app, name), (before_app, before) = gap
        raise altered(path, "altered_migrations", migration=f"{app}.{name}", missing=f"{before_app}.{before}")


def rebuild(copy: Path, draft: Path) -> None:
    """``draft`` made the evening of ``copy``, rebuilt by this code (see the module's docstring);
    refusals are ServiceError, and ``draft`` is then removed."""
    applied = applied_migrations(copy)
    check_migrations(copy, applied)
    try:
        with reference.reference_for(applied) as empty:
            tables = _checked(copy, empty)
            shutil.copyfile(empty, draft)
    except (reference.ReferenceUnavailable, OSError) as error:
        draft.unlink(missing_ok=True)
        raise ServiceError("copy_unverifiable", path=str(copy), reason=str(error)[:200]) from error
    try:
        _fill(copy, draft, tables)
    except BaseException:
        draft.unlink(missing_ok=True)
        raise


def _checked(copy: Path, empty: Path) -> list[str]:
    """Refuses a copy whose schema or values are not the reference's (``empty``); the tables whose
    rows are copied.  Both are read only, ``trusted_schema`` off."""
    connection = sqlite3.connect("file::memory:", uri=True)
    try:
        connection.execute("PRAGMA trusted_schema=OFF")
        connection.execute("ATTACH DATABASE ? AS reference", (uri(empty, mode="ro", immutable="1"),))
        connection.execute("ATTACH DATABASE ? AS evening", (uri(copy, mode="ro", immutable="1"),))
        tables = _same_structure(connection, copy)
        for table in tables:
            _check_values(connection, copy, table)
        return tables
    except sqlite3.Error as error:
        raise ServiceError("copy_corrupt", path=str(copy), reason=str(error)[:200]) from error
    except LookupError as error:  # a declared type this module has no check for
        raise ServiceError("copy_unverifiable", path=str(copy), reason=str(error)[:200]) from error
    finally:
        connection.close()


def _fill(copy: Path, draft: Path, tables: list[str]) -> None:
    """The copy's rows put into ``draft`` (the reference's schema), which must then hold every
    foreign key's row and pass the integrity check.  The copy, known to run nothing when read (no
    trigger, view, virtual table or generated column), is read with ``trusted_schema`` on: the
    reference's CHECK constraints call JSON_VALID, which SQLite does not count innocuous."""
    connection = sqlite3.connect(uri(draft), uri=True, isolation_level=None)
    try:
        connection.execute("PRAGMA foreign_keys=OFF")
        connection.execute("ATTACH DATABASE ? AS evening", (uri(copy, mode="ro", immutable="1"),))
        connection.execute("BEGIN")
        for table in tables:
            _copy_rows(connection, copy, table)
        _copy_sequences(connection, set(tables))
        connection.execute("COMMIT")
        connection.execute("DETACH DATABASE evening")
        broken = connection.execute("PRAGMA main.foreign_key_check").fetchone()
        if broken is not None:
            raise altered(copy, "altered_foreign_key", table=broken[0], row=broken[1], parent=broken[2])
        verdict = connection.execute("PRAGMA main.integrity_check").fetchone()[0]
        if verdict != "ok":
            raise altered(copy, "altered_integrity", verdict=verdict[:200])
    except sqlite3.Error as error:
        raise ServiceError("copy_corrupt", path=str(copy), reason=str(error)[:200]) from error
    finally:
        connection.close()
    with open(draft, "rb+") as file:
        os.fsync(file.fileno())


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _objects(connection: sqlite3.Connection, schema: str) -> dict[tuple[str, str], tuple[str, str]]:
    rows = connection.execute(f"SELECT type, name, tbl_name, coalesce(sql, '') FROM {schema}.sqlite_master")
    return {(kind, name): (table, sql) for kind, name, table, sql in rows}


def _columns(connection: sqlite3.Connection, schema: str, table: str) -> dict[str, tuple]:
    rows = connection.execute(f"PRAGMA {schema}.table_xinfo({_quoted(table)})")
    return {
        name: (declared.lower(), notnull, pk, hidden)
        for _cid, name, declared, notnull, _d, pk, hidden in rows
    }


def _same_structure(connection: sqlite3.Connection, copy: Path) -> list[str]:
    """Refuses a copy whose schema is not the reference's (see the module's docstring), naming the
    first difference; the tables whose rows are copied."""
    ours, theirs = _objects(connection, "reference"), _objects(connection, "evening")
    for kind, code in (("trigger", "altered_trigger"), ("view", "altered_view")):
        for found_kind, name in sorted(theirs):
            if found_kind == kind:
                raise altered(copy, code, name=name)
    for (kind, name), (_table, sql) in sorted(theirs.items()):
        shape = " ".join(sql.upper().split())
        if kind == "table" and (not shape.startswith("CREATE TABLE") or "WITHOUT ROWID" in shape):
            raise altered(copy, "altered_table", name=name)
    for kind, name in sorted(theirs.keys() - ours.keys()):
        raise altered(copy, "altered_extra", kind=kind, name=name)
    for kind, name in sorted(ours.keys() - theirs.keys()):
        raise altered(copy, "altered_missing", kind=kind, name=name)
    tables = []
    for (kind, name), (table, _sql) in sorted(theirs.items()):
        if table != ours[(kind, name)][0]:
            raise altered(copy, "altered_extra", kind=kind, name=name)
        if kind != "table":
            continue
        mine, found = _columns(connection, "reference", name), _columns(connection, "evening", name)
        for column in sorted(mine.keys() | found.keys()):
            if mine.get(column) != found.get(column):
                raise altered(copy, "altered_columns", table=name, column=column)
        if name not in NOT_COPIED:
            tables.append(name)
    return tables


def _check_values(connection: sqlite3.Connection, copy: Path, table: str) -> None:
    """Refuses a value of the copy's ``table`` that Django would not read back from its column."""
    sql = connection.execute(
        "SELECT sql FROM reference.sqlite_master WHERE type='table' AND name=?", (table,)
    )
    json_columns = set(re.findall(r'JSON_VALID\("([^"]+)"\)', sql.fetchone()[0]))
    columns = list(_columns(connection, "reference", table).items())
    checks = [(name, _expected(declared, name in json_columns)) for name, (declared, *_rest) in columns]
    flags = [_bad(_quoted(name), expected) for name, expected in checks]
    found = connection.execute(
        f"SELECT rowid, {', '.join(flags)} FROM evening.{_quoted(table)} WHERE {' OR '.join(flags)} LIMIT 1"
    ).fetchone()
    wrong = []
    if found is not None:
        wrong = [(check, found[0]) for check, flag in zip(checks, found[1:], strict=True) if flag]
    else:
        wrong = [
            ((name, e), row) for name, e in checks if e.text and (row := _not_utf8(connection, table, name))
        ]
    if wrong:
        (name, expected), row = wrong[0]
        raise altered(copy, "altered_value", table=table, column=name, row=row,
                      expected_fr=expected.fr, expected_en=expected.en)  # fmt: skip


def _not_utf8(connection: sqlite3.Connection, table: str, column: str) -> int | None:
    """The rowid of a row whose ``column`` is not UTF-8, or None.  Only texts beyond ASCII are
    decoded, each distinct one once (a room's slips repeat a few sentences)."""
    quoted, source = _quoted(column), f"evening.{_quoted(table)}"
    beyond_ascii = f"typeof({quoted}) = 'text' AND {quoted} GLOB ?"
    texts = connection.execute(
        f"SELECT DISTINCT CAST({quoted} AS BLOB) FROM {source} WHERE {beyond_ascii}", ("*[^\x01-\x7f]*",)
    )
    for (data,) in texts:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            found = f"SELECT rowid FROM {source} WHERE CAST({quoted} AS BLOB) = ? LIMIT 1"
            return connection.execute(found, (data,)).fetchone()[0]
    return None


def _copy_rows(connection: sqlite3.Connection, copy: Path, table: str) -> None:
    """The copy's rows of ``table`` copied by their columns' names, under the reference's constraints."""
    names = ", ".join(_quoted(name) for name in _columns(connection, "main", table))
    try:
        connection.execute(
            f"INSERT INTO main.{_quoted(table)} ({names}) SELECT {names} FROM evening.{_quoted(table)}"
        )
    except sqlite3.IntegrityError as error:
        raise altered(copy, "altered_rows", table=table, reason=str(error)[:200]) from error


def _copy_sequences(connection: sqlite3.Connection, tables: set[str]) -> None:
    """The copy's AUTOINCREMENT counters of the tables copied (SQLite takes the largest of a counter
    and the table's rows)."""
    connection.execute("DELETE FROM main.sqlite_sequence WHERE name <> 'django_migrations'")
    for name, seq in connection.execute("SELECT name, seq FROM evening.sqlite_sequence").fetchall():
        if name in tables and isinstance(seq, int):
            connection.execute("INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)", (name, seq))


@dataclass(frozen=True)
class Expected:
    """What a column of a declared type holds, said in each language, and SQL true of any other
    value (``{c}``: the column)."""

    fr: str
    en: str
    bad: str
    #: Text, which must also be UTF-8 (``_not_utf8``).
    text: bool = False


_TEXT = "(typeof({c}) NOT IN ('text', 'null') OR instr(CAST({c} AS BLOB), X'00') > 0)"


#: A date, time or both exactly as Django writes them: SQLite reads the same moment back and prints
#: it the same way once computed ('+0 days': 2026-02-31 would become 2026-03-03), in a year from 1;
#: then, for a time, a fraction of a second of 1 to 6 digits (apart: SQLite would round .9999995 up).
_CLOCK = (
    "(typeof({{c}}) NOT IN ('text', 'null') OR ({{c}} IS NOT NULL AND NOT ("
    "{function}(substr({{c}}, 1, {width}), '+0 days') IS substr({{c}}, 1, {width})"
    " AND substr({{c}}, 1, 4) <> '0000' AND {tail})))"
)
_WHOLE = "length({{c}}) = {width}"
_FRACTION = (
    "(length({{c}}) = {width} OR (length({{c}}) BETWEEN {width} + 2 AND {width} + 7"
    " AND substr({{c}}, {width} + 1, 1) = '.' AND substr({{c}}, {width} + 2) NOT GLOB '*[^0-9]*'))"
)


def _clock(function: str, width: int, tail: str) -> str:
    return _CLOCK.format(function=function, width=width, tail=tail.format(width=width))


_KINDS = {
    "integer": Expected("un nombre entier", "a whole number", "typeof({c}) NOT IN ('integer', 'null')"),
    "bool": Expected("0 ou 1", "0 or 1", "(typeof({c}) NOT IN ('integer', 'null') OR {c} NOT IN (0, 1))"),
    "number": Expected("un nombre", "a number", "typeof({c}) NOT IN ('integer', 'real', 'null')"),
    "text": Expected("un texte UTF-8 sans caractère nul", "UTF-8 text without a NUL character", _TEXT, True),
    "json": Expected("du JSON", "JSON", f"({_TEXT} OR ({{c}} IS NOT NULL AND NOT json_valid({{c}})))", True),
    "datetime": Expected(
        "une date et heure AAAA-MM-JJ HH:MM:SS",
        "a date and time YYYY-MM-DD HH:MM:SS",
        _clock("datetime", 19, _FRACTION),
    ),
    "date": Expected("une date AAAA-MM-JJ", "a date YYYY-MM-DD", _clock("date", 10, _WHOLE)),
    "time": Expected("une heure HH:MM:SS", "a time HH:MM:SS", _clock("time", 8, _FRACTION)),
    "blob": Expected("des octets", "bytes", "typeof({c}) NOT IN ('blob', 'null')"),
}


def _expected(declared: str, json: bool) -> Expected:
    """What Django reads back from a column of this declared type (Django's SQLite types)."""
    sized = re.fullmatch(r"(?:var)?char\((\d+)\)", declared)
    if sized:
        limit = int(sized.group(1))
        text = _KINDS["text"]
        return Expected(
            f"{text.fr}, de {limit} caractères au plus",
            f"{text.en}, of {limit} characters at most",
            f"({text.bad} OR length({{c}}) > {limit})",
            True,
        )
    if declared in ("bool", "date", "datetime", "time", "blob"):
        return _KINDS[declared]
    if "int" in declared:
        return _KINDS["integer"]
    if declared in ("real", "decimal", "double precision", "float", "numeric"):
        return _KINDS["number"]
    if declared == "text":
        return _KINDS["json" if json else "text"]
    raise LookupError(f"no check for the declared type {declared!r}")


def _bad(column: str, expected: Expected) -> str:
    return "(" + expected.bad.format(c=column) + ")"
