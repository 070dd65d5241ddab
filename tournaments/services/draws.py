"""Each round's rack: drawn by the rules (§3.1), typed from a physical bag (``engine.typed``), or read
from a prepared game (§5); a round cancelled and drawn again (§3.1.6).  The game's variant
(``engine.variants``) sets the rack's size, the joker games' blank in every rack and the explosive
game's swap at the draw (``Round.exploded``)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from django.db import IntegrityError

from engine import draw as engine_draw
from engine.board import Board
from engine.movegen import Position, Tops, find_tops
from engine.notation import NotationError, parse_rack, rack_text
from engine.typed import TypedRackError, read_typed_rack
from lexicons.loaded import engine_lexicon
from server.writes import ServiceError, writing
from tournaments import selectors
from tournaments.follow import follows_lead
from tournaments.models import Game, Round
from tournaments.plays import reliquat_after
from tournaments.services.tops import queue_top, top_fields


@dataclass(frozen=True)
class DrawOutcome:
    round: Round | None
    #: Why the game ended instead of drawing (an engine EndReason value), or "".
    ended: str = ""
    #: A typed rack that had to be rejected (§3.1.4, §3.1.5): ``{"rack", "reason"}``; its tiles are
    #: back in the bag and the next rack is typed as seven new letters.
    rejected: dict | None = None


def round_draw(*, game_id: int, expected_number: int, typed: str | None = None) -> DrawOutcome:
    """Draw the rack of round ``expected_number`` (§3.1), or read the one the arbiter ``typed``; the
    arbiter's screen sends the number it shows, so a second tab or a double click draws nothing
    more."""
    try:
        with writing():
            game = Game.objects.select_for_update().get(pk=game_id)
            outcome = _draw_locked(game, expected_number, typed)
    except IntegrityError:
        # Another request drew this round between our read and our write.
        outcome = DrawOutcome(selectors.current_round(game_id))
    if outcome.round and outcome.round.top_state == Round.TopState.PENDING:
        queue_top(outcome.round.pk)  # a prepared game's rack: a drawn or typed rack's top is known
    return outcome


def _draw_locked(game: Game, expected_number: int, typed: str | None) -> DrawOutcome:
    last = selectors.current_round(game.pk)
    number = (last.number + 1) if last else 1
    if game.status != Game.Status.PLAYING:
        return DrawOutcome(None, game.end_reason)
    if last and last.status != Round.Status.PLACED:
        return DrawOutcome(last)  # this round is not over: nothing to draw
    if number != expected_number:
        return DrawOutcome(last)  # already drawn by another tab
    attempts = game.rounds.filter(number=number).count()
    # After a rejection or a cancelled draw of this round, every tile went back: no reliquat.
    fresh = bool(game.pending_rejections) or attempts > 0
    draw = _Draw(game, number, attempts + 1, () if fresh or last is None else _reliquat(game, last), fresh)
    if game.source == Game.Source.PREPARED:
        return draw.prepared()
    if typed is not None or game.source == Game.Source.TYPED:
        return draw.typed(typed or "")
    return draw.random()


def _reliquat(game: Game, last: Round) -> tuple[int, ...]:
    """The tiles the last round's top left on the rack (§3.1.2): a joker game's blank come back
    included (kept with the top placed, ``plays.placed_json``)."""
    return reliquat_after(last.tiles, last.placed, game.tournament.letter_set)


class _Draw:
    """One draw of round ``number`` (its ``attempt``-th), from the game's bag."""

    def __init__(self, game: Game, number: int, attempt: int, reliquat: tuple[int, ...], fresh: bool):
        self.game, self.number, self.attempt = game, number, attempt
        self.reliquat, self.fresh = reliquat, fresh
        self.letters = game.tournament.letter_set
        self.variant = game.engine_variant
        self.bag = engine_draw.Bag(game.bag, self.letters)

    def random(self) -> DrawOutcome:
        rng = random.Random(f"{self.game.seed}:{self.game.draws}")
        moves = _MoveCheck(self.game, self.number)
        result = engine_draw.draw_rack(
            self.reliquat, self.bag, self.number, rng, variant=self.variant, search=moves.search
        )
        if self.fresh and not result.end:
            result = dataclasses.replace(result, rejected=True)
        self.game.draws += 1
        return self.stands(result, moves=moves)

    def typed(self, text: str) -> DrawOutcome:
        """A rack drawn from a physical bag: checked against the bag, the minimum (§3.1.4) and for a
        legal move (§3.1.5); a rack that misses either is a rejection, recorded with its reason.  An
        explosive game's rack is typed as drawn, blank included: its new blank may then be swapped
        (``engine.draw.explode``), the screen naming the letter the arbiter takes from the bag."""
        moves = _MoveCheck(self.game, self.number)
        try:
            rack = read_typed_rack(
                text, self.reliquat, self.bag, self.number, fresh=self.fresh, has_move=moves,
                variant=self.variant,
            )  # fmt: skip
        except (NotationError, TypedRackError) as error:
            raise ServiceError.because("rack_typed_invalid", error.message) from None
        if rack.rejected or rack.rejection is not None:
            self.bag.put_back(self.reliquat)  # every tile back, the reliquat too (§3.1.4)
        if rack.rejection is not None:
            return self._rejected(rack)
        self.bag.take(rack.new)
        draw = engine_draw.Draw(rack.reliquat, rack.new, rejected=rack.rejected, letters=self.letters)
        draw = engine_draw.explode(draw, self.bag, self.number, moves.search, self.variant)
        return self.stands(draw, moves=moves, typed=True)

    def _rejected(self, rack) -> DrawOutcome:
        """A typed rack that cannot stand: recorded with its reason, every tile back in the bag."""
        rejected = {"rack": rack.text, "reason": rack.rejection.value}
        game = self.game
        game.bag = list(self.bag.tiles())
        game.pending_rejections = [*game.pending_rejections, rejected]
        game.save(update_fields=["bag", "pending_rejections"])
        return DrawOutcome(None, rejected=rejected)

    def prepared(self) -> DrawOutcome:
        rounds = self.game.prepared["rounds"]
        if self.number > len(rounds) and self.game.growing:
            raise ServiceError("draw_waits_for_lead", number=self.number)
        if self.number > len(rounds):
            ended = engine_draw.Draw(
                self.reliquat, end=engine_draw.EndReason.ALL_PLAYED, letters=self.letters
            )
            return self.stands(ended)
        rack = parse_rack(rounds[self.number - 1]["rack"], self.letters, self.variant.rack_size)
        reliquat = self.reliquat
        if rack.rejected:
            self.bag.put_back(reliquat)
            reliquat = ()
        new = list(rack.tiles)
        try:
            for tile in reliquat:  # the written rack's new tiles, in the order written
                new.remove(tile)
            self.bag.take(new)
        except ValueError:  # the board left the record (a game placed off it): said, never a 500
            raise ServiceError("draw_record_impossible", number=self.number) from None
        return self.stands(
            engine_draw.Draw(reliquat, tuple(new), rejected=rack.rejected, letters=self.letters)
        )

    def stands(self, result: engine_draw.Draw, *, moves=None, typed: bool = False) -> DrawOutcome:
        """The round drawn (or the game ended, §3.2), with the rejections made on the way."""
        game = self.game
        if result.end:
            game.status, game.end_reason = Game.Status.ENDED, result.end.value
            game.save(update_fields=["status", "end_reason", "draws"])
            return DrawOutcome(None, result.end.value)
        pending = game.pending_rejections
        game.bag, game.pending_rejections = list(self.bag.tiles()), []
        game.save(update_fields=["bag", "draws", "pending_rejections"])
        new = Round.objects.create(
            game=game,
            number=self.number,
            attempt=self.attempt,
            rack=result.rack_text,
            tiles=list(result.tiles),
            rejections=[p["rack"] for p in pending] + [rack_text(r, self.letters) for r in result.rejections],
            rejection_reasons=[p["reason"] for p in pending] + [r.value for r in result.rejection_reasons],
            typed=typed,
            exploded="" if result.exploded is None else rack_text((result.exploded,), self.letters),
            **(moves.top_fields(game, result.tiles) if moves else {}),
        )
        return DrawOutcome(new)


