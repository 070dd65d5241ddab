"""Reads for the player's phone: everything one player's screen shows, and nothing of anyone else's
slip.  Before the deadline nothing here says whether a slip is valid or what it scores (§3.4)."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models.signals import post_delete
from django.utils import timezone

from engine import alphabet
from engine.board import CELLS, SIZE
from engine.notation import NotationError, parse_slip
from tournaments import memo, result_reads
from tournaments.models import Game, Player, Round, Submission, Tournament
from tournaments.selectors import premium_class

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
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _token_ok(token) -> bool:
    return isinstance(token, str) and _TOKEN.fullmatch(token) is not None


def player_by_token(token: str) -> Player | None:
    """The player whose join link carries ``token`` (the secret is the whole sign-in)."""
    if not _token_ok(token):
        return None
    return Player.objects.select_related("tournament").filter(token=token).first()


def _current(tournament_id: int):
    return (
        Round.objects.filter(game__tournament_id=tournament_id)
        .exclude(status=Round.Status.CANCELLED)
        .order_by("-game__number", "-number", "-attempt")
    )


def current_round(tournament_id: int) -> Round | None:
    """The round the room is on: the last draw of the last game that was not cancelled."""
    return _current(tournament_id).select_related("game__tournament__lexicon").first()


@dataclass(frozen=True)
class Signature:
    """The little a poll needs: which round, which version, and whether it must be closed now."""

    round_id: int
    key: str
    due: bool
    remaining: float | None


def round_signature(tournament_id: int, now=None) -> Signature:
    """The current round's id and version, the game's state, and the clock (no query while the
    round is remembered: ``current_round_recent``)."""
    now = now or timezone.now()
    rnd = current_round_recent(tournament_id)
    if rnd is None:
        return Signature(0, signature_of(None), False, None)
    running = rnd.status == Round.Status.RUNNING
    due = running and now > rnd.deadline + timedelta(seconds=rnd.game.tournament.grace_seconds)
    remaining = max(0.0, (rnd.deadline - now).total_seconds()) if running else None
    return Signature(rnd.pk, signature_of(rnd), due, remaining)


_rounds: memo.Recent[Round | None] = memo.Recent()


def current_round_recent(tournament_id: int) -> Round | None:
    """``current_round`` as read at most ``settings.POLL_MEMO_SECONDS`` ago (``tournaments.memo``):
    the whole room asks for it at once.  Read it, never change it."""
    return _rounds.get(tournament_id, lambda: current_round(tournament_id))


_rooms: memo.Recent[dict[int, Player]] = memo.Recent()


def _room(tournament_id: int) -> dict[int, Player]:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    players = {}
    for player in Player.objects.filter(tournament_id=tournament_id):
        player.tournament = tournament
        players[player.pk] = player
    return players


def player_by_token_recent(token: str) -> Player | None:
    """``player_by_token`` as read at most ``settings.POLL_MEMO_SECONDS`` ago: when a round changes
    state every phone of the room asks for its new screen at once, and the room's players are read
    in one query for all of them.  Read it, never change it."""
    ids = player_ids(token)
    if ids is None:
        return None
    player_id, tournament_id = ids
    player = _rooms.get(tournament_id, lambda: _room(tournament_id)).get(player_id)
    return player if player is not None else player_by_token(token)


#: A token's player and tournament never change; a few tournaments' players are remembered.
_player_ids: memo.Kept[tuple[int, int]] = memo.Kept(20_000)


def player_ids(token: str) -> tuple[int, int] | None:
    """``(player id, tournament id)`` of a join link's token, or None when it names no player.  The
    process remembers them, and the 2-second poll that finds nothing new costs no query."""
    if not _token_ok(token):
        return None
    known = _player_ids.get(token)
    if known is not None:
        return known
    row = Player.objects.filter(token=token).values_list("pk", "tournament_id").first()
    if row is None:
        return None  # not remembered: the player may be registered in a moment
    _player_ids.put(token, row)
    return row


def _forget_player(instance, **_kwargs) -> None:
    _player_ids.pop(instance.token)


post_delete.connect(_forget_player, sender=Player, dispatch_uid="forget-deleted-player")


def round_of_tournament(tournament_id: int, raw: str) -> int | None:
    """The id of the round a phone sent, if it is one of the player's tournament."""
    if not re.fullmatch(r"[0-9]{1,18}", raw or ""):
        return None
    current = current_round_recent(tournament_id)
    if current is not None and current.pk == int(raw):
        return current.pk  # the slip's usual round: no query
    rounds = Round.objects.filter(pk=int(raw), game__tournament_id=tournament_id)
    return rounds.values_list("pk", flat=True).first()


