"""A request the laptop's server cannot read is answered, on the room's port and the strangers' alike
(``server.waitress.SoundParser``): a real ``manage.py serve`` sent, over raw sockets, requests with
a bare LF or CR, a NUL, a request line or HTTP version that is none, a Content-Length or chunks that
are no numbers, an absolute form whose host is broken, a head over the limit.  Each gets its status
line (400; 431 for the head over the limit) rather than a closed connection, the server then serves
a normal request, and nothing in the terminal or the log files looks like a traceback."""

from __future__ import annotations

import os
import re
import socket

import pytest

from tests.server.test_strangers_process import _get, laptop  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")

#: Waitress's limit on a request's head (``max_request_header_size``), and a little more.
OVER_THE_LIMIT = 262_144 + 1_024

MALFORMED = {
    "every line ended by a bare LF": b"GET / HTTP/1.1\nHost: x\n\n",
    "a header ended by a bare LF": b"GET / HTTP/1.1\r\nHost: x\nX-A: 1\r\n\r\n",
    "a header ended by a bare CR": b"GET / HTTP/1.1\r\nHost: x\rX-A: 1\r\n\r\n",
    "a NUL in a header": b"GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",
    "a NUL in the request line": b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    "a header name with a space": b"GET / HTTP/1.1\r\nHost: x\r\nX A: 1\r\n\r\n",
    "a request line that is none": b"GARBAGE\r\nHost: x\r\n\r\n",
    "a method in lower case": b"get / HTTP/1.1\r\nHost: x\r\n\r\n",
    "no HTTP version": b"GET /\r\nHost: x\r\n\r\n",
    "an HTTP version that does not exist": b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    "an HTTP version that is no number": b"GET / HTTP/1.x\r\nHost: x\r\n\r\n",
    "a Content-Length that is no number": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    "two Content-Lengths": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    "chunks whose size is no number": (
        b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n"
    ),
    "an absolute form whose host is broken": b"GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n",
    "a path in bytes that are not ASCII": b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n",
}


def _status_line(port: int, request: bytes) -> str:
    """The first line of the server's answer to ``request`` ("" if it closed without one)."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as conn:
        conn.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            try:
                chunk = conn.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode("latin-1")


def _looks_like_a_crash(text: str) -> list[str]:
    return [sign for sign in ("Traceback", "uncaptured python exception", "AttributeError") if sign in text]


def test_every_request_the_parser_refuses_is_answered_on_both_ports_and_the_server_goes_on(laptop):  # noqa: F811
    _process, port, strangers, log = laptop
    over_long = b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * OVER_THE_LIMIT + b"\r\n\r\n"
    expected = {name: "400" for name in MALFORMED} | {"a head over the limit": "431"}
    wrong = {}
    for name, request in {**MALFORMED, "a head over the limit": over_long}.items():
        for where, each in (("room", port), ("strangers", strangers)):
            line = _status_line(each, request)
            if not re.fullmatch(rf"HTTP/1\.[01] {expected[name]} .*", line):
                wrong[where, name] = line
    assert not wrong, wrong
    # Both go on serving: the room its login page, the strangers' process its training page.
    assert _get(port, "/login/")[0] == 200
    assert _get(strangers, "/entrainement/")[0] == 200
    terminal = log.read_text(errors="replace")
    assert not _looks_like_a_crash(terminal), terminal[-3000:]
    for kept in (log.parent / "var" / "log").glob("*.log"):
        text = kept.read_text(errors="replace")
        assert not _looks_like_a_crash(text), text[-3000:]
