"""Slips a phone tried to send while the server did not answer: what the phone sends when the server
answers again, read and checked; the arbiter's view of the claims; their sentences, French first.

A phone that could not reach the server keeps its slip with the moment it first tried, and sends it
once the server answers (``POST /j/<token>/essai/``, ``views.tried``).  The server's clock decides
lateness (§3.3.3, ../shared/rules/duplicate.md): a slip that reaches it in time is a slip like any
other; one that reaches it late is never counted by itself, for a phone's clock is not trusted.  It
is kept as a claim (``models.TriedSlip``) that the arbiter accepts as a late paper slip or refuses
(``services.tried``), where the round's slips are settled (``screens.SlipsPanel``)."""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext

from engine.messages import Message, register
from server import memo
from server.language import interface_language
from tournaments.models import COUNTED, Round, TriedSlip

#: What the phone may send: the slip as its two fields hold it (no slip is longer), a request id.
SLIP_MAX, CLAIMED_MAX, REQUEST_ID_MAX = 60, 6, 100
#: The phone's clock may run a little ahead of the server's; a first try older than this is no
#: outage a round's claim can come from (a round lasts 3 minutes, an evening's outage minutes).
AHEAD = timedelta(seconds=5)
OLDEST = timedelta(hours=1)
#: Different sendings kept per player and round (a newer one replaces the pending one): a phone
#: looping on new slips is told to see the arbiter.
PER_ROUND = 5

#: How long the shared cache keeps a game's mark of its claims: an evening and more.
MARK_SECONDS = 7 * 24 * 3600
log = logging.getLogger(__name__)

_ROUND = re.compile(r"[0-9]{1,18}")
_MILLISECONDS = re.compile(r"[0-9]{1,15}")


