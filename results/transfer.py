"""A tournament as a file, from one installation to another (the laptop to the federation's server
and back): ``tournament_export`` writes its players, games, rounds, slips, corrections' log and
slips tried during an outage (``transfer_tried``) as ``arbiter-tournament/3``, gzipped;
``tournament_import`` reads one (``transfer_reading``) and
writes it whole, in one short transaction (``transfer_writing``), for the club and the person who import it.

What the file does not carry: this installation's ids (the file's ``id`` are references inside it,
and the import gives every row a new one), people (who typed a slip or a correction is the importer
on the other side), the word list itself (named by its sha256: the other side must hold it), and
what of a game may not leave the server (``tournaments.disclosure``): a played random game's seed
(the other side draws from its own) and, in a game an event holds, the event's record (the game goes
as its room played it, its later racks typed there).
The file carries each player's token and join code, but a secret of this installation is never one
a file chose (anyone who writes a file could name ``AAAA…``, or the links of players seen elsewhere):
every imported player gets a new token and a new join code made here, so new cards are printed from
the imported tournament's page."""

from __future__ import annotations

import datetime
import gzip
import json
import logging

from django.db import IntegrityError

from lexicons.models import LexiconList
from lexicons.services import lexicons_of
from results.transfer_reading import (
    CHANGE_FIELDS,
    FORMAT,
    GAME_BESIDE,
    GAME_FIELDS,
    PLAYER_FIELDS,
    ROUND_BESIDE,
    ROUND_FIELDS,
    SLIP_FIELDS,
    TOURNAMENT_FIELDS,
    read_tournament,
    refuse,
)
from results.transfer_tried import claims_by_round, claims_write
from results.transfer_writing import tournament_prepared, tournament_write
from server.writes import ServiceError, writing
from tournaments import disclosure
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament
from tournaments.services.tops import queue_top

logger = logging.getLogger(__name__)


def _plain(value):
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return value


def _row(obj, names: tuple) -> dict:
    return {name: _plain(getattr(obj, name)) for name in names}


def tournament_document(tournament: Tournament) -> dict:
    """The tournament as the file holds it (a constant number of queries)."""
    players = list(Player.objects.filter(tournament=tournament).order_by("id"))
    games = list(Game.objects.filter(tournament=tournament).order_by("number"))
    rounds = list(Round.objects.filter(game__tournament=tournament).order_by("game_id", "number", "attempt"))
    slips = Submission.objects.filter(round__game__tournament=tournament).order_by("id")
    changes = SubmissionChange.objects.filter(round__game__tournament=tournament).order_by("id")
    slips_of, changes_of, rounds_of = {}, {}, {}
    claims = claims_by_round(tournament)
    for sub in slips:
        row = {"id": sub.pk, "player": sub.player_id, "entered": sub.entered_by_id is not None}
        more = {"message_more": sub.message_more} if sub.message_more else {}  # the grade in es, ca
        slips_of.setdefault(sub.round_id, []).append({**row, **_row(sub, SLIP_FIELDS), **more})
    for change in changes:
        row = {
            "id": change.pk,
            "player": change.player_id,
            "slip": change.submission_id,
            "undoes": change.undoes_id,
        }
        changes_of.setdefault(change.round_id, []).append({**row, **_row(change, CHANGE_FIELDS)})
    for rnd in rounds:
        row = _row(rnd, ROUND_FIELDS) | _beside(rnd, ROUND_BESIDE)
        row.update(slips=slips_of.get(rnd.pk, []), changes=changes_of.get(rnd.pk, []))
        row["tried"] = claims.get(rnd.pk, [])
        rounds_of.setdefault(rnd.game_id, []).append(row)
    # A French tournament's file is as before the letter sets; another set's names it twice.
    named = {} if tournament.letters == "fr" else {"letters": tournament.letters}
    return {
        "format": FORMAT,
        "tournament": {**_row(tournament, TOURNAMENT_FIELDS), **named},
        "lexicon": {"name": tournament.lexicon.name, "sha256": tournament.lexicon.sha256, **named},
        "players": [{"id": p.pk, **_row(p, PLAYER_FIELDS)} for p in players],
        "games": [
            {
                **disclosure.game_as_it_leaves(g, _row(g, GAME_FIELDS) | _beside(g, GAME_BESIDE)),
                "rounds": rounds_of.get(g.pk, []),
            }
            for g in games
        ],
    }


def _beside(obj, names: tuple) -> dict:
    """The columns written only when set (``transfer_reading.GAME_BESIDE``): a classic game's file
    is as before the variants, and older installations read it."""
    field = obj._meta.get_field
    return {name: getattr(obj, name) for name in names if getattr(obj, name) != field(name).get_default()}


def tournament_export(tournament: Tournament) -> bytes:
    """The tournament's file: its document as compact JSON, gzipped."""
    text = json.dumps(tournament_document(tournament), ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)


def tournament_import(*, data: bytes, club, user) -> Tournament:
    """The file's tournament, owned by ``club``, made by ``user``: checked whole and its rows
    prepared before the write lock, written in one short transaction (``transfer_writing``; nothing
    is left of a refused or failed import)."""
    document = read_tournament(data)
    lexicon = _lexicon(document["lexicon"], club)
    prepared = tournament_prepared(document, user)
    try:
        with writing():
            tournament = tournament_write(prepared, lexicon=lexicon, club=club, user=user)
            claims_write(document, tournament, user)
    except IntegrityError:
        # A row the checks let through and the database refused: nothing was written.
        raise ServiceError("transfer_conflict") from None
    _search_pending_tops(tournament)
    return tournament


def _search_pending_tops(tournament: Tournament) -> None:
    """A top the file says is still being searched is searched here: no search of the other
    installation will ever store it."""
    pending = Round.objects.filter(game__tournament=tournament, top_state=Round.TopState.PENDING)
    for round_id in pending.exclude(status=Round.Status.CANCELLED).values_list("pk", flat=True):
        try:
            queue_top(round_id)
        except Exception:  # the import stands; the arbiter's screen offers the search again
            logger.exception("The top of imported round %s could not be searched.", round_id)


def _lexicon(named: dict, club) -> LexiconList:
    found = lexicons_of([club], named.get("letters", "fr")).filter(sha256=named["sha256"]).first()
    if found is None:
        raise refuse("transfer_lexicon", name=named["name"][:80], sha256=named["sha256"][:12])
    return found
