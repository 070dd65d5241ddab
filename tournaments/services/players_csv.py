"""Players from a spreadsheet's CSV, all or nothing.  The file is decoded and every row checked as
the player form checks one player before the room's write lock is taken; inside it, the tables in use
are read once and the players stored in one insert, so slips never wait for the reading.

The file: semicolons, tabs or commas between cells; UTF-8 (with or without its byte-order mark),
UTF-16 (with its mark), or a Windows spreadsheet's cp1252 / Latin-1; a header row naming the columns
(``_CSV_HEADERS``, in any order) or the columns in ``CSV_FIELDS`` order; blank lines skipped.  A file
with bad rows is refused whole (``CsvRefused``), every bad row named with its line and why.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import IntegrityError, connection

from engine.categories import category_code
from engine.messages import Message
from engine.texts import codepoint, forbidden_char, quoted
from server.writes import ServiceError, writing
from tournaments import selectors
from tournaments.models import MAX_TABLE, Player, Tournament
from tournaments.services.registration import codes_fresh

#: Rows of one file: a federation's biggest event has 1,500 players; a file of twice that is read,
#: checked and stored in well under a second (``scripts/bench_players_csv.py``).
MAX_CSV_ROWS = 3_000
#: Bytes of one file (the form refuses a bigger upload before reading it).
MAX_CSV_MB = 2
MAX_CSV_BYTES = MAX_CSV_MB * 1024 * 1024

CSV_FIELDS = ("name", "club", "licence", "series", "category", "table_number")

_CSV_HEADERS = {
    "nom": "name", "name": "name", "club": "club", "licence": "licence", "license": "licence",
    "série": "series", "serie": "series", "series": "series", "catégorie": "category",
    "categorie": "category", "category": "category", "table": "table_number",
}  # fmt: skip
#: The texts stored as typed, named in each language for the refusals.
_TEXT_COLUMNS = {
    "name": ("nom", "name"),
    "club": ("club", "club"),
    "licence": ("licence", "licence"),
    "series": ("série", "series"),
}
#: Between cells: the one the first line holds most; on a tie the first here (French spreadsheets
#: write ";"), so a one-column list of "Dupré, Élise" keeps its commas.
_DELIMITERS = ";\t,"
#: A table number in ASCII digits ("²" and "٣" are digits to Python, not to a card).
_TABLE = re.compile("[0-9]+")


class CsvRefused(ServiceError):
    """A file with bad rows: nothing is imported.  ``rows`` holds a ``Message`` per problem, each with
    its ``line``, in the order of the file."""

    def __init__(self, rows: list[Message]):
        super().__init__("csv_rows_refused", count=len({m.params["line"] for m in rows}))
        self.rows = rows


@dataclass(frozen=True)
class CsvPlayer:
    """One row, checked: the player's details as stored and the table asked for (None: a free one)."""

    line: int
    fields: dict
    table: int | None


def players_import_csv(*, tournament: Tournament, data: bytes, max_rows: int = MAX_CSV_ROWS) -> list[Player]:
    """The file's players (without their ids), on the tables it gives or on the first free ones;
    refused whole (``CsvRefused`` listing every bad row, or a ``ServiceError`` about the file) unless
    every row is good.  A constant number of queries, whatever the number of rows; inside the write
    lock, only the tables in use read and the players inserted."""
    rows, problems = players_csv_read(data, max_rows=max_rows)
    if problems:
        # Every bad row at once: the tables the good rows ask for are checked too.
        _tables, taken = _seats(rows, selectors.tables_in_use(tournament))
        raise CsvRefused(sorted(problems + taken, key=lambda m: m.params["line"]))
    players = [
        Player(tournament=tournament, table_number=0, join_code=code, **row.fields)
        for row, code in zip(rows, codes_fresh(len(rows)))
    ]
    sql, values, at = _insert_prepared(players)
    try:
        with writing():
            tables, taken = _seats(rows, selectors.tables_in_use(tournament))
            if taken:
                raise CsvRefused(taken)
            for player, row, table in zip(players, values, tables):
                player.table_number = row[at] = table
            with connection.cursor() as cursor:
                cursor.executemany(sql, values)
    except IntegrityError:
        # A table registered from another screen between the read and the insert.
        raise ServiceError("csv_tables_changed") from None
    return players


def _insert_prepared(players: list[Player]) -> tuple[str, list[list], int]:
    """One statement run for every row (``executemany``, one query: ``bulk_create`` cuts 3,000 players
    into 25 inserts on SQLite, Django's batches of 999 parameters), each row's values prepared as
    ``save`` prepares them (the token, the creation time), and where in a row its table goes: made
    before the write lock is taken."""
    fields = [field for field in Player._meta.concrete_fields if not field.primary_key]
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(Player._meta.db_table),
        ", ".join(quote(field.column) for field in fields),
        ", ".join(["%s"] * len(fields)),
    )
    values = [[f.get_db_prep_save(f.pre_save(p, add=True), connection) for f in fields] for p in players]
    return sql, values, fields.index(Player._meta.get_field("table_number"))


