#!/usr/bin/env python3
"""Load benchmark: one arbiter, a projector and 300 phones play rounds against a real server.

    .venv/bin/python scripts/loadbench.py [--players 300] [--deployment embedded|scale] [--rounds 3]

``embedded`` starts ``manage.py serve`` (waitress, SQLite in a fresh temporary ARBITER_VAR_DIR, tasks
in-process), as ``run.py`` does on a club's laptop.  ``scale`` creates a fresh PostgreSQL database, uses
a Redis database number of its own (flushed), runs the migrations, then starts a Celery worker and
gunicorn with several workers; the database is dropped at the end unless ``--keep``.

The tournament and its players are made through the ORM, and the tournament's round time is set there
too (``--round-seconds``, 30 s by default: shorter than any the form offers).  Everything else goes
over HTTP as the real pages do: the arbiter logs in, starts the game, draws, starts the clock and
places the top, its game screen and the projector polling every second; each phone opens its join
link (and its static files), polls its status every 2 s with the signature (``?s=``, 204 with
X-Remaining while nothing changed) and sends its slip with the CSRF token and the htmx headers at a
random moment of the round's last 10 s; one phone in five sends a second, different slip, and half of
those lose the answer (the connection dropped after sending) and send the same request again, as
player.js does on no answer or a 503.  The client is one asyncio loop (standard library only): every
phone is independent, with its own cookies and kept-alive connections.

Printed: latencies (p50/p90/p99/max) of polls and of slips separately, errors by status, slips accepted
before the deadline, the database checked after each round (one row per player, the last accepted
slip), the time from the deadline to the close, to every slip graded and to the last phone showing its
results.  Exit status 1 when a slip sent before the deadline was lost or the database is wrong.

``--timings DIR`` serves the application through a wrapper that measures, per kind of request, its CPU
time and its queries (embedded and scale); ``--profile DIR`` (embedded) adds a cProfile of CPU time per
kind, much slower.  ``--connection-limit N`` (embedded) starts waitress as ``manage.py serve`` does but
with that connection limit.

Strangers beside the room (issue 22): ``--public-rps N`` readers of a simultaneous's public page, N
requests a second in all, each reader from an address of its own reading every 2 s (one room: a
prepared event of as many players is made for it; ``--centres``: the event played); ``--trainers N``
people training, each starting random games and playing two rounds of each as fast as a person would.
Their requests are reported apart ("stranger: ..."), and the training worker's CPU as "training".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import html
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
USER_AGENT = "Mozilla/5.0 (Linux; Android 14) loadbench"
ARBITER = ("loadbench", "loadbench-secret-1")
DUMP_PATH = "/__loadbench__/dump"

# -- measurements ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    bucket: str
    sent: float  # wall clock (time.time), comparable with the database's timestamps
    seconds: float
    status: str


SAMPLES: list[Sample] = []
#: The arbiter's actions (draw, start the clock, place the top): path, sent, answered.  Every phone's
#: next poll brings the new screen.
ACTIONS: list[tuple[str, float, float]] = []
#: Polls sent this long after an arbiter's action are counted as "after an arbiter's action".
AFTER_ACTION_SECONDS = 3.0
LAG: list[float] = []  # how late the client sent each request against its schedule
COUNTS: Counter = Counter()


def record(bucket: str, sent: float, seconds: float, status: str) -> None:
    SAMPLES.append(Sample(bucket, sent, seconds, status))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def latency_line(name: str, samples: list[Sample]) -> str:
    ms = [s.seconds * 1000 for s in samples if s.status.isdigit()]
    figures = " ".join(f"{percentile(ms, q):8.0f}" for q in (50, 90, 99)) + f" {max(ms, default=0):8.0f}"
    return f"  {name:<34} {len(samples):>7} {figures}"


# -- one browser: keep-alive connections and cookies -----------------------------------------------


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str


class Connection:
    """One HTTP/1.1 connection kept alive between requests (asyncio streams)."""

    def __init__(self, port: int, local_address: str | None = None):
        self.port = port
        self.local_address = local_address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = False

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(self, data: bytes) -> None:
        if self.writer is None:
            local = (self.local_address, 0) if self.local_address else None
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=local)
            self.used = False
        self.writer.write(data)
        await self.writer.drain()

    async def receive(self) -> tuple[int, list[tuple[str, str]], bytes]:
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split(" ", 2)[1])
        headers = []
        for line in head[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers.append((name.strip().lower(), value.strip()))
        fields = dict(headers)
        if status in (204, 304):
            body = b""
        elif "content-length" in fields:
            body = await self.reader.readexactly(int(fields["content-length"]))
        elif fields.get("transfer-encoding", "").lower() == "chunked":
            body = await self._chunked()
        else:
            body, fields["connection"] = await self.reader.read(), "close"
        if fields.get("connection", "").lower() == "close":
            self.close()
        self.used = True
        return status, headers, body

    async def _chunked(self) -> bytes:
        parts = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0].strip(), 16)
            if size == 0:
                while (await self.reader.readline()) not in (b"\r\n", b""):
                    pass
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)


class Browser:
    """One browser: its cookies, and its connections to the server kept alive; a request made while
    another is under way opens a second connection, as a browser does."""

    def __init__(self, port: int, timeout: float = 60.0, local_address: str | None = None):
        self.port = port
        self.timeout = timeout
        #: The address this browser connects from: each phone its own, as on a club's Wi-Fi (the
        #: laptop server caps the connections of one address).
        self.local_address = local_address
        self.cookies: dict[str, str] = {}
        self.idle: list[Connection] = []

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        for conn in self.idle:
            conn.close()
        self.idle.clear()

    def _head(self, method: str, path: str, body: bytes, headers: dict) -> bytes:
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            f"User-Agent: {USER_AGENT}",
            "Accept: */*",
            "Accept-Language: fr-FR,fr;q=0.9",
        ]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
                f"Origin: {self.origin}",
            ]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def request(
        self, bucket: str, method: str, path: str, *, form=None, headers=None, drop: bool = False
    ) -> Reply | None:
        """Send one request; ``drop`` closes the connection without reading the answer (a lost
        response).  Every request is recorded in ``bucket``; failures return None."""
        body = urllib.parse.urlencode(form).encode() if form is not None else b""
        data = self._head(method, path, body, headers or {}) + body
        conn = self.idle.pop() if self.idle else Connection(self.port, self.local_address)
        sent, start = time.time(), time.perf_counter()
        for attempt in (1, 2):
            reused = conn.used and conn.writer is not None
            try:
                await asyncio.wait_for(conn.send(data), self.timeout)
                if drop:
                    conn.close()
                    record(bucket, sent, time.perf_counter() - start, "dropped")
                    return None
                status, fields, raw = await asyncio.wait_for(conn.receive(), self.timeout)
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                conn.close()
                if reused and attempt == 1:
                    COUNTS["reconnect after a closed keep-alive connection"] += 1
                    continue  # what a browser does when a kept-alive connection was closed under it
                record(bucket, sent, time.perf_counter() - start, type(error).__name__)
                return None
            except (OSError, ValueError, asyncio.LimitOverrunError) as error:
                conn.close()
                record(bucket, sent, time.perf_counter() - start, type(error).__name__)
                return None
            break
        record(bucket, sent, time.perf_counter() - start, str(status))
        if conn.writer is not None:
            self.idle.append(conn)
        self._keep_cookies(fields)
        return Reply(status, dict(fields), raw.decode("utf-8", "replace"))

    def _keep_cookies(self, fields: list[tuple[str, str]]) -> None:
        for name, line in fields:
            if name != "set-cookie":
                continue
            pair, _, attributes = line.partition(";")
            key, _, value = pair.strip().partition("=")
            if "max-age=0" in attributes.lower().replace(" ", ""):
                self.cookies.pop(key, None)
            else:
                self.cookies[key] = value


def csrf_from(page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    return found.group(1) if found else ""


def htmx_headers(browser: Browser, page: str, element: str, csrf: str) -> dict:
    return {
        "HX-Request": "true",
        "HX-Current-URL": browser.origin + page,
        "HX-Target": element,
        "HX-Trigger": element,
        "X-CSRFToken": csrf,
    }


async def sleep_until(when: float) -> None:
    delay = when - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)


# -- the phones ------------------------------------------------------------------------------------


@dataclass
class Plan:
    """What the bench knows of a round before it starts: its tops, to write good and bad slips."""

    number: int
    tops: list[dict]


@dataclass
class Sending:
    """One slip the player sent, with every attempt the phone made to deliver it."""

    round_id: int
    sent: float  # when the player pressed "send"
    text: str  # the slip as the server stores it (Submission.slip_text)
    attempts: list[str] = field(default_factory=list)  # "accepted", "refused: ...", "no answer", "503"...

    @property
    def outcome(self) -> str:
        return self.attempts[-1] if self.attempts else "not sent"

    @property
    def maybe_stored(self) -> bool:
        """An attempt whose answer never came may have been stored all the same."""
        return any(a == "no answer" for a in self.attempts)


PLANS: dict[int, Plan] = {}
KINDS = ("top", "bad word", "bad score")
POLL_SECONDS = 2.0
#: player.js: while the push connection is up, one timer poll in 20 s goes through.
PUSH_SAFETY_SECONDS = 20.0
#: player.js: a phone told of a change asks within this spread (the hall is not all at the same instant).
PUSH_SPREAD_SECONDS = 2.0
#: --no-push: the phones ignore the page's push channel and poll (to compare).
NO_PUSH = False
PUSHES: list[float] = []  # when each pushed message reached a phone
STATUS = re.compile(r'<section id="player-status"[^>]*>', re.S)
BOARD = re.compile(r'<div id="player-board"[^>]*>', re.S)
RECEIPT = re.compile(r'<div id="player-receipt"[^>]*>', re.S)
ERROR = re.compile(r'<p class="error" role="alert">(.*?)</p>', re.S)


def attr(tag: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    return html.unescape(found.group(1)) if found else None


def stored_text(slip: str, claimed: str) -> str:
    """The slip as Submission.slip_text() writes it, worked out with the engine's own parser."""
    from engine.notation import parse_slip

    parsed = parse_slip(f"{slip} {claimed}".strip())
    parts = [str(parsed.ref) if parsed.ref else "-", str(parsed.word)]
    if parsed.score is not None:
        parts.append(str(parsed.score))
    return " ".join(parts)


