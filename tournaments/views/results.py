"""Results on the arbiter's laptop: live rankings, printouts with their progress, exports, merges.
Thin views: read through ``result_reads``, write through ``result_services``, format through
``exports`` and ``sheets``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournaments import exports, result_reads, result_services, sheets
from tournaments.forms import MergeForm
from tournaments.models import Game, MergedResults, Printout, Tournament
from tournaments.selectors import interface_language
from tournaments.services import ServiceError


def _download(filename: str, mimetype: str, data: bytes, *, inline: bool = False) -> HttpResponse:
    response = HttpResponse(data, content_type=mimetype)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


# -- live rankings -------------------------------------------------------------------------------


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("tournament__lexicon"), pk=pk)


@login_required
def game_results(request, pk: int):
    """The game's ranking, redrawn after every round (htmx polls the results key)."""
    game = _game(pk)
    key = result_reads.results_key(game.tournament_id)
    if request.htmx and request.GET.get("v") == key:
        return HttpResponse(status=204)
    context = {
        "game": game,
        "tournament": game.tournament,
        "ranking": result_reads.game_rows(result_reads.game_ranking(game)),
        "key": key,
        "poll": "tournaments:game_results",
        "poll_pk": game.pk,
    }
    if request.htmx:
        return render(request, "tournaments/partials/_results.html", context)
    context["printouts"] = game.printouts.defer("pdf")[:5]
    return render(request, "tournaments/game_results.html", context)


@login_required
def tournament_results(request, pk: int):
    """The tournament's ranking over all its games (§4), redrawn after every round."""
    tournament = get_object_or_404(Tournament.objects.select_related("lexicon"), pk=pk)
    key = result_reads.results_key(tournament.pk)
    if request.htmx and request.GET.get("v") == key:
        return HttpResponse(status=204)
    ranking = result_reads.tournament_ranking_shared(tournament, key)
    context = {
        "tournament": tournament,
        "ranking": result_reads.tournament_rows(ranking),
        "games": [g.top for g in ranking.games],
        "key": key,
        "poll": "tournaments:tournament_results",
        "poll_pk": tournament.pk,
    }
    if request.htmx:
        return render(request, "tournaments/partials/_results.html", context)
    context["printouts"] = tournament.printouts.filter(game=None).defer("pdf")[:5]
    return render(request, "tournaments/tournament_results.html", context)


# -- printouts -----------------------------------------------------------------------------------


@login_required
@require_POST
def printout_request(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    kind = request.POST.get("kind", "")
    if kind not in Printout.Kind.values:
        raise Http404
    game = None
    if request.POST.get("game"):
        game = get_object_or_404(Game, pk=request.POST["game"], tournament=tournament)
    try:
        printout = result_services.printout_request(tournament=tournament, kind=kind, game=game)
    except ServiceError as error:
        messages.error(request, error.message.text(interface_language()))
        return redirect("tournaments:tournament_detail", pk=pk)
    return redirect("tournaments:printout_detail", pk=printout.pk)


@login_required
def printout_detail(request, pk: int):
    """The build's progress (polled while it runs), then the link to the PDF."""
    printout = get_object_or_404(Printout.objects.select_related("tournament", "game").defer("pdf"), pk=pk)
    template = "tournaments/partials/_printout.html" if request.htmx else "tournaments/printout_detail.html"
    return render(request, template, {"printout": printout, "tournament": printout.tournament})


@login_required
def printout_pdf(request, pk: int):
    printout = get_object_or_404(Printout, pk=pk, status=Printout.Status.DONE)
    return _download(printout.filename, "application/pdf", bytes(printout.pdf), inline=True)


# -- exports -------------------------------------------------------------------------------------


@login_required
def game_export(request, pk: int, what: str):
    """The game record (replayable, §5), the results file for a merge, the ranking as CSV or as the
    federation's file."""
    game = _game(pk)
    if what == "partie":
        return _download(*exports.game_record_file(game))
    if what == "resultats":
        return _download(*exports.results_file(game))
    ranking = result_reads.game_ranking(game)
    return _ranking_export(what, ranking, f"partie-{game.number}", game.tournament.sheet_language)


@login_required
def tournament_export(request, pk: int, what: str):
    tournament = get_object_or_404(Tournament, pk=pk)
    ranking = result_reads.tournament_ranking(tournament)
    return _ranking_export(what, ranking, "classement-general", tournament.sheet_language)


def _ranking_export(what: str, ranking, stem: str, lang: str) -> HttpResponse:
    if what == "csv":
        return _download(f"{stem}.csv", "text/csv; charset=utf-8", exports.ranking_csv(ranking, lang=lang))
    if what == "federation":
        return _download(
            f"{stem}-federation.txt", "text/plain; charset=iso-8859-1", exports.federation_file(ranking)
        )
    raise Http404


# -- merging the clubs' results of one prepared game (§5) ----------------------------------------


@login_required
def merge_create(request):
    form = MergeForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            merged = result_services.merge_create(files=form.cleaned_data["files"], created_by=request.user)
        except ServiceError as error:
            form.add_error(None, error.message.text(interface_language()))
        else:
            return redirect("tournaments:merge_detail", pk=merged.pk)
    return render(request, "tournaments/merge_form.html", {"form": form})


@login_required
def merge_detail(request, pk: int):
    merged = get_object_or_404(MergedResults, pk=pk)
    ranking = exports.merged_ranking(sheets.merged_results(merged))
    return render(
        request,
        "tournaments/merge_detail.html",
        {
            "merged": merged,
            "ranking": result_reads.game_rows(ranking),
            "names": [f["name"] for f in merged.files],
        },
    )


@login_required
def merge_export(request, pk: int, what: str):
    merged = get_object_or_404(MergedResults, pk=pk)
    result = sheets.merged_results(merged)
    ranking = exports.merged_ranking(result)
    if what == "pdf":
        return _download(*sheets.merged_ranking_pdf(result, ranking), inline=True)
    return _ranking_export(what, ranking, f"fusion-{merged.pk}", "fr")
