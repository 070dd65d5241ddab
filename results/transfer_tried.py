"""A tournament file's slips tried during an outage (``TriedSlip``): each round's claims as the file
carries them (``transfer.tournament_document``), and written back once an import has written the
rounds, the players and the corrections' log they name (``transfer.tournament_import``, inside its
transaction).  Who decided is the importer on the other side, as for the corrections."""

from __future__ import annotations

import datetime

from results.transfer_reading import TRIED_FIELDS
from tournaments.models import Player, Round, SubmissionChange, Tournament, TriedSlip


def _plain(value):
    return value.isoformat() if isinstance(value, datetime.datetime) else value


def claims_by_round(tournament: Tournament) -> dict[int, list[dict]]:
    """The tournament's claims as the file holds them, by round id (one query)."""
    claims = TriedSlip.objects.filter(round__game__tournament=tournament).order_by("id")
    out: dict[int, list[dict]] = {}
    for claim in claims:
        row = {
            "id": claim.pk,
            "player": claim.player_id,
            "decided": claim.decided_by_id is not None,
            "change": claim.change_id,
            **{name: _plain(getattr(claim, name)) for name in TRIED_FIELDS},
        }
        out.setdefault(claim.round_id, []).append(row)
    return out


def claims_write(document: dict, tournament: Tournament, user) -> None:
    """The checked file's claims (``document["tried"]``, by game and round in the file's order) on the
    rounds just written: rounds found by game number, round number and attempt, players by table,
    corrections by their order in their round's log."""
    if not any(any(round_claims) for game_claims in document["tried"] for round_claims in game_claims):
        return
    tables = dict(Player.objects.filter(tournament=tournament).values_list("table_number", "pk"))
    players = {p["id"]: tables[p["table_number"]] for p in document["players"]}
    rounds = Round.objects.filter(game__tournament=tournament).values_list(
        "game__number", "number", "attempt", "pk"
    )
    round_ids = {(game, number, attempt): pk for game, number, attempt, pk in rounds}
    made = []
    for game, game_claims in zip(document["games"], document["tried"]):
        for rdoc, round_claims in zip(game["rounds"], game_claims):
            if not round_claims:
                continue
            round_id = round_ids[(game["number"], rdoc["number"], rdoc["attempt"])]
            logged = (
                SubmissionChange.objects.filter(round_id=round_id).order_by("id").values_list("pk", flat=True)
            )
            changes = dict(zip([c["id"] for c in rdoc["changes"]], logged))
            made += [_claim(claim, round_id, players, changes, user) for claim in round_claims]
    TriedSlip.objects.bulk_create(made)


def _claim(doc: dict, round_id: int, players: dict, changes: dict, user) -> TriedSlip:
    return TriedSlip(
        round_id=round_id,
        player_id=players[doc["player"]],
        decided_by=user if doc["decided"] else None,
        change_id=changes.get(doc["change"]),
        **{name: doc[name] for name in TRIED_FIELDS},
    )
