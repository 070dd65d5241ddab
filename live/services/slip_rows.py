"""The SQL of a batch of phones' slips (``slips.submissions_store_new``), written here from the
model's columns rather than by the ORM's compiler for each statement: in the last seconds of a round a
web process writes a batch every few milliseconds, of one or two slips each, and making a statement's
SQL (Django's compiler) costs more than running it.  Rows come back as the ORM would build them (each
column through the ORM's converters, ``server.prepared``: SQLite's datetimes, the JSON fields)."""

from __future__ import annotations

from django.db import connection

from server.prepared import converted, converters
from server.text import clean_before_saving
from tournaments.models import Player, Submission


def held_and_slips(
    player_ids: list[int], round_ids: list[int]
) -> tuple[set[int], dict[tuple[int, int], tuple[int, str]]]:
    """In one statement: the players still registered, their rows held (``registration.player_held``:
    FOR KEY SHARE, which only a removal waits for), and which of them have a slip in these rounds
    (its id and request id by round and player), those rows locked (FOR UPDATE, as
    ``slips._existing_slip``).  SQLite: the write transaction holds the whole database."""
    players = connection.ops.quote_name(Player._meta.db_table)
    subs = connection.ops.quote_name(Submission._meta.db_table)
    if connection.vendor == "postgresql":
        sql = (
            f"WITH held AS (SELECT id FROM {players} WHERE id = ANY(%s) FOR KEY SHARE), "
            f"mine AS (SELECT round_id, player_id, id, request_id FROM {subs} WHERE round_id = ANY(%s) "
            "AND player_id = ANY(%s) FOR UPDATE) "
            "SELECT 0, id, NULL, NULL FROM held "
            "UNION ALL SELECT round_id, player_id, id, request_id FROM mine"
        )
        params = [player_ids, round_ids, player_ids]
    else:
        p_marks, r_marks = ", ".join(["%s"] * len(player_ids)), ", ".join(["%s"] * len(round_ids))
        sql = (
            f"SELECT 0, id, NULL, NULL FROM {players} WHERE id IN ({p_marks}) "
            f"UNION ALL SELECT round_id, player_id, id, request_id FROM {subs} "
            f"WHERE round_id IN ({r_marks}) AND player_id IN ({p_marks})"
        )
        params = [*player_ids, *round_ids, *player_ids]
    held, existing = set(), {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for round_id, player_id, pk, request_id in cursor.fetchall():
            if round_id == 0:
                held.add(player_id)
            else:
                existing[(round_id, player_id)] = (pk, request_id)
    return held, existing


def insert_new(new: list[tuple[int, Submission]]) -> list[tuple[int, Submission]]:
    """The rows of ``new`` inserted in one statement, a row whose player has one for the round already
    (another process's, committed meanwhile) left out (``ON CONFLICT DO NOTHING``): the pairs whose
    row was stored, their ids set."""
    if not new:
        return []
    fields = [f for f in Submission._meta.concrete_fields if not f.primary_key]
    table = connection.ops.quote_name(Submission._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * len(new))} "
        "ON CONFLICT (round_id, player_id) DO NOTHING RETURNING id, player_id"
    )
    for _i, row in new:
        clean_before_saving(Submission, row)  # as the ORM's save would (``server.text``)
    params = [f.get_db_prep_save(getattr(row, f.attname), connection) for _i, row in new for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        stored = {player_id: pk for pk, player_id in cursor.fetchall()}
    done = []
    for i, row in new:
        if row.player_id in stored:
            row.pk = stored[row.player_id]
            _as_read(row)
            done.append((i, row))
    return done


def rows_by_id(pks: list[int]) -> dict[int, Submission]:
    """The slips ``pks`` by id, whole, as ``Submission.objects.in_bulk(pks)`` gives them."""
    if not pks:
        return {}
    fields = Submission._meta.concrete_fields
    table = Submission._meta.db_table
    selected = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(pks))
    sql = f"SELECT {selected} FROM {connection.ops.quote_name(table)} WHERE id IN ({marks})"
    columns = converters([field.get_col(table) for field in fields])
    with connection.cursor() as cursor:
        cursor.execute(sql, pks)
        found = cursor.fetchall()
    names = [f.attname for f in fields]
    rows = {}
    for values in found:
        row = Submission.from_db(connection.alias, names, converted(values, columns))
        rows[row.pk] = row
    return rows


def update_all(rows: list[tuple[Submission, list[str]]]) -> None:
    """Each row's fields named with it saved (``save(update_fields=…)``), with one statement per set of
    fields for the whole batch (a player's later sending replacing the slip: one in four of the last
    seconds' slips)."""
    by_fields: dict[tuple[str, ...], list[Submission]] = {}
    for row, names in rows:
        clean_before_saving(Submission, row, update_fields=names)  # as the ORM's save would
        by_fields.setdefault(tuple(names), []).append(row)
    table = connection.ops.quote_name(Submission._meta.db_table)
    for names, same in by_fields.items():
        fields = [Submission._meta.get_field(name) for name in names]
        sets = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
        sql = f"UPDATE {table} SET {sets} WHERE id = %s"
        prep = [(f.get_db_prep_save, f.attname) for f in fields]
        params = [[*(save(getattr(r, name), connection) for save, name in prep), r.pk] for r in same]
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)


def _as_read(row: Submission) -> None:
    """A row just written marked as the ORM's own insert leaves it (saved, in this database)."""
    row._state.adding, row._state.db = False, connection.alias