def phone_typed(slip: str) -> str:
    """The slip as the phone's player types it: letters in upper case, a joker's letter followed by
    ``?`` (the page upper-cases everything typed: a lower case letter is no joker)."""
    return "".join(f"{c.upper()}?" if c.islower() else c for c in slip)


class Phone:
    """A player's phone: the join link, the status polled every 2 s, the slips."""

    def __init__(self, index: int, token: str, port: int, seed: int, join_at: float):
        self.index = index
        self.token = token
        self.browser = Browser(port, local_address=f"127.1.{index // 250}.{index % 250 + 1}")
        self.seed = seed
        self.join_at = join_at
        self.csrf = ""
        self.status_path = ""
        self.phase = ""
        self.round_id = 0
        self.clock_end: float | None = None  # the phone's countdown: when it reaches 0 (monotonic)
        self.joined = False
        self.planned: set[int] = set()
        self.tasks: set[asyncio.Task] = set()
        # htmx queues a form's second sending until the first one's answer (hx-sync's default).
        self.form_busy = asyncio.Lock()
        self.results: dict[int, float] = {}  # round id -> wall time the phone first showed its results
        self.sendings: list[Sending] = []
        self.push_path = ""  # the page's data-push: where player.js listens (server/push.py)
        self.push_live = False
        self.pushed_key = ""
        self.shown_key = ""
        self.wake = asyncio.Event()  # player.js's htmx.trigger(status, "push")
        self.parts_shown: dict[str, str] = {}  # b, r: the keys of the board and the receipt shown
        self.ask_pending = False  # player.js's pushed.timer: an ask to come after the spread

    @property
    def page(self) -> str:
        return f"/j/{self.token}/"

    async def run(self, stop: asyncio.Event) -> None:
        await sleep_until(self.join_at)
        while not await self.join():
            await asyncio.sleep(5)
        if self.push_path:
            self._later(self.listen(stop))
        planned = time.monotonic() + POLL_SECONDS
        last_asked = time.monotonic()
        while not stop.is_set():
            pushed, planned = await self._wait_for_turn(planned, last_asked)
            if stop.is_set():
                break
            if not pushed:
                LAG.append(time.monotonic() - planned)
            last_asked = time.monotonic()
            headers = htmx_headers(self.browser, self.page, "player-status", self.csrf)
            path = self.status_path
            if self.pushed_key and self.pushed_key != self.shown_key:
                path += f"&k={self.pushed_key}"  # player.js: the pushed key passes the memo over
            for name, key in self.parts_shown.items():
                path += f"&{name}={key}"  # player.js: the board and the receipt it shows
            bucket = "phone: status, pushed" if pushed else "phone: status poll"
            reply = await self.browser.request(bucket, "GET", path, headers=headers)
            now = time.monotonic()
            if reply is not None and reply.status == 204:
                remaining = reply.headers.get("x-remaining")
                if remaining is not None:
                    self.clock_end = now + float(remaining)
                    self._plan_slips(float(remaining))
                planned += POLL_SECONDS  # htmx's "every 2s" timer keeps running; a late poll is queued
            elif reply is not None and reply.status == 200:
                self._read_status(reply.text)
                planned = now + POLL_SECONDS  # the swapped element starts its own timer
            else:
                planned += POLL_SECONDS
            planned = max(planned, now)
        self.browser.close()

    async def _wait_for_turn(self, planned: float, last_asked: float) -> tuple[bool, float]:
        """Until the 2-second timer's next tick that player.js lets through (all of them while the
        push is not live, one in 20 s while it is), or a push: (pushed, the tick's planned time)."""
        while True:
            timeout = max(0.0, planned - time.monotonic())
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
                self.wake.clear()
                await asyncio.sleep(random.uniform(0, PUSH_SPREAD_SECONDS))  # player.js: askSoon
                self.wake.clear()  # one ask for the pushes of the spread: it takes the latest key
                if self.ask_pending:  # not dropped by a message naming the state shown
                    self.ask_pending = False
                    return True, planned
                continue
            except TimeoutError:
                pass
            if not self.push_live or time.monotonic() - last_asked >= PUSH_SAFETY_SECONDS:
                return False, planned
            planned += POLL_SECONDS

    async def listen(self, stop: asyncio.Event) -> None:
        """The page's EventSource: on (re)connecting and on each message, ask for the status; the
        browser reconnects 3 s after a dropped connection."""
        while not stop.is_set():
            conn = Connection(self.browser.port, self.browser.local_address)
            head = (
                f"GET {self.push_path} HTTP/1.1\r\nHost: 127.0.0.1:{self.browser.port}\r\n"
                f"User-Agent: {USER_AGENT}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
            )
            try:
                await conn.send(head.encode("latin-1"))
                status = (await asyncio.wait_for(conn.reader.readuntil(b"\r\n\r\n"), 30)).split(b" ", 2)[1]
                if status != b"200":
                    raise ConnectionError(f"push answered {status!r}")
                COUNTS["push connections opened"] += 1
                self.push_live = True
                self.ask_pending = True
                self.wake.set()  # onopen: catch up, unless nginx's first message names the state shown
                while not stop.is_set():
                    line = await conn.reader.readline()
                    if not line:
                        raise ConnectionError("push connection closed")
                    text = line.decode("utf-8", "replace").strip()
                    if text.startswith("data:"):
                        self.pushed_key = text[5:].strip()
                        PUSHES.append(time.time())
                        # player.js askSoon: nothing to ask when the screen shows that state already
                        self.ask_pending = self.pushed_key != self.shown_key
                        if self.ask_pending:
                            self.wake.set()
                    # chunked framing (size lines) and nchan's ":" pings are skipped
            except (
                TimeoutError,
                OSError,
                ValueError,
                asyncio.IncompleteReadError,
                asyncio.LimitOverrunError,
            ):
                COUNTS["push connections lost"] += 1
            finally:
                conn.close()
                self.push_live = False
            await asyncio.sleep(3)

    async def join(self) -> bool:
        reply = await self.browser.request("phone: join page", "GET", self.page)
        if reply is None or reply.status != 200:
            return False
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', reply.text):
            await self.browser.request("phone: static file", "GET", asset)
        self.csrf = csrf_from(reply.text)
        push = re.search(r'data-push="([^"]+)"', reply.text)
        self.push_path = html.unescape(push.group(1)) if push and not NO_PUSH else ""
        self._read_status(reply.text)
        self.joined = True
        return True

    def _read_parts(self, text: str) -> None:
        for name, tag in (("b", BOARD.search(text)), ("r", RECEIPT.search(text))):
            if tag is not None:
                key = attr(tag.group(0), "data-key")
                if key:
                    self.parts_shown[name] = key
                else:
                    self.parts_shown.pop(name, None)

    def _read_status(self, text: str) -> None:
        self._read_parts(text)
        tag = STATUS.search(text)
        if tag is None:
            return
        section = tag.group(0)
        self.status_path = attr(section, "hx-get") or self.status_path
        self.shown_key = urllib.parse.parse_qs(urllib.parse.urlsplit(self.status_path).query).get("s", [""])[
            0
        ]
        self.phase = attr(section, "data-phase") or ""
        self.round_id = int(attr(section, "data-round") or 0)
        remaining = attr(section, "data-remaining")
        if self.phase == "running" and remaining is not None:
            self.clock_end = time.monotonic() + float(remaining)
            self._plan_slips(float(remaining))
        if self.phase in ("closed", "ended") and 'class="standing"' in text:
            self.results.setdefault(self.round_id, time.time())

    def _plan_slips(self, remaining: float) -> None:
        """A random moment in the round's last 10 s (as the phone's countdown shows it); one phone
        in five sends a second, different slip, half of those lose the answer and send it again."""
        plan = PLANS.get(self.round_id)
        if plan is None or self.round_id in self.planned or self.phase != "running":
            return
        self.planned.add(self.round_id)
        rng = random.Random(f"{self.seed}:{self.index}:{plan.number}")
        now = time.monotonic()
        first = rng.choices(KINDS, weights=(2, 1, 1))[0]
        if rng.random() < 0.2:
            second = rng.choice([kind for kind in KINDS if kind != first])
            t1 = rng.uniform(max(0.0, remaining - 10), max(0.1, remaining - 4))
            t2 = rng.uniform(t1 + 1, max(t1 + 1.1, remaining - 1.5))
            replay = rng.random() < 0.5
            self._later(self._submit_at(now + t1, self.round_id, first, False))
            self._later(self._submit_at(now + t2, self.round_id, second, replay))
        else:
            t = rng.uniform(max(0.0, remaining - 10), max(0.1, remaining - 0.05))
            self._later(self._submit_at(now + t, self.round_id, first, False))

    def _later(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def slip(self, plan: Plan, kind: str) -> tuple[str, str]:
        """The slip in the engine's notation (a joker's letter in lower case) and the claimed score."""
        top = plan.tops[(self.index + plan.number) % len(plan.tops)]
        if kind == "top":
            return f"{top['ref']} {top['word']}", str(top["score"])
        if kind == "bad word":
            return f"{top['ref']} {top['word'][::-1]}Z", str(top["score"])
        return f"{top['ref']} {top['word']}", str(top["score"] + 3)

    async def _submit_at(self, when: float, round_id: int, kind: str, lose_answer: bool) -> None:
        await sleep_until(when)
        slip, claimed = self.slip(PLANS[round_id], kind)
        form = {
            "csrfmiddlewaretoken": self.csrf,
            "round": str(round_id),
            "request_id": uuid.uuid4().hex,  # player.js: a new id for each slip typed
            "slip": phone_typed(slip),
            "claimed": claimed,
        }
        sending = Sending(round_id, time.time(), stored_text(slip, claimed))
        self.sendings.append(sending)
        async with self.form_busy:
            # player.js: no answer or a 503 is sent again, the same request, after 0.5, 1, 2, 4 s...
            # while the round runs and until 5 s past the countdown's end.
            await self._send(form, sending, drop=lose_answer)
            delay = 0.0
            while sending.outcome in ("no answer", "503") and self._may_retry():
                delay = min(delay * 2, 4.0) if delay else 0.5
                await asyncio.sleep(delay)
                await self._send(form, sending)

    def _may_retry(self) -> bool:
        return self.phase == "running" and (self.clock_end is None or time.monotonic() < self.clock_end + 5)

    async def _send(self, form: dict, sending: Sending, drop: bool = False) -> None:
        path = f"/j/{self.token}/bulletin/"
        headers = htmx_headers(self.browser, self.page, "player-receipt", self.csrf)
        headers["HX-Trigger"] = "player-slip"
        reply = await self.browser.request("phone: slip", "POST", path, form=form, headers=headers, drop=drop)
        if reply is None:
            outcome = "no answer"
        elif reply.status != 200:
            outcome = str(reply.status)
        else:
            error = ERROR.search(reply.text)
            outcome = f"refused: {html.unescape(error.group(1))[:70]}" if error else "accepted"
            self._read_parts(reply.text)  # the receipt and the board it swaps in
        sending.attempts.append(outcome)


# -- the arbiter's screens -------------------------------------------------------------------------


class Poller:
    """The arbiter's game screen or the projector: a full page, then an htmx poll every second."""

    def __init__(self, bucket: str, page: str, element: str, browser: Browser):
        self.bucket = bucket
        self.page = page
        self.element = element
        self.browser = browser
        self.path = ""
        #: The last graded round (id, version) whose slips panel was fetched (the game screen).
        self.shown: tuple | None = None

    def _read(self, text: str) -> None:
        found = re.search(r'hx-get="([^"]*/etat/\?v=[^"]*)"', text)
        if found:
            self.path = html.unescape(found.group(1))

    async def run(self, stop: asyncio.Event) -> None:
        reply = await self.browser.request(f"{self.bucket}: page", "GET", self.page)
        if reply is None or reply.status != 200:
            raise SystemExit(f"cannot open {self.page}")
        csrf = re.search(r'"X-CSRFToken": "([^"]+)"', reply.text).group(1)
        self._read(reply.text)
        planned = time.monotonic() + 1
        while not stop.is_set():
            await sleep_until(planned)
            headers = htmx_headers(self.browser, self.page, self.element, csrf)
            reply = await self.browser.request(f"{self.bucket}: poll", "GET", self.path, headers=headers)
            now = time.monotonic()
            if reply is not None and reply.status == 200:
                self._read(reply.text)
                await self._panel(reply.text, headers)
                planned = now + 1
            else:
                planned += 1
            planned = max(planned, now)
        self.browser.close()

    async def _panel(self, text: str, headers: dict) -> None:
        """The game screen's slips panel, drawn apart from its live region: asked for, as the page's
        script does (arbiter.js), when the last graded round named by the picker is another or moved."""
        found = re.search(r'data-round="(\d+)" data-number="\d+" data-version="(\d+)" data-latest', text)
        if self.element != "live" or found is None or found.groups() == self.shown:
            return
        self.shown = found.groups()
        panel = self.page + "bulletins/"
        await self.browser.request(f"{self.bucket}: slips panel", "GET", panel, headers=headers)


class Arbiter:
    """The arbiter's own clicks, with the logged-in session."""

    def __init__(self, port: int):
        self.browser = Browser(port, timeout=120)
        self.csrf = ""
        self.tournament_id = 0

    async def login(self) -> None:
        page = await self.browser.request("arbiter: action", "GET", "/login/")
        form = {"csrfmiddlewaretoken": csrf_from(page.text), "username": ARBITER[0], "password": ARBITER[1]}
        reply = await self.browser.request("arbiter: action", "POST", "/login/", form=form)
        if reply is None or reply.status != 302:
            raise SystemExit("the arbiter could not log in")

    async def start_game(self) -> int:
        path = f"/tournois/{self.tournament_id}/"
        page = await self.browser.request("arbiter: tournament page (setup)", "GET", path)
        self.csrf = csrf_from(page.text)
        form = {"csrfmiddlewaretoken": self.csrf}
        reply = await self.browser.request("arbiter: action", "POST", path + "parties/", form=form)
        if reply is None or reply.status != 302:
            raise SystemExit("the game did not start")
        return int(re.search(r"/parties/(\d+)/", reply.headers["location"]).group(1))

    async def post(self, path: str, **fields) -> str:
        headers = {"HX-Request": "true", "HX-Target": "live", "X-CSRFToken": self.csrf}
        form = {"csrfmiddlewaretoken": self.csrf, **fields}
        sent = time.time()
        reply = await self.browser.request("arbiter: action", "POST", path, form=form, headers=headers)
        if reply is None or reply.status != 200:
            raise SystemExit(f"POST {path} failed: {reply.status if reply else 'no answer'}")
        error = ERROR.search(reply.text)
        if error:
            raise SystemExit(f"POST {path} refused: {html.unescape(error.group(1))}")
        ACTIONS.append((path, sent, time.time()))
        return reply.text


# -- servers ---------------------------------------------------------------------------------------


def free_port() -> int:
    """A port free on every address: the laptop's server listens on all of them, and the previous
    run's phones (each from its own 127.1.x.y) may leave a port taken on theirs."""
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def wait_for_http(port: int, process: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped; see {log}")
        with contextlib.suppress(OSError):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/login/")
            if conn.getresponse().status == 200:
                return
        time.sleep(0.3)
    raise SystemExit(f"the server did not answer in {seconds} s; see {log}")


def wait_for_line(log: Path, needle: str, process: subprocess.Popen, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if needle in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            raise SystemExit(f"{process.args[0]} stopped; see {log}")
        time.sleep(0.3)
    raise SystemExit(f"{needle!r} not seen in {log}")


class Deployment:
    """The server processes of one deployment and the environment they share with this script."""

    def __init__(self, args, workdir: Path):
        self.args = args
        self.workdir = workdir
        self.port = free_port()
        self.processes: list[tuple[subprocess.Popen, Path]] = []
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        self.env.update(
            {
                "ARBITER_VAR_DIR": str(workdir / "var"),
                "DJANGO_SETTINGS_MODULE": "arbiter.settings",
                "ARBITER_LOG_LEVEL": "WARNING",
                "PYTHONUNBUFFERED": "1",
            }
        )
        self.database = ""
        if args.deployment == "scale":
            self.database = f"loadbench_{int(time.time())}_{os.getpid()}"
            self.env["DATABASE_URL"] = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + self.database
            self.env["REDIS_URL"] = f"redis://127.0.0.1:6379/{args.redis_db}"
            self.env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(40)
            if args.timings:
                self.env["LOADBENCH_TIMINGS"] = str(args.timings)
        self.proxy = None
        if args.deployment == "scale" and not args.no_proxy:
            # As the README deploys it: nginx (deploy/nginx.conf) stamps arrivals and holds the pushes.
            self.app_port = free_port()
            self.strangers_port = free_port()  # the strangers' gunicorn (README: "Running at scale")
            self.proxy = {"listen": f"127.0.0.1:{self.port}", "app": f"127.0.0.1:{self.app_port}",
                          "publisher": f"127.0.0.1:{free_port()}",
                          "strangers": f"127.0.0.1:{self.strangers_port}"}  # fmt: skip
            self.env["ARBITER_TRUSTED_PROXIES"] = "127.0.0.1"
            self.env["ARBITER_CLIENT_IP_HEADER"] = "X-Real-IP"
            if not args.no_push:
                self.env["ARBITER_PUSH_PUBLISH_URL"] = f"http://{self.proxy['publisher']}/pub/"

    def spawn(self, name: str, command: list[str]) -> subprocess.Popen:
        log = self.workdir / f"{name}.log"
        out = log.open("w")
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.processes.append((process, log))
        return process

    def manage(self, *command: str) -> None:
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True)

    def start(self) -> None:
        if self.args.deployment == "embedded":
            self._start_embedded()
        else:
            self._start_scale()

    def _start_embedded(self) -> None:
        args = self.args
        if args.profile or args.timings or args.connection_limit:
            limit = str(args.connection_limit or 0)  # 0: manage.py serve's
            out = str(args.profile or args.timings or "-")
            mode = "profile" if args.profile else "timings" if args.timings else "-"
            command = [sys.executable, __file__, "--serve-embedded", str(self.port), limit, mode, out]
            command.append(str(args.threads or 0))
        else:
            command = [sys.executable, "manage.py", "serve", "--port", str(self.port)]
            if args.threads:
                command += ["--threads", str(args.threads)]
        server = self.spawn("server", command)
        wait_for_http(self.port, server, self.workdir / "server.log")

    def _start_scale(self) -> None:
        import psycopg
        import redis

        with psycopg.connect(PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True) as pg:
            pg.execute(f'CREATE DATABASE "{self.database}"')
        redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()  # this bench's own database number only
        self.manage("migrate", "--verbosity=0")
        self.manage("collectstatic", "--noinput", "--verbosity=0")
        worker = self.spawn(
            "celery",
            [str(BIN / "celery"), "-A", "arbiter", "worker", "--loglevel=INFO",
             f"--concurrency={self.args.celery_concurrency}"],
        )  # fmt: skip
        wait_for_line(self.workdir / "celery.log", "ready.", worker)
        server = self.spawn("gunicorn", self.gunicorn_command())
        if self.proxy is None:
            wait_for_http(self.port, server, self.workdir / "gunicorn.log")
            return
        wait_for_http(self.app_port, server, self.workdir / "gunicorn.log")
        # The strangers' gunicorn: one worker of 2 threads, at nice 10, as the README deploys it.
        bind = f"127.0.0.1:{self.strangers_port}"
        command = ["nice", "-n", "10", str(BIN / "gunicorn"), "arbiter.wsgi:application", "--bind", bind]
        strangers = self.spawn("gunicorn-strangers", [*command, "--workers", "1"])
        wait_for_http(self.strangers_port, strangers, self.workdir / "gunicorn-strangers.log")
        conf = self.workdir / "nginx.conf"
        run = self.workdir / "nginx"
        run.mkdir(exist_ok=True)
        command = [sys.executable, "manage.py", "nginx_conf", "--foreground", "--run", str(run)]
        command += ["--user", getpass.getuser()]  # nginx's workers read var/static, this account's own
        command += [f"--{name}={value}" for name, value in self.proxy.items()]
        conf.write_text(
            subprocess.run(command, cwd=ROOT, env=self.env, check=True, capture_output=True, text=True).stdout
        )
        nginx = self.spawn(
            "nginx",
            [shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(conf), "-e", str(run / "start.log")],
        )
        wait_for_http(self.port, nginx, self.workdir / "nginx.log")

    def gunicorn_command(self) -> list[str]:
        app = (
            ["--pythonpath", "scripts", "loadbench:timed_application"]
            if self.args.timings
            else ["arbiter.wsgi:application"]
        )
        # gunicorn.conf.py (read from ROOT, the working directory) holds the settings not given here.
        port = self.app_port if self.proxy else self.port
        command = [str(BIN / "gunicorn"), *app, "--bind", f"127.0.0.1:{port}"]
        if self.args.web_workers:
            command += ["--workers", str(self.args.web_workers)]
        if self.args.web_threads:
            command += ["--threads", str(self.args.web_threads)]
        return command

    def stop(self) -> None:
        for process, _log in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process, _log in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.database and not self.args.keep:
            self._drop_database()
            import redis

            redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()

    def _drop_database(self) -> None:
        import psycopg
        from django.conf import settings
        from django.db import connections

        if settings.configured:
            connections.close_all()
        with psycopg.connect(PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True) as pg:
            pg.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [self.database]
            )
            pg.execute(f'DROP DATABASE IF EXISTS "{self.database}"')


# -- the tournament, made through the ORM ----------------------------------------------------------


def setup_django(env: dict) -> None:
    os.environ.update(env)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if name not in env:
            os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_tournament(players: int, round_seconds: int) -> tuple[int, list[tuple[int, str]]]:
    import datetime

    from django.contrib.auth.models import User

    from lexicons.loaded import lexicon_default_row
    from tournaments import services
    from tournaments.models import Player

    user = User.objects.filter(username=ARBITER[0]).first()
    if user is None:
        user = User.objects.create_superuser(ARBITER[0], password=ARBITER[1])
    tournament = services.tournament_create(
        created_by=user,
        lexicon=lexicon_default_row(),
        name="Banc d'essai",
        date=datetime.date.today(),
        place="loadbench",
    )
    # Shorter than any round time the form offers: set through the ORM, as the report says.
    tournament.round_seconds = round_seconds
    tournament.save(update_fields=["round_seconds"])
    for n in range(1, players + 1):
        services.player_register(tournament=tournament, name=f"Joueur {n:03d}", table_number=n)
    rows = Player.objects.filter(tournament=tournament).order_by("table_number").values_list("pk", "token")
    return tournament.pk, list(rows)


def wait_top_ready(round_id: int, seconds: float = 120) -> Plan:
    from django.db import connection

    from tournaments.models import Round

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rnd = Round.objects.get(pk=round_id)
        if rnd.top_state == Round.TopState.READY:
            connection.close()
            return Plan(rnd.number, rnd.tops)
        if rnd.top_state == Round.TopState.FAILED:
            raise SystemExit(f"the top search failed for round {round_id}")
        time.sleep(0.2)
    raise SystemExit(f"no top for round {round_id} after {seconds} s")


def round_times(round_id: int) -> dict:
    from django.db import connection
    from django.db.models import Count, Max, Min

    from tournaments.models import Round, Submission

    rnd = Round.objects.select_related("game__tournament").get(pk=round_id)
    slips = Submission.objects.filter(round_id=round_id)
    agg = slips.aggregate(n=Count("id"), graded_last=Max("graded_at"), graded_first=Min("graded_at"))
    per_player = slips.values("player_id").annotate(n=Count("id")).filter(n__gt=1).count()
    rows = {s.player_id: s for s in slips}
    reasons = Counter(f"{s.sanction or 'ok'}/{s.reason or '-'}" for s in rows.values())
    ungraded = sum(1 for s in rows.values() if s.graded_at is None)
    connection.close()
    return {
        "deadline": rnd.deadline.timestamp() if rnd.deadline else None,
        "grace": rnd.game.tournament.grace_seconds,
        "closed": rnd.closed_at.timestamp() if rnd.closed_at else None,
        "graded_first": agg["graded_first"].timestamp() if agg["graded_first"] else None,
        "graded_last": agg["graded_last"].timestamp() if agg["graded_last"] else None,
        "slips": agg["n"],
        "players_with_two_rows": per_player,
        "ungraded": ungraded,
        "rows": {pid: s.slip_text() for pid, s in rows.items()},
        "reasons": reasons,
    }


# -- one run ---------------------------------------------------------------------------------------


@dataclass
class RoundResult:
    number: int
    round_id: int
    times: dict
    phones_with_results: int = 0
    first_results: float | None = None
    last_results: float | None = None
    checks: dict = field(default_factory=dict)
    players: int = 0  # the phones of its room
    centre: int = 0  # --centres: which centre's room (1..N)


ORM = ThreadPoolExecutor(max_workers=1, thread_name_prefix="orm")


async def orm(function, *args):
    """The database is read by one thread of its own, never by the event loop's."""
    return await asyncio.get_running_loop().run_in_executor(ORM, function, *args)


async def wait_until(predicate, seconds: float, step: float = 0.1) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        await asyncio.sleep(step)
    return predicate()


async def wait_closed(round_id: int, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and (await orm(round_times, round_id))["closed"] is None:
        await asyncio.sleep(0.5)


async def play_round(arbiter: Arbiter, game_id: int, number: int, phones: list[Phone], args) -> RoundResult:
    page = await arbiter.post(f"/parties/{game_id}/tirage/", expected_number=str(number), rack="")
    round_id = int(re.search(r"/coups/(\d+)/chrono/", page).group(1))
    PLANS[round_id] = await orm(wait_top_ready, round_id)
    print(f"  round {number}: drawn (round id {round_id}), top ready; starting the clock", flush=True)
    await arbiter.post(f"/coups/{round_id}/chrono/")
    deadline = (await orm(round_times, round_id))["deadline"]
    await sleep_until(time.monotonic() + deadline - time.time())
    joined = [p for p in phones if p.joined]
    got_all = await wait_until(lambda: all(round_id in p.results for p in joined), args.results_timeout)
    if not got_all:
        print(f"  round {number}: not every phone showed its results within {args.results_timeout} s")
    await wait_closed(round_id, args.results_timeout)  # the arbiter places the top once closed
    result = RoundResult(number, round_id, await orm(round_times, round_id))
    seen = [p.results[round_id] for p in phones if round_id in p.results]
    result.phones_with_results = len(seen)
    result.first_results = min(seen) - deadline if seen else None
    result.last_results = max(seen) - deadline if seen else None
    path = f"/tournois/{arbiter.tournament_id}/classement/"
    await arbiter.browser.request("arbiter: ranking page", "GET", path)
    await arbiter.post(f"/coups/{round_id}/placer/", index="0")
    return result


async def play_rounds(arbiter: Arbiter, game_id: int, phones: list[Phone], players: dict, args) -> list:
    """The room's rounds one after the other, each checked against the database."""
    results = []
    for number in range(1, args.rounds + 1):
        result = await play_round(arbiter, game_id, number, phones, args)
        result.checks = check_round(result, phones, players)
        results.append(result)
        await asyncio.sleep(args.pause)
    return results


def check_round(result: RoundResult, phones: list[Phone], players: dict[str, int]) -> dict:
    """The database after the round: every player's row is the last slip the server accepted.  A slip
    sent after it whose answer never came (and was not accepted when sent again) may be there too."""
    times = result.times
    deadline = times["deadline"]
    sent = [s for p in phones for s in p.sendings if s.round_id == result.round_id]
    before = [s for s in sent if s.sent < deadline]
    mismatched, unsure = [], 0
    for phone in phones:
        mine = [s for s in phone.sendings if s.round_id == result.round_id]
        done = [i for i, s in enumerate(mine) if s.outcome == "accepted"]
        allowed = {mine[done[-1]].text} if done else {None}
        lost = {s.text for s in mine[(done[-1] + 1 if done else 0) :] if s.maybe_stored}
        unsure += bool(lost)
        stored = times["rows"].get(players[phone.token])
        if stored not in allowed | lost:
            mismatched.append((phone.index, sorted(allowed | lost, key=str), stored))
    return {
        "sent": len(sent),
        "attempts": Counter(a for s in sent for a in s.attempts),
        "sent_before_deadline": len(before),
        "accepted_before_deadline": sum(s.outcome == "accepted" for s in before),
        "outcomes": Counter(s.outcome for s in sent),
        "mismatched": mismatched,
        "unsure": unsure,
    }


def make_clients(
    args, port: int, rows, arbiter: Arbiter, game_id: int, first: int = 0, total: int = 0
) -> tuple[list[Phone], list[Poller]]:
    """The room's phones (numbered from ``first`` among ``total``: each its own address) and screens."""
    now = time.monotonic()
    total = total or len(rows)
    phones = [
        Phone(first + i, token, port, args.seed, now + args.join_seconds * (first + i) / max(1, total))
        for i, (_pk, token) in enumerate(rows)
    ]
    screens = []
    for bucket, page, element in (
        ("arbiter game screen", f"/parties/{game_id}/", "live"),
        ("projector", f"/projecteur/{game_id}/", "projection"),
    ):
        browser = Browser(port)
        browser.cookies = dict(arbiter.browser.cookies)
        screens.append(Poller(bucket, page, element, browser))
    return phones, screens


async def session(args, port: int) -> list[RoundResult]:
    public_key = await orm(make_public_event, args.players, args.seed) if args.public_rps else ""
    tournament_id, rows = await orm(make_tournament, args.players, args.round_seconds)
    players = {token: pk for pk, token in rows}
    arbiter = Arbiter(port)
    arbiter.tournament_id = tournament_id
    await arbiter.login()
    game_id = await arbiter.start_game()
    print(f"  tournament {tournament_id}, game {game_id}, {len(rows)} players, port {port}", flush=True)
    phones, screens = make_clients(args, port, rows, arbiter, game_id)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(actor.run(stop)) for actor in [*screens, *phones]]
    if not await wait_until(lambda: all(p.joined for p in phones), args.join_seconds + 60, 0.2):
        print("  some phones could not join", flush=True)
    print(f"  {sum(p.joined for p in phones)} phones joined", flush=True)
    tasks += start_strangers(args, port, stop, public_key)
    await asyncio.sleep(3)
    results = await play_rounds(arbiter, game_id, phones, players, args)
    stop.set()
    await asyncio.wait(tasks, timeout=70)
    if args.profile or args.timings:
        await arbiter.browser.request("(bench) timings dump", "GET", DUMP_PATH)
    return results


# -- a simultaneous: several centres' rooms on one server (--centres) -------------------------------


def make_event(players: int, centres: int, round_seconds: int, seed: int) -> tuple[str, list[tuple]]:
    """A prepared simultaneous (a game the engine plays from ``seed``), ``centres`` clubs joined as its
    centres and the players shared among them: the event's public key and, per centre, (tournament
    id, game id, players' rows)."""
    import datetime

    from django.contrib.auth.models import User

    from clubs.models import Club
    from engine import record as engine_record
    from engine.cli import play_game
    from lexicons.loaded import engine_lexicon, lexicon_default_row
    from simultaneous import services as simultaneous
    from simultaneous.models import Event
    from tournaments import services
    from tournaments.models import Player, Tournament

    user = User.objects.filter(username=ARBITER[0]).first() or User.objects.create_superuser(
        ARBITER[0], password=ARBITER[1]
    )
    lexicon = lexicon_default_row()
    record = engine_record.to_dict(play_game(seed, engine_lexicon(lexicon)))
    clubs = [Club.objects.create(name=f"Centre {n}") for n in range(1, centres + 1)]
    event = simultaneous.event_create(
        organiser=clubs[0], created_by=user, record_file=json.dumps(record).encode(),
        kind=Event.Kind.PREPARED, name="Simultané d'essai", date=datetime.date.today(), lexicon=lexicon,
        round_seconds=180,
    )  # fmt: skip
    rooms = []
    for n, club in enumerate(clubs):
        simultaneous.centre_register(event=event, club=club)  # the organiser's registration: live
        centre = simultaneous.event_join(event=event, club=club, created_by=user)
        # Shorter than any round time the form offers: set through the ORM, as for one room.
        Tournament.objects.filter(pk=centre.tournament_id).update(round_seconds=round_seconds)
        count = players // centres + (n < players % centres)
        for table in range(1, count + 1):
            services.player_register(
                tournament=centre.tournament, name=f"Joueur {n + 1}-{table}", table_number=table
            )
        rows = Player.objects.filter(tournament_id=centre.tournament_id).order_by("table_number")
        rooms.append((centre.tournament_id, centre.game_id, list(rows.values_list("pk", "token"))))
    return event.public_key, rooms


async def public_reader(port: int, key: str, stop: asyncio.Event, every: float) -> None:
    """Someone following the event's public results page (no login), reading it every few seconds."""
    browser = Browser(port)
    while not stop.is_set():
        await browser.request("public results page", "GET", f"/simultane/{key}/")
        await asyncio.sleep(every)
    browser.close()


async def session_centres(args, port: int) -> list[RoundResult]:
    key, rooms = await orm(make_event, args.players, args.centres, args.round_seconds, args.seed)
    main = Arbiter(port)
    await main.login()
    page = await main.browser.request("arbiter: tournament page (setup)", "GET", f"/tournois/{rooms[0][0]}/")
    main.csrf = csrf_from(page.text)
    print(f"  event {key}: {len(rooms)} centres, {args.players} players, port {port}", flush=True)
    stop = asyncio.Event()
    tasks, everyone, centres = [], [], []
    for tournament_id, game_id, rows in rooms:
        arbiter = Arbiter(port)  # the centre's arbiter: the same account (it sees every club)
        arbiter.browser.cookies, arbiter.csrf = dict(main.browser.cookies), main.csrf
        arbiter.tournament_id = tournament_id
        phones, screens = make_clients(args, port, rows, arbiter, game_id, len(everyone), args.players)
        everyone += phones
        centres.append((arbiter, game_id, phones, {token: pk for pk, token in rows}))
        tasks += [asyncio.create_task(actor.run(stop)) for actor in [*screens, *phones]]
    tasks += [asyncio.create_task(public_reader(port, key, stop, 5.0)) for _ in range(args.readers)]
    if not await wait_until(lambda: all(p.joined for p in everyone), args.join_seconds + 60, 0.2):
        print("  some phones could not join", flush=True)
    print(f"  {sum(p.joined for p in everyone)} phones joined", flush=True)
    tasks += start_strangers(args, port, stop, key)
    await asyncio.sleep(3)

    async def centre_plays(n: int, arbiter: Arbiter, game_id: int, phones: list[Phone], players: dict):
        await asyncio.sleep(n * args.centre_stagger)  # each centre at its own pace
        results = await play_rounds(arbiter, game_id, phones, players, args)
        for result in results:
            result.players, result.centre = len(phones), n + 1
        return results

    played = await asyncio.gather(*(centre_plays(n, *centre) for n, centre in enumerate(centres)))
    stop.set()
    await asyncio.wait(tasks, timeout=70)
    return [r for results in played for r in results]


# -- strangers: readers of a public page, people training (--public-rps, --trainers) ---------------

#: Seconds between two reads of the public page by one reader (--public-rps: rps * this readers).
READ_EVERY = 2.0


def make_public_event(players: int, seed: int) -> str:
    """For --public-rps with one room: a prepared simultaneous whose one centre played a round with
    ``players`` players, every one of them sending the top: a public page as long as a hall's."""
    from tournaments import services
    from tournaments.models import Player, Round

    key, ((_tournament_id, game_id, rows),) = make_event(players, 1, 180, seed + 1)
    rnd = services.round_draw(game_id=game_id, expected_number=1).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    slip = f"{top['ref']} {top['word']} {top['score']}"
    for player in Player.objects.filter(pk__in=[pk for pk, _token in rows]):
        services.submission_record(player=player, round_id=rnd.pk, text=slip)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    return key


def start_strangers(args, port: int, stop: asyncio.Event, key: str) -> list[asyncio.Task]:
    """Readers of the public page reading it ``args.public_rps`` times a second in all, and
    ``args.trainers`` people training, each from an address of its own."""
    readers = round(args.public_rps * READ_EVERY)
    tasks = [asyncio.create_task(stranger_reads(port, key, n, readers, stop)) for n in range(readers)]
    tasks += [asyncio.create_task(stranger_trains(port, n, stop)) for n in range(args.trainers)]
    if readers or args.trainers:
        print(f"  strangers: {readers} readers of the public page, {args.trainers} training", flush=True)
    return tasks


async def stranger_reads(port: int, key: str, n: int, readers: int, stop: asyncio.Event) -> None:
    browser = Browser(port, local_address=f"127.3.{n // 250}.{n % 250 + 1}")
    planned = time.monotonic() + READ_EVERY * n / readers
    while not stop.is_set():
        await sleep_until(planned)
        await browser.request("stranger: public results page", "GET", f"/simultane/{key}/")
        planned = max(planned + READ_EVERY, time.monotonic())
    browser.close()


async def stranger_trains(port: int, n: int, stop: asyncio.Event) -> None:
    """A new random game, two rounds played as fast as a person would (2 s to pass, 1 s on the
    results and the best placements), then another game; told to wait (429, 503), it waits."""
    browser = Browser(port, local_address=f"127.4.{n // 250}.{n % 250 + 1}")
    await asyncio.sleep(n * 0.5)
    while not stop.is_set():
        page = await browser.request("stranger: training start page", "GET", "/entrainement/")
        if page is None or page.status != 200:
            await asyncio.sleep(2)
            continue
        csrf = csrf_from(page.text)
        form = {"csrfmiddlewaretoken": csrf, "source": "random", "seconds": "180"}
        reply = await browser.request("stranger: training new game", "POST", "/entrainement/", form=form)
        if reply is None or reply.status != 302:
            await asyncio.sleep(float(reply.headers.get("retry-after", 2)) if reply else 2)
            continue
        for _round in range(2):
            while not stop.is_set():
                reply = await browser.request("stranger: training round", "GET", "/entrainement/coup/")
                if reply is not None and 'class="rack"' in reply.text:
                    break
                await asyncio.sleep(float(reply.headers.get("retry-after", 1)) if reply else 1)
            await asyncio.sleep(2)
            for action, pause in (("passer", 1), ("suivant", 0)):
                await browser.request("stranger: training action", "POST", f"/entrainement/{action}/",
                                      form={"csrfmiddlewaretoken": csrf})  # fmt: skip
                await browser.request("stranger: training round", "GET", "/entrainement/coup/")
                await asyncio.sleep(pause)
    browser.close()


def report_strangers(buckets) -> None:
    for name in sorted(b for b in buckets if b.startswith("stranger:")):
        samples = buckets[name]
        span = max(s.sent for s in samples) - min(s.sent for s in samples) if samples else 0
        statuses = dict(Counter(s.status for s in samples))
        print(f"  {name}: {len(samples)} requests, {len(samples) / max(span, 1):.1f}/s, {statuses}")


def run(args) -> int:
    workdir = Path(tempfile.mkdtemp(prefix=f"loadbench-{args.deployment}-"))
    deployment = Deployment(args, workdir)
    args.load_before = os.getloadavg()[0]
    print(f"{args.deployment}: work files in {workdir}, load average {args.load_before:.2f}", flush=True)
    global NO_PUSH
    NO_PUSH = args.no_push
    try:
        deployment.start()
        setup_django(deployment.env)
        SAMPLER.thread.start()
        play = session_centres if args.centres else session
        results = asyncio.run(play(args, deployment.port))
    finally:
        SAMPLER.stop.set()
        deployment.stop()
        ORM.shutdown()
        print(f"  server logs: {workdir}")
        if not args.keep:
            shutil.rmtree(workdir / "var", ignore_errors=True)
    status = report(args, results, deployment)
    if args.profile or args.timings:
        summarize_timings(args.profile or args.timings)
    return status


# -- CPU by component ------------------------------------------------------------------------------

COMPONENTS = ("web", "nginx", "database", "redis", "workers", "training")
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _component(pid: str, me: int) -> str | None:
    try:
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return None
    if int(pid) == me:
        return None
    if comm.startswith("nginx"):
        return "nginx"
    if comm.startswith("postgres"):
        return "database"
    if comm.startswith("redis-server"):
        return "redis"
    if "celery" in cmdline and " worker" in cmdline:
        return "workers"
    if "spawn_main" in cmdline:  # a web process's training worker (training/worker.py)
        return "training"
    if "gunicorn" in cmdline or "manage.py serve" in cmdline or "--serve-embedded" in cmdline:
        return "web"
    return None


def cpu_now() -> dict[str, float]:
    """CPU seconds used so far by each component's processes, their reaped children included (a
    database connection's backend that ended counts in its postmaster's)."""
    totals = dict.fromkeys(COMPONENTS, 0.0)
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        kind = _component(pid, me)
        if kind is None:
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        totals[kind] += sum(int(x) for x in fields[11:15]) / TICK  # utime stime cutime cstime
    totals["client"] = time.process_time()
    return totals


class CpuSampler:
    """``cpu_now()`` every half second, in a thread of its own: (wall time, totals)."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            self.samples.append((time.time(), cpu_now()))
            self.stop.wait(0.5)

    def used(self, start: float, end: float) -> dict[str, float]:
        """CPU seconds each component used between two wall times (the nearest samples)."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return {}
        (t0, a), (t1, b) = inside[0], inside[-1]
        return {k: b[k] - a[k] for k in b} | {"seconds": t1 - t0}


SAMPLER = CpuSampler()


def report_cpu(args, results: list[RoundResult]) -> None:
    """What the capacity model needs: CPU per phone per minute while a round runs quietly, what a
    round-state change costs (every phone fetching its new screen), and the slips' last 10 s."""
    if not results or len(SAMPLER.samples) < 4:
        return
    names = [*COMPONENTS, "client"]
    print(f"  CPU (seconds of one core; {os.cpu_count()} cores): " + " ".join(f"{n:>9}" for n in names))

    def line(label: str, used: dict, per: float = 1.0, unit: str = "") -> None:
        if used:
            print(f"    {label:<40}" + " ".join(f"{used.get(n, 0) / per * 1000:8.1f}m" for n in names) + unit)

    quiet, changes, slips = defaultdict(float), [], defaultdict(float)
    quiet_seconds = 0.0
    for r in results:
        deadline = r.times["deadline"]
        # From 4 s after the clock started to 11 s before the deadline: nothing changes, nobody sends.
        window = SAMPLER.used(deadline - args.round_seconds + 4, deadline - 11)
        if window:
            quiet_seconds += window["seconds"]
            for k in names:
                quiet[k] += window.get(k, 0.0)
        last10 = SAMPLER.used(deadline - 10, deadline)
        for k in names:
            slips[k] += last10.get(k, 0.0)
    if quiet_seconds:
        rate = {k: quiet[k] / quiet_seconds for k in names}
        line("quiet, per phone per minute", {k: rate[k] * 60 for k in names}, args.players, " (ms)")
        for r in results:
            if r.times["closed"]:
                used = SAMPLER.used(r.times["closed"] - 0.5, r.times["closed"] + 5)
                if used:
                    changes.append({k: used[k] - rate[k] * used["seconds"] for k in names})
        for _path, sent, _done in ACTIONS:
            used = SAMPLER.used(sent - 0.5, sent + 5)
            if used:
                changes.append({k: used[k] - rate[k] * used["seconds"] for k in names})
        if changes:
            mean = {k: sum(c[k] for c in changes) / len(changes) for k in names}
            line(
                f"a state change, per phone ({len(changes)} seen)",
                mean,
                args.players,
                " (ms, over the quiet)",
            )
        sent = sum(r.checks.get("sent", 0) for r in results)
        extra = {k: slips[k] - rate[k] * 10 * len(results) for k in names}
        line(f"a slip ({sent} sent in the last 10 s)", extra, max(1, sent), " (ms, over the quiet)")
    total = SAMPLER.used(SAMPLER.samples[0][0], SAMPLER.samples[-1][0])
    line(f"whole run ({total.get('seconds', 0):.0f} s)", total, 1.0, " (ms)")


# -- the report ------------------------------------------------------------------------------------


def report(args, results: list[RoundResult], deployment: Deployment) -> int:
    print()
    print(f"== {args.deployment}: {args.players} phones, {len(results)} rounds of {args.round_seconds} s ==")
    if args.deployment == "scale":
        front = "nginx (deploy/nginx.conf) before " if deployment.proxy else "no proxy: "
        push = "; phones polling every 2 s" if args.no_push or not deployment.proxy else "; changes pushed"
        print(f"   {front}gunicorn: {' '.join(deployment.gunicorn_command()[1:])}{push}")
        print(f"   celery worker --concurrency={args.celery_concurrency}")
    print(
        f"   load average before {args.load_before:.2f}, at the end {os.getloadavg()[0]:.2f} "
        f"({os.cpu_count()} cores, shared with the load client)"
    )
    print(f"  {'requests':<34} {'count':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    buckets = defaultdict(list)
    for sample in SAMPLES:
        buckets[sample.bucket].append(sample)
    for name in sorted(buckets):
        print(latency_line(name, buckets[name]))
    closing, after_action, quiet = [], [], []
    for sample in buckets["phone: status poll"]:
        if any(
            r.times["deadline"] <= sample.sent <= r.times["deadline"] + (r.last_results or 0) for r in results
        ):
            closing.append(sample)
        elif any(sent <= sample.sent <= done + AFTER_ACTION_SECONDS for _path, sent, done in ACTIONS):
            after_action.append(sample)
        else:
            quiet.append(sample)
    print(latency_line("phone: status poll, round closing", closing))
    print(latency_line(f"phone: status poll, {AFTER_ACTION_SECONDS:.0f} s after an action", after_action))
    print(latency_line("phone: status poll, other times", quiet))
    if args.timings:
        dump = {
            "samples": [asdict(s) for s in SAMPLES],
            "actions": ACTIONS,
            "rounds": [r.times for r in results],
        }
        (args.timings / "client.json").write_text(json.dumps(dump, default=str))
    lag = [x * 1000 for x in LAG]
    print(f"  client schedule lag p99 {percentile(lag, 99):.0f} ms, max {max(lag, default=0):.0f} ms")
    statuses = Counter(f"{s.bucket} {s.status}" for s in SAMPLES if s.status not in ("200", "204", "302"))
    print("  errors by status:", dict(statuses) or "none", dict(COUNTS) or "")
    ok = True
    for r in results:
        ok &= print_round(r, r.players or args.players)
    print_goals(args, buckets, results)
    report_strangers(buckets)
    report_cpu(args, results)
    if PUSHES:
        print(f"  pushed messages received by the phones: {len(PUSHES)}")
    return 0 if ok else 1


def print_round(r: RoundResult, players: int) -> bool:
    t, c = r.times, r.checks
    deadline, grace = t["deadline"], t["grace"]

    def since(value):
        return f"{value - deadline:+.2f} s" if value else "—"

    accepted = c["accepted_before_deadline"] / max(1, c["sent_before_deadline"]) * 100
    where = f"centre {r.centre}, " if r.centre else ""
    print(f"  {where}round {r.number} (id {r.round_id}), deadline + grace {grace} s:")
    print(
        f"    slips sent {c['sent']}, before the deadline {c['sent_before_deadline']}, "
        f"accepted {c['accepted_before_deadline']} ({accepted:.1f} %)"
    )
    print(f"    slips' outcomes: {dict(c['outcomes'])}")
    print(f"    requests' answers: {dict(c['attempts'])}")
    print(
        f"    database: {t['slips']} rows, players with two rows {t['players_with_two_rows']}, "
        f"rows differing from the last accepted slip {len(c['mismatched'])} "
        f"(players whose last slip's answer was lost: {c['unsure']}), ungraded {t['ungraded']}"
    )
    for index, expected, stored in c["mismatched"][:5]:
        print(f"      phone {index}: expected {expected!r}, stored {stored!r}")
    print(f"    grades: {dict(t['reasons'])}")
    print(
        f"    from the deadline: closed {since(t['closed'])}, first slip graded {since(t['graded_first'])}, "
        f"all graded {since(t['graded_last'])}"
    )
    first = f"{r.first_results:+.2f} s" if r.first_results is not None else "—"
    last = f"{r.last_results:+.2f} s" if r.last_results is not None else "—"
    print(
        f"    phones showing their results: {r.phones_with_results}/{players}, first {first}, last {last}",
        end="",
    )
    if r.last_results is not None and t["closed"]:
        print(f" (last: {deadline + r.last_results - t['closed']:+.2f} s after the close)")
    else:
        print()
    return accepted == 100.0 and not c["mismatched"] and not t["ungraded"] and not t["players_with_two_rows"]


def print_goals(args, buckets, results: list[RoundResult]) -> None:
    statuses = buckets["phone: status poll"] + buckets["phone: status, pushed"]
    polls = [s.seconds for s in statuses if s.status.isdigit()]
    slips = [s.seconds for s in buckets["phone: slip"] if s.status.isdigit()]
    worst = max((r.last_results or float("inf")) for r in results) if results else float("nan")
    after_close = [
        r.times["deadline"] + r.last_results - r.times["closed"]
        for r in results
        if r.last_results is not None and r.times["closed"]
    ]
    goal = 0.5 if args.deployment == "embedded" else 1.0
    print(f"  goals ({args.deployment}): p99 < {goal * 1000:.0f} ms", end="")
    p99_polls, p99_slips = percentile(polls, 99) * 1000, percentile(slips, 99) * 1000
    print(f"; status p99 {p99_polls:.0f} ms, slips p99 {p99_slips:.0f} ms", end="")
    print(
        f"; last phone's results {worst:+.2f} s after the deadline, "
        f"{max(after_close, default=float('nan')):+.2f} s after the close (goal: within 4 s)"
    )


# -- the profiled server (embedded) ----------------------------------------------------------------


def request_kind(environ: dict) -> str:
    path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
    for pattern, name in (
        (r"^/j/[^/]+/etat/$", "phone poll"),
        (r"^/j/[^/]+/bulletin/$", "phone slip"),
        (r"^/j/[^/]+/$", "phone join"),
        (r"^/parties/\d+/etat/$", "game poll"),
        (r"^/parties/\d+/bulletins/$", "slips panel"),
        (r"^/projecteur/\d+/etat/$", "projector poll"),
        (r"^/static/", "static"),
        (r"^/tournois/\d+/classement/$", "ranking page"),
    ):
        if re.match(pattern, path):
            return name
    return f"other {method}"


class ProfiledApp:
    """WSGI wrapper: per kind of request (and answer's status), the count, the time inside the
    application, the queries and their time; a cProfile per thread and kind, merged when dumped."""

    def __init__(self, app, out: Path, cprofile: bool = True):
        import cProfile

        self.app = app
        self.out = out
        self.cprofile = cprofile
        self.profile_class = cProfile.Profile
        self.lock = threading.Lock()
        self.local = threading.local()
        self.profiles: list[tuple[str, object]] = []
        self.stats: dict[str, list] = defaultdict(list)
        self.dumped = time.monotonic()

    def _profile(self, kind: str):
        mine = self.local.__dict__.setdefault("profiles", {})
        if kind not in mine:
            mine[kind] = self.profile_class(time.thread_time)  # CPU: what a request costs, not its waits
            with self.lock:
                self.profiles.append((kind, mine[kind]))
        return mine[kind]

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") == DUMP_PATH:
            self.dump()
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"dumped"]
        from django.db import connection

        queries = [0, 0.0]

        def count(execute, sql, params, many, context):
            start = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                queries[0] += 1
                queries[1] += time.perf_counter() - start

        seen = []

        def start(status, headers, exc_info=None):
            seen.append(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info)

        kind = request_kind(environ)
        profile = self._profile(kind) if self.cprofile else None
        began, cpu, wall = time.perf_counter(), time.thread_time(), time.time()
        with connection.execute_wrapper(count):
            if profile:
                profile.enable()
            try:
                result = self.app(environ, start)
                body = b"".join(result)
                if hasattr(result, "close"):
                    result.close()
            finally:
                if profile:
                    profile.disable()
        elapsed, cpu = time.perf_counter() - began, time.thread_time() - cpu
        with self.lock:
            row = (elapsed, queries[0], queries[1], cpu, wall)
            self.stats[f"{kind} {seen[0] if seen else '-'}"].append(row)
        if not self.cprofile:
            self.dump_now_and_then()
        return [body]

    def dump(self) -> None:
        """This process's rows (``rows-<pid>.json``) and, when profiling, its merged profiles."""
        import pstats

        self.out.mkdir(parents=True, exist_ok=True)
        with self.lock:
            rows = {kind: list(values) for kind, values in self.stats.items()}
            merged: dict[str, pstats.Stats] = {}
            for kind, profile in self.profiles:
                if kind in merged:
                    merged[kind].add(profile)
                else:
                    merged[kind] = pstats.Stats(profile)
        (self.out / f"rows-{os.getpid()}.json").write_text(json.dumps(rows), encoding="utf-8")
        for kind, stats in merged.items():
            stats.dump_stats(self.out / (re.sub(r"\W+", "_", kind).strip("_") + ".prof"))

    def dump_now_and_then(self) -> None:
        """Several server processes (gunicorn) cannot all be asked: each writes its rows every few
        seconds."""
        if time.monotonic() - self.dumped > 3:
            self.dumped = time.monotonic()
            self.dump()


def summarize_timings(out: Path) -> None:
    """Merge every process's rows into ``requests.json`` and print them, costliest first."""
    rows: dict[str, list] = defaultdict(list)
    for path in out.glob("rows-*.json"):
        for kind, values in json.loads(path.read_text(encoding="utf-8")).items():
            rows[kind] += values
    summary = {
        kind: {
            "count": len(r),
            "wall_ms_mean": round(1000 * sum(x[0] for x in r) / len(r), 1),
            "wall_ms_p99": round(1000 * percentile([x[0] for x in r], 99), 1),
            "queries_mean": round(sum(x[1] for x in r) / len(r), 1),
            "queries_max": max(x[1] for x in r),
            "query_ms_mean": round(1000 * sum(x[2] for x in r) / len(r), 1),
            # CPU time of the request's own thread: its cost, whatever the GIL or a lock made it wait.
            "cpu_ms_mean": round(1000 * sum(x[3] for x in r) / len(r), 1),
            "cpu_ms_max": round(1000 * max(x[3] for x in r), 1),
            "cpu_s_total": round(sum(x[3] for x in r), 2),
        }
        for kind, r in rows.items()
    }
    (out / "requests.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(f"  server side, per kind of request (inside the application; {out}/requests.json):")
    print(
        f"  {'kind':<22}{'count':>7}{'CPU ms':>8}{'CPU max':>9}{'CPU s':>8}{'wall ms':>9}{'wall p99':>9}"
        f"{'queries':>8}{'max':>5}{'query ms':>9}"
    )
    for kind, v in sorted(summary.items(), key=lambda item: -item[1]["cpu_s_total"]):
        print(
            f"  {kind:<22}{v['count']:>7}{v['cpu_ms_mean']:>8}{v['cpu_ms_max']:>9}{v['cpu_s_total']:>8}"
            f"{v['wall_ms_mean']:>9}{v['wall_ms_p99']:>9}{v['queries_mean']:>8}{v['queries_max']:>5}"
            f"{v['query_ms_mean']:>9}"
        )


_TIMED = None


def timed_application(environ, start_response):
    """gunicorn's entry point for ``--timings`` on the scale deployment: the project's application
    wrapped by ProfiledApp (no cProfile), writing to LOADBENCH_TIMINGS."""
    global _TIMED
    if _TIMED is None:
        sys.path.insert(0, str(ROOT))
        from django.core.wsgi import get_wsgi_application

        _TIMED = ProfiledApp(get_wsgi_application(), Path(os.environ["LOADBENCH_TIMINGS"]), cprofile=False)
    return _TIMED(environ, start_response)


def serve_embedded(port: int, connection_limit: int, mode: str, out: str, threads: int) -> None:
    """What ``manage.py serve`` does, with waitress's connection limit given and, in ``mode``
    "profile" or "timings", the application wrapped by ProfiledApp writing to ``out``."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from arbiter.wsgi import application
    from server import arrival
    from server.management.commands.serve import (
        CONNECTION_LIMIT,
        CONNECTIONS_PER_ADDRESS,
        MAX_REQUEST_BYTES,
        THREADS,
    )

    threads, connection_limit = threads or THREADS, connection_limit or CONNECTION_LIMIT
    call_command("serve", no_serve=True)
    app = ProfiledApp(application, Path(out), mode == "profile") if mode != "-" else application
    server = arrival.create_server(
        app,
        host="0.0.0.0",
        port=port,
        threads=threads,
        ident="arbiter",
        connection_limit=connection_limit,
        connections_per_address=CONNECTIONS_PER_ADDRESS,
        max_request_body_size=MAX_REQUEST_BYTES,
    )
    server.run()


# -- command line ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--deployment", choices=["embedded", "scale"], default="embedded")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--round-seconds", type=int, default=30, help="set on the tournament through the ORM")
    parser.add_argument(
        "--join-seconds", type=float, default=15, help="the phones open their links over this"
    )
    parser.add_argument(
        "--pause", type=float, default=3, help="seconds between placing a top and the next draw"
    )
    parser.add_argument("--results-timeout", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--web-workers", type=int, help="scale: gunicorn workers (default: gunicorn.conf.py)")
    parser.add_argument(
        "--web-threads", type=int, help="scale: threads per worker (default: gunicorn.conf.py)"
    )
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument(
        "--centres", type=int, default=0, help="a simultaneous: the players shared among N centres"
    )
    parser.add_argument(
        "--centre-stagger", type=float, default=4.0, help="--centres: seconds between centres' starts"
    )
    parser.add_argument(
        "--readers", type=int, default=20, help="--centres: readers of the public results page"
    )
    parser.add_argument(
        "--no-proxy", action="store_true", help="scale: phones straight to gunicorn, no nginx"
    )
    parser.add_argument(
        "--public-rps", type=int, default=0, help="strangers reading a simultaneous's public page, per second"
    )
    parser.add_argument("--trainers", type=int, default=0, help="strangers starting random training games")
    parser.add_argument(
        "--no-push", action="store_true", help="scale: nothing pushed, the phones poll every 2 s"
    )
    parser.add_argument("--redis-db", type=int, default=13, help="scale: Redis database number (flushed)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the work directory")
    parser.add_argument("--profile", type=Path, help="embedded: profile the server, write to this folder")
    parser.add_argument(
        "--connection-limit",
        type=int,
        help="embedded: start waitress with this connection limit (default: manage.py serve as shipped)",
    )
    parser.add_argument(
        "--timings",
        type=Path,
        help="embedded: time and count queries per kind of request, write to this folder",
    )
    parser.add_argument("--threads", type=int, help="embedded: waitress threads (default: manage.py serve's)")
    parser.add_argument("--serve-embedded", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_embedded:
        port, limit, mode, out, threads = args.serve_embedded
        serve_embedded(int(port), int(limit), mode, out, int(threads))
        return 0
    if (args.profile or args.connection_limit) and args.deployment != "embedded":
        parser.error("--profile and --connection-limit are for the embedded server")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