def signature_of(rnd: Round | None) -> str:
    if rnd is None:
        return "0.0.p"
    ended = "e" if rnd.game.status == Game.Status.ENDED else "p"
    return f"{rnd.pk}.{rnd.version}.{ended}"


# -- the board -------------------------------------------------------------------------------------


@dataclass
class Cell:
    sq: int
    premium: str
    letter: str = ""
    blank: bool = False
    #: ``mine``: a letter of the player's slip on an empty square; ``over``: the slip goes through a
    #: letter already on the board; ``clash``: the slip names another letter than the one there.
    mark: str = ""
    last: bool = False

    @property
    def row_label(self) -> str:
        """The row's letter, on the first cell of each row only."""
        return "" if self.sq % SIZE else chr(65 + self.sq // SIZE)


@dataclass
class Preview:
    """The player's slip as understood, square by square (empty when it names no place)."""

    squares: dict[int, tuple[int, bool]] = field(default_factory=dict)
    ref: str = ""
    horizontal: bool = True


def slip_preview(cells: list[int], ref: str, word: str) -> Preview:
    """Where the slip's letters go: from the reference's cell, one letter per square in its
    direction, cut at the board's edge.  Only the form is read here, never the lexicon."""
    if not ref:
        return Preview()
    try:
        slip = parse_slip(f"{ref} {word}")
    except NotationError:
        return Preview()
    if slip.ref is None:
        return Preview()
    ref = slip.ref
    step = 1 if ref.horizontal else SIZE
    squares = {}
    for i, (letter, lower) in enumerate(zip(slip.word.letters, slip.word.lower)):
        if (ref.col if ref.horizontal else ref.row) + i >= SIZE:
            break
        squares[ref.square + i * step] = (letter, lower)
    return Preview(squares, str(ref), ref.horizontal)


def board_cells(cells: list[int], preview: Preview | None = None, last: list | None = None) -> list[Cell]:
    """The 225 cells to draw: premiums, the tops placed, the player's slip and the last top's tiles."""
    preview = preview or Preview()
    last_squares = {sq for sq, _ in (last or [])}
    out = []
    for sq in range(CELLS):
        cell = Cell(sq, premium_class(sq), last=sq in last_squares)
        tile = cells[sq] if sq < len(cells) else 0
        if tile:
            cell.letter, cell.blank = alphabet.char(tile).upper(), alphabet.is_blank(tile)
        if sq in preview.squares:
            letter, lower = preview.squares[sq]
            if tile:
                cell.mark = "over" if alphabet.letter_of(tile) == letter else "clash"
            else:
                cell.letter, cell.blank, cell.mark = chr(64 + letter), lower, "mine"
        out.append(cell)
    return out


def words_formed(cells: list[int], tiles: list, horizontal: bool) -> list[str]:
    """The main word and each cross word a placement forms (blanks in lower case)."""
    board = list(cells)
    new = {sq: tile for sq, tile in tiles}
    for sq, tile in new.items():
        board[sq] = tile
    words = []
    if new:
        words.append(_run(board, min(new), horizontal))
    for sq in sorted(new):
        cross = _run(board, sq, not horizontal)
        if len(cross) >= 2:
            words.append(cross)
    return [w for w in words if len(w) >= 2]


def _run(board: list[int], sq: int, horizontal: bool) -> str:
    step = 1 if horizontal else SIZE
    row, col = divmod(sq, SIZE)

    def inside(s: int) -> bool:
        return 0 <= s < CELLS and (s // SIZE == row if horizontal else s % SIZE == col)

    start = sq
    while inside(start - step) and board[start - step]:
        start -= step
    letters = []
    s = start
    while inside(s) and board[s]:
        letters.append(alphabet.char(board[s]))
        s += step
    return "".join(letters)


# -- standings -------------------------------------------------------------------------------------


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
    ranking = result_reads.tournament_ranking_shared(player.tournament)
    line = next(line for line in ranking.lines if line.entrant.key == player.pk)
    return Standing(line.total, ranking.top, line.rank, len(ranking.lines), ranking.negatif(line))


# -- the whole screen ------------------------------------------------------------------------------


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
        signature=signature_of(rnd),
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
