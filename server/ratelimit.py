"""A brake on guessing join links: a client address that asks for more than
``settings.TOKEN_GUESSES_PER_MINUTE`` unknown tokens within a minute is answered 429 for a minute.

Tokens carry 192 random bits, so guessing one is hopeless anyway; the brake keeps a scanner from
loading the server and makes a correct guess impossible to tell from a refused one: while an address
is over its limit it is refused every token except the one its own session already opened (the
phone of a player in the room keeps working).  The counters live in Django's cache: in memory for
the embedded one-process server, in Redis (shared by every process) when ``REDIS_URL`` is set."""

from __future__ import annotations

import hashlib
import logging
from functools import wraps

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60
logger = logging.getLogger(__name__)


def client_address(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or the rightmost entry of the header a trusted reverse
    proxy sets (``settings.CLIENT_IP_HEADER``, e.g. ``X-Real-IP``): entries on its left came from the
    client and could be forged."""
    header = settings.CLIENT_IP_HEADER
    if header:
        forwarded = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        address = forwarded.rsplit(",", 1)[-1].strip()
        if address:
            return address
    return request.META.get("REMOTE_ADDR", "")


def _key(request) -> str:
    # Hashed: a proxy's header may hold anything, and a cache key must be short plain ASCII.
    digest = hashlib.sha256(client_address(request).encode("utf-8", "replace")).hexdigest()
    return f"token-guesses:{digest[:32]}"


def over_limit(request) -> bool:
    try:
        return cache.get(_key(request), 0) > settings.TOKEN_GUESSES_PER_MINUTE
    except Exception:
        return _cache_down()


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


def _cache_down() -> bool:
    """A cache that does not answer (Redis stopped) lifts the brake: the players in the room must keep
    playing, and a guess stays hopeless without it."""
    logger.warning("join-link guess counter unavailable: not limiting", exc_info=True)
    return False


def guard_token(session_key: str, refuse):
    """For a view taking ``token``: a client over its limit is refused (``refuse(request)``, the 429
    page) any token but its session's."""

    def decorate(view):
        @wraps(view)
        def guarded(request, token: str, *args, **kwargs):
            # The cache first: the session costs a query, and the 2-second poll must stay cheap.
            if over_limit(request) and token != request.session.get(session_key):
                return refuse(request)
            return view(request, token, *args, **kwargs)

        return guarded

    return decorate
