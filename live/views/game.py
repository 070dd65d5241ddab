"""The arbiter's game screen: one screen that follows the round's states, with one obvious next
action each time.  Thin views: parse a form, call one service, return the whole page or, on an htmx
request, the partial the page itself includes."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.messages import Message
from live import pulse, screens, tried
from live import selectors as live_selectors
from live import services as live_services
from live.forms import SlipForm
from server.language import interface_language
from server.writes import ServiceError
from tournaments import selectors, services
from tournaments.access import for_arbiter, for_deputy, may_arbitrate
from tournaments.forms import DrawForm, PlaceTopForm
from tournaments.models import Game, Round


def _form_errors(form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def live(game_id: int) -> tuple[Game, Round | None]:
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
    game = (
        rnd.game
        if rnd is not None
        else get_object_or_404(Game.objects.select_related("tournament"), pk=game_id)
    )
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
        "screen": screens.game_screen(game, rnd),
        "error": error,
        "focus": focus,
        "top_failed": top_failed,
    }


def _game_response(request, game_id: int, *, error: str = "", focus: str = ""):
    game, rnd = live(game_id)
    context = _screen_context(game, rnd, error, focus)
    context["deputy"] = not may_arbitrate(request.user, game.tournament)
    context["pulse"] = pulse.ticket(request, "game", game)
    if request.htmx:
        return render(request, "live/partials/_round.html", context)
    context["tournament"] = game.tournament
    context["panel"] = screens.slips_panel(game, *_panel_asked(request.GET))
    return render(request, "live/game_detail.html", context)


def _round_number(raw) -> int | None:
    """The round asked for in the address (``?coup=3``); anything else: the last graded round."""
    return _small_number(raw, 4)


def _small_number(raw, digits: int = 5) -> int | None:
    """A number of at most ``digits`` digits sent in a form or an address; anything else: None."""
    usable = isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= digits
    return int(raw) if usable else None


def _panel_asked(data) -> tuple[int | None, int | None]:
    """The round and the page of its slips the address or the form asks for (``?coup=3&tranche=2``)."""
    return _round_number(data.get("coup")), _small_number(data.get("tranche"), 3)


def _page_of(game_id: int, number: int) -> str:
    """The game screen showing round ``number``'s slips."""
    return f"{reverse('live:game_detail', args=[game_id])}?coup={number}"


def _panel_response(
    request, game: Game, number: int | None, page: int | None = None, *,
    table: int | None = None, error="", focus="", read=None, changed=False,
):  # fmt: skip
    """The slips panel of round ``number`` (``screens.slips_panel``), drawn apart from the live region:
    the live region redraws every second while a round runs, and the arbiter types round N's paper
    slips meanwhile.  A hall's: its ``page``, or the one holding ``table`` (the slip just typed).
    ``changed``: a slip was stored, the live region's ranking is drawn again."""
    context = {
        "panel": screens.slips_panel(game, number, page, table),
        "error": error,
        "focus": focus,
        "read": read,
        "deputy": not may_arbitrate(request.user, game.tournament),
    }
    response = render(request, "live/partials/_slips.html", context)
    if changed:
        response["HX-Trigger"] = "slips-changed"
    return response


def _after_action(request, game_id: int, error: str = "", focus: str = ""):
    """htmx: the live region again (with the error, if any); a plain form post: back to the page."""
    if request.htmx:
        return _game_response(request, game_id, error=error, focus=focus)
    if error:
        messages.error(request, error)
    return redirect("live:game_detail", pk=game_id)


@for_deputy("game")
def game_detail(request, pk: int):
    return _game_response(request, pk)


@for_deputy("game")
def game_slips(request, pk: int):
    """The slips panel of the round the arbiter picks (``?coup=N``), or of the last graded round."""
    number, page = _panel_asked(request.GET)
    if not request.htmx:
        return redirect(_page_of(pk, number) if number else reverse("live:game_detail", args=[pk]))
    game = get_object_or_404(Game.objects.select_related("tournament"), pk=pk)
    return _panel_response(request, game, number, page)


@for_deputy("game")
def game_poll(request, pk: int):
    """Polled every second: 204 (nothing to redraw) unless the round or the slip count moved."""
    game, rnd = live(pk)
    running = rnd is not None and rnd.status == Round.Status.RUNNING
    slips = selectors.slips_received(rnd) if running else None
    key = screens.pulse_key(game, rnd, slips, timezone.now(), tried.pending_key(pk))
    if key == request.GET.get("v"):
        return HttpResponse(status=204)
    context = _screen_context(game, rnd)
    context["deputy"] = not may_arbitrate(request.user, game.tournament)
    context["pulse"] = pulse.ticket(request, "game", game)
    return render(request, "live/partials/_round.html", context)


@for_arbiter("game")
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
        return _after_action(request, pk, error.text())
    return _after_action(request, pk)


def _round_action(request, round_id: int, action, focus: str = ""):
    rnd = get_object_or_404(Round, pk=round_id)
    try:
        action(rnd)
    except ServiceError as error:
        return _after_action(request, rnd.game_id, error.text(), focus)
    return _after_action(request, rnd.game_id, focus=focus)


def _round_view(service, doc: str):
    """A button of the game screen that runs one service on the round."""

    @for_arbiter("round")
    @require_POST
    def view(request, pk: int):
        return _round_action(request, pk, lambda rnd: service(round_id=rnd.pk))

    view.__doc__ = doc
    return view


round_start = _round_view(services.round_start, "Start the clock (once the top is known).")
round_compute_top = _round_view(
    services.round_compute_top,
    "The top computed in this request, on the laptop: the broker is down, no worker will do it.",
)
round_cancel = _round_view(services.round_cancel, "Cancel the round and draw again (§3.1.6).")


