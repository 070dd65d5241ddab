"""Requests this server sends to an address a person gave: a club's laptop sending its
results to a federation's server.  Such an address must not turn the server into a way into its own
network (the nchan publisher on loopback, a database, a cloud's metadata service), nor into a probe
telling which ports answer.  So:

- the address is ``http(s)://name-or-ip[:port]/path``: no user name, query or fragment, a path of
  plain characters, and a web server's port (80, 443, 8000-8999), so that no other protocol's server
  (a mail server, Redis) is spoken to with a body the arbiter wrote (players' names);
- its name is resolved here and every address it gives must be public (``is_public``), and the
  connection goes to one of those very addresses (no second lookup a DNS rebinding could answer
  differently), with the name in ``Host`` and, over TLS, in SNI and the certificate check;
- a redirect is never followed, and whatever goes wrong after the address is accepted (no such name,
  a private address, a closed port, a timeout, TLS, an answer that is not HTTP) is one ``Unreachable``
  whose cause is logged, never shown: the caller decides what of an answer it recognizes.

``allow_private`` (the project's own tests, on loopback) lets loopback and private addresses through,
and any port from 1024 up but those browsers refuse (the Fetch standard's "bad ports").  Addresses an
operator configures (``PUSH_PUBLISH_URL``) do not come here: they are the operator's, and are meant
to be internal."""

from __future__ import annotations

import contextlib
import functools
import http.client
import ipaddress
import logging
import re
import socket
import ssl
import threading
import time
import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit

logger = logging.getLogger(__name__)

#: The ports of web servers.
WEB_PORTS = frozenset({80, 443, *range(8000, 9000)})
#: Ports that browsers refuse to fetch (the Fetch standard's "bad ports") from 1024 up.
BAD_PORTS = frozenset({1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6697, 10080})
BAD_PORTS |= frozenset(range(6665, 6670))
#: Blocks that are not the public Internet, beyond what ``ipaddress`` knows on every Python version.
_NOT_PUBLIC = tuple(
    ipaddress.ip_network(block)
    for block in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
        "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "::/8", "100::/64", "2001::/23", "2001:db8::/32", "64:ff9b:1::/48", "fc00::/7", "fe80::/10",
        "fec0::/10", "ff00::/8",
    )
)  # fmt: skip
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
#: A top-level label: never all digits nor a number in another base ("127.1", "0x7f000001").
_TOP_LABEL = re.compile(r"[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?")
_DOTTED_QUAD = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_NETLOC = re.compile(r"(?:\[[0-9A-Fa-f:.]+\]|[^\[\]:@]+)(?::\d{1,5})?")
_PATH = re.compile(r"(?:/[A-Za-z0-9._~-]+)*/?")
#: How much of an answer is read: a refusal is a short JSON text.
MAX_ANSWER = 20_000


class AddressRefused(ValueError):
    """The address itself is not accepted: nothing was resolved or connected."""


class Unreachable(Exception):
    """No usable answer, whatever the cause (logged, never shown)."""


@dataclass(frozen=True)
class Address:
    scheme: str
    #: The name (IDNA, lower case) or the IP address (IPv6 without brackets).
    host: str
    port: int
    path: str

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{host}{'' if self.port == default else f':{self.port}'}{self.path}"


