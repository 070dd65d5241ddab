"""Training played: a round starts, a slip is graded by the FISF rules (§3.4) against the top of the
position, the round ends (a slip, the time, or in topping the top found), the next round starts.
Each function takes the state and returns it changed: the views keep it in the player's cookie.

Topping (as Eliot and DupliTop offer it): the player tries slips until one scores the top; the
round's score is the seconds it took.  When the time runs out, or the player gives up, the round
counts the round's time (or the time spent, untimed) plus ``TOPPING_PENALTY`` seconds."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.grading import Grade, Mode, Sanction, end_penalty, grade_text, warning_threshold
from engine.messages import Message
from engine.play import Play
from engine.ranking import percent, rounded
from server.writes import ServiceError
from tournaments.plays import play_from_json
from training import access
from training.games import TrainingGame, club_game, file_game, random_game, with_best
from training.state import Result, Training
from training.worker import Preparing

#: §3.3.3: a slip handed in a moment after the call still counts.
GRACE_SECONDS = 2
#: Topping: the seconds added to a round whose top was not found.
TOPPING_PENALTY = 60
#: A slip as kept in the state: the longest real slip ("H15 " + 15 letters + jokers + a score) fits.
SLIP_CHARACTERS = 40
#: The round times offered (seconds), as in tournaments (3, 2 and 1 minutes), and untimed.
TIMINGS = (180, 120, 60, 0)


def game_of(state: Training, user=None) -> TrainingGame:
    """The game a state plays, read again from its source, if ``user`` (None: a visitor without
    login) may still train on it (``training.access``: checked at every read of the cookie), with its
    best placements (``worker.Preparing`` while the worker searches them)."""
    return with_best(_source_game(state, user))


def _source_game(state: Training, user) -> TrainingGame:
    source = state.source
    kind = source.get("kind")
    if kind in ("club", "player"):
        return club_game(access.game_for(user, source).pk)
    row = access.lexicon_for(user, source.get("lexicon"))
    if kind == "random":
        return random_game(int(source["seed"]), row)
    if kind == "file":
        return file_game(source["record"], row)
    raise ServiceError("training_none")


def training_start(
    *, source: dict, seconds: int, topping: bool, now: float | None = None, user=None
) -> Training:
    """A new training from its first round; the game is read (and checked, ``user`` may) now."""
    if seconds not in TIMINGS:
        seconds = TIMINGS[0]
    state = Training(
        source=source, seconds=seconds, topping=topping, started=time.time() if now is None else now
    )
    try:
        game_of(state, user)
    except Preparing:
        state.started = 0.0  # the clock starts once the game is ready (training_ready)
    return state


def training_ready(state: Training, game: TrainingGame, *, now: float | None = None) -> Training:
    """The game is ready: a clock that waited for it starts now, and a slip that came while the game
    was being prepared again (the server restarted, say) is graded as of when it came."""
    now = time.time() if now is None else now
    if not state.started:
        state.started = now
    slip, state.pending = state.pending, ""
    if slip and not state.done and state.number <= game.rounds:
        training_slip(state, game, slip, now=state.pending_at)
    return state


def best_of(game: TrainingGame, number: int) -> list[Play]:
    """The round's best placements (the first is the top), searched with the game (``game_of``)."""
    return [play_from_json(data) for data in with_best(game).best[number - 1]]


def top_score(game: TrainingGame, number: int) -> int:
    best = best_of(game, number)
    return best[0].score if best else game.plays[number - 1].score


def elapsed(state: Training, now: float) -> float:
    return max(0.0, now - state.started)


def time_up(state: Training, now: float) -> bool:
    """The round's time and its grace are over (never, untimed)."""
    return bool(state.seconds) and elapsed(state, now) > state.seconds + GRACE_SECONDS


def remaining(state: Training, now: float) -> float | None:
    if not state.seconds:
        return None
    return max(0.0, state.seconds - elapsed(state, now))


def grade(game: TrainingGame, number: int, slip: str, *, late: bool = False) -> Grade:
    return grade_text(game.position(number), slip, Mode.FISF, top=top_score(game, number), late=late)


def _check_playing(state: Training, game: TrainingGame) -> None:
    if state.number > game.rounds:
        raise ServiceError("training_none")
    if state.done:
        raise ServiceError("training_round_over")


