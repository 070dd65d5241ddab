"""A centre of a live simultaneous (the FFSc's Multiplex), as its own room reads it: its game is a
prepared game (``Game.prepared``) marked ``follows_lead`` whose rounds are the lead centre's racks,
each round's top written in only once this centre's own round has closed and the lead has placed it
(``services.follow``).  Every centre plays round N at the same time as the lead, on the lead's rack,
and places the lead's choice among tied tops; no centre learns it before its own round closes."""

from __future__ import annotations

from engine.notation import NotationError, parse_ref
from tournaments.models import Game, Round


def follows_lead(game: Game) -> bool:
    """The game is a centre's of a live simultaneous: its racks and tops come from the lead centre
    (``growing``: a centre's game started before the mark, its lead still playing)."""
    marked = bool((game.prepared or {}).get("follows_lead")) or game.growing
    return game.source == Game.Source.PREPARED and marked


def lead_entry(game: Game, number: int) -> dict | None:
    """Round ``number`` as the lead centre gave it to this game: ``{"rack"}``, with ``ref``, ``word``
    and ``score`` once the lead's top may be told here; None when the lead has not drawn it."""
    rounds = (game.prepared or {}).get("rounds") or []
    return rounds[number - 1] if 0 < number <= len(rounds) else None


def waits_for_lead(game: Game, rnd: Round | None) -> bool:
    """The centre's round is closed but the lead centre has not placed its top yet: the centre places
    the lead's choice, and shows no top before (the room would be told another tied top)."""
    if rnd is None or rnd.status != Round.Status.CLOSED or not follows_lead(game):
        return False
    entry = lead_entry(game, rnd.number)
    return entry is None or "word" not in entry


def record_move(game: Game, rnd: Round | None) -> dict | None:
    """A prepared game's round (§5): the record's move when it is among the round's tied tops (it is
    then proposed first, ``services.tops._prepared_first``); the one top placed, every centre playing
    the same game.  None when the game has no record, the record's move is not told yet (a live
    centre's round before its close) or is not a top here (a record made with another word list)."""
    if game.source != Game.Source.PREPARED or rnd is None or not rnd.tops:
        return None
    entry = lead_entry(game, rnd.number)
    if not entry or "word" not in entry:
        return None
    top = rnd.tops[0]
    try:
        ref = str(parse_ref(entry["ref"]))
    except NotationError:
        return None
    same = (top["ref"], top["word"], top["score"]) == (ref, entry["word"], entry["score"])
    return top if same else None
