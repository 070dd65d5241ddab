"""An imported tournament's rows, written in one short transaction (``transfer.tournament_import``).

On the laptop SQLite lets one transaction write at a time: while an import writes, the phones' slips
wait.  So everything that costs time is done before the write lock: every row is built from the
checked file, and the slips (the bulk of a file: 112,500 for 1,500 players over three games of 25
rounds) are turned into their columns' database values.  Inside the transaction only the ids this
database gives are filled in: a statement for the tournament, a few for its players, games, rounds
and corrections' log (Django's batches), one for every slip of the file (``executemany``) and at most
one read of the slips' ids when the log names slips; the file's size changes the values sent, not
the statements.  Nothing of it is visible before the commit, so no half tournament is ever seen.

Django's ``bulk_create`` sends no ``post_save``: nothing listens for a tournament no phone has
joined yet (its players' links are made here)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.db import connection

from results.transfer_reading import SLIP_FIELDS
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament, new_token
from tournaments.services.registration import codes_fresh

#: A slip's columns as the prepared rows hold them: its round and player (filled in under the lock),
#: who typed it, then the file's fields.
SLIP_COLUMNS = ("round", "player", "entered_by", *SLIP_FIELDS, "message_more")


@dataclass
class PreparedTournament:
    """The file's rows, ready to be written; references are positions in these lists (rounds,
    changes) or the file's player ids, turned into this database's ids under the lock."""

    tournament: dict
    players: list[Player] = field(default_factory=list)
    player_keys: list[int] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    game_times: list = field(default_factory=list)
    #: (the game's position, the round, when it was drawn)
    rounds: list[tuple[int, Round, object]] = field(default_factory=list)
    #: (the round's position, the file's player id, then each column's database value)
    slips: list[tuple] = field(default_factory=list)
    #: (the round's position, the file's player id, the file's id of its slip or None, when, the
    #: position of the change it undoes or None, the change)
    changes: list[tuple] = field(default_factory=list)


def tournament_prepared(document: dict, user) -> PreparedTournament:
    """The checked file's rows built and its slips' values prepared: no write, no lock."""
    prepared = PreparedTournament(tournament=document["tournament"])
    for p in document["players"]:
        prepared.players.append(
            Player(**{k: v for k, v in p.items() if k not in ("id", "token", "join_code")})
        )
        prepared.player_keys.append(p["id"])
    slip_fields = [Submission._meta.get_field(name) for name in SLIP_COLUMNS[3:]]
    for game_at, doc in enumerate(document["games"]):
        fields = {k: v for k, v in doc.items() if k not in ("rounds", "created_at")}
        prepared.games.append(Game(**fields))
        prepared.game_times.append(doc["created_at"])
        for rdoc in doc["rounds"]:
            round_at = len(prepared.rounds)
            fields = {k: v for k, v in rdoc.items() if k not in ("slips", "changes", "drawn_at")}
            prepared.rounds.append((game_at, Round(**fields), rdoc["drawn_at"]))
            slips_of = {}  # the file's slip id in this round -> (the round's position, its player)
            for s in rdoc["slips"]:
                slips_of[s["id"]] = (round_at, s["player"])
                values = [f.get_db_prep_save(s.get(f.name, f.get_default()), connection) for f in slip_fields]
                prepared.slips.append((round_at, s["player"], user.pk if s["entered"] else None, *values))
            _prepare_changes(prepared, round_at, rdoc["changes"], slips_of, user)
    return prepared


def _prepare_changes(
    prepared: PreparedTournament, round_at: int, changes: list, slips_of: dict, user
) -> None:
    positions = {}  # the file's change id -> its position
    for doc in changes:
        positions[doc["id"]] = len(prepared.changes)
        made = SubmissionChange(changed_by=user, before=doc["before"], after=doc["after"])
        slip = slips_of.get(doc["slip"])
        undoes = positions[doc["undoes"]] if doc["undoes"] is not None else None
        prepared.changes.append((round_at, doc["player"], slip, doc["changed_at"], undoes, made))


def tournament_write(prepared: PreparedTournament, *, lexicon, club, user) -> Tournament:
    """The prepared rows written (inside the caller's transaction), with this database's ids."""
    tournament = Tournament.objects.create(
        **prepared.tournament, lexicon=lexicon, owner=club, created_by=user
    )
    codes = codes_fresh(len(prepared.players))
    for player, code in zip(prepared.players, codes):
        player.tournament, player.token, player.join_code = tournament, new_token(), code
    Player.objects.bulk_create(prepared.players)
    player_ids = {key: made.pk for key, made in zip(prepared.player_keys, prepared.players)}
    for game in prepared.games:
        game.tournament = tournament
    _create_dated(Game, prepared.games, "created_at", prepared.game_times)
    rounds = [rnd for _game_at, rnd, _drawn in prepared.rounds]
    for game_at, rnd, _drawn in prepared.rounds:
        rnd.game = prepared.games[game_at]
    _create_dated(Round, rounds, "drawn_at", [drawn for _g, _r, drawn in prepared.rounds])
    _insert_slips(prepared.slips, [rnd.pk for rnd in rounds], player_ids)
    if prepared.changes:
        _write_changes(prepared.changes, tournament, rounds, player_ids)
    return tournament


def _create_dated(model, objs: list, name: str, moments: list) -> None:
    """``objs`` created, then given the file's time in ``name`` (``auto_now_add`` set it to now)."""
    model.objects.bulk_create(objs)
    for obj, moment in zip(objs, moments):
        setattr(obj, name, moment)
    model.objects.bulk_update(objs, [name])


def _insert_slips(slips: list[tuple], round_ids: list[int], player_ids: dict) -> None:
    """Every slip in one statement: ``executemany`` on SQLite (one prepared statement run per row,
    in the library), ``COPY`` on PostgreSQL (its executemany sends a statement a row, far slower for a
    tournament's hundred thousand slips)."""
    if not slips:
        return
    quote = connection.ops.quote_name
    table = quote(Submission._meta.db_table)
    columns = ", ".join(quote(Submission._meta.get_field(name).column) for name in SLIP_COLUMNS)
    rows = [(round_ids[at], player_ids[player], *rest) for at, player, *rest in slips]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            values = ", ".join(["%s"] * len(SLIP_COLUMNS))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({values})", rows)
            return
        sql = f"COPY {table} ({columns}) FROM STDIN"
        start = time.monotonic()
        with connection.wrap_database_errors, cursor.cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
        if connection.queries_logged:  # Django's debug log, as it records an executemany
            took = f"{time.monotonic() - start:.3f}"
            connection.queries_log.append({"sql": f"{len(rows)} times: {sql}", "time": took})


def _write_changes(
    changes: list[tuple], tournament: Tournament, rounds: list[Round], player_ids: dict
) -> None:
    """The log in the file's order, each change on its slip (by round and player: one slip each),
    then when it was made and which change each undo took back."""
    slip_ids = {}
    named = {slip[1] for _r, _p, slip, *_rest in changes if slip is not None}  # their players
    if named:
        made = Submission.objects.filter(
            round__game__tournament=tournament, player_id__in=[player_ids[p] for p in named]
        )
        slip_ids = {(r, p): pk for pk, r, p in made.values_list("pk", "round_id", "player_id").iterator()}
    objs = []
    for round_at, player, slip, _when, _undoes, change in changes:
        change.round_id, change.player_id = rounds[round_at].pk, player_ids[player]
        if slip is not None:
            change.submission_id = slip_ids[(rounds[slip[0]].pk, player_ids[slip[1]])]
        objs.append(change)
    SubmissionChange.objects.bulk_create(objs)
    for _r, _p, _s, when, undoes, change in changes:
        change.changed_at = when
        change.undoes_id = objs[undoes].pk if undoes is not None else None
    SubmissionChange.objects.bulk_update(objs, ["changed_at", "undoes"])