register(
    {
        # The phone's answers (views/tried.py).
        "tried_kept": {
            "fr": "Bulletin tenté à {time} pendant la coupure : transmis à l'arbitre, qui décidera.",
            "en": "Slip tried at {time} while the server was unreachable: passed to the arbiter, "
            "who will decide.",
        },
        "tried_in_time": {
            "fr": "Bulletin reçu à temps : {slip}.",
            "en": "Slip received in time: {slip}.",
        },
        "tried_incomplete": {
            "fr": "Envoi incomplet : il faut le coup, le bulletin, l'identifiant de l'envoi et "
            "l'heure du premier essai. Donnez votre bulletin sur papier à l'arbitre.",
            "en": "Incomplete sending: the round, the slip, the sending's id and the time of the "
            "first try are needed. Hand your slip to the arbiter on paper.",
        },
        "tried_too_long": {
            "fr": "Envoi trop long (bulletin de {slip} caractères au plus, score de {claimed}). "
            "Donnez votre bulletin sur papier à l'arbitre.",
            "en": "Sending too long (a slip of at most {slip} characters, a score of {claimed}). "
            "Hand your slip to the arbiter on paper.",
        },
        "tried_round_unknown": {
            "fr": "Ce coup n'est pas un coup de votre tournoi : bulletin non transmis.",
            "en": "This round is not one of your tournament's: slip not passed on.",
        },
        "tried_round_not_played": {
            "fr": "Le coup {number} n'a pas été joué (chrono pas lancé, ou coup annulé) : bulletin "
            "non transmis.",
            "en": "Round {number} was not played (its clock never started, or it was cancelled): "
            "slip not passed on.",
        },
        "tried_time_unreadable": {
            "fr": "L'heure du premier essai est illisible : bulletin non transmis. Donnez-le sur "
            "papier à l'arbitre.",
            "en": "The time of the first try cannot be read: slip not passed on. Hand it to the "
            "arbiter on paper.",
        },
        "tried_time_ahead": {
            "fr": "L'heure du premier essai ({time}) est en avance sur l'horloge du serveur : "
            "bulletin non transmis. Donnez-le sur papier à l'arbitre.",
            "en": "The time of the first try ({time}) is ahead of the server's clock: slip not "
            "passed on. Hand it to the arbiter on paper.",
        },
        "tried_time_old": {
            "fr": "Le premier essai date de plus d'une heure : bulletin non transmis. Donnez-le sur "
            "papier à l'arbitre.",
            "en": "The first try is more than an hour old: slip not passed on. Hand it to the "
            "arbiter on paper.",
        },
        "tried_too_many": {
            "fr": "Déjà {limit} bulletins tentés pour ce coup : parlez-en à l'arbitre.",
            "en": "Already {limit} slips tried for this round: speak to the arbiter.",
        },
        # The arbiter's screen (screens.py, _round.html and _slips.html).
        "tried_notice": {
            "fr": "Table {table} ({name}) a tenté d'envoyer son bulletin du coup {number} à {time} "
            "(serveur injoignable) : à accepter ou refuser.",
            "en": "Table {table} ({name}) tried to send round {number}'s slip at {time} (server "
            "unreachable): accept or refuse it.",
        },
        "tried_notice_link": {"fr": "Bulletins du coup {number}", "en": "Round {number}'s slips"},
        "tried_title": {
            "fr": "Bulletins tentés pendant une coupure",
            "en": "Slips tried while the server was unreachable",
        },
        "tried_hint": {
            "fr": "Reçus après la fin du coup ({deadline}, horloge du serveur) : ils ne comptent pas "
            "d'eux-mêmes. L'heure de l'essai est celle du téléphone, non vérifiée. Accepté, le "
            "bulletin compte comme un bulletin papier remis en retard ; refusé, rien ne compte.",
            "en": "Received after the round ended ({deadline}, the server's clock): they do not count "
            "by themselves. The time of the try is the phone's, unchecked. Accepted, the slip counts "
            "as a paper slip handed in late; refused, nothing counts.",
        },
        "tried_line": {
            "fr": "Table {table} — {name} : {slip}, tenté à {tried} (téléphone), reçu à {received}.",
            "en": "Table {table} — {name}: {slip}, tried at {tried} (phone), received at {received}.",
        },
        "tried_accept": {"fr": "Accepter", "en": "Accept"},
        "tried_refuse": {"fr": "Refuser", "en": "Refuse"},
        "tried_logged": {
            "fr": "tenté à {tried} (serveur injoignable) : {slip}",
            "en": "tried at {tried} (server unreachable): {slip}",
        },
        "tried_accepted": {"fr": "accepté", "en": "accepted"},
        "tried_refused": {"fr": "refusé", "en": "refused"},
        "tried_already_accepted": {
            "fr": "Ce bulletin tenté est déjà accepté.",
            "en": "This tried slip is already accepted.",
        },
        "tried_already_refused": {
            "fr": "Ce bulletin tenté est déjà refusé.",
            "en": "This tried slip is already refused.",
        },
        "tried_gone": {
            "fr": "Ce bulletin tenté n'existe plus (joueur retiré, ou coup annulé).",
            "en": "This tried slip is gone (player removed, or round cancelled).",
        },
    }
)


def clock_text(moment: datetime) -> str:
    """A moment as the room's clock shows it (the server's zone): ``20:14:05``."""
    return timezone.localtime(moment).strftime("%H:%M:%S")


# -- what the phone sends ---------------------------------------------------------------------------


