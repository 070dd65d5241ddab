"""Slips a phone tried to send while the server did not answer, received after the round's cutoff:
kept as claims, never counted by themselves (§3.3.3: the server's clock decides lateness, a phone's is
not trusted).  The arbiter accepts one as a late paper slip (``slips.submission_correct``: logged with
who and when, graded on its round's board) or refuses it (logged on the claim); both show in the
round's journal (``live.tried.round_tried``)."""

from __future__ import annotations

from django.db import IntegrityError
from django.utils import timezone

from live.services.slips import submission_correct_logged
from live.tried import PER_ROUND, claim_ids, claims_moved
from server.writes import ServiceError, writing
from tournaments.models import Player, Round, Submission, TriedSlip
from tournaments.services.registration import player_held


def tried_record(*, player: Player, round_id: int, text: str, tried_at, request_id: str, now) -> TriedSlip:
    """Keep the claim that ``player`` tried to send ``text`` for the round at ``tried_at`` (the
    phone's clock), received at ``now`` (the server's) after the cutoff.  A repeat of any sending
    (``request_id``) is the claim already kept, unchanged; a newer sending replaces the player's
    pending claim for the round; at most ``PER_ROUND`` sendings per player and round, all claims
    counted (``tried_too_many``)."""
    claim = {"text": text.strip()[:80], "tried_at": tried_at, "received_at": now, "request_id": request_id}
    try:
        return _store(player, round_id, claim)
    except IntegrityError:
        if not Player.objects.filter(pk=player.pk).exists():
            raise ServiceError("slip_player_removed") from None
    # Two sendings of the player for the round at once (two web processes): the other's claim was
    # committed between this one's look and its insert, and is found now.
    return _store(player, round_id, claim)


def _store(player: Player, round_id: int, claim: dict) -> TriedSlip:
    with writing():
        if not player_held(player):
            raise ServiceError("slip_player_removed")
        kept = list(TriedSlip.objects.select_for_update().filter(round_id=round_id, player=player))
        same = next((c for c in kept if claim["request_id"] in claim_ids(c)), None)
        if same is not None:
            return same
        if sum(len(c.history) for c in kept) >= PER_ROUND:
            raise ServiceError("tried_too_many", limit=PER_ROUND)
        sent = {
            "request_id": claim["request_id"], "slip": claim["text"],
            "tried_at": claim["tried_at"].isoformat(), "at": claim["received_at"].isoformat(),
        }  # fmt: skip
        pending = next((c for c in kept if c.status == TriedSlip.Status.PENDING), None)
        if pending is None:
            stored = TriedSlip.objects.create(round_id=round_id, player=player, history=[sent], **claim)
        else:
            for key, value in claim.items():
                setattr(pending, key, value)
            pending.history = [*pending.history, sent]
            pending.save(update_fields=[*claim, "history"])
            stored = pending
        _round_moved(round_id)
        claims_moved(Round.objects.filter(pk=round_id).values_list("game_id", flat=True).get())
    return stored


def tried_accept(*, claim_id: int, round_id: int, user) -> Submission:
    """The arbiter takes the claim as the player's paper slip for its round, handed in late: stored,
    graded and logged as any paper slip (``submission_correct``), the claim marked accepted with that
    correction (undoing it takes the acceptance back).  One transaction: a claim accepted twice at
    once is stored once."""
    with writing():
        claim = _pending(claim_id, round_id)
        change = submission_correct_logged(round_id=round_id, player=claim.player, text=claim.text, user=user)
        claim.change = change
        _decide(claim, TriedSlip.Status.ACCEPTED, user)
        claims_moved(claim.round.game_id)
    return change.submission


def tried_refuse(*, claim_id: int, round_id: int, user) -> TriedSlip:
    """The arbiter refuses the claim: nothing counts (the player's slip for the round stays what it
    was), the refusal kept with who and when, shown in the round's journal."""
    with writing():
        claim = _pending(claim_id, round_id)
        _decide(claim, TriedSlip.Status.REFUSED, user)
        _round_moved(round_id)
        claims_moved(claim.round.game_id)
    return claim


def _pending(claim_id: int, round_id: int) -> TriedSlip:
    claims = TriedSlip.objects.select_for_update(of=("self",)).select_related("player", "round")
    claim = claims.filter(pk=claim_id, round_id=round_id).first()
    if claim is None:
        raise ServiceError("tried_gone")
    if claim.status == TriedSlip.Status.ACCEPTED:
        raise ServiceError("tried_already_accepted")
    if claim.status == TriedSlip.Status.REFUSED:
        raise ServiceError("tried_already_refused")
    return claim


def _decide(claim: TriedSlip, status: str, user) -> None:
    claim.status, claim.decided_by, claim.decided_at = status, user, timezone.now()
    claim.save(update_fields=["status", "decided_by", "decided_at", "change"])


def _round_moved(round_id: int) -> None:
    """The claim's round drawn again on the arbiter's slips panel (its picker compares each round's
    version) and, after a decision, on the phones; never a running round's row, which its close
    moves anyway, left alone while the room's slips come in."""
    rounds = Round.objects.filter(pk=round_id).exclude(status=Round.Status.RUNNING)
    for rnd in rounds.select_for_update(no_key=True).only("id", "game_id", "version"):
        rnd.version += 1  # saved, not updated: the phones' memo hears of it (server/memo.py)
        rnd.save(update_fields=["version"])
