"""A tournament as a file, from one installation to another (the laptop to the federation's server
and back): ``tournament_export`` writes its players, games, rounds, slips, corrections' log and
slips tried during an outage (``transfer_tried``) as ``arbiter-tournament/3``, gzipped;
``tournament_import`` reads one (``transfer_reading``) and
writes it whole, in one transaction, for the club and the person who import it.

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
    GAME_FIELDS,
    PLAYER_FIELDS,
    ROUND_FIELDS,
    SLIP_FIELDS,
    TOURNAMENT_FIELDS,
    read_tournament,
    refuse,
)
from results.transfer_tried import claims_by_round, claims_write
from server.writes import ServiceError, writing
from tournaments import disclosure
from tournaments.codes import codes_fresh
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament, new_token
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
        slips_of.setdefault(sub.round_id, []).append({**row, **_row(sub, SLIP_FIELDS)})
    for change in changes:
        row = {
            "id": change.pk,
            "player": change.player_id,
            "slip": change.submission_id,
            "undoes": change.undoes_id,
        }
        changes_of.setdefault(change.round_id, []).append({**row, **_row(change, CHANGE_FIELDS)})
    for rnd in rounds:
        row = _row(rnd, ROUND_FIELDS)
        row.update(slips=slips_of.get(rnd.pk, []), changes=changes_of.get(rnd.pk, []))
        row["tried"] = claims.get(rnd.pk, [])
        rounds_of.setdefault(rnd.game_id, []).append(row)
    return {
        "format": FORMAT,
        "tournament": _row(tournament, TOURNAMENT_FIELDS),
        "lexicon": {"name": tournament.lexicon.name, "sha256": tournament.lexicon.sha256},
        "players": [{"id": p.pk, **_row(p, PLAYER_FIELDS)} for p in players],
        "games": [
            {**disclosure.game_as_it_leaves(g, _row(g, GAME_FIELDS)), "rounds": rounds_of.get(g.pk, [])}
            for g in games
        ],
    }


def tournament_export(tournament: Tournament) -> bytes:
    """The tournament's file: its document as compact JSON, gzipped."""
    text = json.dumps(tournament_document(tournament), ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)


def tournament_import(*, data: bytes, club, user) -> Tournament:
    """The file's tournament, owned by ``club``, made by ``user``: checked whole before the write
    lock, written in one transaction (nothing is left of a refused or failed import)."""
    document = read_tournament(data)
    lexicon = _lexicon(document["lexicon"], club)
    try:
        with writing():
            tournament = _write(document, lexicon, club, user)
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
    found = lexicons_of([club]).filter(sha256=named["sha256"]).first()
    if found is None:
        raise refuse("transfer_lexicon", name=named["name"][:80], sha256=named["sha256"][:12])
    return found


def _write(document: dict, lexicon: LexiconList, club, user) -> Tournament:
    tournament = Tournament.objects.create(
        **document["tournament"], lexicon=lexicon, owner=club, created_by=user
    )
    codes = codes_fresh(len(document["players"]))
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            **{k: v for k, v in p.items() if k not in ("id", "token", "join_code")},
            token=new_token(),
            join_code=code,
        )
        for p, code in zip(document["players"], codes)
    )
    player_ids = {p["id"]: made.pk for p, made in zip(document["players"], players)}
    for number in document["games"]:
        _write_game(tournament, number, player_ids, user)
    return tournament


def _write_game(tournament: Tournament, doc: dict, player_ids: dict, user) -> None:
    fields = {k: v for k, v in doc.items() if k not in ("rounds", "created_at")}
    game = Game.objects.create(tournament=tournament, **fields)
    Game.objects.filter(pk=game.pk).update(created_at=doc["created_at"])  # auto_now_add set it to now
    for rdoc in doc["rounds"]:
        fields = {k: v for k, v in rdoc.items() if k not in ("slips", "changes", "drawn_at")}
        rnd = Round.objects.create(game=game, **fields)
        Round.objects.filter(pk=rnd.pk).update(drawn_at=rdoc["drawn_at"])
        slips = Submission.objects.bulk_create(
            Submission(
                round=rnd,
                player_id=player_ids[s["player"]],
                entered_by=user if s["entered"] else None,
                **{k: v for k, v in s.items() if k not in ("id", "player", "entered")},
            )
            for s in rdoc["slips"]
        )
        slip_ids = {s["id"]: made.pk for s, made in zip(rdoc["slips"], slips)}
        _write_changes(rnd, rdoc["changes"], player_ids, slip_ids, user)


def _write_changes(rnd: Round, changes: list[dict], player_ids: dict, slip_ids: dict, user) -> None:
    """The log in the file's order, then which change each undo took back."""
    change_ids, undoes = {}, []
    for doc in changes:
        made = SubmissionChange.objects.create(
            round=rnd,
            player_id=player_ids[doc["player"]],
            submission_id=slip_ids.get(doc["slip"]),
            changed_by=user,
            before=doc["before"],
            after=doc["after"],
        )
        change_ids[doc["id"]] = made.pk
        SubmissionChange.objects.filter(pk=made.pk).update(changed_at=doc["changed_at"])
        if doc["undoes"] is not None:
            undoes.append((made.pk, doc["undoes"]))
    for pk, undone in undoes:
        SubmissionChange.objects.filter(pk=pk).update(undoes_id=change_ids[undone])
