"""A training's state, the player's own: kept in a signed, compressed cookie, so training writes
nothing on the server (no row, no lock: a live room on the same server never waits for it) and a
phone that reloads finds its game again.  Signed, so it cannot be forged; what is in it is only the
game's source, the settings and each round's slip and result."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from django.conf import settings
from django.core import signing

from server.writes import ServiceError

COOKIE = "entrainement"
PATH = "/entrainement/"
SALT = "training.state"
#: Two days: an evening's training, and the next morning's look back.
MAX_AGE = 2 * 24 * 3600
#: What a browser keeps of one cookie, with room for its name and attributes.
MAX_BYTES = 3900


@dataclass
class Result:
    """One round played: the slip as sent (empty: none), what it was paid, its sanction, the seconds
    it took (topping: the score, penalty included), and whether it came too late."""

    slip: str
    paid: int
    sanction: str
    seconds: float
    late: bool = False
    #: Topping: given up or timed out (the penalty is in ``seconds``).
    missed: bool = False


@dataclass
class Training:
    #: ``{"kind": "club", "game": id}``, ``{"kind": "player", "token": t, "game": id}`` (a join
    #: link's), ``{"kind": "random", "seed": n, "lexicon": id}`` or ``{"kind": "file", "record":
    #: {...}, "lexicon": id}``.  Who may play it is checked at each read (``training.access``).
    source: dict
    #: Seconds per round; 0 is untimed.
    seconds: int
    topping: bool
    #: The round being played (1-based); past the last round, the game is over.
    number: int = 1
    #: When the round started (seconds since the epoch, the server's clock); 0: not yet, the game
    #: is being prepared (``training.worker``).
    started: float = 0.0
    #: The round is over; its result is the last of ``results``.
    done: bool = False
    results: list[Result] = field(default_factory=list)
    #: Topping: slips tried this round, and the last one's text and score (a miss).
    tries: int = 0
    last_try: str = ""
    last_paid: int = 0
    #: A slip that came while the game was being prepared again, and when (graded once it is ready).
    pending: str = ""
    pending_at: float = 0.0


def dumps(state: Training) -> str:
    value = signing.dumps(asdict(state), salt=SALT, compress=True)
    if len(value) > MAX_BYTES:
        raise ServiceError("training_too_long", rounds=len(state.results))
    return value


def loads(value: str | None) -> Training | None:
    """The state a cookie holds, or None (no cookie, an old or a forged one)."""
    if not value:
        return None
    try:
        data = signing.loads(value, salt=SALT, max_age=MAX_AGE)
        results = [Result(**r) for r in data.pop("results")]
        return Training(**data, results=results)
    except (signing.BadSignature, TypeError, KeyError, ValueError, AttributeError):
        return None


def load(request) -> Training | None:
    return loads(request.COOKIES.get(COOKIE))


def save(response, state: Training) -> None:
    response.set_cookie(
        COOKIE,
        dumps(state),
        max_age=MAX_AGE,
        path=PATH,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def forget(response) -> None:
    response.delete_cookie(COOKIE, path=PATH, samesite="Lax")
