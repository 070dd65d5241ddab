"""Games and their racks: a game started (random, or a prepared game replayed, §5), each round's rack
drawn by the rules (§3.1), typed from a physical bag, or a round cancelled and drawn again (§3.1.6)."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.db import IntegrityError

from engine import draw as engine_draw
from engine import record as engine_record
from engine.board import Board
from engine.movegen import Position, Tops, find_tops
from engine.notation import NotationError, parse_rack, rack_text
from lexicons.loaded import engine_lexicon
from server.writes import ServiceError, writing
from tournaments import selectors
from tournaments.models import Game, Round, Tournament
from tournaments.plays import play_from_json
from tournaments.services.tops import queue_top, top_fields


def game_start(
    *, tournament: Tournament, prepared: bytes | str | None = None, seed: int | None = None
) -> Game:
    """A new game: random racks by the rules, or a prepared game's racks replayed (§5).  A prepared
    game that does not replay is refused with the round and the reason."""
    record = None
    if prepared is not None:
        try:
            record = engine_record.parse(prepared)
            engine_record.check(record, engine_lexicon(tournament.lexicon))
        except engine_record.RecordError as error:
            raise ServiceError.because("game_prepared_invalid", error.message) from None
    number = (tournament.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return Game.objects.create(
        tournament=tournament,
        number=number,
        source=Game.Source.PREPARED if record else Game.Source.RANDOM,
        seed=seed if seed is not None else secrets.randbelow(2**62),
        prepared=engine_record.to_dict(record) if record else None,
        bag=list(engine_draw.Bag.full().tiles()),
        board=Board().cells,
    )


def _reliquat(last: Round | None) -> tuple[int, ...]:
    """The tiles the last round's top left on the rack (§3.1.2)."""
    if last is None:
        return ()
    used = play_from_json(last.placed).rack_used if last.placed else ()
    return engine_draw.remaining_after(last.tiles, used)


@dataclass(frozen=True)
class DrawOutcome:
    round: Round | None
    #: Why the game ended instead of drawing (an engine EndReason value), or "".
    ended: str = ""


def round_draw(*, game_id: int, expected_number: int, typed: str | None = None) -> DrawOutcome:
    """Draw the rack of round ``expected_number`` (§3.1); the arbiter's screen sends the number it
    shows, so a second tab or a double click draws nothing more."""
    try:
        with writing():
            game = Game.objects.select_for_update().get(pk=game_id)
            outcome = _draw_locked(game, expected_number, typed)
    except IntegrityError:
        # Another request drew this round between our read and our write.
        outcome = DrawOutcome(selectors.current_round(game_id))
    if outcome.round and outcome.round.top_state == Round.TopState.PENDING:
        queue_top(outcome.round.pk)  # typed or prepared racks: a random draw's top is known already
    return outcome


def _draw_locked(game: Game, expected_number: int, typed: str | None) -> DrawOutcome:
    last = selectors.current_round(game.pk)
    number = (last.number + 1) if last else 1
    if game.status == Game.Status.ENDED:
        return DrawOutcome(None, game.end_reason)
    if last and last.status != Round.Status.PLACED:
        return DrawOutcome(last)  # this round is not over: nothing to draw
    if number != expected_number:
        return DrawOutcome(last)  # already drawn by another tab
    attempt = 1 + game.rounds.filter(number=number).count()
    return _draw_new(game, number, attempt, typed, _reliquat(last))


def _draw_new(game: Game, number: int, attempt: int, typed: str | None, reliquat) -> DrawOutcome:
    bag = engine_draw.Bag(game.bag)
    moves = None
    if game.source == Game.Source.PREPARED:
        result = _draw_prepared(game, number, reliquat, bag)
    elif typed is not None:
        result = _draw_typed(typed, reliquat, bag, number)
    else:
        rng = random.Random(f"{game.seed}:{game.draws}")
        moves = _MoveCheck(game, number)
        result = engine_draw.draw_rack(reliquat, bag, number, rng, moves)
        game.draws += 1
    if result.end:
        game.status, game.end_reason = Game.Status.ENDED, result.end.value
        game.save(update_fields=["status", "end_reason", "draws"])
        return DrawOutcome(None, result.end.value)
    game.bag = list(bag.tiles())
    game.save(update_fields=["bag", "draws"])
    new = Round.objects.create(
        game=game,
        number=number,
        attempt=attempt,
        rack=result.rack_text,
        tiles=list(result.tiles),
        rejections=[rack_text(r) for r in result.rejections],
        **(moves.top_fields(game, result.tiles) if moves else {}),
    )
    return DrawOutcome(new)


