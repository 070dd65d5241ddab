"""A game's life: started (random racks, racks typed from a physical bag, or a prepared game replayed,
§5), ended by the rules (§3.2) or by the arbiter, abandoned when started by mistake (it leaves the
rankings), or deleted while no slip was handed in."""

from __future__ import annotations

import secrets

from engine import draw as engine_draw
from engine import record as engine_record
from engine.board import Board
from engine.variants import AfterTop, UnknownVariant, Variant
from lexicons.loaded import engine_lexicon
from server.writes import ServiceError, writing
from tournaments import selectors
from tournaments.models import Game, Round, Submission, Tournament
from tournaments.plays import reliquat_after
from tournaments.selectors import ENDED_BY_ARBITER


def game_start(
    *,
    tournament: Tournament,
    prepared: bytes | str | dict | None = None,
    seed: int | None = None,
    typed: bool = False,
    variant: str | Variant = Variant.CLASSIC,
) -> Game:
    """A new game: random racks by the rules, racks the arbiter types from a physical bag
    (``typed``), or a prepared game's racks replayed (§5).  A prepared game is read within the
    limits of ``engine.record`` (size, nesting, rounds, texts a database holds: a NUL or half of a
    UTF-16 pair is refused, not cleaned) and replayed before the room's write lock is taken; one that
    does not replay is refused with the round and the reason.  ``variant``: the game's
    (``engine.variants``, by value or code); a prepared game plays its record's, whatever is asked
    (the record's racks and tops were made by it)."""
    try:
        variant = variant if isinstance(variant, Variant) else Variant.parse(variant)
    except UnknownVariant as error:
        raise ServiceError.because("game_variant_unknown", error.message) from None
    record = None
    if prepared is not None:
        try:
            record = engine_record.parse(prepared)
            engine_record.check(record, engine_lexicon(tournament.lexicon))
        except engine_record.RecordError as error:
            raise ServiceError.because("game_prepared_invalid", error.message) from None
    if record:
        source, variant = Game.Source.PREPARED, record.variant
    else:
        source = Game.Source.TYPED if typed else Game.Source.RANDOM
    return _new_game(
        tournament,
        source=source,
        seed=seed if seed is not None else secrets.randbelow(2**62),
        prepared=engine_record.to_dict(record) if record else None,
        variant=variant.value,
    )


def _new_game(tournament: Tournament, **fields) -> Game:
    """The tournament's next game, a full bag and an empty board."""
    with writing():
        number = (tournament.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        bag, board = list(engine_draw.Bag.full(tournament.letter_set).tiles()), Board().cells
        return Game.objects.create(tournament=tournament, number=number, bag=bag, board=board, **fields)


def game_end_if_over(game: Game, last: Round, after: AfterTop | None = None) -> bool:
    """§3.2 after a top is placed: the game is over when the unplayed tiles (bag + reliquat) can no
    longer make a rack in the game's variant, or a prepared game has no round left.  The game then
    says so at once: no "draw the next round" remains.  ``after``: what placing the top did
    (``engine.variants.after_top``), else read from the round.  Called inside the placing
    transaction."""
    letters = game.tournament.letter_set
    if after is not None:
        unplayed = after.unplayed
    else:
        unplayed = tuple(game.bag) + reliquat_after(last.tiles, last.placed, letters)
    reason = engine_draw.game_over(unplayed, letters, game.engine_variant)
    played_all = game.source == Game.Source.PREPARED and last.number >= len(game.prepared["rounds"])
    if reason is None and played_all and not game.growing:
        reason = engine_draw.EndReason.ALL_PLAYED
    if reason is None:
        return False
    game.status, game.end_reason = Game.Status.ENDED, reason.value
    game.save(update_fields=["status", "end_reason"])
    return True


def game_end(*, game_id: int) -> Game:
    """The arbiter ends the game after a round (time is up for the evening): its results are final."""
    return _game_set(game_id, Game.Status.ENDED, ENDED_BY_ARBITER)


def game_abandon(*, game_id: int) -> Game:
    """A game started by mistake: it leaves the rankings and the phones; a round in play is void."""
    return _game_set(game_id, Game.Status.ABANDONED, "")


def _game_set(game_id: int, status: str, reason: str) -> Game:
    with writing():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            raise ServiceError("game_not_playing")
        rnd = selectors.current_round(game.pk)
        if rnd is not None and rnd.status != Round.Status.PLACED:
            if status == Game.Status.ENDED:
                raise ServiceError("game_end_round_open")
            rnd.status = Round.Status.CANCELLED
            rnd.version += 1
            rnd.save(update_fields=["status", "version"])
        game.status, game.end_reason = status, reason
        game.save(update_fields=["status", "end_reason"])
        if rnd is not None:
            rnd.version += 1  # the phones and the projector redraw (round_key reads the game's state)
            rnd.save(update_fields=["version"])
    return game


def game_delete(*, game_id: int) -> None:
    """Delete a game no player has handed a slip in (started by mistake, nothing to keep)."""
    with writing():
        game = Game.objects.select_for_update().get(pk=game_id)
        if Submission.objects.filter(round__game=game).exists():
            raise ServiceError("game_delete_has_slips")
        game.delete()
