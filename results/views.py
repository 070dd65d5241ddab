"""Results on the arbiter's laptop: live rankings, printouts with their progress, exports, merges.
Thin views: rankings read through ``tournaments.standings``, writes through ``services``, files through
``exports``, ``merges`` and ``sheets``."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubs.access import members_only
from clubs.models import Role
from results import exports, merges, outbox, services, sheets
from results.access import for_arbiter
from results.forms import MergeForm, OutboxForm, PrintoutForm
from results.models import MergedResults, Outbox, Printout
from server.converters import IdConverter
from server.downloads import download
from server.language import interface_language
from server.writes import ServiceError
from tournaments import services as tournament_services
from tournaments import standings
from tournaments.models import Aggregate, Game, Tournament

# -- live rankings -------------------------------------------------------------------------------


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("tournament__lexicon"), pk=pk)


@for_arbiter("game")
def game_results(request, pk: int):
    """The game's ranking, redrawn after every round (htmx polls the results key)."""
    game = _game(pk)
    tournament_services.rounds_close_overdue(tournament_id=game.tournament_id)
    key = standings.results_key(game.tournament_id)
    if request.htmx and request.GET.get("v") == key:
        return HttpResponse(status=204)
    ranking = standings.game_rows_shared(game)
    context = {
        "game": game,
        "tournament": game.tournament,
        "ranking": ranking,
        "solos": [(0, number, name) for number, name in ranking.solos],
        "main": game.tournament.percent_base,
        "key": key,
        "poll": "results:game_results",
        "poll_pk": game.pk,
    }
    if request.htmx:
        return render(request, "results/partials/_results.html", context)
    context["outbox"] = list(Outbox.objects.filter(game=game))
    context["outbox_form"] = OutboxForm()
    context["printouts"] = _marked(game.printouts.defer("pdf")[:5], game.tournament_id)
    context["printout_form"] = PrintoutForm()
    return render(request, "results/game_results.html", context)


@for_arbiter("tournament")
def tournament_results(request, pk: int):
    """The tournament's ranking over all its games (§4), redrawn after every round."""
    tournament = get_object_or_404(Tournament.objects.select_related("lexicon"), pk=pk)
    tournament_services.rounds_close_overdue(tournament_id=tournament.pk)
    key = standings.results_key(tournament.pk)
    if request.htmx and request.GET.get("v") == key:
        return HttpResponse(status=204)
    games = standings.ranked_games(tournament)
    ranking = standings.tournament_ranking_shared(tournament, key)
    if len(ranking.games) != len(games):  # a game started or abandoned since the key was read
        ranking = standings.tournament_ranking(tournament, games)
    context = {
        "tournament": tournament,
        "ranking": standings.tournament_rows(ranking),
        # Each game's column and solos named with its number: an abandoned game leaves a gap.
        "games": [(game.number, ranked.top) for game, ranked in zip(games, ranking.games, strict=True)],
        "solos": sheets.tournament_solos(games, ranking),
        "main": _ranked_on(tournament),
        "key": key,
        "poll": "results:tournament_results",
        "poll_pk": tournament.pk,
    }
    if request.htmx:
        return render(request, "results/partials/_results.html", context)
    context["printouts"] = _marked(tournament.printouts.filter(game=None).defer("pdf")[:5], tournament.pk)
    context["printout_form"] = PrintoutForm()
    return render(request, "results/tournament_results.html", context)


def _marked(printouts, tournament_id: int) -> list[Printout]:
    """The recent printouts, each marked ``stale`` when the tournament changed since."""
    now = standings.printed_key(tournament_id)
    printouts = list(printouts)
    for printout in printouts:
        printout.stale = printout.outdated(now)
    return printouts


def _ranked_on(tournament: Tournament) -> str:
    """The column a tournament's ranking follows, the one shown bold (§4): the average of the games'
    percentages, else the total or the paid scores ("scores seuls")."""
    return "percent" if tournament.aggregate == Aggregate.AVERAGE else tournament.percent_base


# -- printouts -----------------------------------------------------------------------------------


