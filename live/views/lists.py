"""The game's long lists on demand, apart from the game screen that redraws every second: the whole
ranking on a page of its own, the tables not heard from yet in the round running.  A hall's screen
shows the first ``screens.SHOWN_AT_MOST`` ranks and counts the missing tables."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from live import selectors as live_selectors
from tournaments import selectors, standings
from tournaments.access import for_deputy, may_arbitrate
from tournaments.models import Game, Round


@for_deputy("game")
def game_ranking(request, pk: int):
    """The game's whole ranking (the one the game screen and the projector show the first ranks of)."""
    game = get_object_or_404(Game.objects.select_related("tournament"), pk=pk)
    context = {
        "game": game,
        "tournament": game.tournament,
        "ranking": standings.game_rows_shared(game),
        "deputy": not may_arbitrate(request.user, game.tournament),
    }
    return render(request, "live/game_ranking.html", context)


@for_deputy("game")
def game_missing(request, pk: int):
    """The tables whose player has sent nothing yet in the round running, each a link to its slips'
    history: the game screen's list on demand (htmx), or a page of its own."""
    game = get_object_or_404(Game.objects.select_related("tournament"), pk=pk)
    rnd = selectors.current_round(pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    context = {
        "game": game,
        "tournament": game.tournament,
        "round": rnd if running else None,
        "tables": live_selectors.missing_tables(rnd) if running else [],
        "at": timezone.localtime(),
    }
    if request.htmx:
        return render(request, "live/partials/_missing.html", context)
    return render(request, "live/game_missing.html", context)
