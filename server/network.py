"""The laptop's addresses on the club's network, for the join links and the start-up message."""

from __future__ import annotations

import os
import socket


def lan_addresses() -> list[str]:
    """This machine's addresses as seen from the local network (no packet is sent)."""
    found = set()
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
        found.add(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127.")) or ["127.0.0.1"]


#: Names under which a browser reaches this machine from itself: a link built from them opens
#: nowhere else.
LOOPBACK = {"localhost", "127.0.0.1", "[::1]", "::1"}


def public_base(request) -> tuple[str, bool]:
    """The address others must open (``http://192.168.1.20:8000``): the address the browser used,
    unless it is the laptop itself (``localhost``, ``127.0.0.1``), then the laptop's address on the
    club's network with the same port.  Phones' join links, their QR codes and the invitation links
    are built on it.  The flag says no network address was found (such a link opens nowhere else)."""
    name, port = split_host(request.get_host())
    if name not in LOOPBACK:
        return f"{request.scheme}://{request.get_host()}", False
    address = lan_addresses()[0]
    host = f"{address}:{port}" if port else address
    return f"{request.scheme}://{host}", address.startswith("127.")


def split_host(host: str) -> tuple[str, str]:
    """``192.168.1.20:8000`` → (``192.168.1.20``, ``8000``); ``[::1]:8000`` → (``[::1]``, ``8000``)."""
    if host.startswith("["):
        name, _sep, rest = host.partition("]")
        return name + "]", rest.lstrip(":")
    name, _sep, port = host.partition(":")
    return name, port


def port_taken(port: int) -> bool:
    """Whether another program (another window of this application, say) listens on ``port`` on
    every interface, where the laptop's server is about to listen."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if os.name != "nt":  # as the server binds; on Windows the option would let two share a port
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0", port))
        except OSError:
            return True
    return False


def free_ports(after: int, count: int = 2) -> int:
    """The first port past ``after`` with the ``count`` ports from it free (the room's and the
    strangers')."""
    port = after + 1
    while port < 65535 - count and any(port_taken(p) for p in range(port, port + count)):
        port += 1
    return port