def _draw_typed(text: str, reliquat, bag: engine_draw.Bag, number: int) -> engine_draw.Draw:
    """A rack the arbiter typed: the new letters must be in the bag (§3.1)."""
    try:
        rack = parse_rack(text)
    except NotationError as error:
        raise ServiceError.because("rack_typed_invalid", error.message) from None
    new = _without(rack.tiles, reliquat)
    problems = engine_draw.check_typed_rack(reliquat, tuple(new), bag, number)
    if problems:
        raise ServiceError.because("rack_typed_invalid", problems[0])
    bag.take(new)
    return engine_draw.Draw(reliquat=tuple(reliquat), new=tuple(new))


def _draw_prepared(game: Game, number: int, reliquat, bag: engine_draw.Bag) -> engine_draw.Draw:
    rounds = game.prepared["rounds"]
    if number > len(rounds):
        return engine_draw.Draw(reliquat=tuple(reliquat), end=engine_draw.EndReason.ALL_PLAYED)
    rack = parse_rack(rounds[number - 1]["rack"])
    if rack.rejected:
        bag.put_back(reliquat)
        reliquat = ()
    new = _without(rack.tiles, reliquat)
    bag.take(new)
    return engine_draw.Draw(reliquat=tuple(reliquat), new=tuple(new), rejected=rack.rejected)


def _without(tiles, kept) -> list[int]:
    """A written rack's new tiles: its tiles less the reliquat, in the order written."""
    new = list(tiles)
    for tile in kept:
        if tile in new:
            new.remove(tile)
    return new


class _MoveCheck:
    """§3.1.5: a rack stands only if a move exists with it.  The check is the top search itself, so
    the search's result for the rack that stands is handed to the round (``top_fields``) instead of
    being searched again."""

    def __init__(self, game: Game, number: int):
        self.lexicon = engine_lexicon(game.tournament.lexicon)
        self.board = Board(game.board)
        self.first = number == 1
        self.found: dict[tuple[int, ...], Tops] = {}

    def __call__(self, tiles) -> bool:
        tiles = tuple(tiles)
        found = find_tops(Position(self.board, tiles, self.lexicon, first_move=self.first))
        self.found[tiles] = found
        return bool(found.plays)

    def top_fields(self, game: Game, tiles) -> dict:
        """The round's top fields for the rack that stood, as ``round_compute_top`` stores them."""
        return top_fields(game, tuple(tiles), self.found[tuple(tiles)])


def round_cancel(*, round_id: int) -> DrawOutcome:
    """Cancel a round (§3.1.6): its scores are void, all its tiles go back, a different rack is drawn;
    if none can be, the game ends."""
    with writing():
        rnd = Round.objects.select_for_update().select_related("game__tournament").get(pk=round_id)
        if rnd.status in (Round.Status.PLACED, Round.Status.CANCELLED):
            raise ServiceError("cancel_not_possible")
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        bag = engine_draw.Bag(game.bag)
        rng = random.Random(f"{game.seed}:{game.draws}")
        moves = _MoveCheck(game, rnd.number)
        result = engine_draw.cancel_round(tuple(rnd.tiles), bag, rnd.number, rng, moves)
        game.draws += 1
        rnd.status = Round.Status.CANCELLED
        rnd.version += 1
        rnd.save(update_fields=["status", "version"])
        if result.end:
            game.bag = list(bag.tiles())
            game.status, game.end_reason = Game.Status.ENDED, result.end.value
            game.save(update_fields=["bag", "status", "end_reason", "draws"])
            return DrawOutcome(None, result.end.value)
        game.bag = list(bag.tiles())
        game.save(update_fields=["bag", "draws"])
        new = Round.objects.create(
            game=game,
            number=rnd.number,
            attempt=rnd.attempt + 1,
            rack=result.rack_text,
            tiles=list(result.tiles),
            **moves.top_fields(game, result.tiles),
        )
    return DrawOutcome(new)
