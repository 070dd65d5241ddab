"""A centre's game in a live simultaneous (the FFSc's Multiplex, ``tournaments.follow``): started
empty, then brought in line with the lead centre's game each time the lead draws, cancels or places a
round, ends its game, or this centre closes a round (``game_follow_lead``, called by the
simultaneous room, which knows which game leads)."""

from __future__ import annotations

from django.db.models import F

from engine import record as engine_record
from engine.notation import parse_rack
from engine.variants import Variant
from server.writes import writing
from tournaments import selectors
from tournaments.follow import follows_lead, lead_entry
from tournaments.models import Game, Round, Tournament
from tournaments.services.games import _new_game, game_end_if_over
from tournaments.services.tops import _prepared_first, position_of

#: A round of the centre whose lead's top may be told to it: its own round is over.
_OVER = (Round.Status.CLOSED, Round.Status.PLACED)


def game_follow(*, tournament: Tournament, lead_id: int) -> Game:
    """A centre's game following the lead centre's game ``lead_id``: every rack the lead has drawn so
    far reaches it at once (a centre that joins late plays the rounds in order), in the lead's
    variant (as a prepared game plays its record's)."""
    variant = Game.objects.filter(pk=lead_id).values_list("variant", flat=True).get()
    record = {"format": engine_record.FORMAT, "lexicon": tournament.lexicon.name, "rounds": []}
    if tournament.letters != "fr" or variant != Variant.CLASSIC.value:
        record |= {"format": engine_record.FORMAT_2, "letters": tournament.letters}
    if variant != Variant.CLASSIC.value:
        record["variant"] = variant
    record["follows_lead"] = True
    with writing():
        game = _new_game(
            tournament, source=Game.Source.PREPARED, seed=0, prepared=record, growing=True, variant=variant
        )
        return game_follow_lead(game_id=game.pk, lead_id=lead_id)


def game_follow_lead(*, game_id: int, lead_id: int) -> Game:
    """The centre's game brought in line with the lead's: each round the lead has drawn is here (its
    rack, as soon as the lead draws it), and its top (the lead's choice among tied tops) only once the
    lead has placed it and this centre's own round is over; the centre's round then proposes that top
    first, the one it places.  A round whose rack the lead cancelled (and drew again, §3.1.6) is
    cancelled here too: its tiles back in the bag, the centre draws the lead's new rack.  When the
    lead's game is over, the centre's ends once it has played every round (§3.2).  Locks the round,
    then the game, as placing a top does."""
    with writing():
        mine = _current_locked(game_id)
        # Only the game's row: its tournament's and word list's rows are every centre's to read.
        locked = Game.objects.select_for_update(of=("self",))
        game = locked.select_related("tournament__lexicon").get(pk=game_id)
        if game.status != Game.Status.PLAYING or not follows_lead(game):
            return game
        latest = selectors.current_round(game_id)
        if latest is not None and (mine is None or latest.pk != mine.pk):
            mine = Round.objects.select_for_update().get(pk=latest.pk)  # drawn since
        lead_status, lead_rounds = _lead(lead_id)
        if mine is not None and mine.status != Round.Status.PLACED and not _same_rack(mine, lead_rounds):
            _cancel(game, mine)
            mine = selectors.current_round(game_id)
        told = lead_entry(game, mine.number) if mine is not None else None
        rounds = [_entry(r, mine) for r in lead_rounds]
        game.prepared = {**game.prepared, "follows_lead": True, "rounds": rounds}
        game.growing = lead_status == Game.Status.PLAYING
        game.save(update_fields=["prepared", "growing", "bag"])
        if mine is not None and mine.status == Round.Status.CLOSED and "word" not in (told or {}):
            _propose_leads_choice(game, mine)
        if not game.growing and mine is not None and mine.status == Round.Status.PLACED:
            game_end_if_over(game, mine)
        return game


def _current_locked(game_id: int) -> Round | None:
    rnd = selectors.current_round(game_id)
    return Round.objects.select_for_update().get(pk=rnd.pk) if rnd is not None else None


def _lead(lead_id: int) -> tuple[str, list[dict]]:
    """The lead's game state and each round it has drawn (its latest draw, not cancelled), in order."""
    status = Game.objects.filter(pk=lead_id).values_list("status", flat=True).first()
    found: dict[int, dict] = {}
    rows = (
        Round.objects.filter(game_id=lead_id)
        .exclude(status=Round.Status.CANCELLED)
        .order_by("number", "attempt")
        .values("number", "rack", "status", "placed")
    )
    for row in rows:
        found[row["number"]] = row
    return status or Game.Status.ENDED, [found[n] for n in sorted(found)]


def _same_rack(mine: Round, lead_rounds: list[dict]) -> bool:
    """The centre's round holds the rack the lead's round of that number holds now."""
    if mine.number > len(lead_rounds):
        return False
    game = mine.game
    rack = lead_rounds[mine.number - 1]["rack"]
    theirs = parse_rack(rack, game.tournament.letter_set, game.engine_variant.rack_size).tiles
    return sorted(theirs) == sorted(mine.tiles)


def _cancel(game: Game, mine: Round) -> None:
    """The lead cancelled this round's rack: cancelled here, every tile back in the bag (§3.1.6)."""
    Round.objects.filter(pk=mine.pk).update(status=Round.Status.CANCELLED, version=F("version") + 1)
    game.bag = sorted([*game.bag, *mine.tiles])


def _entry(lead_round: dict, mine: Round | None) -> dict:
    """The lead's round as this centre may hold it: its rack; its top once the lead placed it and the
    centre's own round of that number is over."""
    entry = {"rack": lead_round["rack"]}
    number, placed = lead_round["number"], lead_round["placed"]
    over = mine is not None and (mine.number > number or (mine.number == number and mine.status in _OVER))
    if lead_round["status"] == Round.Status.PLACED and placed and over:
        entry.update(ref=placed["ref"], word=placed["word"], score=placed["score"])
    return entry


def _propose_leads_choice(game: Game, mine: Round) -> None:
    """The lead's choice, just told to the centre's closed round: proposed first (§3.3.5, §5), the
    screens redraw."""
    if "word" not in (lead_entry(game, mine.number) or {}):
        return
    tops = _prepared_first(game, position_of(game, mine), mine.number, mine.tops)
    Round.objects.filter(pk=mine.pk).update(tops=tops, version=F("version") + 1)
