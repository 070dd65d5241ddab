"""Addresses and lock-outs: the client's address is read from the proxy's header only when the peer
is a trusted proxy; wrong passwords lock an (account, address) pair, and an address trying many
accounts, never the browser that already logged in to the account (its device cookie); a join link
that names a player is served whatever its address guessed; nginx holds a client's thousands of
connections without refusing a phone, and answers 503 beyond the per-address limit.  The brakes are
tried through the real processes (gunicorn, and nginx before it), from other loopback addresses
(127.0.0.2, 127.0.0.3: the client socket is bound to them)."""

from __future__ import annotations

import http.client
import os
import re
import resource
import secrets
import selectors
import socket
import time
import urllib.parse
import urllib.request

import pytest

from server import addresses, arrival, proxy
from server.logins import DEVICE_COOKIE
from tests.scale_front import collected_static, front_publishing

# -- the address, in the process -------------------------------------------------------------------


@pytest.fixture
def proxied(settings):
    settings.TRUSTED_PROXIES = frozenset({"10.0.0.1", "192.168.50.0/24"})
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    return settings


def _address(rf, peer: str, header: str | None = None) -> str:
    extra = {} if header is None else {"HTTP_X_FORWARDED_FOR": header}
    return addresses.client_address(rf.get("/", REMOTE_ADDR=peer, **extra))


def test_the_header_is_ignored_unless_the_peer_is_a_trusted_proxy(rf, proxied):
    assert _address(rf, "203.0.113.5", "198.51.100.1") == "203.0.113.5"
    assert _address(rf, "10.0.0.1", "198.51.100.1") == "198.51.100.1"
    assert _address(rf, "192.168.50.77", "198.51.100.1") == "198.51.100.1"  # a trusted range
    assert _address(rf, "192.168.51.1", "198.51.100.1") == "192.168.51.1"


def test_the_rightmost_entry_that_is_not_a_trusted_proxy_is_the_client(rf, proxied):
    # The client wrote "1.2.3.4"; its own address was appended by the first proxy, then 192.168.50.2's.
    assert _address(rf, "10.0.0.1", "1.2.3.4, 198.51.100.7, 192.168.50.2") == "198.51.100.7"
    assert _address(rf, "10.0.0.1", "garbage, 198.51.100.7") == "198.51.100.7"
    assert _address(rf, "10.0.0.1", "192.168.50.3, 10.0.0.1") == "192.168.50.3"  # all trusted: leftmost
    assert _address(rf, "10.0.0.1", " ::ffff:198.51.100.9 ") == "198.51.100.9"


@pytest.mark.parametrize("header", ["", "not-an-address", "198.51.100.7, 1.2.3.4:80", "1.2.3.4; x", ",,"])
def test_a_malformed_header_counts_as_the_peer(rf, proxied, header):
    assert _address(rf, "10.0.0.1", header) == "10.0.0.1"


def test_without_a_header_setting_the_peer_is_the_client(rf, proxied):
    proxied.CLIENT_IP_HEADER = ""
    assert _address(rf, "10.0.0.1", "198.51.100.1") == "10.0.0.1"


def test_the_arrival_stamp_trusts_the_same_proxies(rf, proxied):
    stamp = f"t={time.time():.3f}"
    assert arrival.proxy_stamp(rf.get("/", REMOTE_ADDR="192.168.50.9", HTTP_X_REQUEST_START=stamp).META)
    assert (
        arrival.proxy_stamp(rf.get("/", REMOTE_ADDR="192.168.51.9", HTTP_X_REQUEST_START=stamp).META) is None
    )


# -- through the real processes --------------------------------------------------------------------


