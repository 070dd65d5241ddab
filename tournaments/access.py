"""Which club each object of the live room belongs to, and the views' guards built on it
(``clubs.access``): every arbiter URL names a tournament, a player, a game or a round, and each leads
to its tournament's club in one query.  ``for_arbiter`` and ``for_deputy`` wrap a view of one object."""

from __future__ import annotations

from clubs import access
from clubs.models import Role
from server import memo
from tournaments.models import Game, Player, Round, Tournament


def owner_lookup(queryset, path: str):
    """The object's id to its club's id, following ``path``, read once per web process: an object
    never changes club (the arbiter's screen and the projector poll every second)."""
    known: memo.Kept[int] = memo.Kept(50_000)

    def owner_of(pk: int) -> int | None:
        club = known.get(pk)
        if club is None:
            club = queryset.filter(pk=pk).values_list(path, flat=True).first()
            if club is not None:
                known.put(pk, club)
        return club

    return owner_of


#: Each kind of object an arbiter URL names, to its club's id.
OWNER_OF = {
    "tournament": owner_lookup(Tournament.objects, "owner_id"),
    "player": owner_lookup(Player.objects, "tournament__owner_id"),
    "game": owner_lookup(Game.objects, "tournament__owner_id"),
    "round": owner_lookup(Round.objects, "game__tournament__owner_id"),
}


def for_arbiter(kind: str, key: str = "pk"):
    """The view of one object, for its club's arbiters (and the site's administrator)."""
    return access.club_view(OWNER_OF[kind], Role.ARBITER, key)


def for_deputy(kind: str, key: str = "pk"):
    """The view of one object, for its club's arbiters and deputies (slips and corrections)."""
    return access.club_view(OWNER_OF[kind], Role.DEPUTY, key)


def may_arbitrate(user, tournament: Tournament) -> bool:
    """Whether the page shows the arbiter's actions (a deputy sees the slips' part only)."""
    return access.may(user, tournament.owner_id, Role.ARBITER)
