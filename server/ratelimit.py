"""A brake on guessing join links: a client address that asks for more than
``settings.TOKEN_GUESSES_PER_MINUTE`` unknown tokens within a minute is answered 429 instead of 404
for the rest of that minute.

Only unknown tokens are counted and refused: a token that names a player is always served, whatever
its address guessed before.  A whole hall may reach the server through one address (a club behind one
Internet connection, a phone left polling a deleted player's link): its players' phones keep working,
and only a wrong link is told to wait.  Tokens carry 192 random bits, so guessing one is hopeless
anyway; the brake keeps a scanner from loading the server.  Every unknown token gets the same
answer (404, or 429 once over), at the cost of one indexed query and one counter.  The counters live
in Django's cache: in memory for the embedded one-process server, in Redis (shared by every process)
when ``REDIS_URL`` is set; the address is ``server.addresses.client_address``."""

from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.core.cache import cache

from server.addresses import client_address

WINDOW_SECONDS = 60
logger = logging.getLogger(__name__)


def _key(request) -> str:
    # Hashed: a cache key short and plain ASCII whatever the address (IPv6 ones are long).
    digest = hashlib.sha256(client_address(request).encode("utf-8", "replace")).hexdigest()
    return f"token-guesses:{digest[:32]}"


def count_unknown(request) -> bool:
    """Count one unknown token asked by this client; True when it goes over the limit."""
    key = _key(request)
    try:
        cache.add(key, 0, timeout=WINDOW_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # the window ended between the two calls
            cache.set(key, 1, timeout=WINDOW_SECONDS)
            count = 1
    except Exception:
        return _cache_down()
    return count > settings.TOKEN_GUESSES_PER_MINUTE


def over_limit(request) -> bool:
    """Whether this client already went over the limit in this minute, counting nothing: a join code
    (``live.codes``, 40 bits) is refused to it even when it names a player, or a guesser
    going on past the 429s would find one in time."""
    try:
        count = cache.get(_key(request), 0)
    except Exception:
        return _cache_down()
    return count > settings.TOKEN_GUESSES_PER_MINUTE


def _cache_down() -> bool:
    """A cache that does not answer (Redis stopped) lifts the brake: the players in the room must keep
    playing, and a guess stays hopeless without it."""
    logger.warning("join-link guess counter unavailable: not limiting", exc_info=True)
    return False