class Refused(Exception):
    """A sending refused before anything is read from the database: ``message`` says why."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))


@dataclass(frozen=True)
class Sent:
    """The phone's fields, read: the round's id, the slip and claimed score as typed, the sending's id,
    and the moment of its first try (its clock)."""

    round_id: int
    slip: str
    claimed: str
    request_id: str
    tried_at: datetime


def sent_read(post, now: datetime) -> Sent:
    """The fields of ``POST /j/<token>/essai/`` checked, or ``Refused``: all present and within their
    lengths, the first try neither ahead of ``now`` (the server's clock) by more than ``AHEAD`` nor
    older than ``OLDEST``."""
    raw = {name: post.get(name, "") for name in ("round", "slip", "claimed", "request_id", "tried_at")}
    limits = {"slip": SLIP_MAX, "claimed": CLAIMED_MAX, "request_id": REQUEST_ID_MAX, "tried_at": 20}
    if any(len(raw[name]) > limit for name, limit in limits.items()):
        raise Refused("tried_too_long", slip=SLIP_MAX, claimed=CLAIMED_MAX)
    round_id, stamp = raw["round"].strip(), raw["tried_at"].strip()
    if not (_ROUND.fullmatch(round_id) and raw["slip"].strip() and raw["request_id"].strip() and stamp):
        raise Refused("tried_incomplete")
    if not _MILLISECONDS.fullmatch(stamp):
        raise Refused("tried_time_unreadable")
    tried_at = datetime.fromtimestamp(int(stamp) / 1000, tz=UTC)
    if tried_at > now + AHEAD:
        raise Refused("tried_time_ahead", time=clock_text(tried_at))
    if tried_at < now - OLDEST:
        raise Refused("tried_time_old")
    return Sent(int(round_id), raw["slip"], raw["claimed"], raw["request_id"], tried_at)


# -- what the arbiter sees --------------------------------------------------------------------------


def pending_key(game_id: int) -> str:
    """What the game screen's poll compares of the game's claims (one kept, replaced or decided)
    without a query: the game's mark in the shared cache (Redis at scale, this one process's memory
    on the laptop), moved by ``claims_moved``; when the cache does not answer, the pending claims
    counted."""
    try:
        return cache.get(f"tried:{game_id}", "")
    except Exception:  # the cache is Redis and Redis is down: the database says it
        log.warning("cache unreachable: the game's tried slips counted", exc_info=True)
    found = _pending(game_id).aggregate(n=Count("id"), last=Max("received_at"))
    return f"{found['n']}-{found['last'].timestamp() if found['last'] else 0}"


def claims_moved(game_id: int) -> None:
    """A new mark for the game's claims, now and once committed (a poll that read the claims before
    the commit reads them again)."""

    def move():
        try:
            cache.set(f"tried:{game_id}", uuid.uuid4().hex[:12], MARK_SECONDS)
        except Exception:
            log.warning("cache unreachable: a tried slip not told to the game screen", exc_info=True)

    move()
    transaction.on_commit(move)


def _pending(game_id: int):
    """The game's claims waiting for the arbiter, of rounds whose slips are graded (a claim for a
    round still running past its cutoff shows once it closes; a cancelled round's count for nothing)."""
    claims = TriedSlip.objects.filter(round__game_id=game_id, status=TriedSlip.Status.PENDING)
    return claims.filter(round__status__in=COUNTED)


@dataclass(frozen=True)
class Notice:
    """A pending claim said on the game screen, with the way to the round's slips."""

    number: int
    text: str
    link: str


def pending_notices(game_id: int) -> list[Notice]:
    """The game's pending claims, one sentence each, oldest first."""
    lang = interface_language()
    claims = _pending(game_id)
    notices = []
    for claim in claims.select_related("player", "round").order_by("received_at", "id"):
        number = claim.round.number
        params = {"table": claim.player.table_number, "name": claim.player.name, "number": number}
        text = Message("tried_notice", {**params, "time": clock_text(claim.tried_at)}).text(lang)
        notices.append(Notice(number, text, Message("tried_notice_link", {"number": number}).text(lang)))
    return notices


@dataclass(frozen=True)
class TriedRow:
    """One claim of the round as the slips panel shows it."""

    pk: int
    table: int
    name: str
    status: str
    line: str
    #: The journal's line: when and by whom it was decided, what was tried, the decision.
    decided_at: datetime | None = None
    decided_by: str = ""
    logged: str = ""
    decision: str = ""


@dataclass(frozen=True)
class TriedPanel:
    """The round's claims: the pending ones with their buttons, the decided ones for the journal."""

    title: str
    hint: str
    accept: str
    refuse: str
    pending: list[TriedRow] = field(default_factory=list)
    decided: list[TriedRow] = field(default_factory=list)


def round_tried(rnd: Round) -> TriedPanel:
    """The round's claims, in the interface's language."""
    lang = interface_language()
    deadline = clock_text(rnd.deadline) if rnd.deadline else "—"
    panel = TriedPanel(
        title=Message("tried_title").text(lang),
        hint=Message("tried_hint", {"deadline": deadline}).text(lang),
        accept=Message("tried_accept").text(lang),
        refuse=Message("tried_refuse").text(lang),
    )
    claims = TriedSlip.objects.filter(round=rnd).select_related("player", "decided_by")
    for claim in claims.order_by("received_at", "id"):
        row = _row(claim, lang)
        (panel.pending if claim.status == TriedSlip.Status.PENDING else panel.decided).append(row)
    return panel


