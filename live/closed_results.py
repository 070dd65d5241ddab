"""A closed round's results, each player's own as the phone shows it, made once for the whole server.

At a round's close the room's state changes for every phone of the hall.  The Celery worker that
pushes it makes each player's own result (``room_results``, ``own.own_html``: a good part of a second
of CPU at 1,500 players), and the phones that ask in the meantime (a safety poll that crosses the
change, a phone without push) need them too: each web process making them again for its own first
asker would pay that again in every process at every close (measured: docs/developer/benchmarks.md).
So the worker sent the state (or, where none is, the first process that needs them) makes them under a
lock in the shared cache and leaves them there, one entry per player (its own result in every
language); the web processes wait for them (tenths of a second) and read the one entry they need.  A
maker that died or never came: the waiters make them themselves after ``WAIT_SECONDS``.

Where the cache is this process's own (the laptop's memory cache) or does not answer, or the room
has no players' mark, nothing is shared: the results are made here, and each phone's own line is
written when it is asked for, in its language only."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from live import room
from live.own import languages, own_html
from live.phone import Phase, Screen, other_ended_games, player_standing
from tournaments import standings

log = logging.getLogger(__name__)

#: How long a process waits for the results another is making before it makes them itself.
WAIT_SECONDS = 3.0
WAIT_STEP = 0.05
#: How long the shared cache keeps a state's results: the close and the few minutes after it; a
#: phone asking later finds them made again, once.
KEEP_SECONDS = 600
#: The cache backends whose entries every process of the server sees.
SHARED_BACKENDS = ("server.cache.RedisCache", "django.core.cache.backends.redis.RedisCache")


@dataclass
class Shared:
    """A closed round's results: their digest (``Results``) and each player's own part."""

    digest: str
    #: Made in this process: every player's screen by player id, each own line written when asked.
    screens: dict[int, Screen] | None = None
    #: Made in this process for the others, or read from the cache: player id -> language -> HTML.
    made: dict[int, dict[str, str]] | None = None
    #: The shared cache's keys' prefix ("" when nothing is shared).
    base: str = ""

    def own(self, player_id: int, lang: str) -> str | None:
        """This player's own result in ``lang``; None for a player the results do not hold
        (registered since), or whose entry the cache lost."""
        if self.screens is not None:
            screen = self.screens.get(player_id)
            return None if screen is None else own_html(screen, lang, screen.round.game.tournament.solo_value)
        entry = self.made.get(player_id) if self.made is not None else self._read(player_id)
        return None if entry is None else entry.get(lang)

    def every_own(self) -> Iterable[tuple[int, dict[str, str]]]:
        """Every player's own result in every language (the push sends them all)."""
        if self.screens is not None:
            return ((pid, _languages_html(screen)) for pid, screen in self.screens.items())
        if self.made is not None:
            return self.made.items()
        return self._read_all().items()

    def _read(self, player_id: int) -> dict[str, str] | None:
        try:
            return cache.get(f"{self.base}:{player_id}")
        except Exception:
            log.warning("cache unreachable: a closed round's result not read", exc_info=True)
            return None

    def _read_all(self) -> dict[int, dict[str, str]]:
        players = cache.get(f"{self.base}:players") or []
        found = cache.get_many([f"{self.base}:{pid}" for pid in players])
        return {pid: found[f"{self.base}:{pid}"] for pid in players if f"{self.base}:{pid}" in found}


@dataclass
class Results:
    """A closed round's results as each phone of the room shows its own, before they are written, and
    their digest: the same digest, the same results (a top placed changes none of them)."""

    screens: list[Screen]
    digest: str


def room_results(screen: Screen) -> Results:
    """Each player's own part of the closed round ``screen`` shows: the round's slips read once, the
    ranking computed once."""
    rnd = screen.round
    tournament = rnd.game.tournament
    slips = room.round_slips_kept(rnd)
    ranking = standings.tournament_ranking_shared(tournament)
    earlier = other_ended_games(rnd) if screen.phase == Phase.ENDED else []
    digest = hashlib.blake2s(repr((rnd.pk, screen.phase, earlier, tournament.solo_value)).encode())
    screens = []
    for player in room.room_players(tournament.pk).values():
        sub = slips.get(player.pk)
        own = Screen(
            player=player,
            round=rnd,
            phase=screen.phase,
            signature=screen.signature,
            rack=[],
            remaining=None,
            submission=sub,
            board=[],
            standing=player_standing(player, ranking),
            earlier_games=earlier,
        )
        graded = (
            None
            if sub is None
            else (sub.graded_at is not None, sub.sanction, sub.message, sub.message_en, sub.message_more)
        )
        digest.update(repr((player.pk, player.token, graded, own.standing)).encode())
        screens.append(own)
    return Results(screens, digest.hexdigest()[:16])


