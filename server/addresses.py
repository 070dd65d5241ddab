"""Who is asking: the client's address, and whether the peer is a reverse proxy we trust.

A header naming the client (``settings.CLIENT_IP_HEADER``: ``X-Real-IP``, ``X-Forwarded-For``) and the
proxy's arrival stamp (``server.arrival``) are believed only when the peer itself (``REMOTE_ADDR``) is
one of ``settings.TRUSTED_PROXIES`` (addresses or CIDR ranges, ``ARBITER_TRUSTED_PROXIES``).  Anyone
else who reaches the web processes (straight to gunicorn, around nginx) is its own address, whatever
header it sends.  Every brake keyed on an address goes through ``client_address``: the join-link
guesses (``server.ratelimit``), the logins (django-axes: ``AXES_CLIENT_IP_CALLABLE``,
``server.logins``)."""

from __future__ import annotations

import ipaddress
import logging
from functools import lru_cache

from django.conf import settings

logger = logging.getLogger(__name__)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> Address | None:
    """``text`` as an address (an IPv4 address mapped in IPv6 as the IPv4 one), None if it is not one."""
    try:
        found = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


@lru_cache(maxsize=8)
def _networks(entries: frozenset[str]) -> tuple:
    networks = []
    for entry in sorted(entries):
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            logger.error("ARBITER_TRUSTED_PROXIES: %r is neither an address nor a range: ignored.", entry)
    return tuple(networks)


def _trusted(address: Address | None) -> bool:
    if address is None or not settings.TRUSTED_PROXIES:
        return False
    return any(address in network for network in _networks(frozenset(settings.TRUSTED_PROXIES)))


def trusted_proxy(meta) -> bool:
    """Whether this request's peer (``REMOTE_ADDR`` of ``meta``, a request's META or a WSGI environ)
    is one of the trusted reverse proxies: only then are the headers it sets believed."""
    return _trusted(_address(str(meta.get("REMOTE_ADDR") or "")))


def client_address(request) -> str:
    """The client's address.  ``REMOTE_ADDR``, unless the peer is a trusted proxy and the proxy's
    header (``settings.CLIENT_IP_HEADER``) names the client: then, of the header's comma-separated
    entries, the rightmost one that is not itself a trusted proxy (entries further left were written
    by the client and could be forged; all of them trusted: the leftmost).  A header entry met on the
    way that is not an address makes the whole header unbelievable: ``REMOTE_ADDR``.  Always an
    address as Python writes it (or "" when the server gave none), so it can key a counter or a
    database column."""
    meta = request.META
    peer_text = str(meta.get("REMOTE_ADDR") or "")
    peer = _address(peer_text)
    fallback = str(peer) if peer is not None else peer_text
    header = settings.CLIENT_IP_HEADER
    if not header or not _trusted(peer):
        return fallback
    value = meta.get("HTTP_" + header.upper().replace("-", "_"))
    if not isinstance(value, str) or not value.strip():
        return fallback
    found = None
    for entry in reversed(value.split(",")):
        found = _address(entry)
        if found is None:
            return fallback
        if not _trusted(found):
            return str(found)
    return str(found)
