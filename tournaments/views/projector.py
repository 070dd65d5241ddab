"""The projector: what the room sees, readable from the back (opened on the arbiter's laptop)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from tournaments import announce, screens
from tournaments.access import for_arbiter
from tournaments.views.game import live


@for_arbiter("game")
def projector(request, pk: int):
    game, rnd = live(pk)
    context = {
        "view": screens.projection(game, rnd),
        "thirty": announce.THIRTY_SECONDS,
        "time_up": announce.TIME_UP,
    }
    return render(request, "tournaments/game_projector.html", context)


@for_arbiter("game")
def projector_poll(request, pk: int):
    game, rnd = live(pk)
    if screens.pulse_key(game, rnd) == request.GET.get("v"):
        return HttpResponse(status=204)
    return render(request, "tournaments/partials/_projection.html", {"view": screens.projection(game, rnd)})
