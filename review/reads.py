"""A club's game seen again once it is over: each round as the players met it (``review.rounds``),
a player's line round by round, and for the arbiter the room's round (who found the top, the moves
most played, the solos).  Reads only: nothing here writes, so reviewing never holds up a live room."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from engine.board import Board
from engine.draw import Rejection
from engine.grading import Mode, grade_text
from engine.messages import Message
from engine.movegen import Position
from engine.ranking import percent, rounded
from lexicons.loaded import engine_lexicon
from review.rounds import RoundView, Slip, best_placements, round_view
from server.writes import ServiceError
from tournaments.models import COUNTED, Game, Player, Round, Submission
from tournaments.plays import board_tiles
from tournaments.standings import game_ranking

#: Games a player or the arbiter may review: the rules or the arbiter ended them, or they were
#: abandoned (then only the arbiter, the players never having been ranked on them).
REVIEWABLE = (Game.Status.ENDED,)
REVIEWABLE_ARBITER = (Game.Status.ENDED, Game.Status.ABANDONED)
#: The moves listed as the most played in a round.
MOST_PLAYED = 5


def review_rounds(game: Game) -> list[Round]:
    """The rounds that count, in order: a cancelled draw is not part of the game (§3.1.6); the last
    round may be closed without its top placed when the game ended on it."""
    rounds = game.rounds.filter(status__in=COUNTED).order_by("number", "attempt")
    return [r for r in rounds if r.placed or r.tops]


def check_reviewable(game: Game, *, arbiter: bool = False) -> list[Round]:
    """The game's rounds, or ``ServiceError`` when the review is not open (yet)."""
    if game.status not in (REVIEWABLE_ARBITER if arbiter else REVIEWABLE):
        raise ServiceError("review_not_yet")
    rounds = review_rounds(game)
    if not rounds:
        raise ServiceError("review_no_round")
    return rounds


def played_top(rnd: Round) -> dict:
    """The top that went on the board (or, for a last round left unplaced, the one proposed)."""
    return rnd.placed or rnd.tops[0]


def boards_before(rounds: list[Round]) -> list[list[int]]:
    """The board the players saw at each round: the tops of the rounds before it (a joker game's blank
    swapped for its letter, that letter: ``plays.board_tiles``)."""
    cells = [0] * 225
    out = []
    for rnd in rounds:
        out.append(list(cells))
        for sq, tile in board_tiles(played_top(rnd)):
            cells[sq] = tile
    return out


def rejections(rnd: Round, lang: str) -> list[tuple[str, str]]:
    """The racks put back before this one, each with why (§3.1.4, §3.1.5)."""
    reasons = list(rnd.rejection_reasons) + [""] * len(rnd.rejections)
    out = []
    for rack, reason in zip(rnd.rejections, reasons):
        try:
            said = Rejection(reason).message.text(lang)
        except ValueError:
            said = ""
        out.append((rack, said))
    return out


def best_key(rnd: Round) -> str:
    return f"review-best:{rnd.pk}"


def game_round(
    game: Game, number: int, *, player: Player | None, lang: str, arbiter: bool = False, rounds=None
) -> RoundView:
    """Round ``number`` (1-based, among the rounds that count) reviewed, with ``player``'s slip;
    ``rounds``: what ``check_reviewable`` gave the caller already."""
    if rounds is None:
        rounds = check_reviewable(game, arbiter=arbiter)
    if not 1 <= number <= len(rounds):
        raise ServiceError("review_no_such_round", count=len(rounds))
    rnd = rounds[number - 1]
    board = Board(boards_before(rounds)[number - 1])
    lexicon = engine_lexicon(game.tournament.lexicon)
    tiles, variant = tuple(rnd.tiles), game.engine_variant
    best = best_placements(best_key(rnd), board, tiles, lexicon, rnd.number == 1, variant)
    grade = slip = None
    if player is not None:
        sub = Submission.objects.filter(round=rnd, player=player).first()
        if sub is None:
            none = Message("review_no_slip")
            slip = Slip("", 0, "zero", none.text(lang))
        else:
            sent = sub.slip_text()
            position = Position(board.copy(), tiles, lexicon, first_move=rnd.number == 1, **variant.limits)
            mode = Mode(game.tournament.grading)
            grade = grade_text(position, sent, mode, top=rnd.top_score)
            paid = sub.paid if sub.paid is not None else grade.paid
            slip = Slip(sent, paid, sub.sanction or grade.sanction.value, sub.said(lang))
    return round_view(
        number=number,
        rack=rnd.rack,
        rejections=rejections(rnd, lang),
        board=board,
        top=played_top(rnd),
        best=best,
        grade=grade,
        slip=slip,
        letters=lexicon.letters,
    )


@dataclass(frozen=True)
class LinePoint:
    """One round of a player's line: the top, what the player was paid, both summed so far."""

    number: int
    top: int
    paid: int
    top_total: int
    paid_total: int

    @property
    def percent(self) -> Decimal:
        return rounded(percent(self.paid, self.top))


def player_line(rounds: list[Round], player: Player) -> list[LinePoint]:
    """The player's score round by round against the tops' (a round without a slip pays 0)."""
    paid = dict(Submission.objects.filter(round__in=rounds, player=player).values_list("round_id", "paid"))
    out, top_total, paid_total = [], 0, 0
    for number, rnd in enumerate(rounds, 1):
        top = played_top(rnd)["score"]
        got = paid.get(rnd.pk) or 0
        top_total += top
        paid_total += got
        out.append(LinePoint(number, top, got, top_total, paid_total))
    return out


@dataclass(frozen=True)
class Played:
    """A move several players handed in: the slip as most wrote it, paid, and how many."""

    slip: str
    paid: int
    count: int


@dataclass(frozen=True)
class RoomRound:
    """The room's round for the arbiter: slips handed in, how many found the top, the moves most
    played, and the solos (§3.5: found by one player alone, whether or not they count)."""

    slips: int
    players: int
    found_top: int
    most_played: list[Played]
    solos: list[str]
    solos_counted: bool


def room_round(game: Game, number: int, rounds=None) -> RoomRound:
    if rounds is None:
        rounds = check_reviewable(game, arbiter=True)
    if not 1 <= number <= len(rounds):
        raise ServiceError("review_no_such_round", count=len(rounds))
    rnd = rounds[number - 1]
    top = played_top(rnd)["score"]
    subs = list(rnd.submissions.values_list("ref", "word", "paid"))
    moves = Counter((ref.upper(), word.upper(), paid or 0) for ref, word, paid in subs)
    most = [
        Played(f"{ref} {word}".strip(), paid, count)
        for (ref, word, paid), count in sorted(moves.items(), key=lambda item: (-item[1], -item[0][2]))
        if paid
    ][:MOST_PLAYED]
    ranking = game_ranking(game)
    counted = game.rounds.filter(status__in=COUNTED).order_by("number", "attempt")
    index = list(counted.values_list("pk", flat=True)).index(rnd.pk)
    solos = [who.name for at, who in ranking.solos if at == index]
    return RoomRound(
        slips=len(subs),
        players=len(ranking.lines),
        found_top=sum(1 for *_, paid in subs if paid == top),
        most_played=most,
        solos=solos,
        solos_counted=ranking.solos_counted,
    )
