"""The arbiter's laptop and the projector.  Thin views: parse a form, call one service, return the
whole page or, on an htmx request, the partial the page itself includes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from engine.messages import Message
from tournaments import selectors, services
from tournaments.forms import (
    DrawForm,
    GameStartForm,
    PlaceTopForm,
    PlayerForm,
    PlayersCsvForm,
    SlipForm,
    TournamentForm,
)
from tournaments.lexicons import lexicon_default_row
from tournaments.models import Game, Round, Tournament
from tournaments.network import lan_addresses
from tournaments.selectors import interface_language
from tournaments.services import ServiceError

LOOPBACK = {"localhost", "127.0.0.1", "[::1]", "::1"}


def _text(error: ServiceError) -> str:
    return error.message.text(interface_language())


def _form_errors(form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


# -- tournaments -----------------------------------------------------------------------------------


@login_required
def home(request):
    return render(request, "tournaments/tournament_list.html", {"tournaments": selectors.tournament_list()})


@login_required
def tournament_create(request):
    form = TournamentForm(request.POST or None, request.FILES or None, default_lexicon=lexicon_default_row())
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create_with_list(
                created_by=request.user,
                lexicon=form.cleaned_data["lexicon"],
                list_file=form.cleaned_data["lexicon_file"],
                **form.tournament_fields(),
            )
        except ServiceError as error:
            form.add_error("lexicon_file", _text(error))
        else:
            return redirect("tournaments:tournament_detail", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


def _public_base(request) -> tuple[str, bool]:
    """The address phones must open: the laptop's network address when the arbiter browses it as
    localhost.  The flag says no network address was found (the QR codes would not work)."""
    name, port = _split_host(request.get_host())
    if name not in LOOPBACK:
        return f"{request.scheme}://{request.get_host()}", False
    address = lan_addresses()[0]
    host = f"{address}:{port}" if port else address
    return f"{request.scheme}://{host}", address.startswith("127.")


def _split_host(host: str) -> tuple[str, str]:
    if host.startswith("["):
        name, _sep, rest = host.partition("]")
        return name + "]", rest.lstrip(":")
    name, _sep, port = host.partition(":")
    return name, port


def _tournament_page(request, tournament: Tournament, **forms):
    base, loopback = _public_base(request)
    context = {
        "tournament": tournament,
        "cards": selectors.player_cards(tournament, base),
        "games": selectors.tournament_games(tournament),
        "loopback": loopback,
        "player_form": forms.get("player_form") or PlayerForm(),
        "csv_form": forms.get("csv_form") or PlayersCsvForm(),
        "game_form": forms.get("game_form") or GameStartForm(),
    }
    return render(request, "tournaments/tournament_detail.html", context)


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("lexicon"), pk=pk)


@login_required
def tournament_detail(request, pk: int):
    return _tournament_page(request, _tournament(pk))


@login_required
def tournament_cards(request, pk: int):
    tournament = _tournament(pk)
    base, loopback = _public_base(request)
    context = {
        "tournament": tournament,
        "cards": selectors.player_cards(tournament, base),
        "loopback": loopback,
    }
    return render(request, "tournaments/tournament_cards.html", context)


@login_required
@require_POST
def player_add(request, pk: int):
    """One player, at any time: a late player counts zero for the rounds already played (§3.4)."""
    tournament = _tournament(pk)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.player_register(tournament=tournament, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, _text(error))
        else:
            messages.success(
                request,
                _("%(name)s ajouté(e) à la table %(table)s.")
                % {"name": player.name, "table": player.table_number},
            )
            return redirect("tournaments:tournament_detail", pk=pk)
    return _tournament_page(request, tournament, player_form=form)


@login_required
@require_POST
def players_import(request, pk: int):
    tournament = _tournament(pk)
    form = PlayersCsvForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            added = services.players_import_csv(tournament=tournament, data=form.cleaned_data["file"])
        except ServiceError as error:
            form.add_error("file", _text(error))
        else:
            count = len(added)
            text = ngettext("%(count)s joueur importé.", "%(count)s joueurs importés.", count)
            messages.success(request, text % {"count": count})
            return redirect("tournaments:tournament_detail", pk=pk)
    return _tournament_page(request, tournament, csv_form=form)


@login_required
@require_POST
def game_start(request, pk: int):
    tournament = _tournament(pk)
    form = GameStartForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            game = services.game_start(tournament=tournament, prepared=form.cleaned_data["prepared"])
        except ServiceError as error:
            form.add_error("prepared", _text(error))
        else:
            return redirect("tournaments:game_detail", pk=game.pk)
    return _tournament_page(request, tournament, game_form=form)


# -- the game screen -------------------------------------------------------------------------------


def _live(game_id: int) -> tuple[Game, Round | None]:
    """The game and its current round, closed first if its deadline has passed (no worker needed)."""
    rnd = selectors.current_round(game_id)
    now = timezone.now()
    # Before the deadline, or before the top is overdue, the service has nothing to do: skip its
    # query on every poll.
    if rnd is not None and rnd.status == Round.Status.RUNNING and now > rnd.deadline:
        rnd = services.round_close_if_due(round_id=rnd.pk)
    elif rnd is not None and selectors.top_overdue(rnd, now):
        # A top whose worker died in the search is queued again.
        services.round_requeue_top(round_id=rnd.pk)
    game = rnd.game if rnd is not None else get_object_or_404(Game, pk=game_id)
    return game, rnd


def _screen_context(game: Game, rnd: Round | None, error: str = "", focus: str = "") -> dict:
    lang = interface_language()
    # The broker did not take the top's search: the arbiter computes it on the laptop.
    top_failed = {
        "text": Message("top_broker_down").text(lang),
        "overdue": Message("top_overdue").text(lang),
        "button": Message("top_compute_here").text(lang),
    }
    return {
        "screen": selectors.game_screen(game, rnd),
        "error": error,
        "focus": focus,
        "top_failed": top_failed,
    }


def _game_response(request, game_id: int, *, error: str = "", focus: str = ""):
    game, rnd = _live(game_id)
    context = _screen_context(game, rnd, error, focus)
    if request.htmx:
        return render(request, "tournaments/partials/_round.html", context)
    context["tournament"] = game.tournament
    return render(request, "tournaments/game_detail.html", context)


def _after_action(request, game_id: int, error: str = "", focus: str = ""):
    """htmx: the live region again (with the error, if any); a plain form post: back to the page."""
    if request.htmx:
        return _game_response(request, game_id, error=error, focus=focus)
    if error:
        messages.error(request, error)
    return redirect("tournaments:game_detail", pk=game_id)


@login_required
def game_detail(request, pk: int):
    return _game_response(request, pk)


@login_required
def game_poll(request, pk: int):
    """Polled every second: 204 (nothing to redraw) unless the round or the slip count moved."""
    game, rnd = _live(pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    key = selectors.pulse_key(game, rnd, selectors.slips_received(rnd) if running else None, timezone.now())
    if key == request.GET.get("v"):
        return HttpResponse(status=204)
    return render(request, "tournaments/partials/_round.html", _screen_context(game, rnd))


@login_required
@require_POST
def game_draw(request, pk: int):
    game = get_object_or_404(Game, pk=pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return _after_action(request, pk, _form_errors(form))
    try:
        services.round_draw(
            game_id=game.pk, expected_number=form.cleaned_data["expected_number"], typed=form.typed()
        )
    except ServiceError as error:
        return _after_action(request, pk, _text(error))
    return _after_action(request, pk)


def _round_action(request, round_id: int, action, focus: str = ""):
    rnd = get_object_or_404(Round, pk=round_id)
    try:
        action(rnd)
    except ServiceError as error:
        return _after_action(request, rnd.game_id, _text(error), focus)
    return _after_action(request, rnd.game_id, focus=focus)


@login_required
@require_POST
def round_start(request, pk: int):
    return _round_action(request, pk, lambda rnd: services.round_start(round_id=rnd.pk))


@login_required
@require_POST
def round_compute_top(request, pk: int):
    """The top computed in this request, on the laptop: the broker is down, no worker will do it."""
    return _round_action(request, pk, lambda rnd: services.round_compute_top(round_id=rnd.pk))


@login_required
@require_POST
def round_cancel(request, pk: int):
    return _round_action(request, pk, lambda rnd: services.round_cancel(round_id=rnd.pk))


@login_required
@require_POST
def round_place(request, pk: int):
    form = PlaceTopForm(request.POST)
    index = form.cleaned_data["index"] if form.is_valid() else -1
    return _round_action(request, pk, lambda rnd: services.round_place_top(round_id=rnd.pk, index=index))


@login_required
@require_POST
def slip_enter(request, pk: int):
    """A paper slip typed by keyboard, or a graded slip corrected in place."""
    form = SlipForm(request.POST)
    focus = "paper" if request.POST.get("paper") else ""
    if not form.is_valid():
        rnd = get_object_or_404(Round, pk=pk)
        return _after_action(request, rnd.game_id, _form_errors(form), focus)
    return _round_action(
        request,
        pk,
        lambda rnd: services.submission_enter(
            round_id=rnd.pk,
            table_number=form.cleaned_data["table_number"],
            text=form.cleaned_data["text"],
            user=request.user,
        ),
        focus,
    )


@login_required
@require_POST
def correction_undo(request, pk: int):
    return _round_action(
        request, pk, lambda rnd: services.submission_correction_undo(round_id=rnd.pk, user=request.user)
    )


# -- the projector ---------------------------------------------------------------------------------


@login_required
def projector(request, pk: int):
    game, rnd = _live(pk)
    context = {
        "view": selectors.projection(game, rnd),
        "thirty": selectors.THIRTY_SECONDS,
        "time_up": selectors.TIME_UP,
    }
    return render(request, "tournaments/game_projector.html", context)


@login_required
def projector_poll(request, pk: int):
    game, rnd = _live(pk)
    if selectors.pulse_key(game, rnd) == request.GET.get("v"):
        return HttpResponse(status=204)
    return render(request, "tournaments/partials/_projection.html", {"view": selectors.projection(game, rnd)})
