"""The games this room's events hold (``tournaments.disclosure``): every centre's game is sealed (its
rounds ahead are the event's), and secret to people outside its room until every centre of the event
is done with it (``unfinished``)."""

from __future__ import annotations

from simultaneous.models import Centre, Event, Registration, Upload
from tournaments.disclosure import Hold
from tournaments.models import Game


def unfinished(event_ids: set[int]) -> set[int]:
    """The events among ``event_ids`` some centre of which has not finished the game: a centre's
    room still playing it (ended or abandoned: done), a club registered to play live that has not
    joined yet, a club registered to play offline whose results file (if any) holds fewer rounds than
    the prepared record (a live event's: no file yet).  A withdrawn registration is not waited for."""
    if not event_ids:
        return set()
    centres = Centre.objects.filter(event_id__in=event_ids)
    out = set(centres.filter(game__status=Game.Status.PLAYING).values_list("event_id", flat=True))
    joined = set(centres.values_list("event_id", "club_id"))
    waiting = Registration.objects.filter(event_id__in=event_ids - out, withdrawn_at__isnull=True)
    sent = {
        (event, club): rounds
        for event, club, rounds in Upload.objects.filter(event_id__in=event_ids - out).values_list(
            "event_id", "club_id", "rounds"
        )
    }
    offline = list(waiting.filter(mode=Registration.Mode.OFFLINE).values_list("event_id", "club_id"))
    lengths = {
        pk: len((record or {}).get("rounds", ())) if kind == Event.Kind.PREPARED else 0
        for pk, kind, record in Event.objects.filter(pk__in={e for e, _c in offline}).values_list(
            "pk", "kind", "record"
        )
    }
    for event, club in waiting.filter(mode=Registration.Mode.LIVE).values_list("event_id", "club_id"):
        if (event, club) not in joined:
            out.add(event)
    for event, club in offline:
        if sent.get((event, club), -1) < lengths.get(event, 0):
            out.add(event)
    return out


def held_games(game_ids: set[int]) -> dict[int, Hold]:
    """The centres' games among ``game_ids``, each sealed, and secret while its event is unfinished."""
    events = dict(Centre.objects.filter(game_id__in=game_ids).values_list("game_id", "event_id"))
    secret = unfinished(set(events.values()))
    return {game: Hold(sealed=True, secret=event in secret) for game, event in events.items()}
