"""The training's pages: choose a game, play its rounds (the rack, the board, the clock, a slip),
after each round the top, the best placements and the line, and at the end the percentage and the
review.  Every answer carries the state back in the player's cookie (``training.state``)."""

from __future__ import annotations

import time
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from engine import alphabet
from engine import record as engine_record
from live import room
from live.phone import slip_text
from live.views.player import token_guard, unknown_token
from review.chart import cumulative_chart
from review.reads import LinePoint
from review.rounds import Slip, round_view
from server import quotas
from server.language import interface_language
from server.writes import ServiceError
from tournaments.boards import board_cells
from tournaments.plays import play_json
from training import access, services, state
from training.forms import StartForm, TimingForm
from training.games import keep_file, new_seed
from training.worker import RETRY_SECONDS, Preparing


def _open(view):
    """Open to anyone when the club says so (``TRAINING_OPEN``, on by default), else to its accounts
    and to the players training on their own game through their join link."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        if not settings.TRAINING_OPEN and not request.user.is_authenticated and not _by_link(request):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return guarded


def _by_link(request) -> bool:
    current = state.load(request)
    return current is not None and current.source.get("kind") == "player"


def _with_state(request, response, current: state.Training | None):
    if current is None:
        state.forget(response)
        return response
    try:
        state.save(response, current)
    except ServiceError as error:  # more than a cookie holds: said, and the training starts again
        return _refused(request, error)
    return response


def _refused(request, error: ServiceError, status: int = 200):
    context = {"form": StartForm(user=request.user), "error": error.text()}
    response = render(request, "training/start.html", context, status=status)
    return _with_state(request, response, None)


@_open
@require_http_methods(["GET", "POST"])
def training_home(request):
    current = state.load(request)
    if request.method == "GET":
        form = StartForm(user=request.user)
        return render(request, "training/start.html", {"form": form, "current": current})
    wait = quotas.spend("training-game", request, settings.TRAINING_GAMES_PER_MINUTE)
    if wait:  # each new game costs the worker a search: a stranger's loop is told to wait
        form = StartForm(initial=request.POST.dict(), user=request.user)
        error = ServiceError("training_games_too_many", seconds=wait).text()
        context = {"form": form, "current": current, "error": error}
        return _retry_after(render(request, "training/start.html", context, status=429), wait)
    form = StartForm(request.POST, request.FILES, user=request.user)
    if not form.is_valid():
        return render(request, "training/start.html", {"form": form, "current": current})
    data = form.cleaned_data
    lexicon = data["lexicon"].pk if data.get("lexicon") else None
    if data["source"] == "club":
        source = {"kind": "club", "game": int(data["game"])}
    elif data["source"] == "file":
        try:
            record = engine_record.to_dict(engine_record.parse(data["record"]))
        except engine_record.RecordError as error:
            form.add_error("record", ServiceError.because("training_file_invalid", error.message).text())
            return render(request, "training/start.html", {"form": form, "current": current})
        source = {"kind": "file", "record": keep_file(record), "lexicon": lexicon}
    else:
        source = {"kind": "random", "seed": data.get("seed") or new_seed(), "lexicon": lexicon}
    try:
        started = services.training_start(
            source=source, seconds=data["seconds"], topping=data["topping"], user=request.user
        )
        response = _with_state(request, redirect("training:round"), started)
    except ServiceError as error:
        form.add_error(None, error.text())
        response = render(request, "training/start.html", {"form": form, "current": current})
        return _busy(response) if error.message.code == "training_busy" else response
    return response


def _retry_after(response, seconds: int):
    response["Retry-After"] = str(seconds)
    return response


def _busy(response):
    """The worker has enough searches waiting: 503, try again in a moment."""
    response.status_code = 503
    return _retry_after(response, RETRY_SECONDS)


def _preparing(request, error: ServiceError | None = None):
    """The page that waits for the worker's search and asks again (or for room in its queue)."""
    error = error or ServiceError("training_preparing")
    context = {"text": error.text(), "busy": error.message.code == "training_busy", "retry": RETRY_SECONDS}
    response = _retry_after(render(request, "training/preparing.html", context), RETRY_SECONDS)
    return _busy(response) if context["busy"] else response


@require_http_methods(["GET", "POST"])
@token_guard
def training_player(request, token: str, game: int):
    """A player trains on a game they played, from their join link (the phone offers it with the
    review): the game's own page, where only the time per round and topping are chosen."""
    if room.player_by_token(token) is None:
        return unknown_token(request, token)
    source = {"kind": "player", "token": token, "game": game}
    try:
        found = access.game_for(request.user, source)
    except ServiceError as error:
        return render(request, "training/player.html", {"error": error.text(), "token": token}, status=404)
    form = TimingForm(request.POST or None)
    context = {"form": form, "found": found, "token": token, "current": state.load(request)}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            started = services.training_start(
                source=source, seconds=data["seconds"], topping=data["topping"], user=request.user
            )
        except ServiceError as error:
            context["error"] = error.text()
        else:
            return _with_state(request, redirect("training:round"), started)
    return render(request, "training/player.html", context)


