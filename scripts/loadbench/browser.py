"""One browser as the phones and the arbiter use it: HTTP/1.1 connections kept alive, a second one opened
for a request made while another is under way, cookies kept; standard library asyncio streams only."""

from __future__ import annotations

import asyncio
import re
import time
import urllib.parse
from dataclasses import dataclass

from . import USER_AGENT
from .measure import COUNTS, record


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

    async def navigate(self, bucket: str, method: str, path: str, *, form=None) -> Reply | None:
        """``request``, following a 307 or 308 as a browser does, and staying at its port (the
        laptop sends strangers' pages to a process of its own, server/strangers.py): the next
        requests go there."""
        reply = await self.request(bucket, method, path, form=form)
        for _hop in range(3):
            if reply is None or reply.status not in (307, 308) or "location" not in reply.headers:
                break
            target = urllib.parse.urlsplit(reply.headers["location"])
            if target.port and target.port != self.port:
                self.close()
                self.port = target.port
            path = target.path + (f"?{target.query}" if target.query else "")
            reply = await self.request(bucket, method, path, form=form)
        return reply

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
