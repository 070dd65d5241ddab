"""Every read that is more than a ``.get()``: querysets, or plain data ready for a template."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from engine import alphabet
from engine.board import CENTER, LETTER_MULT, SIZE, WORD_MULT, square_name
from engine.draw import EndReason
from engine.notation import NotationError, parse_rack
from tournaments import result_reads
from tournaments.models import COUNTED, Game, Player, Round, Submission, SubmissionChange, Tournament
from tournaments.result_reads import Ranking, RankRow


def tournament_list():
    return Tournament.objects.select_related("lexicon").order_by("-date", "-id")


def tournament_games(tournament: Tournament):
    """The tournament's games with how many rounds have their top placed."""
    placed = Count("rounds", filter=Q(rounds__status=Round.Status.PLACED))
    return tournament.games.annotate(rounds_placed=placed).order_by("number")


# -- players, join links, QR codes ---------------------------------------------------------------


def join_path(player: Player) -> str:
    """The player's personal link (the route ``tournaments:player_page``)."""
    return f"/j/{player.token}/"


def qr_svg(url: str) -> str:
    """The link as an inline SVG QR code (no image library needed)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage)
    return image.to_string(encoding="unicode")


@dataclass(frozen=True)
class PlayerCard:
    player: Player
    url: str
    qr: str


def player_cards(tournament: Tournament, base_url: str) -> list[PlayerCard]:
    """Each player with the absolute join link and its QR code, by table number."""
    cards = []
    for player in tournament.players.order_by("table_number", "id"):
        url = base_url.rstrip("/") + join_path(player)
        cards.append(PlayerCard(player, url, qr_svg(url)))
    return cards


# -- rounds ----------------------------------------------------------------------------------------


def current_round(game_id: int) -> Round | None:
    """The round the game is at: the last one drawn and not cancelled."""
    return (
        Round.objects.select_related("game")
        .filter(game_id=game_id)
        .exclude(status=Round.Status.CANCELLED)
        .order_by("-number", "-attempt")
        .first()
    )


def slips_received(rnd: Round) -> int:
    return Submission.objects.filter(round=rnd).count()


def pulse_key(game: Game, rnd: Round | None, slips: int | None = None, now: datetime | None = None) -> str:
    """What a poll compares: it changes whenever a screen following the game must be redrawn.
    The top's state, whether it is overdue (given ``now``) and the slip count change without
    ``Round.version`` moving, so they are in it."""
    if rnd is None:
        return f"g{game.pk}{game.status}"
    key = f"r{rnd.pk}v{rnd.version}{rnd.top_state}{game.status}"
    if now is not None and top_overdue(rnd, now):
        key += "o"
    return key if slips is None else f"{key}n{slips}"


def top_overdue(rnd: Round, now: datetime) -> bool:
    """The top still not computed ``TOP_REQUEUE_SECONDS`` after the draw: no worker seems to take it
    (Redis up, no Celery worker running), and the arbiter is offered to compute it on the laptop."""
    return (
        rnd.status == Round.Status.DRAWN
        and rnd.top_state == Round.TopState.PENDING
        and rnd.drawn_at is not None
        and now - rnd.drawn_at >= timedelta(seconds=settings.TOP_REQUEUE_SECONDS)
    )


def seconds_left(rnd: Round, now: datetime) -> float:
    if rnd.status != Round.Status.RUNNING or rnd.deadline is None:
        return 0.0
    return max(0.0, (rnd.deadline - now).total_seconds())


def top_so_far(game: Game) -> int:
    """The game's top: the sum of the tops placed on the board."""
    placed = game.rounds.filter(status=Round.Status.PLACED).aggregate(total=Sum("top_score"))
    return placed["total"] or 0


@dataclass(frozen=True)
class Tile:
    letter: str
    value: int
    blank: bool
    new: bool = False
    #: The first new tile after a reliquat: a ``+`` goes before it, as on records.
    after_plus: bool = False


def rack_tiles(rnd: Round) -> list[Tile]:
    """The rack as tiles, reliquat first, new tiles marked (for large display)."""
    try:
        rack = parse_rack(rnd.rack)
    except NotationError:
        return []
    kept = [_rack_tile(t) for t in rack.reliquat]
    new = [_rack_tile(t, new=True, after_plus=bool(kept) and i == 0) for i, t in enumerate(rack.new)]
    return kept + new


def _rack_tile(code: int, *, new: bool = False, after_plus: bool = False) -> Tile:
    blank = code == alphabet.BLANK
    value = 0 if blank else alphabet.VALUES[code]
    return Tile("" if blank else alphabet.char(code), value, blank, new, after_plus)


