"""Slow and idle clients: sockets that never finish their request do not lock the phones out of the
laptop's server.  The server is the real one, started as ``manage.py serve`` starts it, on the
test's database; the attackers and the phones are sockets of this process, each bound to a loopback
address of its own (on Linux the whole of 127/8 is the loopback), as on a club's Wi-Fi where every
phone has its own address.  The only times asserted are the service the laptop promises: a phone's
page within a second."""

from __future__ import annotations

import contextlib
import datetime
import http.client
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from lexicons.loaded import lexicon_default_row
from server.management.commands.serve import CONNECTION_LIMIT, CONNECTIONS_PER_ADDRESS
from server.waitress import IDLE_SECONDS, REQUEST_SECONDS
from tests.live_services import free_port, listening, shared_database_url, wait_for
from tournaments import services

ROOT = Path(__file__).resolve().parents[2]
SERVER = "127.0.0.1"
#: Seconds of slack for the server's sweep (every second) and this machine's load.
SLACK = 4

# Transactional: the data is committed for the server's process to read, and a test's own transaction
# never holds the SQLite write lock the server needs (a phone's first page saves its session).
pytestmark = pytest.mark.django_db(transaction=True)


class Server:
    """``manage.py serve`` on a free port, on this test's database."""

    def __init__(self, folder: Path):
        self.port = free_port()
        self.log = folder / "serve.log"
        env = {**os.environ, "DATABASE_URL": shared_database_url(), "ARBITER_VAR_DIR": str(folder / "var")}
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--port", str(self.port)],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        if not wait_for(lambda: listening(self.port) or self.process.poll() is not None, 60):
            raise AssertionError(f"the server did not start: {self.log.read_text()}")
        assert self.process.poll() is None, self.log.read_text()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def player_token():
    """A tournament with one player (its organiser is not "arbitre": the server made that account)."""
    organiser = User.objects.create_user("organisateur", password="secret-123")
    tournament = services.tournament_create(
        created_by=organiser, lexicon=lexicon_default_row(), name="Coupe du club",
        date=datetime.date(2026, 11, 20), place="Salle des fêtes",
    )  # fmt: skip
    return services.player_register(tournament=tournament, name="Alice").token