def _row(claim: TriedSlip, lang: str) -> TriedRow:
    player, tried = claim.player, clock_text(claim.tried_at)
    line = Message(
        "tried_line",
        {
            "table": player.table_number, "name": player.name, "slip": claim.text, "tried": tried,
            "received": clock_text(claim.received_at),
        },
    ).text(lang)  # fmt: skip
    if claim.status == TriedSlip.Status.PENDING:
        return TriedRow(claim.pk, player.table_number, player.name, claim.status, line)
    decision = "tried_accepted" if claim.status == TriedSlip.Status.ACCEPTED else "tried_refused"
    return TriedRow(
        claim.pk, player.table_number, player.name, claim.status, line,
        decided_at=claim.decided_at,
        decided_by=claim.decided_by.get_username() if claim.decided_by else "",
        logged=Message("tried_logged", {"tried": tried, "slip": claim.text}).text(lang),
        decision=Message(decision).text(lang),
    )  # fmt: skip


# -- what the player's phone shows ------------------------------------------------------------------

#: A graded round's claims by player, under the round's (id, version): every change of a claim (one
#: kept, accepted, refused, an acceptance undone) moves it, and every phone asks at once after a close.
_round_claims: memo.Kept[dict[int, tuple[TriedSlip, ...]]] = memo.Kept(64)


def round_claims_kept(rnd: Round) -> dict[int, tuple[TriedSlip, ...]]:
    """The graded round's claims by player, oldest first, read once by each process for the room."""
    key = (rnd.pk, rnd.version)
    claims = _round_claims.get(key)
    if claims is None:
        found: dict[int, list[TriedSlip]] = {}
        for claim in TriedSlip.objects.filter(round_id=rnd.pk).order_by("received_at", "id"):
            found.setdefault(claim.player_id, []).append(claim)
        claims = {player: tuple(kept) for player, kept in found.items()}
        _round_claims.put(key, claims)
    return claims


@dataclass(frozen=True)
class Shown:
    """What one player's screens say of their claims for a round: the accepted one (the slip it wrote
    in is the one that counts), and besides it the one pending or the last refused since."""

    accepted: TriedSlip | None = None
    other: TriedSlip | None = None


def claims_shown(claims: tuple[TriedSlip, ...]) -> Shown:
    """``claims`` (one player's, oldest first) as their screens say them."""
    accepted = next((c for c in reversed(claims) if c.status == TriedSlip.Status.ACCEPTED), None)
    other = next((c for c in claims if c.status == TriedSlip.Status.PENDING), None)
    if other is None:
        refused = [c for c in claims if c.status == TriedSlip.Status.REFUSED]
        if refused and (accepted is None or refused[-1].received_at > accepted.received_at):
            other = refused[-1]
    return Shown(accepted, other)


def claim_ids(claim: TriedSlip) -> set[str]:
    """The request ids a claim stands for (a sending without one is never a repeat)."""
    return {sent["request_id"] for sent in claim.history if sent.get("request_id")}


def history_line(claim: TriedSlip) -> str:
    """A claim in its player's slip history: what was tried and when, when it came, what became of it."""
    said = {
        "slip": claim.text, "tried": clock_text(claim.tried_at), "received": clock_text(claim.received_at),
        "decided": clock_text(claim.decided_at) if claim.decided_at else "",
    }  # fmt: skip
    if claim.status == TriedSlip.Status.ACCEPTED:
        text = gettext(
            "%(slip)s, tenté à %(tried)s (heure du téléphone), reçu à %(received)s : accepté par "
            "l'arbitre à %(decided)s."
        )
    elif claim.status == TriedSlip.Status.REFUSED:
        text = gettext(
            "%(slip)s, tenté à %(tried)s (heure du téléphone), reçu à %(received)s : refusé par "
            "l'arbitre à %(decided)s."
        )
    else:
        text = gettext(
            "%(slip)s, tenté à %(tried)s (heure du téléphone), reçu à %(received)s : en attente de la "
            "décision de l'arbitre."
        )
    return text % said
