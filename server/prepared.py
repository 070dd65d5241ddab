"""A query's SQL made by the ORM once, then run again with other values.

Making a query's SQL (Django's compiler: its joins, columns, quoting) costs more than running it on
a small indexed table, and a phone's slip runs two such queries, in the last seconds of a round
when every phone sends (measured: docs/developer/benchmarks.md).  ``Prepared`` makes it once per
database vendor from stand-in values, then runs it through the connection with the real ones, each
column turned into Python by the same converters the ORM applies (SQLite's datetimes become aware
datetimes)."""

from __future__ import annotations

from django.db import connection


class Prepared:
    """A query's SQL made by the ORM once (making it costs more than running it, and a slip runs two
    such queries), then run with new values through the connection, each column
    turned into Python as the ORM would (the database's converters: SQLite's datetimes).  ``make``
    builds the query from stand-in values (negative numbers, named by ``one``'s keywords)."""

    def __init__(self, make, **stand_ins: int) -> None:
        self._make = make
        self._stand_ins = stand_ins
        self._made: dict[str, tuple] = {}

    def _made_for(self, vendor: str) -> tuple:
        if vendor not in self._made:
            compiler = self._make(**self._stand_ins).query.get_compiler(connection=connection)
            sql, params = compiler.as_sql()
            names = {value: name for name, value in self._stand_ins.items()}
            order = [names[value] for value in params]
            self._made[vendor] = (sql, order, converters([col for col, _sql, _alias in compiler.select]))
        return self._made[vendor]

    def one(self, **values: int) -> tuple | None:
        sql, order, columns = self._made_for(connection.vendor)
        with connection.cursor() as cursor:
            cursor.execute(sql, [values[name] for name in order])
            row = cursor.fetchone()
        return None if row is None else converted(row, columns)


def converters(columns) -> list[tuple]:
    """Each of a query's columns (the ORM's expressions) with the converters the ORM applies to what
    the database gives for it (the backend's, then the field's)."""
    return [
        (col, connection.ops.get_db_converters(col) + col.output_field.get_db_converters(connection))
        for col in columns
    ]


def converted(row, columns: list[tuple]) -> tuple:
    """A row as the database gave it, each value through its column's ``converters``."""
    out = []
    for value, (col, convert) in zip(row, columns, strict=True):
        for converter in convert:
            value = converter(value, col, connection)
        out.append(value)
    return tuple(out)