def clock(seconds: float) -> str:
    """Time left as the room reads it: ``2:57`` (whole seconds, rounded up)."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


# -- the board -----------------------------------------------------------------------------------

#: (word multiplier, letter multiplier) -> the square's class.
_PREMIUM = {(3, 1): "tw", (2, 1): "dw", (1, 3): "tl", (1, 2): "dl"}


@dataclass(frozen=True)
class Cell:
    name: str
    premium: str
    letter: str
    value: int
    blank: bool
    last: bool


def board_rows(cells: list[int], last: dict | None = None) -> list[list[Cell]]:
    """The 15 rows of the board, premium squares named, blanks in lower case, the last top marked."""
    fresh = {sq for sq, _tile in last["tiles"]} if last else set()
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            sq = r * SIZE + c
            row.append(_cell(sq, cells[sq] if cells else 0, sq in fresh))
        rows.append(row)
    return rows


def premium_class(sq: int) -> str:
    """The square's premium as a CSS class: ``star``, ``tw``, ``dw``, ``tl``, ``dl`` or ``""``."""
    if sq == CENTER:
        return "star"
    return _PREMIUM.get((WORD_MULT[sq], LETTER_MULT[sq]), "")


def _cell(sq: int, tile: int, last: bool) -> Cell:
    premium = "" if tile else premium_class(sq)
    name = square_name(sq)
    if not tile:
        return Cell(name, premium, "", 0, False, False)
    return Cell(name, premium, alphabet.char(tile), alphabet.tile_value(tile), alphabet.is_blank(tile), last)


def last_placed(game: Game) -> dict | None:
    rnd = game.rounds.filter(status=Round.Status.PLACED).order_by("-number").only("placed").first()
    return rnd.placed if rnd else None


# -- graded slips and corrections ----------------------------------------------------------------

SANCTIONS = {
    "none": "",
    "warning": _("avertissement"),
    "penalty": _("−5"),
    "zero": _("zéro"),
}


@dataclass(frozen=True)
class SlipRow:
    player: Player
    submission: Submission | None

    @property
    def sanction(self) -> str:
        return SANCTIONS.get(self.submission.sanction, "") if self.submission else ""


def round_slips(rnd: Round) -> list[SlipRow]:
    """Every player of the tournament with their slip for the round (None: no slip), by table."""
    subs = {s.player_id: s for s in Submission.objects.filter(round=rnd)}
    players = Player.objects.filter(tournament_id=rnd.game.tournament_id).order_by("table_number", "id")
    return [SlipRow(p, subs.get(p.pk)) for p in players]


def round_changes(rnd: Round):
    return (
        SubmissionChange.objects.filter(submission__round=rnd)
        .select_related("submission__player", "changed_by")
        .order_by("-changed_at", "-id")
    )


# -- the rack announced aloud (§3.3.1) -----------------------------------------------------------

#: The country table the arbiter spells tiles with (§3.3.1).
COUNTRIES = {
    "A": "Algérie", "B": "Belgique", "C": "Canada", "D": "Danemark", "E": "Égypte", "F": "France",
    "G": "Grèce", "H": "Hongrie", "I": "Italie", "J": "Jordanie", "K": "Kenya", "L": "Luxembourg",
    "M": "Maroc", "N": "Norvège", "O": "Océanie", "P": "Portugal", "Q": "Québec", "R": "Roumanie",
    "S": "Suisse", "T": "Tunisie", "U": "Uruguay", "V": "Venezuela", "W": "Wallonie", "X": "Xénophon",
    "Y": "Yougoslavie", "Z": "Zambie",
}  # fmt: skip
BLANK_SPOKEN = "Joker, lettre blanche"
_NUMBERS = ("zéro", "une", "deux", "trois", "quatre", "cinq", "six", "sept")
THIRTY_SECONDS = "Trente secondes."
TIME_UP = "Terminé."


def spelled(code: int) -> str:
    """A tile as the arbiter says it: ``Algérie A``, ``Joker, lettre blanche``."""
    if code == alphabet.BLANK:
        return BLANK_SPOKEN
    letter = alphabet.char(code)
    return f"{COUNTRIES[letter]} {letter}"


def _count(n: int) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return word[:1].upper() + word[1:]


def rack_sentences(rack: str) -> list[str]:
    """One rack as written on records (``AEI+BLRN``, ``-BONSOIR``)."""
    parsed = parse_rack(rack)
    return _spoken_rack(parsed.reliquat, parsed.new)


def _spoken_rack(reliquat, new) -> list[str]:
    """The number of kept letters and the reliquat in alphabetical order (blank last), then each
    new tile in the order drawn (§3.3.1)."""
    sentences = []
    if reliquat:
        n = len(reliquat)
        kept = ", ".join(spelled(t) for t in sorted(reliquat))
        plural = "s" if n > 1 else ""
        sentences.append(f"{_count(n)} lettre{plural} restante{plural} : {kept}.")
        sentences.append("Tirage :")
    sentences.extend(f"{spelled(t)}." for t in new)
    return sentences


