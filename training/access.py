"""What each visitor may train on (issue 22): nothing a club owns without a right to it.

- Without login (or an account of no club): the shipped free list, random games and the prepared
  files the visitor sends; no club's game, no list a club uploaded.
- A club's arbiter or deputy: the club's finished games and the lists it plays with
  (``lexicons.services.lexicons_of``); the site's administrator: all.
- A player, through their join link (``/entrainement/j/<token>/<game>/``): the finished games of
  their own tournament, as their review shows them.
- A game of a simultaneous event's centre stays secret, to everyone, its own club too, until every
  centre of the event is done with its game: its racks and tops are the other centres' evening
  (``unfinished``).

The choices offered (``games_for``, ``lexicons_for``) and the checks of a training's source
(``game_for``, ``lexicon_for``) say the same thing; the checks run when a training starts and each
time its state (the player's cookie, which names the game by its id) is read again."""

from __future__ import annotations

from clubs import access
from clubs.models import Role
from lexicons.loaded import lexicon_default_row
from lexicons.models import LexiconList
from lexicons.services import lexicons_of
from server.converters import IdConverter
from server.writes import ServiceError
from simultaneous.models import Centre, Event, Registration, Upload
from tournaments import room
from tournaments.models import Game

#: The games a list offers at most (the newest).
LISTED = 200


def unfinished(event_ids: set[int]) -> set[int]:
    """The events among ``event_ids`` some centre of which has not finished the game: a centre's
    room still playing it (ended or abandoned: done), a club registered to play live that has not
    joined yet, a club registered to play offline whose results file (if any) holds fewer rounds than
    the prepared record (a live event's: no file yet).  A withdrawn registration no longer waits."""
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


def _open_games(games: list[Game]) -> list[Game]:
    """``games`` but those of a simultaneous not finished everywhere."""
    events = dict(Centre.objects.filter(game_id__in=[g.pk for g in games]).values_list("game_id", "event_id"))
    secret = unfinished(set(events.values()))
    return [g for g in games if events.get(g.pk) not in secret]


def _clubs(user) -> list[int] | None:
    """The clubs whose games and lists ``user`` may train on (``user`` None: a visitor without
    login); None: all (the administrator)."""
    if user is None or not user.is_authenticated:
        return []
    if access.is_admin(user):
        return None
    return access.club_ids(user, Role.DEPUTY)


def games_for(user) -> list[Game]:
    """The finished games ``user`` may train on, newest first."""
    clubs = _clubs(user)
    if clubs == []:
        return []
    games = Game.objects.filter(status=Game.Status.ENDED, rounds__status="placed")
    if clubs is not None:
        games = games.filter(tournament__owner_id__in=clubs)
    games = games.select_related("tournament").distinct().order_by("-tournament__date", "-pk")
    return _open_games(list(games[:LISTED]))


def lexicons_for(user):
    """The word lists ``user`` may train with: the shipped one, and their clubs' (``lexicons_of``)."""
    clubs = _clubs(user)
    if clubs is None:
        return LexiconList.objects.order_by("name", "id")
    if clubs:
        return lexicons_of(clubs)
    return LexiconList.objects.filter(pk=lexicon_default_row().pk)


def _id(value) -> int:
    text = str(value)
    if not IdConverter.accepts(text):
        raise ServiceError("training_game_closed")
    return int(text)


def game_for(user, source: dict) -> Game:
    """The game a training's ``source`` names (``kind`` "club": by the user's clubs; "player": by
    the join link's ``token``), or ``ServiceError``: not theirs (or no such game, which is not told
    apart), or a simultaneous's game still secret."""
    game_id = _id(source.get("game"))
    games = Game.objects.select_related("tournament")
    if source.get("kind") == "player":
        player = room.player_by_token(str(source.get("token", "")))
        game = games.filter(pk=game_id, tournament_id=player.tournament_id).first() if player else None
    else:
        game = games.filter(pk=game_id).first()
        clubs = _clubs(user)
        if game is not None and clubs is not None and game.tournament.owner_id not in clubs:
            game = None
    if game is None:
        raise ServiceError("training_game_closed")
    event = Centre.objects.filter(game_id=game.pk).values_list("event_id", flat=True).first()
    if event is not None and unfinished({event}):
        raise ServiceError("training_event_secret")
    return game


def lexicon_for(user, lexicon_id) -> LexiconList | None:
    """The list a random game or a prepared file is played with (None: the shipped one), or
    ``ServiceError`` for a list the user may not use (or none of that id)."""
    if lexicon_id in (None, ""):
        return None
    text = str(lexicon_id)
    if not IdConverter.accepts(text):
        raise ServiceError("training_lexicon_closed")
    if _clubs(user) == []:  # the shipped list only: one query
        row = lexicon_default_row()
        found = row if row.pk == int(text) else None
    else:
        found = lexicons_for(user).filter(pk=int(text)).first()
    if found is None:
        raise ServiceError("training_lexicon_closed")
    return found
