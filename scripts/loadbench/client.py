"""The phones' client and the arbiter's: what each does in the room, as the real pages do.

A phone (``Phone``) opens its join link and its static files; where the page names push channels it
takes the room's state from them as player.js draws it (its own result at a close included, asked
for only when it does not come), else it asks for its status every 2 s; it sends its slips in the
round's last 10 s, a second one sometimes, a lost answer sent again.  The arbiter (``Arbiter``) logs
in, starts the game, draws, starts the clock and places the top; its game screen and the projector
(``Poller``) poll every second."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field

from . import ARBITER, USER_AGENT
from .browser import Browser, Connection, csrf_from, htmx_headers, sleep_until
from .measure import ACTIONS, COUNTS, LAG


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
#: From a change's commit (the message's ``at``) to a phone showing it, for each state a phone drew
#: from a pushed message (its own result for a closed round): the status figure where push works.
SHOWN: list[float] = []
#: player.js: a round's state without the phone's own result waits this long for it (and a spread).
OWN_WAIT_SECONDS = 3.0
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


def is_json(reply) -> bool:
    return reply.headers.get("content-type", "").startswith("application/json")


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
        self.asked_at = 0.0  # which ask timer is the live one (player.js's pushed.timer)
        self.room_message: dict | None = None  # the last room state pushed (player.js pushed.room)
        self.own_message: dict | None = None  # the last own result pushed

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
            path += "&d=fr"  # player_room.js: it draws the room's messages, in its page's language
            bucket = "phone: status, pushed" if pushed else "phone: status poll"
            reply = await self.browser.request(bucket, "GET", path, headers=headers)
            now = time.monotonic()
            if reply is not None and reply.status == 204:
                remaining = reply.headers.get("x-remaining")
                if remaining is not None:
                    self.clock_end = now + float(remaining)
                    self._plan_slips(float(remaining))
                planned += POLL_SECONDS  # htmx's "every 2s" timer keeps running; a late poll is queued
            elif reply is not None and reply.status == 200 and is_json(reply):
                self._polled(reply.text)  # the room's messages, drawn as if pushed
                planned = now + POLL_SECONDS  # the drawn element starts its own timer
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
                self.wake.clear()  # the ask timers (``_ask_after``) carry player.js's spread
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
                # onopen: nginx's first message comes at once; without one, ask later (player.js).
                self._ask_after(OWN_WAIT_SECONDS + random.uniform(0, PUSH_SPREAD_SECONDS), None)
                while not stop.is_set():
                    line = await conn.reader.readline()
                    if not line:
                        raise ConnectionError("push connection closed")
                    text = line.decode("utf-8", "replace").strip()
                    if text.startswith("data:"):
                        PUSHES.append(time.time())
                        self._pushed(text[5:].strip())
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

    def _ask_after(self, seconds: float, key: str | None) -> None:
        """player.js's ask timer: the status asked after ``seconds`` unless the phone shows ``key``
        by then (None: unless a room's state came meanwhile)."""
        self.asked_at = marker = time.monotonic()

        async def ask() -> None:
            await asyncio.sleep(seconds)
            if self.asked_at != marker or (key is not None and self.shown_key == key):
                return
            self.ask_pending = True
            self.wake.set()

        self._later(ask())

    def _polled(self, text: str) -> None:
        """A poll answered with the room's messages (live/polled.py), as player_room.js takes
        them: each as if pushed."""
        try:
            messages = json.loads(text)
        except ValueError:
            messages = None
        for message in messages if isinstance(messages, list) else []:
            if isinstance(message, dict):
                self._message(message)

    def _pushed(self, data: str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if isinstance(message, dict):
            self._message(message)

    def _message(self, message: dict) -> None:
        """A room's message, as player_room.js takes it: a room's state drawn (or kept until the
        phone's own result for it comes), or the own result itself."""
        if "ph" not in message:
            self.own_message = message
            room = self.room_message
            same = room is not None and room.get("o") and room["o"] == message.get("o")
            if same and self.shown_key != room["k"]:
                self._draw(room)
            return
        self.asked_at = time.monotonic()  # cancels the open's ask
        self.pushed_key = message["k"]
        self.room_message = message
        if message["k"] == self.shown_key:
            return
        if message.get("o") and not (self.own_message and self.own_message.get("o") == message["o"]):
            self._ask_after(OWN_WAIT_SECONDS + random.uniform(0, PUSH_SPREAD_SECONDS), message["k"])
            return
        self._draw(message)

    def _draw(self, message: dict) -> None:
        """What player.js's draw() changes, as far as the bench follows it."""
        now = time.time()
        self.shown_key = message["k"]
        url = urllib.parse.urlsplit(self.status_path)
        query = urllib.parse.parse_qs(url.query)
        query["s"] = [message["k"]]
        self.status_path = f"{url.path}?{urllib.parse.urlencode(query, doseq=True)}"
        self.phase = message["ph"]
        self.round_id = int(message["r"] or 0)
        self.parts_shown.pop("b", None)  # the board redrawn by the script: its key is not the server's
        if self.phase == "running" and message.get("rem") is not None:
            self.clock_end = time.monotonic() + float(message["rem"])
            self._plan_slips(float(message["rem"]))
        if message.get("at"):
            SHOWN.append(now - float(message["at"]))
        if self.phase in ("closed", "ended"):
            self.results.setdefault(self.round_id, now)

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
