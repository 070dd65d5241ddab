"""The event's results as the public page shows them: every centre's players ranked together on the
rounds every centre has closed, each centre's own ranking on the rounds it has played, and each
centre's progress.  Computed once per change of any centre (``standings.results_key``) and kept in
the cache: hundreds of readers refresh the page during the event."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache

from engine import ranking as engine_ranking
from engine.ranking import Entrant, GameScores, Row, rows
from simultaneous.models import Centre, Event
from tournaments import standings

#: How long a computed standing is kept (a new change makes a new key anyway).
STANDING_SECONDS = 3600


@dataclass(frozen=True)
class CentreLine:
    name: str
    rounds: int
    players: int
    lead: bool
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Standing:
    #: The rounds every centre has closed: the overall ranking is on these.
    common: int
    top: int
    rows: tuple[Row, ...]
    centres: tuple[CentreLine, ...]


def event_key(centres: list[Centre]) -> str:
    state = "|".join(f"{c.pk}:{standings.results_key(c.tournament_id)}" for c in centres)
    return hashlib.sha1(state.encode()).hexdigest()


def event_standing(event: Event, lang: str) -> Standing:
    centres = list(event.centres.select_related("club", "tournament", "game").order_by("-lead", "id"))
    key = f"event:{event.pk}:{lang}:{event_key(centres)}"
    found = cache.get(key)
    if found is None:
        found = _standing(centres, lang)
        cache.set(key, found, STANDING_SECONDS)
    return found


def _standing(centres: list[Centre], lang: str) -> Standing:
    counted = standings.counted_rounds([c.game for c in centres])
    common = min((len(counted[c.game_id]) for c in centres), default=0)
    people: list[Entrant] = []
    scores = {}
    lines = []
    for centre in centres:
        rounds = counted[centre.game_id]
        mine = standings.entrants(centre.tournament_id)
        own = engine_ranking.rank_game(
            mine, standings.scores_of(rounds), standings.rules_of(centre.tournament)
        )
        lines.append(CentreLine(centre.club.name, len(rounds), len(mine), centre.lead, rows(own, lang)))
        played = standings.scores_of(rounds[:common]).scores
        for entrant in mine:
            key = (centre.pk, entrant.key)
            people.append(
                Entrant(key, entrant.name, entrant.table, entrant.club or centre.club.name, entrant.series,
                        entrant.category, entrant.licence)
            )  # fmt: skip
            if entrant.key in played:
                scores[key] = played[entrant.key]
    tops = tuple(r.top_score or 0 for r in counted[centres[0].game_id][:common]) if centres else ()
    rules = standings.rules_of(centres[0].tournament) if centres else engine_ranking.Rules()
    overall = engine_ranking.rank_game(people, GameScores(tops=tops, scores=scores), rules)
    return Standing(common, sum(tops), rows(overall, lang), tuple(lines))
