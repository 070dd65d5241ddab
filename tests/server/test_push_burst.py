"""Push connections cannot take nginx down: nchan 1.3.6 aborts a worker (an assertion in its
``spool.c``), and drops every connection the worker held, when many subscribers at once ask for a
message a channel does not have: the room's last one on a channel never published or whose message
expired (``nchan_subscriber_first_message -1``), or one named by the client (``Last-Event-ID``,
``?last_event_id=``, ``If-None-Match``).  Anyone can open ``/push/<any name>``, so a burst of phones
(a hall reconnecting after a break) or a stranger's script would do it.  ``deploy/nginx.conf``
starts every subscriber at the channel's oldest message, the only one kept (its last), ignores the
message ids a client names and refuses the conditional headers; here, through the real nginx and
nchan."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from server import push
from tests.live_services import wait_for
from tests.scale_front import Front, require_nginx

#: Concurrent subscribers per burst: without the configuration's guards, 10 at once abort a worker and
#: 200 abort dozens.
BURST = 200
#: How long each subscriber holds its connection, reading what nginx sends.
HOLD_S = 1.5
#: The message timeout of this nginx: short, so that a channel's message expires within the test.
EXPIRES = "1s"

PLAIN = {}
#: What a browser's EventSource sends as it reconnects (its last message's id), and what a client can
#: send to name any message: nginx must neither crash nor let the client choose where to start.
NAMED_IDS = [
    {"Last-Event-ID": "1700000000:0"},
    {"Last-Event-ID": "{now}:0"},
    {"query": "?last_event_id={now}%3A0"},
]
#: Conditional headers, as a long-polling client sends: refused (a browser's EventSource never does).
CONDITIONAL = [
    {"If-None-Match": "{now}:0"},
    {"If-Modified-Since": "Thu, 01 Jan 2026 00:00:00 GMT", "If-None-Match": "0"},
]


@dataclass
class Answer:
    status: int  # 0: nothing came back
    messages: list[str]
    dropped: bool  # the connection was closed on a 200 stream


@pytest.fixture
def nginx(tmp_path, settings):
    """nginx alone (no web process needed): this process publishes to it, as the application does."""
    require_nginx()
    front = Front(tmp_path, tmp_path / "static", message_timeout=EXPIRES)
    settings.PUSH_PUBLISH_URL = front.publish_url
    front.start_nginx()
    try:
        yield front
    finally:
        front.stop()


async def _subscribe(port: int, path: str, headers: dict) -> Answer:
    query = headers.get("query", "").replace("{now}", str(int(time.time())))
    lines = [f"GET {path}{query} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream"]
    lines += [f"{k}: {v.replace('{now}', str(int(time.time())))}" for k, v in headers.items() if k != "query"]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return Answer(0, [], True)
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    data, closed = b"", False
    end = time.monotonic() + HOLD_S
    try:
        while (left := end - time.monotonic()) > 0:
            chunk = await asyncio.wait_for(reader.read(4096), left)
            if not chunk:
                closed = True
                break
            data += chunk
    except TimeoutError:
        pass
    except OSError:
        closed = True
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0
    messages = [line[5:].strip().decode() for line in body.split(b"\n") if line.startswith(b"data:")]
    return Answer(status, messages, closed and status == 200)


def _burst(front: Front, channel: str, kinds: list[dict]) -> list[tuple[dict, Answer]]:
    """``BURST`` subscribers connecting at once, spread over ``kinds`` of request."""
    chosen = [kinds[i % len(kinds)] for i in range(BURST)]

    async def all_at_once():
        return await asyncio.gather(*(_subscribe(front.port, f"/push/{channel}", kind) for kind in chosen))

    return list(zip(chosen, asyncio.run(all_at_once())))


def _aborts(front: Front) -> list[str]:
    log = (front.run / "nginx-error.log").read_text()
    return [line for line in log.splitlines() if "exited on signal" in line or "Assertion" in line]


def _kept_messages(front: Front, channel: str) -> int:
    """How many messages nginx keeps on ``channel`` (its publisher's channel information)."""
    request = urllib.request.Request(front.publish_url + channel, headers={"Accept": "text/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())["messages"]
    except urllib.error.HTTPError as error:
        if error.code == 404:  # the channel is gone with its messages
            return 0
        raise


def _answered_and_held(answers: list[tuple[dict, Answer]], expected_messages: list[str]) -> None:
    for kind, answer in answers:
        if kind in CONDITIONAL:
            assert answer.status == 400, (kind, answer)
        else:
            assert answer.status == 200 and not answer.dropped, (kind, answer)
            assert answer.messages == expected_messages, (kind, answer)


def _a_channel() -> str:
    return f"t{secrets.randbelow(10**6)}-{secrets.token_hex(12)}"


def test_a_burst_of_subscribers_to_a_channel_never_published_is_held_and_crashes_no_worker(nginx):
    """A hall's phones connecting before their room's first change, or a stranger's script opening
    random names: every connection is answered and held, and nginx's workers keep running."""
    for channel in (_a_channel(), _a_channel()):
        answers = _burst(nginx, channel, [PLAIN, *NAMED_IDS, *CONDITIONAL])
        assert not _aborts(nginx), _aborts(nginx)
        _answered_and_held(answers, expected_messages=[])


def test_a_burst_of_subscribers_to_a_channel_whose_message_expired_is_held_and_crashes_no_worker(nginx):
    """The hall reconnecting after a break longer than the message's timeout, some phones naming the
    last message they had (as the browser does)."""
    channel = _a_channel()
    assert push.send(channel, "k1")
    assert wait_for(lambda: _kept_messages(nginx, channel) == 0, 30), "the message did not expire"
    answers = _burst(nginx, channel, [PLAIN, *NAMED_IDS, *CONDITIONAL])
    assert not _aborts(nginx), _aborts(nginx)
    _answered_and_held(answers, expected_messages=[])


def test_a_phone_connecting_to_a_live_channel_is_sent_its_last_message_at_once(nginx):
    """A phone (re)connecting is told the room's current state key at once, as a first message of -1
    would tell it (tests/e2e/test_push.py: a joining phone then asks nothing), whatever id it names;
    the messages before it are not replayed."""
    channel = _a_channel()
    assert push.send(channel, "k1") and push.send(channel, "k2")
    answers = _burst(nginx, channel, [PLAIN, *NAMED_IDS, *CONDITIONAL])
    assert not _aborts(nginx), _aborts(nginx)
    _answered_and_held(answers, expected_messages=["k2"])


def test_a_closes_messages_are_sent_side_by_side_each_to_its_own_channel(nginx):
    """A close's results, one message per player's channel, sent by a Celery worker on several
    kept-alive connections at once (``push.send_all``): every one taken, each channel given its own."""
    push._ways.clear()
    channels = [_a_channel() for _ in range(200)]
    assert push.send_all((channel, f"result of {channel}") for channel in channels) == len(channels)
    assert len(push._ways) == push.PUBLISH_WAYS

    async def listen():
        return await asyncio.gather(*(_subscribe(nginx.port, f"/push/{c}", PLAIN) for c in channels[::20]))

    for channel, answer in zip(channels[::20], asyncio.run(listen())):
        assert answer.status == 200 and answer.messages == [f"result of {channel}"]
    assert not _aborts(nginx)


def test_a_closes_messages_are_in_flight_on_every_connection_at_once(settings):
    """``push.send_all`` really sends side by side: a publisher that answers none of the first
    ``PUBLISH_WAYS`` messages until all of them have arrived (a barrier; nginx answers too fast for a
    test to see the overlap) still gets every message, on ``PUBLISH_WAYS`` kept-alive connections."""
    barrier = threading.Barrier(push.PUBLISH_WAYS, timeout=10)
    seen: list[tuple[int, str]] = []  # (client port, channel), in arrival order
    lock = threading.Lock()

    class Publisher(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # kept alive, as nginx does

        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            with lock:
                seen.append((self.client_address[1], self.path))
                early = len(seen) <= push.PUBLISH_WAYS
            status = 201
            if early:
                try:
                    barrier.wait()
                except threading.BrokenBarrierError:
                    status = 500  # the messages did not overlap
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Publisher)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.PUSH_PUBLISH_URL = f"http://127.0.0.1:{server.server_address[1]}/pub/"
    push._ways.clear()
    try:
        channels = [f"c{i}" for i in range(40)]
        assert push.send_all((channel, "m") for channel in channels) == len(channels)
    finally:
        server.shutdown()
        server.server_close()
        for way in push._ways:
            if way.connection is not None:
                way.connection.close()
        push._ways.clear()
    assert not barrier.broken
    assert sorted(path for _, path in seen) == sorted(f"/pub/{c}" for c in channels)
    assert len({port for port, _ in seen}) == push.PUBLISH_WAYS  # one connection per way, kept