@pytest.fixture(scope="module")
def open_files():
    """Room in this process for a thousand sockets and more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * CONNECTION_LIMIT
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard)
        )
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture(scope="module")
def server(django_db_setup, open_files, tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("serve"))
    # The first request loads what Django loads lazily.
    warm = http.client.HTTPConnection(SERVER, running.port, timeout=30)
    warm.request("GET", reverse("live:player_page", kwargs={"token": "inconnu"}))
    warm.getresponse().read()
    warm.close()
    yield running
    running.stop()


def page(server: Server, token: str, source: str) -> float:
    """A phone at ``source`` opens its page; the seconds it took, connecting included."""
    start = time.monotonic()
    phone = http.client.HTTPConnection(SERVER, server.port, timeout=10, source_address=(source, 0))
    try:
        phone.request("GET", reverse("live:player_page", kwargs={"token": token}))
        answer = phone.getresponse()
        body = answer.read().decode()
    finally:
        phone.close()
    assert answer.status == 200 and "Alice" in body
    return time.monotonic() - start


def connect(server: Server, source: str, first: bytes = b"") -> socket.socket:
    sock = socket.socket()
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect((SERVER, server.port))
    if first:
        sock.sendall(first)
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    timeout = sock.gettimeout()
    sock.settimeout(0)  # a socket with a timeout waits that long for something to read
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except ConnectionError:
        return True
    finally:
        sock.settimeout(timeout)


def count_closed(socks: list[socket.socket]) -> int:
    return sum(closed_by_server(sock) for sock in socks)


@pytest.fixture
def crowd():
    """Sockets of an attacker, closed after the test."""
    socks: list[socket.socket] = []
    yield socks
    for sock in socks:
        sock.close()


def unfinished(index: int) -> bytes:
    """Every other socket sends nothing; the others the start of a request line."""
    return b"GET /j/" if index % 2 else b""


def test_a_thousand_idle_sockets_from_one_address_leave_a_phone_its_page_within_a_second(
    server, player_token, crowd
):
    crowd += [connect(server, "127.0.0.1", unfinished(i)) for i in range(CONNECTION_LIMIT)]
    # The server has seen them all once it keeps no more than the address's share.
    assert wait_for(lambda: count_closed(crowd) >= CONNECTION_LIMIT - CONNECTIONS_PER_ADDRESS, 10)
    assert page(server, player_token, "127.0.0.2") < 1.0


def test_a_thousand_sockets_from_many_addresses_at_the_limit_leave_a_new_phone_its_page_within_a_second(
    server, player_token, crowd
):
    addresses = [f"127.0.0.{n}" for n in range(3, 43)]  # 40 addresses, each under its share
    over = 10
    crowd += [
        connect(server, addresses[i % len(addresses)], unfinished(i)) for i in range(CONNECTION_LIMIT + over)
    ]
    # The server is at its limit once it has closed some to make room.
    assert wait_for(lambda: count_closed(crowd) >= over, 10)
    trickling = threading.Event()

    def trickle():  # bytes that keep a connection "active" to waitress
        while not trickling.wait(0.5):
            for sock in crowd[1::2]:
                with contextlib.suppress(OSError):
                    sock.send(b"a")

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        assert page(server, player_token, "127.0.0.2") < 1.0
        assert page(server, player_token, "127.0.0.43") < 1.0
    finally:
        trickling.set()
        trickler.join(5)


def test_a_slowloris_trickling_its_headers_is_dropped_after_the_request_timeout(server, crowd):
    crowd.append(connect(server, "127.0.0.50", b"GET / HTTP/1.1\r\nHost: arbitre\r\nX-Slow: "))
    started = time.monotonic()
    while time.monotonic() - started < REQUEST_SECONDS + SLACK and not closed_by_server(crowd[0]):
        try:
            crowd[0].send(b"a")  # one byte of a header every second
        except OSError:
            break
        time.sleep(1)
    assert wait_for(lambda: closed_by_server(crowd[0]), 1)


def test_a_phone_polling_every_two_seconds_keeps_its_connection_past_the_idle_timeout(server, player_token):
    status = reverse("live:player_status", kwargs={"token": player_token})
    # Another phone polls once and then says nothing: its connection is closed meanwhile.
    quiet = http.client.HTTPConnection(SERVER, server.port, timeout=10, source_address=("127.0.0.61", 0))
    quiet.request("GET", status)
    quiet.getresponse().read()
    phone = http.client.HTTPConnection(SERVER, server.port, timeout=10, source_address=("127.0.0.60", 0))
    ports = set()
    try:
        started = time.monotonic()
        while time.monotonic() - started < IDLE_SECONDS + 2:  # past the timeout and its sweep
            phone.request("GET", status, headers={"HX-Request": "true"})
            answer = phone.getresponse()
            answer.read()
            assert answer.status in (200, 204)
            ports.add(phone.sock.getsockname()[1])
            time.sleep(2)
        assert len(ports) == 1  # one connection all along
        assert wait_for(lambda: closed_by_server(quiet.sock), SLACK)
    finally:
        phone.close()
        quiet.close()


def test_an_address_over_its_share_loses_its_oldest_waiting_connections_and_others_are_served(
    server, player_token, crowd
):
    over = 8
    crowd += [connect(server, "127.0.0.70") for _ in range(CONNECTIONS_PER_ADDRESS + over)]
    assert wait_for(lambda: count_closed(crowd) >= over, 5)
    assert [closed_by_server(sock) for sock in crowd] == [True] * over + [False] * CONNECTIONS_PER_ADDRESS
    # The address is held to its share, not shut out: its new request is answered; so is another's.
    request = f"GET /j/{player_token}/ HTTP/1.1\r\nHost: arbitre\r\nConnection: close\r\n\r\n".encode()
    crowd.append(connect(server, "127.0.0.70", request))
    assert crowd[-1].recv(64).startswith(b"HTTP/1.1 200")
    assert page(server, player_token, "127.0.0.71") < 1.0