def _playing(request):
    """The state and its game, or the start page saying why there is none."""
    current = state.load(request)
    if current is None:
        return None, None, _refused(request, ServiceError("training_none"))
    try:
        game = services.game_of(current, request.user)
    except Preparing:
        return current, None, _preparing(request)
    except ServiceError as error:
        if error.message.code == "training_busy":
            return current, None, _preparing(request, error)
        return None, None, _refused(request, error)
    services.training_ready(current, game)
    return current, game, None


def _round_context(current, game, number: int) -> dict:
    """Round ``number`` once over: the review's view of it, the player's result and why."""
    lang = interface_language()
    result = current.results[number - 1]
    play = game.plays[number - 1]
    position = game.position(number)
    grade = services.grade(game, number, result.slip) if result.slip else None
    message = services.result_message(game, current, number, grade)
    slip = Slip(result.slip, result.paid, result.sanction, message.text(lang))
    view = round_view(
        number=number,
        rack=str(game.rack(number)),
        rejections=[],
        board=position.board,
        top={**play_json(play), "board": [list(t) for t in game.board_tiles(number)]},
        best=services.best_of(game, number),
        grade=grade,
        slip=slip,
        letters=game.lexicon.letters,
    )
    return {"view": view, "lang": lang}


@_open
def training_round(request):
    current, game, refused = _playing(request)
    if refused:
        return refused
    if current.number > game.rounds:
        return redirect("training:end")
    now = time.time()
    if not current.done and services.time_up(current, now):
        services.training_time_up(current, game, now=now)
    context = {"current": current, "game": game, "rounds": game.rounds}
    if current.done:
        context.update(_round_context(current, game, current.number))
        context["last"] = current.number == game.rounds
    else:
        position = game.position(current.number)
        letters = game.lexicon.letters
        context["cells"] = board_cells(position.board.cells, letters=letters)
        context["rack"] = [
            (alphabet.char(t, letters), alphabet.tile_value(t, letters)) for t in position.rack
        ]
        context["remaining"] = services.remaining(current, now)
        if current.last_try:
            paid = current.last_paid
            context["miss"] = ServiceError("training_not_top", paid=paid).text()
    return _with_state(request, render(request, "training/round.html", context), current)


def _act(request, action, slip: str = ""):
    current, game, refused = _playing(request)
    if refused:
        if slip and current is not None:  # the game is being prepared again: the slip waits for it
            current.pending, current.pending_at = slip, time.time()
            return _with_state(request, redirect("training:round"), current)
        return refused
    try:
        action(current, game)
    except ServiceError as error:
        if error.message.code == "training_none":
            return redirect("training:end")
    return _with_state(request, redirect("training:round"), current)


@_open
@require_POST
def training_slip(request):
    # As on the phone: upper case whatever the keyboard, a joker as the letter followed by "?".
    text = slip_text(request.POST.get("slip", ""), fisf=False)
    return _act(request, lambda current, game: services.training_slip(current, game, text), text)


@_open
@require_POST
def training_give_up(request):
    return _act(request, services.training_give_up)


@_open
@require_POST
def training_next(request):
    return _act(request, services.training_next)


@_open
@require_http_methods(["GET", "POST"])
def training_quit(request):
    """ "Arrêter" asks first (GET): stopping leads to the summary and the review of the rounds played,
    and the game can still be taken up again.  A new training (POST) forgets this one."""
    if request.method == "POST":
        return _with_state(request, redirect("training:home"), None)
    current = state.load(request)
    if current is None:
        return redirect("training:home")
    return render(request, "training/stop.html", {"current": current, "played": len(current.results)})


def _line(current, game) -> list[LinePoint]:
    out, top_total, paid_total = [], 0, 0
    for number, result in enumerate(current.results, 1):
        top = services.top_score(game, number)
        top_total += top
        paid_total += result.paid
        out.append(LinePoint(number, top, result.paid, top_total, paid_total))
    return out


@_open
def training_end(request):
    current, game, refused = _playing(request)
    if refused:
        return refused
    line = _line(current, game)
    context = {"current": current, "game": game, "line": line, "summary": services.summary(game, current)}
    if line:
        context["chart"] = cumulative_chart(
            line,
            title=_("Votre score cumulé et celui des tops, coup par coup"),
            tops_label=_("tops"),
            player_label=_("vous"),
            round_label=_("coups"),
        )
    return render(request, "training/end.html", context)


@_open
def training_review(request, number: int):
    current, game, refused = _playing(request)
    if refused:
        return refused
    if not 1 <= number <= len(current.results):
        return redirect("training:end")
    context = {"current": current, "game": game, **_round_context(current, game, number)}
    context["previous"] = number - 1 if number > 1 else None
    context["next"] = number + 1 if number < len(current.results) else None
    return render(request, "training/review.html", context)
