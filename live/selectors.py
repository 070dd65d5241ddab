"""Reads of the live room's slips for the arbiter's screen: each player's row of a round, the rounds
whose slips are graded, the tables still missing, a player's slips and their corrections."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from live import tried
from tournaments.models import COUNTED, Player, Round, Submission, SubmissionChange, TriedSlip
from tournaments.selectors import SANCTIONS


@dataclass(frozen=True)
class SlipRow:
    player: Player
    submission: Submission | None
    deadline: datetime | None = None
    #: The player's slips of the round tried during an outage and received late (``TriedSlip``).
    claims: tuple = ()

    @property
    def sanction(self) -> str:
        return SANCTIONS.get(self.submission.sanction, "") if self.submission else ""

    @property
    def in_grace(self) -> bool:
        """Sent by the phone after the deadline, inside the grace window (§3.3.3): accepted, and the
        arbiter sees when it arrived."""
        sub = self.submission
        late = sub is not None and self.deadline is not None and sub.received_at > self.deadline
        return late and sub.entered_by_id is None


def graded_rounds(game_id: int) -> list[Round]:
    """The game's rounds whose slips are graded (closed or placed), by number: each one's slips stay
    open to paper slips and corrections while the next runs and after the game (ux.md, the arbiter's
    laptop).  A cancelled draw is no round of the game."""
    fields = ("id", "game_id", "number", "version", "status")
    rounds = Round.objects.filter(game_id=game_id, status__in=COUNTED)
    return list(rounds.order_by("number", "attempt").only(*fields))


def missing_tables(rnd: Round) -> list[int]:
    """The tables whose player has sent no slip yet this round, in order."""
    sent = Submission.objects.filter(round=rnd).values_list("player_id", flat=True)
    players = Player.objects.filter(tournament_id=rnd.game.tournament_id).exclude(pk__in=sent)
    return list(players.order_by("table_number").values_list("table_number", flat=True))


@dataclass(frozen=True)
class SlipHistory:
    player: Player
    submission: Submission | None
    #: Every sending of the phone: (time, slip as sent).
    sent: list[tuple[datetime, str]]
    changes: list
    #: The slips the phone tried to send during an outage, received late, each said in a line.
    claims: list[str] = field(default_factory=list)


def slip_history(rnd: Round, table: int) -> SlipHistory | None:
    """One player's slips of the round: each sending with its time, and the arbiter's corrections."""
    player = Player.objects.filter(tournament_id=rnd.game.tournament_id, table_number=table).first()
    if player is None:
        return None
    sub = Submission.objects.filter(round=rnd, player=player).first()
    sent = [(datetime.fromisoformat(entry["at"]), entry["slip"]) for entry in (sub.history if sub else [])]
    changes = list(round_changes(rnd).filter(player=player))
    claims = TriedSlip.objects.filter(round=rnd, player=player).order_by("received_at", "id")
    return SlipHistory(player, sub, sent, changes, [tried.history_line(claim) for claim in claims])


def round_changes(rnd: Round):
    return (
        SubmissionChange.objects.filter(round=rnd)
        .select_related("player", "changed_by", "undoes")
        .order_by("-changed_at", "-id")
    )
