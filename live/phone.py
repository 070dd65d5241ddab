"""Reads for the player's phone: everything one player's screen shows, and nothing of anyone else's
slip.  Before the deadline nothing here says whether a slip is valid or what it scores (§3.4)."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext

from engine import alphabet
from engine.alphabet import FRENCH, LetterSet
from engine.board import CELLS, SIZE
from engine.messages import Message
from engine.notation import NotationError
from engine.ranking import Base, rounded
from live import announce, tried
from live.room import current_round_recent, round_slips_kept, shown_key
from server import memo
from server.language import interface_language
from tournaments import standings
from tournaments.boards import Cell, Preview, board_cells, round_top, slip_preview
from tournaments.models import Game, Player, Round, Submission
from tournaments.selectors import round_key

#: The countdown turns to its warning colour at the 30-second call (§3.3.2).
WARNING_SECONDS = 30
#: How long a refused sending's reason is kept for its round: the evening.
REFUSAL_SECONDS = 12 * 3600

log = logging.getLogger(__name__)


class Phase:
    """What the phone is showing; ``player.js`` keeps the screen awake only while RUNNING."""

    WAITING = "waiting"
    DRAWN = "drawn"
    RUNNING = "running"
    CLOSED = "closed"
    ENDED = "ended"


#: On the phone a letter played with the joker is the letter followed by ``?`` (``JOINTA?``): a
#: keyboard typing lower case must never mark jokers by accident (§1.3 writes them in lower case).
_JOKER_MARK = re.compile(r"([^\W\d_][\u0300-\u036f]*)\?")


def slip_text(typed: str, claimed: str = "", *, fisf: bool, letters: LetterSet = FRENCH) -> str:
    """The slip as the engine reads it (§1.3), from what the phone sent: every letter in upper case
    whatever the keyboard typed, a letter followed by ``?`` played with the joker (in lower case),
    the claimed score (FISF grading) from its own field: ``h4 jointa?`` and ``34`` give
    ``H4 JOINTa 34``.  In a set with tiles of several letters the ``?`` follows the tile: ``CH?`` or
    ``[CH]?`` is a joker standing for CH.  The arbiter's paper slips and corrections are read the
    same way."""
    text = unicodedata.normalize("NFC", typed).upper().strip()
    text = _joker_mark(letters).sub(lambda found: found.group(1).lower(), text)
    claimed = claimed.strip()
    if fisf and claimed and text:  # a score alone is an empty slip, not a word "34"
        text = f"{text} {claimed}"
    return text


@functools.cache
def long_tiles(letters: LetterSet) -> tuple[str, ...]:
    """The set's tiles of several letters (``CH``, ``L·L``), longest first as the set cuts words;
    none in French."""
    return tuple(sorted((name for name in letters.names if name and len(name) > 1), key=len, reverse=True))


@functools.cache
def _tile_names(letters: LetterSet) -> str:
    """The phone's list of what it reads as one tile: each long tile, each other spelling of one as
    ``spelling=tile`` (``L.L=L·L``), each accented letter the set keeps (``Ñ``); longest first."""
    long = set(long_tiles(letters))
    spelled = {name: letters.names[code] for name, code in letters.spellings.items() if len(name) > 1}
    typed = sorted({*long, *spelled, *letters.kept}, key=lambda name: (-len(name), name))
    names = [f"{name}={spelled[name]}" if name in spelled and name not in long else name for name in typed]
    return json.dumps(names, ensure_ascii=False) if names else ""


@functools.cache
def _joker_mark(letters: LetterSet) -> re.Pattern:
    """What a ``?`` marks as played with the joker: the tile before it, a bracketed tile or a tile
    of several letters (longest first, as the set cuts words) before a single letter."""
    long = long_tiles(letters)
    if not long:
        return _JOKER_MARK
    # Other spellings of a long tile too (``L.L`` for ``L·L``: a phone's keyboard has no middle dot).
    spelled = {name for name in letters.spellings if len(name) > 1}
    names = "|".join(re.escape(name) for name in sorted({*long, *spelled}, key=len, reverse=True))
    return re.compile(rf"(\[[^\]]*\]|{names}|[^\W\d_][\u0300-\u036f]*)\?")


#: A tile as a slip writes it: bracketed (``[ch]``) or one character.
WRITTEN_TILE = re.compile(r"\[[^\]]*\]|.", re.S)


def typed_slip(text: str) -> str:
    """A slip in the record's notation written back as it is typed (``slip_text`` reads it back the
    same): ``H4 JOINTa 34`` gives ``H4 JOINTA? 34``, ``CO[ch]E`` gives ``CO[CH]?E``, for a correction
    field filled with the slip."""

    def typed(found: re.Match) -> str:
        tile = found.group()
        return f"{tile.upper()}?" if tile != tile.upper() else tile

    return WRITTEN_TILE.sub(typed, text)


@dataclass(frozen=True)
class GameFigures:
    """The player's line in the ranking of the game being played, as the projector and the arbiter's
    screen show it (the phone shows it beside the tournament's once there are several games)."""

    total: int
    paid: int
    negatif: int
    percent: Decimal
    rank: int
    players: int


@dataclass(frozen=True)
class Standing:
    total: int
    tops: int
    rank: int
    players: int
    #: The score the tournament ranks on (total, or paid scores only) minus the tops' sum (§4), e.g.
    #: −35: the same figure as the ranking pages and sheets.
    negatif: int
    #: On the same base, rounded as every ranking prints it (``engine.ranking.rounded``).
    percent: Decimal
    #: The player's solos so far; None when the tournament has too few players for solos (§3.5).
    solos: int | None
    #: A solo in the round just closed (the last round of the last game ranked).
    solo_now: bool
    #: The tournament ranks on the paid scores alone ("scores seuls", §4): the phone shows them, the
    #: figure its rank follows, rather than the total.
    on_scores: bool = False
    paid: int = 0
    #: The game's own figures, when the tournament ranks more than one game (else they are these).
    game: GameFigures | None = None


def player_standing(player: Player, ranking=None) -> Standing | None:
    """The player's line in the tournament's ranking so far: total (with solos and penalties, §4), the
    tops' sum, the rank (shared by equal totals unless the tournament breaks ties), the négatif, the
    percentage and the solos, all read from the ranking every screen shares (``ranking``: that one,
    read already for the whole room)."""
    if ranking is None:
        ranking = standings.tournament_ranking_shared(player.tournament)
    line = ranking.line_of(player.pk)
    if line is None:  # a player registered since the ranking was worked out: the next one has them
        return None
    solos, solo_now = None, False
    if ranking.solos_counted and line.games:
        game = line.games[-1]  # the game of the round just closed: the last one
        solos, solo_now = line.solos, len(game.rounds) - 1 in game.solo_rounds
    figures = None
    if len(ranking.games) > 1 and len(line.games) == len(ranking.games):
        played, own = ranking.games[-1], line.games[-1]
        figures = GameFigures(
            total=own.total, paid=own.paid, negatif=played.negatif(own),
            percent=rounded(played.percent(own)), rank=own.rank, players=len(played.lines),
        )  # fmt: skip
    return Standing(
        total=line.total,
        tops=ranking.top,
        rank=line.rank,
        players=len(ranking.lines),
        negatif=ranking.negatif(line),
        percent=rounded(ranking.percent(line)),
        solos=solos,
        solo_now=solo_now,
        on_scores=ranking.rules.base is Base.PAID,
        paid=line.paid,
        game=figures,
    )


@dataclass(frozen=True)
class RackTile:
    letter: str
    value: int


@dataclass
class Screen:
    """Everything one player's phone shows, for the page and for its polled status partial; without a
    player, what every phone of the room shows in common (``room_screen``)."""

    player: Player | None
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
    #: Why the player's last sending of this round was refused ("Trop tard …"), in the phone's
    #: language, when no slip was stored after it: it stays beside the results (ux.md, "the truth").
    refusal: str = ""
    #: The other games of the evening the player can review, once this one is over: (number, id).
    earlier_games: list[tuple[int, int]] = field(default_factory=list)
    #: The player's slips of this round tried during an outage and received late, oldest first:
    #: the receipt says what the arbiter made of them (``tried.claims_shown``).
    claims: tuple = ()
    #: The tournament's tiles: how the board, the rack and the slip are named and valued.
    letters: LetterSet = FRENCH

    @functools.cached_property
    def cells(self) -> list[Cell]:
        """The board's 225 cells, worked out only when the board is drawn (phones showing the same
        board share one drawing: ``views.player._board_html``)."""
        return board_cells(self.board or [0] * CELLS, self.preview, self.last_tiles, self.letters)

    @property
    def multi_tiles(self) -> list[str]:
        """The set's tiles of several letters (``CH``, ``L·L``), for the slip's hint; none in French."""
        return list(long_tiles(self.letters))

    @property
    def tile_names(self) -> str:
        """The set's tiles the phone's script cannot read as one plain letter (``CH``, ``Ñ``, ``L·L``),
        longest first, as JSON for the slip field; "" in the French set."""
        return _tile_names(self.letters)

    @functools.cached_property
    def board_key(self) -> str:
        """What the board shows, in a few characters: the phone sends back the key of the board it
        shows (``player.js``) and is sent the board again only when it changed (a slip, the top
        placed, a new round), not at each change of the status (``views.player._status_response``)."""
        sub = self.submission
        slip = (sub.ref, sub.word) if sub is not None and self.preview is not None else None
        return _key(self.board, slip, self.last_tiles, get_language())

    @functools.cached_property
    def receipt_key(self) -> str:
        """What the receipt shows, in a few characters (as ``board_key``)."""
        sub = self.submission
        shown = None
        if sub is not None:
            shown = (sub.pk, sub.ref, sub.word, sub.claimed, sub.received_at.isoformat())
        claims = [(c.pk, c.status, c.text, c.decided_at) for c in self.claims]
        return _key(shown, self.phase == Phase.RUNNING, self.refusal, claims, get_language())

    @property
    def player_key(self) -> str:
        """The name and table shown, in a few characters (``room.shown_key``): the phone sends it
        back on its poll and is redrawn when they changed."""
        return shown_key(self.player.name, self.player.table_number)

    @property
    def spoken(self) -> str:
        """The rack as the arbiter says it (``announce``: "Algérie A." …), a sentence a line, for the
        phone's voice."""
        if self.round is None or self.phase not in (Phase.DRAWN, Phase.RUNNING):
            return ""
        try:
            return "\n".join(announce.rack_sentences(self.round.rack, self.letters))
        except NotationError:
            return ""

    @property
    def clock(self) -> str:
        seconds = self.remaining
        if seconds is None:
            drawn = self.phase == Phase.DRAWN and self.round is not None
            seconds = self.round.game.tournament.round_seconds if drawn else 0
        whole = math.ceil(seconds)
        return f"{whole // 60}:{whole % 60:02d}"

    @property
    def columns(self) -> range:
        return range(1, SIZE + 1)

    @property
    def warning(self) -> bool:
        return self.remaining is not None and self.remaining <= WARNING_SECONDS

    @property
    def slip_letters(self) -> list[tuple[str, bool]]:
        """The stored slip's word letter by letter, as understood: (letter, played with the joker);
        a joker's letter stays in lower case, the record's notation (§1.3)."""
        word = self.submission.word if self.submission else ""
        tiles = (tile.strip("[]") for tile in WRITTEN_TILE.findall(word))
        return [(tile, tile.islower()) for tile in tiles]

    @property
    def slip_jokers(self) -> list[str]:
        """The letters the stored slip plays with a joker, in upper case."""
        return [letter.upper() for letter, joker in self.slip_letters if joker]

    @property
    def slip_understood(self) -> str:
        """The stored slip read back as the server understood it, before the receipt, for a player
        who does not see the screen: "H4 horizontal, JOINTA, joker sur le A, 84 points"."""
        sub = self.submission
        if sub is None:
            return ""
        if sub.ref:
            direction = gettext("horizontal") if sub.ref[0].isalpha() else gettext("vertical")
            parts = [f"{sub.ref} {direction}"]
        else:
            parts = [gettext("sans placement")]
        if sub.word and sub.word != "-":
            # Said as read aloud: a tile of several letters without the brackets that write it.
            parts.append(sub.word.upper().replace("[", "").replace("]", ""))
        parts += [gettext("joker sur le %(letter)s") % {"letter": letter} for letter in self.slip_jokers]
        if sub.claimed is not None:
            claimed = ngettext("%(n)d point annoncé", "%(n)d points annoncés", sub.claimed)
            parts.append(claimed % {"n": sub.claimed})
        return ", ".join(parts)


def _key(*parts) -> str:
    return hashlib.blake2s(repr(parts).encode(), digest_size=6).hexdigest()


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


def _refusal_key(round_id: int, player_id: int) -> str:
    return f"phone-refusal:{round_id}:{player_id}"


def refusal_keep(round_id: int, player_id: int, message: Message, at, request_id: str = "") -> None:
    """Keep why a sending for this round was refused (``at``: when it reached the server;
    ``request_id``: the sending's, as stored with a slip), in the
    shared cache (Redis at scale, this process's memory on the laptop), so that every later answer to
    that phone, the results' included, still says it: it is part of the receipt of that round.  A
    slip sent before the clock started is not kept: once the round runs it means nothing."""
    if message.code == "slip_round_not_running":
        return
    try:
        kept = (message.code, message.params, at, request_id)
        cache.set(_refusal_key(round_id, player_id), kept, REFUSAL_SECONDS)
    except Exception:
        log.warning("cache unreachable: a refused slip is said once only", exc_info=True)


def kept_refusal(rnd: Round, player_id: int, sub: Submission | None, claims: tuple = ()) -> str:
    """The refusal kept for this round, unless a slip was stored after it (that slip's receipt says
    what the server holds now), or the refused sending itself was stored: a retry refused as late
    (its answer lost, the phone sent the slip again after the cutoff) handled before its first try,
    which was stamped in time and is stored after; the phone then shows the slip received.  Nor when
    the phone's kept slip reached the server as a claim after it, or is that sending (``claims``):
    the claim's line says what became of it (waiting, accepted or refused by the arbiter)."""
    try:
        kept = cache.get(_refusal_key(rnd.pk, player_id))
    except Exception:
        log.warning("cache unreachable: a refused slip is not recalled", exc_info=True)
        return ""
    if kept is None:
        return ""
    code, params, at, request_id = (*kept, "")[:4]  # kept before the request id was: 3 values
    if sub is not None and (sub.received_at >= at or (request_id and sub.request_id == request_id)):
        return ""
    if any(c.received_at >= at or request_id in tried.claim_ids(c) for c in claims):
        return ""
    return Message(code, params).text(interface_language())


def room_screen(tournament_id: int, now=None, pushed: str = "") -> Screen:
    """What every phone of the room shows in common: the round, its rack and clock, the top and the
    board, no one's slip or result (``live.broadcast`` pushes it).  ``pushed``: the state key
    just committed (a remembered round under another key is read again)."""
    return _common(current_round_recent(tournament_id, pushed), now or timezone.now())


def _common(rnd: Round | None, now) -> Screen:
    phase = _phase(rnd)
    remaining = None
    if phase == Phase.RUNNING:
        remaining = max(0.0, (rnd.deadline - now).total_seconds())
    board = rnd.game.board if rnd else []
    letters = rnd.game.tournament.letter_set if rnd else FRENCH
    screen = Screen(
        player=None,
        round=rnd,
        phase=phase,
        signature=round_key(rnd),
        rack=[
            RackTile(alphabet.char(t, letters), alphabet.tile_value(t, letters))
            for t in (rnd.tiles if rnd else [])
        ],
        remaining=remaining,
        submission=None,
        board=board,
        letters=letters,
    )
    if phase in (Phase.CLOSED, Phase.ENDED):
        screen.top, screen.top_words = round_top(rnd, board)
        if rnd.placed:
            screen.last_tiles = rnd.placed["tiles"]
    return screen


def round_claims(player: Player, rnd: Round | None, phase: str) -> tuple:
    """The player's claims of the room's round once its slips are graded (a claim is a slip received
    after the cutoff; one for a round still closing shows once it is closed)."""
    if rnd is None or phase not in (Phase.CLOSED, Phase.ENDED):
        return ()
    return tried.round_claims_kept(rnd).get(player.pk, ())


def round_slip(player: Player, rnd: Round | None, phase: str, stored: Submission | None = None):
    """The player's slip of the room's round: ``stored`` if it is that round's (just stored, not read
    again), else read (an ended round's for the whole room at once: one query)."""
    if stored is not None and rnd is not None and stored.round_id == rnd.pk:
        return stored
    if phase in (Phase.CLOSED, Phase.ENDED):
        return round_slips_kept(rnd).get(player.pk)
    return player_submission(player, rnd)


def player_screen(player: Player, now=None, submission: Submission | None = None) -> Screen:
    """The room's screen (``room_screen``) with this player's own part: the slip, its receipt, and
    after the deadline the player's result.  ``submission``: the player's slip just stored, if any
    (not read again when it is this round's)."""
    rnd = current_round_recent(player.tournament_id)
    screen = _common(rnd, now or timezone.now())
    ended = screen.phase in (Phase.CLOSED, Phase.ENDED)
    sub = round_slip(player, rnd, screen.phase, submission)
    screen.player, screen.submission = player, sub
    # Once the top is placed its tiles are marked on the board, the player's slip no longer.
    if sub is not None and not (ended and rnd.placed):
        screen.preview = slip_preview(screen.board, sub.ref, sub.word, screen.letters)
    screen.claims = round_claims(player, rnd, screen.phase)
    screen.refusal = kept_refusal(rnd, player.pk, sub, screen.claims) if rnd is not None else ""
    if ended:
        _add_results(screen)
    return screen


_ended_games: memo.Recent[list[tuple[int, int]]] = memo.Recent()


def ended_games(tournament_id: int) -> list[tuple[int, int]]:
    """The tournament's finished games, (number, id) in order: read once for the room (every phone
    asks as the last round closes), again after any game is saved (``server.memo``)."""
    games = Game.objects.filter(tournament_id=tournament_id, status=Game.Status.ENDED).order_by("number")
    return _ended_games.get(tournament_id, lambda: list(games.values_list("number", "pk")))


def _add_results(screen: Screen) -> None:
    """After the deadline: the player's own line, total, négatif, rank; once the game is over, the
    evening's other finished games too (each has its review)."""
    screen.standing = player_standing(screen.player)
    if screen.phase == Phase.ENDED:
        screen.earlier_games = other_ended_games(screen.round)


def other_ended_games(rnd: Round) -> list[tuple[int, int]]:
    """The tournament's finished games but ``rnd``'s, (number, id) in order: each has its review."""
    return [(number, pk) for number, pk in ended_games(rnd.game.tournament_id) if pk != rnd.game_id]