@for_arbiter("round")
@require_POST
def round_place(request, pk: int):
    form = PlaceTopForm(request.POST)
    index = form.cleaned_data["index"] if form.is_valid() else -1
    return _round_action(request, pk, lambda rnd: services.round_place_top(round_id=rnd.pk, index=index))


def _after_slip(request, rnd: Round, error: str = "", focus: str = "", read: dict | None = None):
    """After a paper slip, a correction or an undo: the slips panel of that round again (htmx), at
    the page of the table typed (else the page it was on), or the game screen showing it (a plain
    form post)."""
    if request.htmx:
        table = _small_number(str(read.get("table")) if read else request.POST.get("table_number"))
        page = _small_number(request.POST.get("tranche"), 3)
        shown = {"table": table, "error": error, "focus": focus, "read": read, "changed": not error}
        return _panel_response(request, rnd.game, rnd.number, page, **shown)
    if error:
        messages.error(request, error)
    elif read is not None:
        messages.success(request, _("Table %(table)s : lu %(slip)s, payé %(paid)s.") % read)
    return redirect(_page_of(rnd.game_id, rnd.number))


@for_deputy("round")
@require_POST
def slip_enter(request, pk: int):
    """A paper slip typed by keyboard, or a graded slip corrected in place: of any graded round,
    while the next one runs and after the game."""
    rnd = get_object_or_404(Round.objects.select_related("game__tournament"), pk=pk)
    form = SlipForm(request.POST, letters=rnd.game.tournament.letter_set)
    focus = "paper" if request.POST.get("paper") else ""
    if not form.is_valid():
        return _after_slip(request, rnd, _form_errors(form), focus)
    try:
        sub = live_services.submission_enter(
            round_id=rnd.pk,
            table_number=form.cleaned_data["table_number"],
            text=form.cleaned_data["text"],
            user=request.user,
        )
    except ServiceError as error:
        return _after_slip(request, rnd, error.text(), focus)
    # Stored at Enter, and said at once how it was read, beside the field, with the undo below it:
    # a fast typist glances at the line instead of confirming each slip.
    read = {"table": form.cleaned_data["table_number"], "slip": sub.slip_text(), "paid": sub.paid}
    read["why"] = sub.said(interface_language()) if sub.sanction not in ("", "none") else ""
    return _after_slip(request, rnd, focus=focus, read=read)


@for_deputy("round")
@require_POST
def correction_undo(request, pk: int):
    rnd = get_object_or_404(Round.objects.select_related("game__tournament"), pk=pk)
    try:
        live_services.submission_correction_undo(round_id=rnd.pk, user=request.user)
    except ServiceError as error:
        return _after_slip(request, rnd, error.text())
    return _after_slip(request, rnd)


def _game_view(service, doc: str):
    """A button of the game screen that runs one service on the game."""

    @for_arbiter("game")
    @require_POST
    def view(request, pk: int):
        game = get_object_or_404(Game, pk=pk)
        try:
            service(game_id=game.pk)
        except ServiceError as error:
            return _after_action(request, game.pk, error.text())
        return _after_action(request, game.pk)

    view.__doc__ = doc
    return view


game_end = _game_view(services.game_end, "The arbiter ends the game after a round: its results are final.")
game_abandon = _game_view(services.game_abandon, "A game started by mistake leaves the rankings.")


@for_arbiter("game")
@require_POST
def game_delete(request, pk: int):
    """A game started by mistake, no slip handed in: deleted, back to the tournament."""
    game = get_object_or_404(Game, pk=pk)
    try:
        services.game_delete(game_id=game.pk)
    except ServiceError as error:
        return _after_action(request, game.pk, error.text())
    messages.success(request, _("Partie %(number)s supprimée.") % {"number": game.number})
    response = redirect("tournaments:tournament_detail", pk=game.tournament_id)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("tournaments:tournament_detail", args=[game.tournament_id])
    return response


@for_deputy("game")
def game_slip_history(request, pk: int):
    """The slips of one table in the game's round now, the round running or not: the arbiter settles
    a dispute while the players think (the table typed on the game screen)."""
    rnd = selectors.current_round(pk)
    text = request.GET.get("table", "").strip()
    table = int(text) if text.isdigit() and len(text) < 6 else None
    history = live_selectors.slip_history(rnd, table) if rnd is not None and table is not None else None
    if history is None:
        said = (
            _("Pas de coup en cours.")
            if rnd is None
            else _("Aucun joueur à la table %(table)s.") % {"table": text[:6]}
        )
        if not request.htmx:
            messages.error(request, said)
            return redirect("live:game_detail", pk=pk)
        return render(request, "live/partials/_slip_history_none.html", {"said": said})
    context = {"history": history, "round": rnd}
    if not request.htmx:
        return render(request, "live/slip_history.html", context)
    return render(request, "live/partials/_slip_history.html", context)


@for_deputy("round")
def slip_history(request, pk: int, table: int):
    """One player's slips of the round, every sending with its time, and the arbiter's corrections:
    what settles a dispute, one click away on the game screen."""
    rnd = get_object_or_404(Round.objects.select_related("game"), pk=pk)
    history = live_selectors.slip_history(rnd, table)
    if history is None:
        raise Http404
    context = {"history": history, "round": rnd}
    if not request.htmx:  # opened in a tab of its own: a whole page, styled, its close a way back
        return render(request, "live/slip_history.html", context)
    return render(request, "live/partials/_slip_history.html", context)


@for_arbiter("round")
def round_top(request, pk: int):
    """The round's tops for the arbiter alone, on demand while the round runs (never in the game
    screen's page itself: the room may see the laptop, and the projector never shows it)."""
    rnd = get_object_or_404(Round, pk=pk)
    return render(request, "live/partials/_round_top.html", {"round": rnd})
