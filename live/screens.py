"""What the arbiter's game screen and the projector show, gathered before rendering."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from itertools import zip_longest

from django.utils import timezone

from engine.draw import Rejection
from engine.notation import rack_text
from engine.ranking import Row
from live import room, tried
from live.announce import round_announcement
from live.phone import long_tiles
from live.selectors import SlipRow, graded_rounds, missing_tables, round_changes
from server.language import interface_language
from tournaments import standings
from tournaments.boards import Cell, Tile, board_cells, rack_tiles, round_top
from tournaments.follow import follows_lead, lead_entry, record_move, waits_for_lead
from tournaments.models import COUNTED, Game, Player, Round, Submission
from tournaments.plays import reliquat_after
from tournaments.selectors import (
    clock,
    current_round,
    end_text,
    last_placed,
    round_key,
    seconds_left,
    slips_received,
    top_overdue,
    top_so_far,
)

#: The most rows a hall's screens show of a list of players: the ranking's first ranks (the whole one on
#: a page of its own), the tables not heard from (counted, listed on demand), a page of the slips
#: panel.  A club's room of up to so many players sees every row; a hall of 1,500 drawing them all
#: sends hundreds of kilobytes at each change of the game screen, over a megabyte for the slips panel
#: (measured: docs/developer/benchmarks.md).
SHOWN_AT_MOST = 100


def pulse_key(
    game: Game, rnd: Round | None, slips: int | None = None, now: datetime | None = None, tried: str = ""
) -> str:
    """What the arbiter's screen and the projector compare on their polls: the phones' ``round_key``,
    and what changes without ``Round.version`` moving: the game's state, the top's state, whether
    it is overdue (given ``now``), the slip count and the slips tried while the server was
    unreachable waiting for the arbiter (``tried.pending_key``, the game screen's only)."""
    key = f"{round_key(rnd)}.{game.status}.r{len(game.pending_rejections)}"
    if tried:
        key += f".t{tried}"
    if follows_lead(game):  # the lead's next rack has come (its top told here bumps the round)
        key += f".f{len(game.prepared['rounds'])}"
    if rnd is None:
        return key
    key += f".{rnd.top_state}"
    if now is not None and top_overdue(rnd, now):
        key += ".o"
    return key if slips is None else f"{key}.n{slips}"


def _board(game: Game) -> list[Cell]:
    last = last_placed(game)
    return board_cells(game.board, last=last["tiles"] if last else None, letters=game.tournament.letter_set)


class _RoundShown:
    """What the arbiter's screen and the projector both show of the round: the clock as the room reads
    it, and why the game ended."""

    game: Game
    seconds_left: float

    @property
    def clock(self) -> str:
        return clock(self.seconds_left)

    @property
    def end_text(self) -> str:
        return end_text(self.game)


@dataclass(frozen=True)
class GameScreen(_RoundShown):
    """Everything the game screen's live region shows, gathered before rendering."""

    game: Game
    round: Round | None
    key: str
    now: datetime
    seconds_left: float
    slips_received: int
    players: int
    top_so_far: int
    next_number: int
    ranking: standings.Ranking
    board: list[Cell]
    rack: list[Tile]
    #: The rounds whose slips the arbiter may open (the slips panel's picker): every graded round.
    graded: list[Round]
    top_overdue: bool = False
    #: While the round runs: how many tables have sent nothing yet, and which (when there are at
    #: most ``SHOWN_AT_MOST`` of them: more are listed on demand, ``views.game.game_missing``).
    missing_count: int = 0
    missing: list[int] = field(default_factory=list)
    #: The round's rejected racks with why (§3.1.4): (rack, reason).
    rejections: list[tuple[str, str]] = field(default_factory=list)
    #: Typed racks rejected for the next round, waiting for the rack that stands: (rack, reason).
    pending: list[tuple[str, str]] = field(default_factory=list)
    #: The next rack is seven new letters, eight in seven among eight (after a rejection or a
    #: cancelled draw of this round).
    fresh: bool = False
    #: The next rack is typed from a physical bag (the game's choice, or a typed draw cancelled).
    typed_draw: bool = False
    #: The tiles the last top left on the rack, kept for the next rack (§3.1.2), as letters.
    reliquat: str = ""
    #: The tournament's tiles of several letters, as typed in brackets ("[CH], [LL], [RR]"); "" in French.
    multi_letter: str = ""
    #: One of them made of letters only, and its letters apart ("CH", "C", "H"): the hint's example of
    #: a tile typed without brackets; empty when the set has none.
    multi_example: tuple[str, str, str] = ("", "", "")
    #: Tiles a rack holds in the game's variant: 8 in seven among eight (the typed rack's hints).
    rack_size: int = 7
    #: No slip handed in yet: the game can be deleted (else abandoned).
    deletable: bool = False
    #: A centre of a live simultaneous (``tournaments.follow``): the lead draws, cancels and chooses.
    follows_lead: bool = False
    #: Such a centre: the lead has drawn the next round (else its draw waits).
    lead_drawn: bool = False
    #: Such a centre: its round is closed, the lead's choice of the top not told yet.
    waits_for_lead: bool = False
    #: A prepared game's round whose record's move is a top: the one placed (§5), the others told.
    record_move: dict | None = None
    #: Slips tried while the server was unreachable, waiting for the arbiter's decision.
    tried: list[tried.Notice] = field(default_factory=list)

    shown_at_most = SHOWN_AT_MOST

    @property
    def state(self) -> str:
        """The screen's state: what the next action is."""
        if self.game.status == Game.Status.ENDED:
            return "ended"
        if self.game.status == Game.Status.ABANDONED:
            return "abandoned"
        if self.round is None or self.round.status == Round.Status.PLACED:
            return "to_draw"
        return self.round.status


def game_screen(game: Game, rnd: Round | None = None, now: datetime | None = None) -> GameScreen:
    now = now or timezone.now()
    rnd = rnd if rnd is not None else current_round(game.pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    received = slips_received(rnd) if rnd is not None else 0
    players = Player.objects.filter(tournament_id=game.tournament_id).count()
    missing = max(0, players - received) if running else 0
    return GameScreen(
        game=game,
        round=rnd,
        key=pulse_key(game, rnd, received if running else None, now, tried.pending_key(game.pk)),
        now=now,
        seconds_left=seconds_left(rnd, now) if rnd else 0.0,
        slips_received=received,
        players=players,
        top_so_far=top_so_far(game),
        next_number=(rnd.number + 1) if rnd else 1,
        ranking=standings.game_rows_shared(game),
        board=_board(game),
        rack=rack_tiles(rnd, game.tournament.letter_set) if rnd else [],
        graded=graded_rounds(game.pk),
        top_overdue=rnd is not None and top_overdue(rnd, now),
        missing_count=missing,
        missing=missing_tables(rnd) if 0 < missing <= SHOWN_AT_MOST else [],
        deletable=game.status == Game.Status.PLAYING
        and not Submission.objects.filter(round__game=game).exists(),
        rejections=_reasoned(zip_longest(rnd.rejections, rnd.rejection_reasons)) if rnd else [],
        pending=_reasoned((p["rack"], p["reason"]) for p in game.pending_rejections),
        follows_lead=follows_lead(game),
        lead_drawn=lead_entry(game, (rnd.number + 1) if rnd else 1) is not None,
        waits_for_lead=waits_for_lead(game, rnd),
        record_move=record_move(game, rnd),
        tried=tried.pending_notices(game.pk),
        **_next_draw(game, rnd),
    )


@dataclass(frozen=True)
class SlipsPanel:
    """One graded round's slips as the arbiter settles them: the table by table number, the paper
    slips, the corrections and their undo, the log.  Any round of the game, not only the last: the
    paper slips and disputes of round N are settled while round N+1 runs, and after the game (ux.md,
    the arbiter's laptop); each is graded on its own round's board, rack and top (§3.4)."""

    round: Round
    slips: list[SlipRow]
    changes: list
    #: The game's last graded round: when the next one closes, the panel moves on to it.
    latest: bool
    #: The slips tried while the server was unreachable, received late: to accept or refuse.
    tried: tried.TriedPanel | None = None
    #: The rows shown, ``slips[start:stop]``: a hall's panel a page of ``SHOWN_AT_MOST`` tables.
    start: int = 0
    stop: int | None = None
    #: A hall's pages (number, first table, last table); none for a club's room.
    pages: list[tuple[int, int, int]] = field(default_factory=list)
    page: int = 1

    @property
    def key(self) -> str:
        """What the panel shows, named: the round and its version, which every change of its slips
        moves (the game screen's picker carries each round's, and a stale panel is drawn again)."""
        return f"{self.round.pk}.{self.round.version}"

    @property
    def journal(self) -> list[tuple[str, object]]:
        """The round's log, latest first: the corrections (``("change", SubmissionChange)``) and the
        arbiter's decisions on tried slips (``("tried", tried.TriedRow)``)."""
        entries = [(change.changed_at, "change", change) for change in self.changes]
        entries += [(row.decided_at, "tried", row) for row in (self.tried.decided if self.tried else [])]
        return [(kind, entry) for _at, kind, entry in sorted(entries, key=lambda e: e[0], reverse=True)]


def slips_panel(
    game: Game, number: int | None = None, page: int | None = None, table: int | None = None
) -> SlipsPanel | None:
    """The slips of round ``number`` of the game, or of its last graded round (None: none yet).  A
    hall's are shown ``SHOWN_AT_MOST`` tables at a time: page ``page``, or the one holding ``table``
    (the slip just typed or corrected), else the first."""
    graded = graded_rounds(game.pk)
    if not graded:
        return None
    shown = next((r for r in graded if r.number == number), graded[-1])
    rnd = Round.objects.select_related("game").get(pk=shown.pk)
    slips = room.round_slips(rnd)
    return SlipsPanel(
        rnd, slips, list(round_changes(rnd)), latest=shown.pk == graded[-1].pk,
        tried=tried.round_tried(rnd), **_panel_page(slips, page, table),
    )  # fmt: skip


def _panel_page(slips: list[SlipRow], page: int | None, table: int | None) -> dict:
    if len(slips) <= SHOWN_AT_MOST:
        return {}
    size = SHOWN_AT_MOST
    count = (len(slips) + size - 1) // size
    at = next((i for i, row in enumerate(slips) if row.player.table_number == table), None)
    index = at // size if at is not None else min(max((page or 1) - 1, 0), count - 1)
    tables = [row.player.table_number for row in slips]
    pages = [(n + 1, tables[n * size], tables[min(len(tables), (n + 1) * size) - 1]) for n in range(count)]
    return {"start": index * size, "stop": (index + 1) * size, "pages": pages, "page": index + 1}


def _reasoned(rejections) -> list[tuple[str, str]]:
    """Rejected racks with why, in the interface's language (racks of old games have no reason)."""
    lang = interface_language()
    reasons = {r.value: r.message.text(lang) for r in Rejection}
    return [(rack, reasons.get(reason or "", "")) for rack, reason in rejections]


def _next_draw(game: Game, rnd: Round | None) -> dict:
    """How the next rack is drawn: seven new letters after a rejection or a cancelled draw, typed when
    the game's racks are or the cancelled draw was."""
    if game.status != Game.Status.PLAYING or (rnd is not None and rnd.status != Round.Status.PLACED):
        return {}
    number = rnd.number + 1 if rnd else 1
    cancelled = list(game.rounds.filter(number=number).values_list("typed", flat=True))
    typed = game.source == Game.Source.TYPED or bool(game.pending_rejections) or any(cancelled)
    fresh = bool(game.pending_rejections or cancelled)
    kept = ()
    letters = game.tournament.letter_set
    long = long_tiles(letters)
    if rnd is not None and not fresh:
        kept = reliquat_after(rnd.tiles, rnd.placed, letters)
    return {
        "fresh": fresh,
        "typed_draw": typed,
        "reliquat": rack_text(kept, letters),
        "multi_letter": ", ".join(f"[{name}]" for name in long),
        "multi_example": next(((name, name[0], name[1:]) for name in long if name.isalpha()), ("", "", "")),
        "rack_size": game.engine_variant.rack_size,
    }


@dataclass(frozen=True)
class Projection(_RoundShown):
    game: Game
    round: Round | None
    key: str
    now: datetime
    seconds_left: float
    board: list[Cell]
    rack: list[Tile]
    ranking: tuple[Row, ...]
    sentences: list[str]
    #: Once the round is over: its top (placed, or proposed before it is) and the words it forms.
    top: dict | None = None
    top_words: list[str] = field(default_factory=list)

    shown_at_most = SHOWN_AT_MOST

    @property
    def running(self) -> bool:
        return self.round is not None and self.round.status == Round.Status.RUNNING


def projection(game: Game, rnd: Round | None = None, now: datetime | None = None) -> Projection:
    """What the room sees: never a player's slip while a round runs, the ranking only between rounds."""
    now = now or timezone.now()
    rnd = rnd if rnd is not None else current_round(game.pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    over = rnd is not None and rnd.status in COUNTED
    top, words = round_top(rnd, game.board) if over else (None, [])
    return Projection(
        game=game,
        round=rnd,
        key=pulse_key(game, rnd),
        now=now,
        seconds_left=seconds_left(rnd, now) if rnd else 0.0,
        board=_board(game),
        rack=rack_tiles(rnd, game.tournament.letter_set) if rnd else [],
        # The ranking the arbiter's screen shows, made once per change (ranking a hall is dear).
        ranking=() if running else standings.game_rows_shared(game).rows,
        sentences=round_announcement(rnd) if rnd else [],
        top=top,
        top_words=words,
    )
