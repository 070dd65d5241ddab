"""What of a game may be shown, to whom, and from when: the one rule every reader of a game asks
before any of it leaves the server (the tournament file, the game record and the results files, the
files sent to a federation, training).

- The room sees a round's rack from its draw and its top from its placing (the live room's screens,
  its phone and its projector show nothing else of a game).
- What is still to come never leaves while the game is played: a random game's seed (its later racks
  follow from it) and, in a game an event handed to its centres (a simultaneous's prepared record, the
  lead's racks of a live one), the rounds not yet played in this room.  A club's own prepared record
  is its arbiters' (they prepared it): the tournament file carries it whole, so that another
  installation of the club goes on with the same game.
- People outside the room (training) see a game once it is over, and a game an event holds once every
  centre of the event is done with it: until then its racks and tops are the other centres' evening.

Which games an event holds is known to the rooms above this one (``simultaneous``): each tells it
through a function registered with ``holder`` (from its ``AppConfig.ready``), so that every reader
asks this module alone and no room below reaches up."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tournaments.models import Game


@dataclass(frozen=True)
class Hold:
    """How an event holds one of its centres' games: ``sealed``, its rounds ahead are the event's
    (never shown by this room); ``secret``, the event is not over everywhere (outsiders wait)."""

    sealed: bool = True
    secret: bool = False


#: The registered functions: game ids in, the held ones out with their ``Hold``.
Holder = Callable[[set[int]], dict[int, Hold]]
_holders: list[Holder] = []


def holder(function: Holder) -> Holder:
    """Registers ``function`` (once) among those asked which games an event holds."""
    if function not in _holders:
        _holders.append(function)
    return function


def holds(game_ids: Iterable[int]) -> dict[int, Hold]:
    """The games among ``game_ids`` an event holds, each with how; the others are absent."""
    wanted = {pk for pk in game_ids if pk is not None}
    found: dict[int, Hold] = {}
    if not wanted:
        return found
    for function in _holders:
        for pk, hold in function(wanted).items():
            mine = found.get(pk)
            found[pk] = hold if mine is None else Hold(mine.sealed or hold.sealed, mine.secret or hold.secret)
    return found


def sealed(game: Game) -> bool:
    """Whether ``game``'s rounds ahead are an event's: none of them leaves this room."""
    hold = holds([game.pk]).get(game.pk)
    return hold is not None and hold.sealed


def seed_shown(game: Game) -> int | None:
    """A random game's seed as a file may carry it: once the game is over, never while it is played
    (its later racks follow from it); None for a game whose racks are not drawn from a seed."""
    if game.source != Game.Source.RANDOM or game.status == Game.Status.PLAYING:
        return None
    return game.seed


def game_as_it_leaves(game: Game, fields: dict) -> dict:
    """``fields`` (a game's columns as a file writes them) with what may not leave taken out: a
    played game's seed (null: the installation that reads the file draws from a seed of its own) and,
    in a game an event holds, its record and seed: the game leaves as its room played it, its racks
    typed from there on (its rounds already drawn are in the file's rounds)."""
    out = dict(fields)
    if "seed" in out and game.source == Game.Source.RANDOM and game.status == Game.Status.PLAYING:
        out["seed"] = None
    if sealed(game):
        out.update(source=Game.Source.TYPED, prepared=None, seed=0)
    return out


def shown_to_outsiders(games: list[Game]) -> list[Game]:
    """``games`` but those people outside their room may not see yet: a game still played, or held
    secret by an event not over everywhere."""
    over = [g for g in games if g.status != Game.Status.PLAYING]
    held = holds(g.pk for g in over)
    return [g for g in over if not (g.pk in held and held[g.pk].secret)]


def outsiders_wait(game: Game) -> bool:
    """Whether an event keeps ``game`` from people outside its room for now."""
    hold = holds([game.pk]).get(game.pk)
    return hold is not None and hold.secret