class _MoveCheck:
    """§3.1.5: a rack stands only if a move exists with it.  The check is the top search itself (in
    the game's variant), so the search's result for the rack that stands is handed to the round
    (``top_fields``) instead of being searched again; the explosive game's swap reads it too."""

    def __init__(self, game: Game, number: int):
        self.lexicon = engine_lexicon(game.tournament.lexicon)
        self.board = Board(game.board)
        self.first = number == 1
        self.limits = game.engine_variant.limits
        self.found: dict[tuple[int, ...], Tops] = {}

    def search(self, tiles) -> Tops:
        """The tops of the rack ``tiles`` on the round's board, searched once per rack."""
        tiles = tuple(tiles)
        if tiles not in self.found:
            position = Position(self.board, tiles, self.lexicon, first_move=self.first, **self.limits)
            self.found[tiles] = find_tops(position)
        return self.found[tiles]

    def __call__(self, tiles) -> bool:
        return bool(self.search(tiles).plays)

    def top_fields(self, game: Game, tiles) -> dict:
        """The round's top fields for the rack that stood, as ``round_compute_top`` stores them (an
        explosive rack's, swapped after its search, is searched here)."""
        return top_fields(game, tuple(tiles), self.search(tiles))


def round_cancel(*, round_id: int) -> DrawOutcome:
    """Cancel a round (§3.1.6): its scores are void, all its tiles go back, a different rack is drawn
    (if none can be, the game ends).  A rack typed from a physical bag is drawn again by hand: the
    round waits for the next rack to be typed.  A prepared game plays the round again on the
    record's same rack (§5: every centre plays the same game)."""
    outcome = _cancel_locked(round_id)
    if outcome.round and outcome.round.top_state == Round.TopState.PENDING:
        queue_top(outcome.round.pk)  # a prepared game's rack drawn again: its top is searched
    return outcome