def is_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``ip`` is on the public Internet; an IPv6 address carrying an IPv4 one (mapped, 6to4,
    NAT64) is judged by the IPv4 address it carries."""
    if isinstance(ip, ipaddress.IPv6Address):
        carried = ip.ipv4_mapped or ip.sixtofour
        if carried is None and ip in _NAT64:
            carried = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if carried is not None:
            return is_public(carried)
    if any(ip in block for block in _NOT_PUBLIC if block.version == ip.version):
        return False
    special = ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved
    return ip.is_global and not (special or ip.is_unspecified)


def parse_address(url: str, *, allow_private: bool = False) -> Address:
    """``url`` checked and put in its one written form, or ``AddressRefused``."""
    if not url or len(url) > 300 or any(unicodedata.category(c)[0] in "CZ" or c == "\\" for c in url):
        raise AddressRefused("characters")
    if "#" in url or "?" in url:
        raise AddressRefused("query or fragment")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise AddressRefused("unreadable") from error
    if parts.scheme not in ("http", "https") or not _NETLOC.fullmatch(parts.netloc):
        raise AddressRefused("scheme or user name")
    default = 443 if parts.scheme == "https" else 80
    port = default if port is None else port
    if port not in WEB_PORTS and not (allow_private and port >= 1024 and port not in BAD_PORTS):
        raise AddressRefused("port")
    if not _PATH.fullmatch(parts.path or "/") or any(set(s) == {"."} for s in parts.path.split("/")):
        raise AddressRefused("path")
    host = _host(parts.hostname or "", allow_private=allow_private)
    return Address(parts.scheme, host, port, parts.path or "/")


def _host(text: str, *, allow_private: bool) -> str:
    """A host as written in an address: an IP address (public unless ``allow_private``) or a name."""
    ip = None
    if ":" in text:
        ip = _ip(text, ipaddress.IPv6Address)
    elif _DOTTED_QUAD.fullmatch(text):
        ip = _ip(text, ipaddress.IPv4Address)
    if ip is not None:
        if not (allow_private or is_public(ip)):
            raise AddressRefused("not a public address")
        return str(ip)
    try:
        name = text.rstrip(".").encode("idna").decode("ascii").lower()
    except UnicodeError as error:
        raise AddressRefused("name") from error
    labels = name.split(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise AddressRefused("name")
    if not _TOP_LABEL.fullmatch(labels[-1]):
        raise AddressRefused("a number, not a name")
    if labels[-1] == "localhost" and not allow_private:
        raise AddressRefused("not a public address")
    return name


def _ip(text: str, kind):
    try:
        return kind(text)  # strict: no zone, no leading zero, no other base
    except ValueError as error:
        raise AddressRefused("IP address") from error


def header_value(text: str, limit: int = 200) -> str:
    """``text`` as a request header may carry it: printable ASCII only, bounded."""
    return re.sub(r"[^ -~]", "", text)[:limit]


@dataclass(frozen=True)
class Answer:
    status: int
    media_type: str
    #: At most ``MAX_ANSWER`` bytes.
    body: bytes


def post(address: Address, body: bytes, headers: dict[str, str], *, allow_private: bool = False,
         timeout: float = 4, deadline: float = 10) -> Answer:  # fmt: skip
    """One POST to ``address``, within ``deadline`` seconds in all; any failure is ``Unreachable``."""
    end = time.monotonic() + deadline
    connection = _connect(address, allow_private=allow_private, timeout=timeout, end=end)
    watchdog = threading.Timer(max(0.0, end - time.monotonic()), connection.cut)
    watchdog.start()
    try:
        connection.request("POST", address.path, body=body, headers={**headers, "Connection": "close"})
        answer = connection.getresponse()
        media_type = (answer.getheader("Content-Type") or "").split(";")[0].strip().lower()
        body = answer.read(MAX_ANSWER)
        if connection.cut_short:
            raise TimeoutError("the deadline cut the answer")
        return Answer(answer.status, media_type, body)
    except (OSError, http.client.HTTPException, ValueError) as error:
        logger.info("POST %s: no usable answer (%r)", address.url, error)
        raise Unreachable from None
    finally:
        watchdog.cancel()
        connection.close()


def _connect(address: Address, *, allow_private: bool, timeout: float, end: float) -> _Pinned:
    """A connection to one of the checked addresses of ``address``'s name, tried in turn."""
    kind = _PinnedTLS if address.scheme == "https" else _Pinned
    for family, sockaddr in _resolve(address, allow_private=allow_private)[:3]:
        left = end - time.monotonic()
        if left <= 0:
            break
        connection = kind(address.host, address.port, family, sockaddr, min(timeout, left))
        try:
            connection.connect()
            return connection
        except (OSError, ValueError) as error:
            logger.info("%s at %s: cannot connect (%r)", address.url, sockaddr[0], error)
            connection.close()
    raise Unreachable


def _resolve(address: Address, *, allow_private: bool) -> list[tuple[int, tuple]]:
    """Every address the name gives, all of them public (unless ``allow_private``)."""
    try:
        found = socket.getaddrinfo(address.host, address.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        logger.info("%s: no address (%r)", address.url, error)
        raise Unreachable from None
    targets = [(family, sockaddr) for family, _type, _proto, _name, sockaddr in found]
    if not targets:
        raise Unreachable
    if not allow_private:
        refused = [s[0] for _f, s in targets if not is_public(ipaddress.ip_address(s[0].split("%")[0]))]
        if refused:
            logger.warning("%s: refused, its name leads to %s", address.url, ", ".join(refused))
            raise Unreachable
    return targets


class _Pinned(http.client.HTTPConnection):
    """A connection to an address already checked: the name is only what ``Host`` (and TLS) say."""

    def __init__(self, host: str, port: int, family: int, sockaddr: tuple, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.family, self.sockaddr = family, sockaddr
        #: The deadline came: what was read may be cut anywhere, even where it looks whole.
        self.cut_short = False

    def connect(self) -> None:
        sock = socket.socket(self.family, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self.sockaddr)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            sock.close()
            raise
        self.sock = sock

    def cut(self) -> None:
        """The deadline: whatever is being read or written ends now."""
        self.cut_short = True
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _PinnedTLS(_Pinned):
    default_port = 443

    def connect(self) -> None:
        super().connect()
        self.sock = _tls().wrap_socket(self.sock, server_hostname=self.host)


@functools.cache
def _tls() -> ssl.SSLContext:
    """The system's authorities; the certificate checked against the name, as a browser would."""
    return ssl.create_default_context()