@for_arbiter("tournament")
@require_POST
def printout_request(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    form = PrintoutForm(request.POST)
    if not form.is_valid():
        raise Http404
    game = None
    if request.POST.get("game"):
        if not IdConverter.accepts(request.POST["game"]):
            raise Http404
        game = get_object_or_404(Game, pk=request.POST["game"], tournament=tournament)
    try:
        printout = services.printout_request(tournament=tournament, game=game, **form.cleaned_data)
    except ServiceError as error:
        messages.error(request, error.text())
        return redirect("tournaments:tournament_detail", pk=pk)
    return redirect("results:printout_detail", pk=printout.pk)


@for_arbiter("printout")
def printout_detail(request, pk: int):
    """The build's progress (polled while it runs), then the link to the PDF."""
    printout = get_object_or_404(Printout.objects.select_related("tournament", "game").defer("pdf"), pk=pk)
    template = "results/partials/_printout.html" if request.htmx else "results/printout_detail.html"
    outdated = printout.outdated(standings.printed_key(printout.tournament_id))
    context = {"printout": printout, "tournament": printout.tournament, "outdated": outdated}
    return render(request, template, context)


@for_arbiter("printout")
def printout_pdf(request, pk: int):
    printout = get_object_or_404(Printout, pk=pk, status=Printout.Status.DONE)
    return download(printout.filename, "application/pdf", bytes(printout.pdf), inline=True)


# -- exports -------------------------------------------------------------------------------------


@for_arbiter("game")
def game_export(request, pk: int, what: str):
    """The game record (replayable, §5), the results file for a merge, the ranking as CSV or as the
    federation's file."""
    game = _game(pk)
    record_files = {"partie": exports.game_record_file, "resultats": exports.results_file}
    if what in record_files:
        try:
            return download(*record_files[what](game))
        except ServiceError as error:  # nothing placed yet: the results page says so
            messages.error(request, error.text())
            return redirect("results:game_results", pk=pk)
    ranking = standings.game_ranking(game)
    return _ranking_export(what, ranking, f"partie-{game.number}", game.tournament.sheet_language)


@for_arbiter("tournament")
def tournament_export(request, pk: int, what: str):
    tournament = get_object_or_404(Tournament, pk=pk)
    ranking = standings.tournament_ranking(tournament)
    return _ranking_export(what, ranking, "classement-general", tournament.sheet_language)


def _ranking_export(what: str, ranking, stem: str, lang: str) -> HttpResponse:
    if what == "csv":
        return download(f"{stem}.csv", "text/csv; charset=utf-8", exports.ranking_csv(ranking, lang=lang))
    if what == "federation":
        return download(
            f"{stem}-federation.txt", "text/plain; charset=iso-8859-1", exports.federation_file(ranking)
        )
    raise Http404


# -- merging the clubs' results of one prepared game (§5) ----------------------------------------


@members_only(Role.ARBITER)
def merge_create(request):
    form = MergeForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            merged = services.merge_create(files=form.cleaned_data["files"], created_by=request.user)
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            return redirect("results:merge_detail", pk=merged.pk)
    return render(request, "results/merge_form.html", {"form": form})


@for_arbiter("merge")
def merge_detail(request, pk: int):
    merged = get_object_or_404(MergedResults, pk=pk)
    try:
        result = merges.merged_results(merged)
    except ServiceError as error:
        return _merge_unreadable(request, error)
    ranking = standings.game_rows(merges.merged_ranking(result))
    return render(
        request,
        "results/merge_detail.html",
        {
            "merged": merged,
            "ranking": ranking,
            "centres": [merges.centre_of(result, row.key) for row in ranking.rows],
            "names": [f["name"] for f in merged.files],
        },
    )


@for_arbiter("merge")
def merge_export(request, pk: int, what: str):
    merged = get_object_or_404(MergedResults, pk=pk)
    try:
        result = merges.merged_results(merged)
    except ServiceError as error:
        return _merge_unreadable(request, error)
    ranking = merges.merged_ranking(result)
    if what == "pdf":
        return download(*sheets.merged_ranking_pdf(result, ranking), inline=True)
    # A merge belongs to no tournament, hence to no sheet language: its files speak the reader's.
    return _ranking_export(what, ranking, f"fusion-{merged.pk}", interface_language())


def _merge_unreadable(request, error: ServiceError):
    """A merge kept before its files were checked as strictly as they are now: said, and the files
    can be sent again."""
    messages.error(request, error.text())
    return redirect("results:merge_create")


# -- results sent to a federation's server (a simultaneous played on this laptop) ------------------


@for_arbiter("game")
def game_send(request, pk: int):
    """POST: send the game's results to the event's server (kept if it cannot be reached); GET (the
    page's 30-second poll while a file waits): try the waiting ones again."""
    game = _game(pk)
    form = OutboxForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            outbox.outbox_add(game=game, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            form = OutboxForm()
    rows = outbox.outbox_send_pending(game)
    context = {"game": game, "outbox": rows, "outbox_form": form}
    if request.htmx:
        return render(request, "results/partials/_outbox.html", context)
    if form.errors:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect("results:game_results", pk=pk)
