"""The event's results as the public page shows them: every centre's players ranked together on the
rounds every centre has closed, each centre's own ranking on the rounds it has played, and each
centre's progress.  Computed once per change of any centre (``standings.results_key``) and kept in
the cache: hundreds of readers refresh the page during the event."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
from dataclasses import dataclass

from django.core.cache import cache

from engine import ranking as engine_ranking
from engine.ranking import Entrant, GameScores, Row, rows
from results import reading
from results.reading import Results
from server import memo
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


def event_key(centres: list[Centre], uploads: list[tuple[int, datetime.datetime]]) -> str:
    """Changes with any centre's results and any file sent again (``uploads``: id, time received)."""
    state = "|".join(f"{c.pk}:{standings.results_key(c.tournament_id)}" for c in centres)
    state += "|" + "|".join(f"u{pk}:{received.isoformat()}" for pk, received in uploads)
    return hashlib.sha1(state.encode()).hexdigest()


#: The public page's standings, per event and language (``settings.PUBLIC_RESULTS_SECONDS``).
_public: memo.Recent[Standing] = memo.Recent("PUBLIC_RESULTS_SECONDS")


def event_standing_recent(event: Event, lang: str) -> Standing:
    """``event_standing`` as this process worked it out at most ``settings.PUBLIC_RESULTS_SECONDS``
    ago: the public page's readers, many and refreshing, cost no query between (its key alone reads
    three counts per centre)."""
    return _public.get((event.pk, lang), lambda: event_standing(event, lang))


def event_standing(event: Event, lang: str) -> Standing:
    centres = list(event.centres.select_related("club", "tournament", "game").order_by("-lead", "id"))
    uploads = list(event.uploads.values_list("pk", "received_at"))
    key = f"event:{event.pk}:{lang}:{event_key(centres, uploads)}"
    found = cache.get(key)
    if found is None:
        sent = [
            (u.club.name, reading.read_results(0, "envoi", u.data.encode()))
            for u in event.uploads.select_related("club").order_by("id")
        ]
        found = _standing(centres, sent, lang)
        cache.set(key, found, STANDING_SECONDS)
    return found


def _standing(centres: list[Centre], sent: list[tuple[str, Results]], lang: str) -> Standing:
    """``sent``: the results files of the centres that played on their own laptop, read."""
    counted = standings.counted_rounds([c.game for c in centres])
    played = [len(counted[c.game_id]) for c in centres] + [len(r.record.rounds) for _club, r in sent]
    common = min(played, default=0)
    people: list[Entrant] = []
    overall: dict = {}
    lines = []

    def add(key, entrant: Entrant, club: str, scores) -> None:
        people.append(dataclasses.replace(entrant, key=key, club=entrant.club or club))
        if scores is not None:
            overall[key] = tuple(scores[:common])

    for centre in centres:
        rounds = counted[centre.game_id]
        # A player registered without a club plays for the centre's: so says each table of the page.
        mine = [
            dataclasses.replace(entrant, club=entrant.club or centre.club.name)
            for entrant in standings.entrants(centre.tournament_id)
        ]
        scores = standings.scores_of(rounds)
        own = engine_ranking.rank_game(mine, scores, standings.rules_of(centre.tournament))
        lines.append(CentreLine(centre.club.name, len(rounds), len(mine), centre.lead, rows(own, lang)))
        for entrant in mine:
            add((centre.pk, entrant.key), entrant, centre.club.name, scores.scores.get(entrant.key))
    for number, (club, results) in enumerate(sent):
        tops = tuple(r.score for r in results.record.rounds)
        theirs = GameScores(tops=tops, scores={entrant.key: scores for entrant, scores in results.players})
        own = engine_ranking.rank_game(
            [entrant for entrant, _ in results.players], theirs, engine_ranking.Rules()
        )
        lines.append(CentreLine(club, len(tops), len(results.players), False, rows(own, lang)))
        for entrant, scores in results.players:
            add(("sent", number, entrant.key), entrant, club, scores)
    if centres:
        tops = tuple(r.top_score or 0 for r in counted[centres[0].game_id][:common])
        rules = standings.rules_of(centres[0].tournament)
    else:
        tops = tuple(r.score for r in sent[0][1].record.rounds[:common]) if sent else ()
        rules = engine_ranking.Rules()
    ranking = engine_ranking.rank_game(people, GameScores(tops=tops, scores=overall), rules)
    return Standing(common, sum(tops), rows(ranking, lang), tuple(lines))