def players_csv_read(data: bytes, *, max_rows: int = MAX_CSV_ROWS) -> tuple[list[CsvPlayer], list[Message]]:
    """The file's rows, checked, and the problems of the bad ones; a ``ServiceError`` when the file
    itself is refused (too big, not text, empty, too many rows).  No database."""
    if len(data) > MAX_CSV_BYTES:
        raise ServiceError("csv_too_big", limit=MAX_CSV_MB)
    records = _records(_decode(data))
    first = next(records, None)
    if first is None:
        raise ServiceError("csv_empty")
    header = _header(first[1] or [])
    body = records if header else itertools.chain([first], records)
    rows, problems = [], []
    for count, (line, cells) in enumerate(body, 1):
        if count > max_rows:
            raise ServiceError("csv_too_many_rows", limit=max_rows)
        if cells is None:
            problems.append(Message("csv_row_unreadable", {"line": line}))
            continue
        row, found = _row(line, cells, header or CSV_FIELDS)
        problems += found
        if row is not None:
            rows.append(row)
    return rows, problems


def _decode(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF8):
        text = _decoded(data[len(codecs.BOM_UTF8) :], "UTF-8")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _decoded(data, "UTF-16")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:  # the five bytes cp1252 leaves undefined
                text = data.decode("latin-1")
    if "\x00" in text:  # a spreadsheet's own format, an image, UTF-16 without its mark
        raise ServiceError("csv_binary")
    return text


def _decoded(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise ServiceError("csv_encoding", encoding=encoding) from None


def _records(text: str) -> Iterator[tuple[int, list[str] | None]]:
    """``(line, cells)`` for each row that is not blank, ``line`` being where the row starts;
    ``cells`` is None for a row the csv module cannot read (a field past its limit, a quote left open)."""
    # Strict: a quote left open is a row refused, not the rest of the file read as one name.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), strict=True)
    end = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:
            cells = None
        line, end = end + 1, reader.line_num
        if cells is None or any(cell.strip() for cell in cells):
            yield line, cells


def _delimiter(text: str) -> str:
    first = next((line for line in io.StringIO(text, newline="") if line.strip()), "")
    return max(_DELIMITERS, key=lambda d: (first.count(d), -_DELIMITERS.index(d)))


def _header(cells: list[str]) -> tuple[str | None, ...] | None:
    """The columns a header row names (None for the ones it does not know), or None when the first
    row names none and is a player."""
    named: list[str | None] = []
    for cell in cells:
        key = _CSV_HEADERS.get(cell.strip().casefold())
        named.append(key if key not in named else None)
    if not any(named):
        return None
    if "name" not in named:
        raise ServiceError("csv_no_name_column")
    return tuple(named)


def _row(line: int, cells: list[str], header: tuple) -> tuple[CsvPlayer | None, list[Message]]:
    """The row as the player form reads it (the model's lengths, a name, a category of the table, a
    table from 1 to ``MAX_TABLE``), and its problems."""
    problems = []
    if any(cell.strip() for cell in cells[len(header) :]):
        problems.append(Message("csv_extra_cells", {"line": line, "count": len(header)}))
    values = {key: cell.strip() for key, cell in zip(header, cells) if key}
    fields = {}
    for key, (column_fr, column_en) in _TEXT_COLUMNS.items():
        value, where = values.get(key, ""), {"line": line, "column_fr": column_fr, "column_en": column_en}
        limit = Player._meta.get_field(key).max_length
        char = forbidden_char(value)
        if char is not None:
            problems.append(Message("csv_char", {**where, "char": codepoint(char)}))
        elif len(value) > limit:
            problems.append(Message("csv_too_long", {**where, "limit": limit}))
        fields[key] = value
    if not fields["name"]:
        problems.append(Message("csv_no_name", {"line": line}))
    fields["category"] = category_code(values.get("category", ""))
    if fields["category"] is None:
        problems.append(Message("csv_category", {"line": line, "value": quoted(values["category"])}))
    table = _table(line, values.get("table_number", ""), problems)
    return (None if problems else CsvPlayer(line, fields, table)), problems


def _table(line: int, text: str, problems: list[Message]) -> int | None:
    if not text:
        return None
    if not _TABLE.fullmatch(text):
        problems.append(Message("csv_table", {"line": line, "value": quoted(text)}))
    elif len(text.lstrip("0")) > len(str(MAX_TABLE)) or not 1 <= int(text) <= MAX_TABLE:
        problems.append(Message("csv_table_range", {"line": line, "value": quoted(text), "max": MAX_TABLE}))
    else:
        return int(text)
    return None


def _seats(rows: list[CsvPlayer], used: set[int]) -> tuple[list[int], list[Message]]:
    """Each row's table: the one the file gives (free, and given once), else the first table neither
    registered nor given, in the order of the file."""
    given: dict[int, int] = {}
    problems = []
    for row in rows:
        if row.table is None:
            continue
        if row.table in used:
            problems.append(Message("csv_table_taken", {"line": row.line, "table": row.table}))
        elif row.table in given:
            where = {"line": row.line, "table": row.table, "first": given[row.table]}
            problems.append(Message("csv_table_twice", where))
        else:
            given[row.table] = row.line
    free = (n for n in itertools.count(1) if n not in used and n not in given)
    tables = [row.table if row.table is not None else next(free) for row in rows]
    problems += [
        Message("csv_no_free_table", {"line": row.line, "max": MAX_TABLE})
        for row, table in zip(rows, tables)
        if table > MAX_TABLE
    ]
    return tables, sorted(problems, key=lambda m: m.params["line"])
