"""Reads for the player's phone: everything one player's screen shows, and nothing of anyone else's
slip.  Before the deadline nothing here says whether a slip is valid or what it scores (§3.4)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from django.utils import timezone

from engine import alphabet
from engine.board import CELLS, SIZE
from tournaments import standings
from tournaments.boards import Cell, Preview, board_cells, slip_preview, words_formed
from tournaments.models import Game, Player, Round, Submission
from tournaments.room import current_round_recent
from tournaments.selectors import round_key

#: The countdown turns to its warning colour at the 30-second call (§3.3.2).
WARNING_SECONDS = 30


class Phase:
    """What the phone is showing; ``player.js`` keeps the screen awake only while RUNNING."""

    WAITING = "waiting"
    DRAWN = "drawn"
    RUNNING = "running"
    CLOSED = "closed"
    ENDED = "ended"


#: The characters of ``models.new_token``: anything else names no player and never reaches the
#: database (PostgreSQL refuses a NUL in a query: a 500 for ``/j/%00/``).


@dataclass(frozen=True)
class Standing:
    total: int
    tops: int
    rank: int
    players: int
    #: The score the tournament ranks on (total, or paid scores only) minus the tops' sum (§4), e.g.
    #: −35: the same figure as the ranking pages and sheets.
    negatif: int


def player_standing(player: Player) -> Standing:
    """The player's line in the tournament's ranking so far: total (with solos and penalties, §4), the
    tops' sum, the rank (shared by equal totals unless the tournament breaks ties) and the négatif."""
    ranking = standings.tournament_ranking_shared(player.tournament)
    line = next(line for line in ranking.lines if line.entrant.key == player.pk)
    return Standing(line.total, ranking.top, line.rank, len(ranking.lines), ranking.negatif(line))


@dataclass(frozen=True)
class RackTile:
    letter: str
    value: int


@dataclass
class Screen:
    """Everything one player's phone shows, for the page and for its polled status partial."""

    player: Player
    round: Round | None
    phase: str
    signature: str
    rack: list[RackTile]
    remaining: float | None
    submission: Submission | None
    #: What the board shows: the game's tiles, the player's slip on them, the last top's tiles.
    board: list[int]
    preview: Preview | None = None
    last_tiles: list | None = None
    top: dict | None = None
    top_words: list[str] = field(default_factory=list)
    standing: Standing | None = None

    @functools.cached_property
    def cells(self) -> list[Cell]:
        """The board's 225 cells, worked out only when the board is drawn (phones showing the same
        board share one drawing: ``views.player._board_html``)."""
        return board_cells(self.board or [0] * CELLS, self.preview, self.last_tiles)

    @property
    def clock(self) -> str:
        seconds = self.remaining
        if seconds is None:
            seconds = self.player.tournament.round_seconds if self.phase == Phase.DRAWN else 0
        whole = math.ceil(seconds)
        return f"{whole // 60}:{whole % 60:02d}"

    @property
    def columns(self) -> range:
        return range(1, SIZE + 1)

    @property
    def warning(self) -> bool:
        return self.remaining is not None and self.remaining <= WARNING_SECONDS


def _phase(rnd: Round | None) -> str:
    if rnd is None:
        return Phase.WAITING
    if rnd.status == Round.Status.DRAWN:
        return Phase.DRAWN
    if rnd.status == Round.Status.RUNNING:
        return Phase.RUNNING
    return Phase.ENDED if rnd.game.status == Game.Status.ENDED else Phase.CLOSED


def player_submission(player: Player, rnd: Round | None) -> Submission | None:
    if rnd is None:
        return None
    return Submission.objects.filter(round=rnd, player=player).first()


def player_screen(player: Player, now=None, submission: Submission | None = None) -> Screen:
    """``submission``: the player's slip just stored, if any (not read again when it is this
    round's)."""
    now = now or timezone.now()
    rnd = current_round_recent(player.tournament_id)
    phase = _phase(rnd)
    if submission is not None and rnd is not None and submission.round_id == rnd.pk:
        sub = submission
    else:
        sub = player_submission(player, rnd)
    remaining = None
    if phase == Phase.RUNNING:
        remaining = max(0.0, (rnd.deadline - now).total_seconds())
    board = rnd.game.board if rnd else []
    preview = slip_preview(board, sub.ref, sub.word) if sub else None
    screen = Screen(
        player=player,
        round=rnd,
        phase=phase,
        signature=round_key(rnd),
        rack=[RackTile(alphabet.char(t), alphabet.VALUES[t]) for t in (rnd.tiles if rnd else [])],
        remaining=remaining,
        submission=sub,
        board=board,
        preview=preview,
    )
    if phase in (Phase.CLOSED, Phase.ENDED):
        _add_results(screen, rnd, board)
    return screen


def _add_results(screen: Screen, rnd: Round, board: list[int]) -> None:
    """After the deadline: the top and its words, the player's own line, total, négatif, rank."""
    top = rnd.placed or (rnd.tops[0] if rnd.tops else None)
    if top:
        horizontal = top["ref"][0].isalpha()
        if rnd.placed:
            # The top is on the board already: mark its tiles, and read its words there.
            screen.preview, screen.last_tiles = None, top["tiles"]
            empty = list(board)
            for sq, _ in top["tiles"]:
                empty[sq] = 0
            screen.top_words = words_formed(empty, top["tiles"], horizontal)
        else:
            screen.top_words = words_formed(board, top["tiles"], horizontal)
    screen.top = top
    screen.standing = player_standing(screen.player)