def _finish(state: Training, result: Result) -> Training:
    state.results.append(result)
    state.done = True
    state.tries, state.last_try, state.last_paid = 0, "", 0
    return state


def training_slip(state: Training, game: TrainingGame, slip: str, *, now: float | None = None) -> Training:
    """A slip for the round being played."""
    now = time.time() if now is None else now
    _check_playing(state, game)
    if time_up(state, now):
        return training_time_up(state, game, now=now)
    slip = slip.strip()[:SLIP_CHARACTERS]
    result = grade(game, state.number, slip)
    spent = round(elapsed(state, now), 1)
    if not state.topping:
        return _finish(state, Result(slip, result.paid, result.sanction.value, spent))
    top = top_score(game, state.number)
    if result.play is not None and result.play.score == top and result.sanction != Sanction.ZERO:
        return _finish(state, Result(slip, top, Sanction.NONE.value, spent))
    state.tries += 1
    state.last_try, state.last_paid = slip, result.paid
    return state


def training_time_up(state: Training, game: TrainingGame, *, now: float | None = None) -> Training:
    """The round's time is over without a slip (or, in topping, without the top)."""
    _check_playing(state, game)
    if state.topping:
        return _finish(
            state, Result("", 0, Sanction.ZERO.value, state.seconds + TOPPING_PENALTY, missed=True)
        )
    return _finish(state, Result("", 0, Sanction.ZERO.value, float(state.seconds), late=True))


def training_give_up(state: Training, game: TrainingGame, *, now: float | None = None) -> Training:
    """The player passes the round: no slip (0), or in topping the penalty."""
    now = time.time() if now is None else now
    _check_playing(state, game)
    if time_up(state, now):
        return training_time_up(state, game, now=now)
    spent = round(elapsed(state, now), 1)
    if state.topping:
        counted = (state.seconds or spent) + TOPPING_PENALTY
        return _finish(state, Result("", 0, Sanction.ZERO.value, counted, missed=True))
    return _finish(state, Result("", 0, Sanction.ZERO.value, spent))


def training_next(state: Training, game: TrainingGame, *, now: float | None = None) -> Training:
    """On to the next round (past the last one: the game is over)."""
    if not state.done or state.number > game.rounds:
        raise ServiceError("training_round_over" if not state.done else "training_none")
    state.number += 1
    state.done = False
    state.started = time.time() if now is None else now
    return state


def result_message(game: TrainingGame, state: Training, number: int, graded: Grade | None = None) -> Message:
    """Why round ``number`` was paid so: the grade's sentence (``graded``: the slip's grade, when the
    caller has it), or the topping's."""
    result = state.results[number - 1]
    if state.topping:
        if not result.missed:
            return Message("training_topped", {"seconds": f"{result.seconds:g}"})
        if result.seconds == state.seconds + TOPPING_PENALTY and state.seconds:
            limit = state.seconds
            return Message(
                "training_topping_timeout",
                {"seconds": f"{result.seconds:g}", "limit": limit, "penalty": TOPPING_PENALTY},
            )
        return Message("training_gave_up", {"seconds": f"{result.seconds:g}", "penalty": TOPPING_PENALTY})
    if result.late:
        return Message("training_late")
    if not result.slip:
        return Message("training_no_slip")
    return (graded or grade(game, number, result.slip)).message


@dataclass(frozen=True)
class Summary:
    """The training's end: the total against the tops', the percentage, and in topping the time."""

    paid: int
    tops: int
    warnings: int
    penalty: int
    total: int
    seconds: float
    topped: int

    @property
    def percent(self):
        return rounded(percent(self.total, self.tops))


def summary(game: TrainingGame, state: Training) -> Summary:
    played = state.results
    tops = sum(top_score(game, n) for n in range(1, len(played) + 1))
    paid = sum(r.paid for r in played)
    warnings = sum(1 for r in played if r.sanction == Sanction.WARNING.value)
    # §3.4: five free in blitz and in an original game (``Variant.free_warnings``), as in a tournament.
    threshold = max(warning_threshold(state.seconds or 180), game.record.variant.free_warnings)
    penalty = end_penalty(warnings, threshold)
    return Summary(
        paid=paid,
        tops=tops,
        warnings=warnings,
        penalty=penalty,
        total=paid - penalty,
        seconds=round(sum(r.seconds for r in played), 1),
        topped=sum(1 for r in played if not r.missed and r.paid and state.topping),
    )
