"""How many costly requests of a kind one client may make in a minute (a new training game: a search
of up to a second in the worker).  The client is its account when logged in, else its address
(``server.addresses.client_address``); over its quota it is told how long to wait (``Retry-After``).

A sliding minute: the moments of the client's last requests of that kind are kept in Django's cache
(in memory for the embedded server, in Redis shared by every web process when ``REDIS_URL`` is set).
Two processes counting the same client at the same instant may each miss the other's request: a
quota is a brake on strangers, not an account.  A cache that does not answer lifts the brake."""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time

from django.core.cache import cache

from server.addresses import client_address

WINDOW_SECONDS = 60
logger = logging.getLogger(__name__)
_lock = threading.Lock()


def who(request) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"account:{user.pk}"
    return f"address:{client_address(request)}"


def spend(kind: str, request, limit: int) -> int:
    """One more request of ``kind`` from this client: 0 while it is within ``limit`` in the last
    minute (and it is counted), else the seconds until it may ask again (it is not counted)."""
    # Hashed: a cache key short and plain ASCII whatever the address (IPv6 ones are long).
    digest = hashlib.sha256(who(request).encode("utf-8", "replace")).hexdigest()[:32]
    key = f"quota:{kind}:{digest}"
    now = time.time()
    try:
        with _lock:
            recent = [moment for moment in cache.get(key, ()) if moment > now - WINDOW_SECONDS]
            if len(recent) >= limit:
                return max(1, math.ceil(min(recent) + WINDOW_SECONDS - now))
            cache.set(key, (*recent, now), WINDOW_SECONDS)
    except Exception:
        logger.warning("quota counter %s unavailable: not limiting", kind, exc_info=True)
    return 0
