"""What each visitor may train on: nothing a club owns without a right to it.

- Without login (or an account of no club): the shipped free list, random games and the prepared
  files the visitor sends; no club's game, no list a club uploaded.
- A club's arbiter or deputy: the club's finished games and the lists it plays with
  (``lexicons.services.lexicons_of``); the site's administrator: all.
- A player, through their join link (``/entrainement/j/<token>/<game>/``): the finished games of
  their own tournament, as their review shows them.
- A game of a simultaneous event's centre stays secret, to everyone, its own club too, until every
  centre of the event is done with its game: its racks and tops are the other centres' evening
  (``tournaments.disclosure``, the rule every reader of a game asks).

The choices offered (``games_for``, ``lexicons_for``) and the checks of a training's source
(``game_for``, ``lexicon_for``) say the same thing; the checks run when a training starts and each
time its state (the player's cookie, which names the game by its id) is read again."""

from __future__ import annotations

from django.db.models import Q

from clubs import access
from clubs.models import Role
from lexicons.files import SHIPPED
from lexicons.loaded import lexicon_default_row
from lexicons.models import LexiconList
from lexicons.services import lexicons_of
from live import room
from server.converters import IdConverter
from server.writes import ServiceError
from tournaments import disclosure
from tournaments.models import Game

#: The games a list offers at most (the newest).
LISTED = 200


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
    return disclosure.shown_to_outsiders(list(games[:LISTED]))


def lexicons_for(user):
    """The word lists ``user`` may train with: the shipped ones, and their clubs' (``lexicons_of``)."""
    clubs = _clubs(user)
    if clubs is None:
        return LexiconList.objects.order_by("name", "id")
    if clubs:
        return lexicons_of(clubs)
    # The shipped French list, and the other sets' shipped lists where this server made them.
    return LexiconList.objects.filter(Q(pk=lexicon_default_row().pk) | Q(path__startswith=SHIPPED)).order_by(
        "name", "id"
    )


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
    if disclosure.outsiders_wait(game):
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
    found = lexicons_for(user).filter(pk=int(text)).first()
    if found is None:
        raise ServiceError("training_lexicon_closed")
    return found
