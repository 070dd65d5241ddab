"""Which club the results' own objects belong to (a printout by its tournament, a merge by the club
that made it), with the live room's objects (``tournaments.access``)."""

from __future__ import annotations

from clubs import access
from clubs.models import Role
from results.models import MergedResults, Printout
from tournaments.access import OWNER_OF as LIVE_OWNER_OF
from tournaments.access import owner_lookup

OWNER_OF = {
    **LIVE_OWNER_OF,
    "printout": owner_lookup(Printout.objects, "tournament__owner_id"),
    "merge": owner_lookup(MergedResults.objects, "owner_id"),
}


def for_arbiter(kind: str, key: str = "pk"):
    return access.club_view(OWNER_OF[kind], Role.ARBITER, key)
