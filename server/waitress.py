"""The laptop's web server: waitress, held against slow and idle clients.

Anyone on the club's Wi-Fi can open connections to the laptop.  Waitress as it comes keeps a
connection while a byte arrives every 120 s, and at its connection limit stops accepting: a thousand
sockets that never finish their request lock every phone out until they close.  Here:

- a request must have arrived whole ``REQUEST_SECONDS`` after its first byte (a body gets one more
  second per ``BODY_BYTES_PER_SECOND`` received): bytes trickled in do not keep it;
- a connection waiting for its next request is closed after ``IDLE_SECONDS``;
- a client address holds at most ``connections_per_address`` connections; one more from it, or one
  more than the server's limit, makes room by dropping a connection that waits (no request being
  served): the address's own oldest, or at the limit the oldest of the address holding the most.
  The server never stops accepting, so that sockets from one address, or a few, cannot keep a phone
  out;
- the loop watches its sockets with poll() (waitress's option): with a thousand connections file
  descriptors pass 1023, which select() refuses, stopping the server; the open-files limit is raised
  to fit.  Windows has no poll(): its select() watches 512 sockets, so the limit there is 500.

Every request waitress's parser refuses is answered with its status line (400; 431 for a header
over the limit) and the connection closed: a bare CR or LF ends the request at once (waitress would
wait for a CRLF CRLF that never comes), a request line with a control character or that the URL
parser trips on is a 400, and so is any HTTP version but 1.0 and 1.1 (``SoundParser``).

Waitress's own server, channel and parser, each extended (waitress is pinned in requirements.txt);
``server.arrival`` extends the channel and the parser again to stamp each request on arrival.
"""

from __future__ import annotations

import contextlib
import logging
import re
import select
import socket
import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError, TransferEncodingNotImplemented
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from waitress.utilities import BadRequest

from server.lanes import RoomFirstDispatcher

#: Seconds from a request's first byte to its last.  A phone's request (under 2 KB, its slip
#: included) comes whole in one or two packets: this leaves room for several retransmissions on a
#: poor Wi-Fi link.  Time spent queued for a thread does not count: the request has arrived.
REQUEST_SECONDS = 5
#: A body gets one more second per this many bytes received: a 2 MB word list sent from another
#: machine on a poor link (80 kbit/s) arrives in time; a trickle of bytes gains nothing.
BODY_BYTES_PER_SECOND = 10_000
#: Seconds a connection waits for its next request before it is closed (waitress's channel_timeout).
#: Phones poll every 2 s on a kept-alive connection, the arbiter's screen and the projector every
#: second; a phone that stopped polling (screen off) opens a new connection when it wakes.
IDLE_SECONDS = 10
#: Seconds between two sweeps for connections past their time (waitress's cleanup_interval).
SWEEP_SECONDS = 1
#: Connections accepted per turn of the loop (waitress accepts one): a burst of sockets in the
#: listening queue does not keep a phone's connection waiting behind it.
ACCEPTS_PER_TURN = 64
#: Windows' select() watches at most 512 sockets (CPython's FD_SETSIZE there), the listening socket
#: and waitress's trigger among them; elsewhere poll() has no such limit.
SELECT_SOCKETS = 500
#: Files the process keeps open beside its connections: the database, logs, uploads spilled to disk.
FILES_SPARE = 256
#: A warning of the same kind at most this often: an attack must not flood the arbiter's log.
WARN_EVERY_SECONDS = 60
#: The HTTP versions served; any other request line is refused (400).
VERSIONS = ("1.0", "1.1")
#: In a request's head, a LF without its CR, or a CR followed by anything but LF (a CR last in what
#: has arrived yet waits for the next byte).
BARE_LINE_END = re.compile(rb"(?<!\r)\n|\r(?=[^\n])")
#: A control character (NUL, TAB, DEL...): never in a request line (RFC 9112, 3).
CONTROL = re.compile(rb"[\x00-\x1f\x7f]")

logger = logging.getLogger("waitress")


