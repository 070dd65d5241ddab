"""The projector: what the room sees, readable from the back (opened on the arbiter's laptop).

It follows the evening as the phones do: opened on a game, it shows the tournament's current game
(``room.current_round``) once a later game has drawn its first rack, in place (its poll answers with
the later game and the address it is now at), so that the arbiter never reopens it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation

from live import announce, pulse, room, screens
from live.views.game import live
from tournaments.access import for_arbiter
from tournaments.models import Game, Round


def _followed(pk: int) -> tuple[Game, Round | None, bool]:
    """Game ``pk`` and its round, or the tournament's current game and its round when a later game
    is the room's now; and whether it is a later one.  While one of the game's rounds is in play the
    room is on it: the poll then costs no more than the phones' (no look at the tournament)."""
    game, rnd = live(pk)
    if game.status == Game.Status.PLAYING and rnd is not None and rnd.status != Round.Status.PLACED:
        return game, rnd, False
    current = room.current_round_recent(game.tournament_id)
    if current is None or current.game_id == game.pk or current.game.number < game.number:
        return game, rnd, False
    game, rnd = live(current.game_id)
    return game, rnd, True


def _room_language(request, game: Game) -> None:
    """The projector speaks to the room: in the tournament's language (its sheets', which follow its
    letter set) unless this browser chose one with the switch."""
    if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
        translation.activate(game.tournament.sheet_language)
        request.LANGUAGE_CODE = translation.get_language()


@for_arbiter("game")
def projector(request, pk: int):
    game, rnd, later = _followed(pk)
    _room_language(request, game)
    if later:
        return redirect("live:projector", game.pk)
    voice = announce.voice_of(game.tournament.letter_set)
    context = {
        "view": screens.projection(game, rnd),
        "pulse": pulse.ticket(request, "projector", game),
        "thirty": voice.thirty,
        "time_up": voice.time_up,
        "speech": voice.speech,
    }
    return render(request, "live/game_projector.html", context)


@for_arbiter("game")
def projector_poll(request, pk: int):
    game, rnd, later = _followed(pk)
    if not later and screens.pulse_key(game, rnd) == request.GET.get("v"):
        return HttpResponse(status=204)
    _room_language(request, game)
    context = {"view": screens.projection(game, rnd), "followed": later}
    context["pulse"] = pulse.ticket(request, "projector", game)
    response = render(request, "live/partials/_projection.html", context)
    if later:
        # The address bar follows too: a reload opens the game shown.
        response["HX-Replace-Url"] = reverse("live:projector", args=[game.pk])
    return response