def _cancel_locked(round_id: int) -> DrawOutcome:
    with writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament").get(pk=round_id)
        if rnd.status in (Round.Status.PLACED, Round.Status.CANCELLED):
            raise ServiceError("cancel_not_possible")
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        if follows_lead(game):
            raise ServiceError("cancel_follows_lead")  # its cancel reaches here (services.follow)
        rnd.status = Round.Status.CANCELLED
        rnd.version += 1
        rnd.save(update_fields=["status", "version"])
        if rnd.typed or game.source == Game.Source.TYPED:
            game.bag = sorted([*game.bag, *rnd.tiles])
            game.save(update_fields=["bag"])
            return DrawOutcome(None)
        if game.source == Game.Source.PREPARED:
            return _redeal(game, rnd)
        draw = _Draw(game, rnd.number, rnd.attempt + 1, (), fresh=True)
        moves = _MoveCheck(game, rnd.number)
        rng = random.Random(f"{game.seed}:{game.draws}")
        result = engine_draw.cancel_round(
            tuple(rnd.tiles), draw.bag, rnd.number, rng, variant=draw.variant, search=moves.search
        )
        game.draws += 1
        return draw.stands(result, moves=moves)


def _redeal(game: Game, rnd: Round) -> DrawOutcome:
    """A prepared game's round cancelled: its new tiles go back and the record's same rack is drawn
    again, the reliquat kept as written, so the announcement is the record's (§3.3.1, §5)."""
    kept = parse_rack(rnd.rack, game.tournament.letter_set, game.engine_variant.rack_size).reliquat
    drawn = list(rnd.tiles)
    for tile in kept:
        drawn.remove(tile)
    draw = _Draw(game, rnd.number, rnd.attempt + 1, tuple(kept), fresh=False)
    draw.bag.put_back(drawn)
    return draw.prepared()