def create_server(
    application, *, channel_class=None, connections_per_address=None, room_first=True, **options
):
    """``waitress.create_server`` with the server and channel below: waitress's options, timeouts
    defaulting to the constants above, and at most ``connections_per_address`` connections per
    client address (None: no cap).  ``room_first``: the room's requests before strangers'
    (``server.lanes``); the strangers' own process (``server.strangers``) serves all in turn."""
    options.setdefault("channel_timeout", IDLE_SECONDS)
    options.setdefault("cleanup_interval", SWEEP_SECONDS)
    options.setdefault("asyncore_use_poll", hasattr(select, "poll"))
    wanted = int(options.get("connection_limit", Adjustments.connection_limit))
    options["connection_limit"] = connections_possible(wanted)
    adj = Adjustments(**options)
    if adj.sockets or adj.unix_socket:
        raise ValueError("the laptop's server listens on a host and port")
    # The room's requests before strangers' (server/lanes.py), or waitress's own first come.
    dispatcher = RoomFirstDispatcher() if room_first else ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    connections = Connections(adj.connection_limit, connections_per_address)
    socket_map: dict = {}
    servers = [
        GuardedServer(
            application, socket_map, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo,
            connections=connections, channel_class=channel_class or GuardedChannel,
        )
        for sockinfo in adj.listen
    ]  # fmt: skip
    if len(servers) == 1:
        return servers[0]
    listening = [(each.effective_host, each.effective_port) for each in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher, servers[0].log_info)


def connections_possible(wanted: int) -> int:
    """The connection limit this process can hold: under select() (Windows) what it watches; else
    the open-files limit raised to fit ``wanted`` (within the hard limit), and ``wanted`` lowered
    if the system refuses, so that accepting never fails for want of a file descriptor."""
    if not hasattr(select, "poll"):
        return min(wanted, SELECT_SOCKETS)
    try:
        import resource
    except ImportError:  # pragma: no cover - every system with poll() has it
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + FILES_SPARE
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - FILES_SPARE))


class Connections:
    """The open connections of every listening socket, by client address, and who makes room for a
    newcomer.  Used from the server's loop only (accepting, sweeping and closing all happen there)."""

    def __init__(self, limit: int, per_address: int | None = None):
        self.limit, self.per_address = limit, per_address
        self.by_address: dict[str, set[GuardedChannel]] = {}
        self.count = 0
        self.warned: dict[str, float] = {}

    def admit(self, host: str) -> bool:
        """Whether a connection from ``host`` may be opened, room made for it if needed."""
        own = self.by_address.get(host, ())
        if self.per_address is not None and len(own) >= self.per_address:
            self._warn("address", "%s holds %d connections: its oldest waiting one closes", host, len(own))
            if not self._drop_oldest(own):
                return False
        if self.count >= self.limit:
            self._warn(
                "limit", "%d connections open: the busiest address's oldest waiting one closes", self.count
            )
            return self._drop_crowded()
        return True

    def enter(self, channel: GuardedChannel) -> None:
        self.by_address.setdefault(channel.host, set()).add(channel)
        self.count += 1

    def leave(self, channel: GuardedChannel) -> None:
        group = self.by_address.get(channel.host)
        if group is None or channel not in group:
            return
        group.discard(channel)
        self.count -= 1
        if not group:
            del self.by_address[channel.host]

    def drop(self, channel: GuardedChannel) -> None:
        channel.drop()
        self.leave(channel)

    def _drop_oldest(self, group) -> bool:
        waiting = [channel for channel in group if not channel.requests]
        if not waiting:
            return False  # every one is being served: the newcomer is turned away
        self.drop(min(waiting, key=GuardedChannel.since))
        return True

    def _drop_crowded(self) -> bool:
        return any(
            self._drop_oldest(group) for group in sorted(self.by_address.values(), key=len, reverse=True)
        )

    def _warn(self, kind: str, message: str, *args) -> None:
        now = time.monotonic()
        if now - self.warned.get(kind, -WARN_EVERY_SECONDS) >= WARN_EVERY_SECONDS:
            self.warned[kind] = now
            logger.warning(message, *args)


