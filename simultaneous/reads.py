"""The event's results as the public page shows them: the overall ranking, each centre's own ranking
on the rounds it has played, and each centre's progress.  Computed once per change of any centre
(``standings.results_key``, the files kept, the centres registered) and kept in the cache: hundreds
of readers refresh the page during the event.

The overall ranking follows the rules' §4 and §5 (../shared/rules/duplicate.md): the centres' results
merge into one ranking only on the same rounds (the same tops everywhere), a player's percentage being
of the sum of those tops.  Its rounds are those closed by the centres that are up to date: the most
rounds that at least half of the centres in play have closed (``overall_rounds``).  A centre with fewer
is behind: the page says so, with its rounds, and ranks its players in its own table until it catches
up, so a short file or a slow hall does not cut everyone's ranking.  A registered centre that has closed
no round (not joined, joined and not started, no file yet) is "not started" and holds nothing back.
Only the centres registered and not withdrawn count, live ones by their room, offline ones by their
file, unless the organiser withdrew it.

A live event (the Multiplex) shows no round before every live centre still playing has closed it: its
centres play each round at the same time, and a hall a little slower, or one that joined late, would
otherwise read the round's top here before its own round closed (``live_shown``)."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
from dataclasses import dataclass

from django.core.cache import cache

from engine import ranking as engine_ranking
from engine.ranking import Entrant, GameScores, Row, Rules, rows
from results import reading
from server import memo
from simultaneous.models import Centre, Event, Registration, Upload
from tournaments import standings
from tournaments.models import Game

#: How long a computed standing is kept (a new change makes a new key anyway).
STANDING_SECONDS = 3600

#: A centre's part in the overall ranking.
IN, BEHIND, NOT_STARTED = "in", "behind", "not_started"


@dataclass(frozen=True)
class CentreLine:
    #: The centre's registration (``Registration.pk``).
    registration: int
    name: str
    rounds: int
    players: int
    lead: bool
    rows: tuple[Row, ...]
    #: ``IN`` the overall ranking, ``BEHIND`` it (fewer rounds), or ``NOT_STARTED``.
    state: str
    #: Whether its game is over (a live centre's game ended).
    ended: bool = False
    offline: bool = False
    #: The rounds it has closed (more than ``rounds`` where a live event's page holds them back).
    closed: int = 0


@dataclass(frozen=True)
class Standing:
    #: The rounds the overall ranking is on: those the centres up to date have closed.
    common: int
    top: int
    rows: tuple[Row, ...]
    centres: tuple[CentreLine, ...]

    @property
    def behind(self) -> tuple[CentreLine, ...]:
        return tuple(c for c in self.centres if c.state == BEHIND)

    @property
    def not_started(self) -> tuple[CentreLine, ...]:
        return tuple(c for c in self.centres if c.state == NOT_STARTED)

    @property
    def started(self) -> tuple[CentreLine, ...]:
        return tuple(c for c in self.centres if c.state != NOT_STARTED)


def overall_rounds(played: list[int]) -> int:
    """The rounds the overall ranking is on, given each centre's closed rounds: the most rounds that
    at least half of the centres in play (one round or more) have closed.  One centre short or late
    does not cut it, nor does one ahead hold everyone else out (with three centres or more)."""
    started = sorted((n for n in played if n > 0), reverse=True)
    return started[(len(started) + 1) // 2 - 1] if started else 0


def live_shown(centres, counted: dict) -> int | None:
    """A live event's rounds the page may show: those every live centre whose game is still playing
    has closed (a centre joined and not started holds them all back until the organiser withdraws
    it); None: no centre plays any more, every round is shown."""
    playing = [len(counted[c.game_id]) for c in centres if c.game.status == Game.Status.PLAYING]
    return min(playing) if playing else None


def _cut(scores: GameScores, shown: int | None) -> GameScores:
    if shown is None or len(scores.tops) <= shown:
        return scores
    return GameScores(tuple(scores.tops[:shown]), {k: tuple(s[:shown]) for k, s in scores.scores.items()})


def event_key(
    registrations: list[Registration], centres: list[Centre], uploads: list[tuple[int, datetime.datetime]]
) -> str:
    """Changes with the centres registered, any centre's results and any file sent again (``uploads``:
    id, time received)."""
    state = "|".join(f"r{r.pk}:{r.mode}" for r in registrations)
    state += "|" + "|".join(f"{c.pk}:{standings.results_key(c.tournament_id)}" for c in centres)
    state += "|" + "|".join(f"u{pk}:{received.isoformat()}" for pk, received in uploads)
    return hashlib.sha1(state.encode()).hexdigest()


#: The public page's standings, per event and language (``settings.PUBLIC_RESULTS_SECONDS``).
_public: memo.Recent[Standing] = memo.Recent("PUBLIC_RESULTS_SECONDS")


def event_standing_recent(event: Event, lang: str) -> Standing:
    """``event_standing`` as this process worked it out at most ``settings.PUBLIC_RESULTS_SECONDS``
    ago: the public page's readers, many and refreshing, cost no query between (its key alone reads
    three counts per centre)."""
    return _public.get((event.pk, lang), lambda: event_standing(event, lang))


#: The public page's event by its key, with its standing (None: no such event), per key and language.
_public_keys: memo.Recent[tuple[Event, Standing] | None] = memo.Recent("PUBLIC_RESULTS_SECONDS")


def public_recent(key: str, lang: str) -> tuple[Event, Standing] | None:
    """The event whose public key is ``key`` and its standing (``event_standing_recent``), as this
    process found them at most ``settings.PUBLIC_RESULTS_SECONDS`` ago: a reader within that window
    costs no query at all."""

    def found() -> tuple[Event, Standing] | None:
        event = Event.objects.select_related("organiser").filter(public_key=key).first()
        return None if event is None else (event, event_standing_recent(event, lang))

    return _public_keys.get((key, lang), found)


def event_standing(event: Event, lang: str) -> Standing:
    registrations = list(
        event.registrations.filter(withdrawn_at__isnull=True)
        .select_related("club")
        .order_by("registered_at", "id")
    )
    live = [r.club_id for r in registrations if r.mode == Registration.Mode.LIVE]
    offline = [r.club_id for r in registrations if r.mode == Registration.Mode.OFFLINE]
    centres = list(event.centres.filter(club_id__in=live).select_related("tournament", "game").order_by("id"))
    uploads = list(
        event.uploads.filter(withdrawn_at__isnull=True, club_id__in=offline)
        .order_by("id")
        .values_list("pk", "received_at")
    )
    key = f"event:{event.pk}:{lang}:{event_key(registrations, centres, uploads)}"
    found = cache.get(key)
    if found is None:
        # A file's players play for the club whose token sent it, whatever club the file names.
        clubs = {r.club_id: r.club.name for r in registrations}
        sent = {
            club_id: reading.read_results(0, "envoi", data.encode(), club=clubs[club_id])
            for club_id, data in Upload.objects.filter(pk__in=[pk for pk, _ in uploads]).values_list(
                "club_id", "data"
            )
        }
        found = _standing(
            registrations, {c.club_id: c for c in centres}, sent, lang, event.kind == Event.Kind.LIVE
        )
        cache.set(key, found, STANDING_SECONDS)
    return found


@dataclass
class _Part:
    """A centre's results as the overall ranking takes them."""

    line: CentreLine
    people: list[Entrant]
    scores: GameScores
    rules: Rules | None