def announcement(number: int, rack: str, rejections=(), reliquat: int = 0) -> list[str]:
    """The sentences the voice says for a round's rack (§3.3.1): each rejected rack as drawn (the
    first one begins with the ``reliquat`` kept letters), "rejet" and the number of letters
    returned, then the rack that stands."""
    sentences = [f"Coup numéro {number}."]
    for index, rejected in enumerate(rejections):
        tiles = parse_rack(rejected).tiles
        kept = reliquat if index == 0 else 0
        sentences.extend(_spoken_rack(tiles[:kept], tiles[kept:]))
        sentences.append(f"Rejet : {_count(len(tiles)).lower()} lettres remises dans le sac.")
    sentences.extend(rack_sentences(rack))
    return sentences


def round_announcement(rnd: Round) -> list[str]:
    reliquat = 0
    if rnd.rejections and rnd.number > 1:
        previous = Round.objects.filter(
            game_id=rnd.game_id, number=rnd.number - 1, status=Round.Status.PLACED
        )
        last = previous.only("tiles", "placed").first()
        if last is not None and last.placed:
            reliquat = len(last.tiles) - len(last.placed["tiles"])
    return announcement(rnd.number, rnd.rack, rnd.rejections, reliquat)


def interface_language() -> str:
    """The engine message language matching the active interface language (French unless English)."""
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def end_text(game: Game) -> str:
    """Why the game ended, in the interface's language."""
    if not game.end_reason:
        return ""
    return EndReason(game.end_reason).message.text(interface_language())


# -- the arbiter's game screen -------------------------------------------------------------------


@dataclass(frozen=True)
class GameScreen:
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
    ranking: Ranking
    board: list[list[Cell]]
    rack: list[Tile]
    slips: list[SlipRow]
    changes: list
    top_overdue: bool = False

    @property
    def clock(self) -> str:
        return clock(self.seconds_left)

    @property
    def end_text(self) -> str:
        return end_text(self.game)

    @property
    def state(self) -> str:
        """The screen's state: what the next action is."""
        if self.game.status == Game.Status.ENDED:
            return "ended"
        if self.round is None or self.round.status == Round.Status.PLACED:
            return "to_draw"
        return self.round.status


def game_screen(game: Game, rnd: Round | None = None, now: datetime | None = None) -> GameScreen:
    now = now or timezone.now()
    rnd = rnd if rnd is not None else current_round(game.pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    graded = rnd is not None and rnd.status in COUNTED
    received = slips_received(rnd) if rnd is not None else 0
    return GameScreen(
        game=game,
        round=rnd,
        key=pulse_key(game, rnd, received if running else None, now),
        now=now,
        seconds_left=seconds_left(rnd, now) if rnd else 0.0,
        slips_received=received,
        players=Player.objects.filter(tournament_id=game.tournament_id).count(),
        top_so_far=top_so_far(game),
        next_number=(rnd.number + 1) if rnd else 1,
        ranking=result_reads.game_rows(result_reads.game_ranking(game)),
        board=board_rows(game.board, last_placed(game)),
        rack=rack_tiles(rnd) if rnd else [],
        slips=round_slips(rnd) if graded else [],
        changes=list(round_changes(rnd)) if graded else [],
        top_overdue=rnd is not None and top_overdue(rnd, now),
    )


# -- the projector -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Projection:
    game: Game
    round: Round | None
    key: str
    now: datetime
    seconds_left: float
    board: list[list[Cell]]
    rack: list[Tile]
    ranking: list[RankRow]
    sentences: list[str]

    @property
    def running(self) -> bool:
        return self.round is not None and self.round.status == Round.Status.RUNNING

    @property
    def clock(self) -> str:
        return clock(self.seconds_left)

    @property
    def end_text(self) -> str:
        return end_text(self.game)


def projection(game: Game, rnd: Round | None = None, now: datetime | None = None) -> Projection:
    """What the room sees: never a player's slip while a round runs, the ranking only between rounds."""
    now = now or timezone.now()
    rnd = rnd if rnd is not None else current_round(game.pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    return Projection(
        game=game,
        round=rnd,
        key=pulse_key(game, rnd),
        now=now,
        seconds_left=seconds_left(rnd, now) if rnd else 0.0,
        board=board_rows(game.board, last_placed(game)),
        rack=rack_tiles(rnd) if rnd else [],
        ranking=[] if running else result_reads.game_rows(result_reads.game_ranking(game)).rows[:10],
        sentences=round_announcement(rnd) if rnd else [],
    )