def _languages_html(screen: Screen) -> dict[str, str]:
    solo_value = screen.round.game.tournament.solo_value
    return {lang: own_html(screen, lang, solo_value) for lang in languages(screen.round.game.tournament)}


def is_shared() -> bool:
    """Whether every process of this server sees the cache's entries (Redis: the scale deployment)."""
    return settings.CACHES["default"]["BACKEND"] in SHARED_BACKENDS


def results_of(screen: Screen, mark: str | None, *, pusher: bool = False) -> Shared:
    """The closed round ``screen`` shows, its results, under the room's players' ``mark`` (the names
    and tables they show): made here, or by whichever process of the server made them first.  When
    the worker that pushes the state is sent it (``worker_coming``), the others leave the making to
    it (``pusher``) and wait for it; a maker that does not come within ``WAIT_SECONDS``: made here."""
    if mark is None or not is_shared():
        return _made_here(screen)
    tournament_id = screen.round.game.tournament_id
    base = f"closed:{tournament_id}:{screen.signature}:{mark}"
    try:
        leave_it = (
            not pusher
            and room.room_size(tournament_id) >= LEFT_TO_WORKER_FROM
            and cache.get(_coming_key(tournament_id)) is not None
        )
        end = time.monotonic() + WAIT_SECONDS
        while True:
            digest = cache.get(base)
            if digest is not None:
                return Shared(digest, base=base)
            if not leave_it and cache.add(f"{base}:making", 1, int(WAIT_SECONDS * 10)):
                try:
                    return _make_shared(screen, base)
                finally:
                    cache.delete(f"{base}:making")
            if time.monotonic() > end:
                log.warning("results of %s not made by the process making them: made here", base)
                return _make_shared(screen, base)
            time.sleep(WAIT_STEP)
    except Exception:
        log.warning("cache unreachable: a closed round's results made here", exc_info=True)
        return _made_here(screen)


def _made_here(screen: Screen) -> Shared:
    results = room_results(screen)
    return Shared(results.digest, screens={own.player.pk: own for own in results.screens})


#: How long the web processes leave a state's results to the worker sent it.
SENT_SECONDS = 10
#: From how many players a room's results are left to the worker: a club's room of 60 makes them in less
#: time than its polls would wait (measured: docs/developer/benchmarks.md; a simultaneous's 100 centres
#: closing at once queue 100 tasks on the worker, and each waiting poll holds a web thread).
LEFT_TO_WORKER_FROM = 300


def _coming_key(tournament_id: int) -> str:
    return f"closed-coming:{tournament_id}"


def worker_coming(tournament_id: int) -> None:
    """A state of the room is being saved, and once committed the worker that pushes it will be sent
    it (``broadcast._changed``, inside the transaction): its results, if a closed round's, are made
    there, not in the web process that asks first (the poll that closed the round, a safety poll
    crossing the change, even one that reads the state the moment it is committed: told after the
    commit, a web process could make the hall's results itself in that moment)."""
    try:
        cache.set(_coming_key(tournament_id), 1, SENT_SECONDS)
    except Exception:
        log.warning("cache unreachable: a closed round's results may be made by a web process", exc_info=True)


def _make_shared(screen: Screen, base: str) -> Shared:
    results = room_results(screen)
    made = {own.player.pk: _languages_html(own) for own in results.screens}
    entries = {f"{base}:{pid}": entry for pid, entry in made.items()}
    entries[f"{base}:players"] = list(made)
    cache.set_many(entries, KEEP_SECONDS)
    cache.set(base, results.digest, KEEP_SECONDS)  # last: a reader that finds it finds the rest
    return Shared(results.digest, made=made, base=base)
