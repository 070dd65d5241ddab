"""The review's pages: a player's, from their join link, once the game is over; the arbiter's, with
the room's round and any player's slips.  The game's overview (the line and its chart) and one page
per round, stepped through with plain links: no script, so an old phone and a screen reader read it."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine.ranking import percent, rounded
from live.views.player import unknown_token
from review import reads
from review.chart import cumulative_chart
from server.language import interface_language
from server.writes import ServiceError
from tournaments.access import for_arbiter
from tournaments.models import Game, Player


def _player_game(token: str, game_pk: int) -> tuple[Player | None, Game | None]:
    player = Player.objects.select_related("tournament").filter(token=token).first()
    if player is None:
        return None, None
    game = get_object_or_404(
        Game.objects.select_related("tournament__lexicon"), pk=game_pk, tournament=player.tournament
    )
    return player, game


def _line_context(rounds, player: Player | None) -> dict:
    if player is None:
        return {}
    line = reads.player_line(rounds, player)
    last = line[-1]
    return {
        "line": line,
        "line_percent": rounded(percent(last.paid_total, last.top_total)),
        "chart": cumulative_chart(
            line,
            title=_("Score cumulé de %(name)s et des tops, coup par coup") % {"name": player.name},
            tops_label=_("tops"),
            player_label=player.name,
            round_label=_("coups"),
        ),
    }


def _links(game: Game, count: int, *, token: str | None, table: str) -> dict:
    """The review's pages, by round number (0: the overview), for a player or for the arbiter."""

    def url(number: int) -> str:
        if token is not None:
            name, args = "review:player_game", [token, game.pk]
        else:
            name, args = "review:game_review", [game.pk]
        if number:
            name = name + "_round" if token is None else "review:player_round"
            args.append(number)
        where = reverse(name, args=args)
        return f"{where}?table={table}" if token is None and table else where

    return {"overview_url": url(0), "rounds": [(n, url(n)) for n in range(1, count + 1)], "url": url}


def _page(request, game: Game, *, player: Player | None, number: int | None, arbiter: bool, base: dict):
    lang = interface_language()
    context = {"game": game, "tournament": game.tournament, "player": player, "arbiter": arbiter, **base}
    try:
        rounds = reads.check_reviewable(game, arbiter=arbiter)
        links = _links(game, len(rounds), token=base.get("token"), table=base.get("table", ""))
        context.update(links)
        if number is None:
            context.update(_line_context(rounds, player))
            return render(request, "review/game.html", context)
        context["view"] = reads.game_round(
            game, number, player=player, lang=lang, arbiter=arbiter, rounds=rounds
        )
        if arbiter:
            context["room"] = reads.room_round(game, number, rounds)
    except ServiceError as error:
        return render(request, "review/closed.html", {**context, "error": error.text()}, status=404)
    context["previous_url"] = links["url"](number - 1) if number > 1 else None
    context["next_url"] = links["url"](number + 1) if number < len(rounds) else None
    context["lang"] = lang
    return render(request, "review/round.html", context)


@require_GET
def player_review(request, token: str, game: int, number: int | None = None):
    player, found = _player_game(token, game)
    if player is None:
        return unknown_token(request, token)
    return _page(request, found, player=player, number=number, arbiter=False, base={"token": token})


@for_arbiter("game")
@require_GET
def arbiter_review(request, pk: int, number: int | None = None):
    game = get_object_or_404(Game.objects.select_related("tournament__lexicon"), pk=pk)
    table = request.GET.get("table", "")
    player = None
    if table.isascii() and table.isdigit() and len(table) <= 6:
        player = game.tournament.players.filter(table_number=int(table)).first()
    if player is None:
        table = ""
    players = game.tournament.players.order_by("table_number").only("name", "table_number")
    return _page(
        request, game, player=player, number=number, arbiter=True, base={"players": players, "table": table}
    )