class SoundParser(HTTPRequestParser):
    """Waitress's parser, whose every refusal is a request in error (answered by waitress's error
    task, then the connection closed), never an exception in the server's loop, which would close
    the connection without a word.  A refused request may never have had its request line read: its
    method, path and query are then empty, so that nothing downstream (the lanes, the stamp) has to
    ask whether it was parsed."""

    command = path = query = request_uri = ""

    def received(self, data):
        if not self.completed and self.body_rcv is None and self._bare_line_end(data):
            return self._refuse(BadRequest("Bare CR or LF in the request's head"), len(data))
        try:
            return super().received(data)
        except Exception as error:  # a stranger's bytes, not the server's failure
            logger.info("A request the parser could not read is refused (400): %r", error)
            return self._refuse(BadRequest("The request could not be read"), len(data))

    def parse_header(self, header_plus):
        try:
            super().parse_header(header_plus)
        except (ParsingError, TransferEncodingNotImplemented):
            raise
        except Exception as error:  # the URL parser's ValueError on "http://[::1", say
            raise ParsingError(f"Bad request line: {error}") from error
        if CONTROL.search(self.first_line):
            raise ParsingError("Control character in the request line")
        if self.version not in VERSIONS:
            raise ParsingError("HTTP/1.0 or HTTP/1.1 only")

    def _bare_line_end(self, data: bytes) -> bool:
        """Whether the head, as far as it has arrived with ``data`` (the body left out), holds a
        bare CR or LF.  The last bytes already seen come along: a CR may end one packet and its LF
        start the next."""
        window = self.header_plus[-3:] + data
        end = window.find(b"\r\n\r\n")
        return BARE_LINE_END.search(window if end < 0 else window[: end + 4]) is not None

    def _refuse(self, error, consumed: int) -> int:
        self.error, self.completed, self.headers_finished = error, True, True
        return consumed


class GuardedChannel(HTTPChannel):
    """Waitress's channel, knowing since when its request has been arriving and since when it has
    been waiting for one; its requests read by ``SoundParser``."""

    parser_class = SoundParser
    dropped = False
    #: When the first byte of the request still arriving came; None when none is.
    arriving_since: float | None = None

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self.host = addr[0]
        #: When the channel began waiting for its next request: opened, or its last request in.
        self.waiting_since = self.creation_time

    def received(self, data):
        began = self.arriving_since or time.time()
        result = super().received(data)
        self.arriving_since = began if self.request is not None else None
        if self.requests:
            self.waiting_since = time.time()
        return result

    def service(self):
        try:
            super().service()
        finally:
            self.waiting_since = time.time()

    def since(self) -> float:
        """How long it has been this way: arriving since, or else waiting since."""
        return self.arriving_since or self.waiting_since

    def overdue(self, now: float) -> bool:
        """Past its time: a request not whole in time, or an idle connection (or an answer that
        could not be sent) for longer than the idle timeout.  A request being served never is."""
        if self.requests or self.dropped:
            return False
        if self.total_outbufs_len:
            return now - self.last_activity > self.adj.channel_timeout
        if self.arriving_since is not None:
            body = getattr(self.request, "body_bytes_received", 0)
            return now - self.arriving_since > REQUEST_SECONDS + body / BODY_BYTES_PER_SECOND
        return now - self.waiting_since > self.adj.channel_timeout

    def drop(self) -> None:
        """Close from the loop.  ``will_close`` alone waits for the socket to turn writable, which it
        never does for a client that stopped reading: shut down, it is closed on the loop's next turn
        (closing it here could hand its file descriptor to a new connection within this turn)."""
        self.dropped = self.will_close = True
        if self.socket is not None:
            with contextlib.suppress(OSError):
                self.socket.shutdown(socket.SHUT_RDWR)

    def del_channel(self, map=None):
        super().del_channel(map)
        self.server.connections.leave(self)


class GuardedServer(TcpWSGIServer):
    """Waitress's TCP server that never stops accepting (its connections make room instead) and
    sweeps its channels every ``cleanup_interval`` for those past their time."""

    def __init__(self, application, socket_map, *, connections: Connections, channel_class, **kwargs):
        self.connections = connections
        self.channel_class = channel_class
        super().__init__(application, socket_map, **kwargs)

    def readable(self):
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return self.accepting

    def maintenance(self, now):
        for channel in list(self.active_channels.values()):
            if channel.overdue(now):
                self.connections.drop(channel)

    def handle_accept(self):
        for _ in range(ACCEPTS_PER_TURN):
            try:
                pair = self.accept()
            except OSError:
                if self.adj.log_socket_errors:
                    self.logger.warning("server accept() threw an exception", exc_info=True)
                return
            if pair is None:
                return
            conn, addr = pair
            try:
                self.set_socket_options(conn)
            except OSError:  # gone before it was accepted (waitress's own case)
                conn.close()
                continue
            addr = self.fix_addr(addr)
            if not self.connections.admit(addr[0]):
                conn.close()
                continue
            self.connections.enter(self.channel_class(self, conn, addr, self.adj, map=self._map))