class Browser:
    """A client at ``source`` (a loopback address its sockets are bound to), with its cookies."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
        try:
            head = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
            if self.cookies:
                head["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
            body = None
            if form is not None:
                body = urllib.parse.urlencode(form)
                head["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=head)
            answer = conn.getresponse()
            for cookie in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return answer.status, answer.read().decode()
        finally:
            conn.close()

    def logins(self, attempts: list[tuple[str, str, dict]]) -> list[int]:
        """Each ``(username, password, headers)`` posted to the login page: the status codes."""
        page = self.request("GET", "/login/")[1]
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        return [
            self.request("POST", "/login/", {"username": u, "password": p, "csrfmiddlewaretoken": csrf}, h)[0]
            for u, p, h in attempts
        ]


@pytest.fixture(scope="module")
def static_files(tmp_path_factory):
    return collected_static(tmp_path_factory.mktemp("front-static"))


@pytest.fixture
def front(tmp_path, static_files, settings):
    with front_publishing(tmp_path, static_files, settings) as running:
        yield running


@pytest.mark.django_db(transaction=True)
def test_straight_to_gunicorn_a_forged_address_header_is_ignored(front, arbiter):
    # Around nginx (a client on the server's network): the peer 127.0.0.2 is no trusted proxy, so
    # each attempt counts for it whatever X-Real-IP it claims; the tenth locks the address.
    guesser = Browser(front.app_port, "127.0.0.2")
    attempts = [(f"nobody{n}", "wrong", {"X-Real-IP": f"198.51.100.{n}"}) for n in range(12)]
    assert guesser.logins(attempts) == [200] * 9 + [429] * 3


@pytest.mark.django_db(transaction=True)
def test_through_nginx_a_stranger_locks_only_the_account_from_their_own_address(front, arbiter):
    stranger = Browser(front.port, "127.0.0.2")
    forged = [("arbitre", "wrong", {"X-Real-IP": f"198.51.100.{n}"}) for n in range(5)]
    assert stranger.logins(forged) == [200] * 4 + [429]  # nginx's header names the stranger, not theirs
    assert stranger.logins([("arbitre", "secret-123", {})]) == [429]
    # The arbiter's laptop, at another address, logs in: the header nginx sets is believed.
    assert Browser(front.port, "127.0.0.3").logins([("arbitre", "secret-123", {})]) == [302]


@pytest.mark.django_db(transaction=True)
def test_through_nginx_the_arbiters_laptop_in_the_hall_logs_in_while_the_hall_is_locked(front, arbiter):
    laptop = Browser(front.port, "127.0.0.2")  # the arbiter's laptop, behind the hall's one address
    assert laptop.logins([("arbitre", "secret-123", {})]) == [302]
    laptop.cookies = {DEVICE_COOKIE: laptop.cookies[DEVICE_COOKIE]}  # logged out: its device cookie stays
    phone = Browser(front.port, "127.0.0.2")
    guesses = [("arbitre", "wrong", {})] * 5 + [("arbitre", "secret-123", {})]
    assert phone.logins(guesses) == [200] * 4 + [429, 429]
    assert laptop.logins([("arbitre", "secret-123", {})]) == [302]


@pytest.mark.django_db(transaction=True)
def test_through_nginx_a_players_link_is_served_to_an_address_that_guessed_too_much(front, players):
    guesser = Browser(front.port, "127.0.0.2")
    codes = [guesser.request("GET", f"/j/{secrets.token_urlsafe(24)}/")[0] for _ in range(31)]
    assert codes == [404] * 30 + [429]
    phone = Browser(front.port, "127.0.0.2")  # a phone of the same hall, behind the same address
    status, page = phone.request("GET", f"/j/{players[0].token}/")
    assert status == 200 and "Alice" in page
    assert phone.request("GET", f"/j/{players[0].token}/etat/")[0] == 200
    assert phone.request("GET", "/j/nobody-at-all/")[0] == 429
    assert Browser(front.port, "127.0.0.3").request("GET", "/j/nobody-at-all/")[0] == 404


# -- nginx: one client's connections ----------------------------------------------------------------

HELD = 3000


def _open_pushes(front, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source``, each listening to a room's push channel (held by nginx),
    as a hall's phones do.  The channel holds a message, as a room's does once it has changed (nchan
    1.3.6 aborts a worker when subscribers pile up on a channel without any: not what is tried here)."""
    publish = urllib.request.Request(front.publish_url + "held", data=b"k", method="POST")
    urllib.request.urlopen(publish, timeout=10).close()
    request = b"GET /push/held HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    held = []
    for _ in range(count):
        conn = socket.socket()
        conn.settimeout(5)
        conn.bind((source, 0))
        try:
            conn.connect(("127.0.0.1", front.port))
            conn.sendall(request)
        except OSError:  # nginx no longer accepts: stop here
            conn.close()
            break
        held.append(conn)
    return held


def _statuses(held: list[socket.socket], seconds: float) -> list[int]:
    """The status code nginx answered on each connection (0: none within ``seconds``)."""
    codes = {conn: b"" for conn in held}
    with selectors.DefaultSelector() as waiting:
        for conn in held:
            conn.setblocking(False)
            waiting.register(conn, selectors.EVENT_READ)
        end = time.monotonic() + seconds
        while waiting.get_map() and time.monotonic() < end:
            for key, _ in waiting.select(timeout=0.5):
                try:
                    data = key.fileobj.recv(64)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                codes[key.fileobj] += data
                if not data or b"\r\n" in codes[key.fileobj]:
                    waiting.unregister(key.fileobj)
    found = (re.match(rb"HTTP/1\.[01] (\d{3})", codes[conn]) for conn in held)
    return [int(match.group(1)) if match else 0 for match in found]


@pytest.fixture
def files_for_many():
    """This process's open-files limit raised for ``HELD`` sockets; nginx gets a worker size that its
    own limit can be raised to (``worker_rlimit_nofile``) without being root."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = HELD + 1000
    connections = min(proxy.CONNECTIONS, (hard - 1024) // 2)
    if hard < needed or connections < needed:
        reason = f"the open-files hard limit ({hard}) is too low for {HELD} connections"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: CI runs this test, it never skips it.")
        pytest.skip(reason)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, needed), hard))
    try:
        yield connections
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.django_db(transaction=True)
def test_three_thousand_connections_from_one_address_leave_room_for_a_phone(
    tmp_path, static_files, settings, players, files_for_many
):
    # nginx as a service starts (1,024 open files on Debian), with the default per-address limit.
    with front_publishing(
        tmp_path, static_files, settings, nginx_files=1024, connections=files_for_many
    ) as f:
        held = _open_pushes(f, "127.0.0.2", HELD)
        try:
            codes = _statuses(held, 30)
            status, page = Browser(f.port).request("GET", f"/j/{players[0].token}/")
            assert status == 200 and "Alice" in page
            # A whole hall behind one address fits: every connection was taken and is held.
            assert len(held) == HELD and codes == [200] * HELD
        finally:
            for conn in held:
                conn.close()


@pytest.mark.django_db(transaction=True)
def test_connections_beyond_the_per_address_limit_are_answered_503(tmp_path, static_files, settings, players):
    with front_publishing(tmp_path, static_files, settings, per_address=40) as f:
        held = _open_pushes(f, "127.0.0.2", 60)
        try:
            codes = _statuses(held, 20)
            assert sorted(codes) == [200] * 40 + [503] * 20
            others = _open_pushes(f, "127.0.0.3", 1)  # another address has its own count
            assert _statuses(others, 20) == [200]
            others[0].close()
            status, page = Browser(f.port).request("GET", f"/j/{players[0].token}/")
            assert status == 200 and "Alice" in page
        finally:
            for conn in held:
                conn.close()