def _standing(registrations, centres: dict, sent: dict, lang: str, live: bool = False) -> Standing:
    """``centres``: the live centres by club; ``sent``: the offline centres' files, read, by club;
    ``live``: a live event, whose page holds back the rounds a centre still plays (``live_shown``)."""
    counted = standings.counted_rounds([c.game for c in centres.values()])
    shown = live_shown(centres.values(), counted) if live else None
    parts: list[_Part] = []
    for registration in registrations:
        club = registration.club.name
        centre, results = centres.get(registration.club_id), sent.get(registration.club_id)
        if registration.mode == Registration.Mode.LIVE and centre is not None:
            rounds = counted[centre.game_id]
            # A player registered without a club plays for the centre's: so says each table of the page.
            people = [
                dataclasses.replace(e, key=(centre.pk, e.key), club=e.club or club)
                for e in standings.entrants(centre.tournament_id)
            ]
            theirs = standings.scores_of(rounds)
            scores = GameScores(theirs.tops, {(centre.pk, k): s for k, s in theirs.scores.items()})
            rules = standings.rules_of(centre.tournament, centre.game)
            ended, lead = centre.game.status != Game.Status.PLAYING, centre.lead
        elif registration.mode == Registration.Mode.OFFLINE and results is not None:
            people = [
                dataclasses.replace(e, key=("sent", registration.pk, e.key), club=e.club or club)
                for e, _scores in results.players
            ]
            scores = GameScores(
                tuple(r.score for r in results.record.rounds),
                {("sent", registration.pk, e.key): s for e, s in results.players},
            )
            rules, ended, lead = None, False, False
        else:
            people, scores, rules, ended, lead = [], GameScores((), {}), None, False, False
        closed, scores = len(scores.tops), _cut(scores, shown)
        own = engine_ranking.rank_game(people, scores, rules or Rules())
        line = CentreLine(
            registration.pk, club, len(scores.tops), len(people), lead, rows(own, lang), NOT_STARTED,
            ended, registration.mode == Registration.Mode.OFFLINE, closed,
        )  # fmt: skip
        parts.append(_Part(line, people, scores, rules))
    common = overall_rounds([p.line.rounds for p in parts])
    for part in parts:
        if part.line.rounds:
            state = IN if part.line.rounds >= common else BEHIND
            part.line = dataclasses.replace(part.line, state=state)
    ranked = [p for p in parts if p.line.state == IN]
    tops = tuple(ranked[0].scores.tops[:common]) if ranked else ()
    rules = next((p.rules for p in ranked if p.rules), None) or next(
        (p.rules for p in parts if p.rules), Rules()
    )
    people = [e for p in ranked for e in p.people]
    overall = {k: s for p in ranked for k, s in p.scores.scores.items()}
    ranking = engine_ranking.rank_game(people, GameScores(tops=tops, scores=overall), rules)
    lines = sorted((p.line for p in parts), key=lambda line: not line.lead)
    return Standing(common, sum(tops), rows(ranking, lang), tuple(lines))


@dataclass(frozen=True)
class CentreState:
    """A registered centre as the organiser's page shows it: how it plays, its room (joined) and its
    game's state, its file (when, how many players and rounds, withdrawn or not), its part in the
    overall ranking (``line``: none once withdrawn)."""

    registration: Registration
    centre: Centre | None
    upload: Upload | None
    line: CentreLine | None


def event_centres(event: Event, standing: Standing) -> list[CentreState]:
    """Every centre the organiser registered, withdrawn ones last."""
    centres = {c.club_id: c for c in event.centres.select_related("game")}
    uploads = {u.club_id: u for u in event.uploads.defer("data")}
    lines = {line.registration: line for line in standing.centres}
    registrations = event.registrations.select_related("club").order_by("registered_at", "id")
    found = [
        CentreState(r, centres.get(r.club_id), uploads.get(r.club_id), lines.get(r.pk)) for r in registrations
    ]
    return sorted(
        found, key=lambda s: (s.registration.withdrawn_at is not None, not (s.centre and s.centre.lead))
    )
