"""The results outbox sends only where a federation's server may be.  The arbiter types the address
and the token, so the laptop (or the federation's own server, whose clubs have an outbox too) must
not reach its own network through them, tell ports apart, show what some other server answered,
follow a redirect, put a line break in a header, answer 500, or keep a row pending for ever without
saying why.  The servers here are real ones on loopback, started by each test; the project reaches
them only with ``OUTBOX_ALLOW_PRIVATE`` on, and the refusals are checked with it off."""

from __future__ import annotations

import datetime
import json
import random
import re
import socket
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import parse_header_parameters

from clubs.models import Club, Member, Role
from results import exports, outbox
from results.models import Outbox, Printout
from server import outbound
from server.downloads import content_disposition
from server.writes import ServiceError
from tests.live_services import free_port
from tests.simultaneous.laptop import laptop_game

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "reference-games" / "game-001.json"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _unreachable() -> str:
    return ServiceError("outbox_unreachable").text()


class Answering(ThreadingHTTPServer):
    """A web server on loopback giving one answer to every request, and keeping what it was sent."""

    daemon_threads = True

    def __init__(
        self, status=200, body=b"", media_type="application/json", host="127.0.0.1", port=0, **headers
    ):
        self.answer = (status, body, media_type, headers)
        self.hits: list[tuple[str, str, dict]] = []
        super().__init__((host, port), _Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def close(self) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    def _answer(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.hits.append((self.command, self.path, dict(self.headers)))
        status, body, media_type, headers = self.server.answer
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


class Raw(socketserver.ThreadingTCPServer):
    """A server on loopback speaking as ``handler`` does, HTTP or not."""

    daemon_threads = True

    def __init__(self, handler):
        super().__init__(("127.0.0.1", 0), handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.shutdown()
        self.server_close()


class _Garbage(socketserver.BaseRequestHandler):
    """Something on a port that is not a web server: it answers bytes that are not HTTP."""

    def handle(self):
        self.request.recv(65536)
        self.request.sendall(b"\x00\x01SSH-2.0-internal-service secret banner\r\n\r\n")


class _Dribbling(socketserver.BaseRequestHandler):
    """A web server that starts its answer, then sends one byte of it now and then, for seconds."""

    def handle(self):
        self.request.recv(65536)
        self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        for _ in range(30):
            self.request.sendall(b"X")
            time.sleep(0.2)


@pytest.fixture
def servers():
    """Servers started by a test, closed after it."""
    started = []
    yield started
    for server in started:
        server.close()


def _answering(servers, *args, **kwargs) -> Answering:
    server = Answering(*args, **kwargs)
    servers.append(server)
    return server


@pytest.fixture
def club_arbiter(db) -> tuple[Club, User]:
    club = Club.objects.create(name="Montluçon")
    arbiter = User.objects.create_user("arbitre-montlucon", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    return club, arbiter


@pytest.fixture
def played(club_arbiter):
    """A game with its first round placed: it has results to send."""
    return laptop_game(*club_arbiter, RECORD.read_bytes(), rounds=1)


@pytest.fixture
def loopback_allowed(settings):
    settings.OUTBOX_ALLOW_PRIVATE = True


TOKEN = "Zk3v-9Qd_r2LmN8xTb4wYc7pHs1aJe6uFo0gVi5nKq"


def _page(port: int, host: str = "127.0.0.1") -> str:
    return f"http://{host}:{port}/simultane/abcdef/"


# -- addresses outside the public Internet: refused before any connection -------------------------

NOT_PUBLIC = [
    "http://127.0.0.1:{port}/simultane/abcdef/",
    "http://127.9.9.9:{port}/simultane/abcdef/",
    "http://[::1]:{port}/simultane/abcdef/",
    "http://[::ffff:127.0.0.1]:{port}/simultane/abcdef/",
    "http://[::ffff:7f00:1]:{port}/simultane/abcdef/",
    "http://[64:ff9b::7f00:1]:{port}/simultane/abcdef/",
    "http://[2002:7f00:1::]:{port}/simultane/abcdef/",
    "http://2130706433:{port}/simultane/abcdef/",
    "http://0x7f000001:{port}/simultane/abcdef/",
    "http://127.1:{port}/simultane/abcdef/",
    "http://0177.0.0.1:{port}/simultane/abcdef/",
    "http://0.0.0.0:{port}/simultane/abcdef/",
    "http://[::]:{port}/simultane/abcdef/",
    "http://localhost:{port}/simultane/abcdef/",
    "http://localhost.:{port}/simultane/abcdef/",
    "http://nchan.localhost:{port}/simultane/abcdef/",
    "http://10.1.2.3:{port}/simultane/abcdef/",
    "http://172.17.0.1:{port}/simultane/abcdef/",
    "http://192.168.1.10:{port}/simultane/abcdef/",
    "http://100.64.0.1:{port}/simultane/abcdef/",
    "http://169.254.169.254/simultane/abcdef/",
    "http://[fe80::1]:{port}/simultane/abcdef/",
    "http://[fd00::1]:{port}/simultane/abcdef/",
    "http://224.0.0.1:{port}/simultane/abcdef/",
    "http://255.255.255.255:{port}/simultane/abcdef/",
    # Not the event's public page, or not a plain http(s) address.
    "http://example.org:{port}@127.0.0.1:{port}/simultane/abcdef/",
    "http://example.org\\@127.0.0.1:{port}/simultane/abcdef/",
    "http://example.org/?x=/simultane/abcdef/",
    "http://example.org/#/simultane/abcdef/",
    "http://example.org/../simultane/abcdef/",
    "http://example.org:22/simultane/abcdef/",
    "http://example.org:6379/simultane/abcdef/",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_an_address_outside_the_public_internet_is_refused_and_never_reached(address, played, servers):
    listening = _answering(servers, 200, b'{"ok": true}')
    with pytest.raises(ServiceError) as refused:
        outbox.outbox_add(game=played, url=address.format(port=listening.port), token=TOKEN)
    assert refused.value.message.code == "outbox_url"
    assert not Outbox.objects.exists() and listening.hits == []


def test_the_arbiters_form_says_why_an_address_is_refused(played, club_arbiter, client, servers):
    listening = _answering(servers, 200, b'{"ok": true}')
    client.force_login(club_arbiter[1])
    answer = client.post(
        reverse("results:game_send", args=[played.pk]), {"url": _page(listening.port), "token": TOKEN}, **HTMX
    )
    assert answer.status_code == 200 and "page publique du simultané" in answer.content.decode()
    assert not Outbox.objects.exists() and listening.hits == []


def test_a_name_leading_to_this_machine_is_never_connected_to(played, servers):
    """The name is resolved before connecting, and every address it gives must be public."""
    name = socket.gethostname()
    found = {info[4][0] for info in socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)}
    ipv4 = sorted(a for a in found if ":" not in a)
    if not ipv4 or any(not (a.startswith(("127.", "10.", "192.168.", "172."))) for a in ipv4):
        pytest.skip(f"{name} leads to {found}, not only to private IPv4 addresses")
    listening = _on_a_web_port(servers, ipv4[0])
    row = outbox.outbox_add(game=played, url=_page(listening.port, name), token=TOKEN)
    assert listening.hits == []
    assert row.status == Outbox.Status.PENDING and row.last_error == _unreachable()


def _on_a_web_port(servers, host: str) -> Answering:
    """A server on a port of 8000-8999 (a web server's, which the outbox accepts without the setting)."""
    for port in random.sample(range(8000, 9000), 1000):
        try:
            return _answering(servers, 200, b'{"ok": true}', host=host, port=port)
        except OSError:
            continue
    raise AssertionError("no free port in 8000-8999")


# -- what comes back says nothing about what answered ---------------------------------------------


def _silent(servers) -> int:
    """A port where something accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    servers.append(sock)
    return sock.getsockname()[1]


def test_a_closed_port_a_silent_one_another_protocol_and_a_web_server_all_read_unreachable(
    played, servers, loopback_allowed, monkeypatch
):
    monkeypatch.setattr(outbox, "TIMEOUT_SECONDS", 0.5)
    monkeypatch.setattr(outbox, "DEADLINE_SECONDS", 1)
    garbage, dribbling = Raw(_Garbage), Raw(_Dribbling)
    servers.extend((garbage, dribbling))
    secret = b"internal secret: redis 6379 password hunter2"
    ports = {
        "closed": free_port(),
        "silent": _silent(servers),
        "not http": garbage.server_address[1],
        "dribbling": dribbling.server_address[1],
        "500": _answering(servers, 500, secret, "text/plain").port,
        "502 json": _answering(servers, 502, json.dumps({"fr": secret.decode()}).encode()).port,
        "403 text": _answering(servers, 403, secret, "text/plain").port,
        "404 html": _answering(servers, 404, b"<h1>" + secret + b"</h1>", "text/html").port,
        "400 other json": _answering(servers, 400, json.dumps({"detail": secret.decode()}).encode()).port,
        "200 portal": _answering(servers, 200, b"<form>Wi-Fi login " + secret + b"</form>", "text/html").port,
    }
    said = {}
    for what, port in ports.items():
        row = outbox.outbox_add(game=played, url=_page(port), token=TOKEN)
        said[what] = (row.status, row.last_error)
    assert set(said.values()) == {(Outbox.Status.PENDING, _unreachable())}, said


def test_an_answer_the_deadline_cut_is_no_answer(servers):
    """A server that looks like it answers, a byte now and then, is given up at the deadline, and what
    it sent by then (a status line, part of a header) is not taken for a whole answer."""
    dribbling = Raw(_Dribbling)
    servers.append(dribbling)
    address = outbound.parse_address(_page(dribbling.server_address[1]), allow_private=True)
    with pytest.raises(outbound.Unreachable):
        outbound.post(address, b"{}", {}, allow_private=True, timeout=0.5, deadline=1)


def test_a_redirect_is_not_followed(played, servers, loopback_allowed):
    inside = _answering(servers, 200, b'{"ok": true}')
    for status in (301, 302, 303, 307, 308):
        target = f"http://127.0.0.1:{inside.port}/simultane/abcdef/envoi/"
        door = _answering(servers, status, b"", "text/html", Location=target)
        row = outbox.outbox_add(game=played, url=_page(door.port), token=TOKEN)
        assert len(door.hits) == 1 and (row.status, row.last_error) == (Outbox.Status.PENDING, _unreachable())
    other_scheme = _answering(servers, 302, b"", "text/html", Location="file:///etc/passwd")
    row = outbox.outbox_add(game=played, url=_page(other_scheme.port), token=TOKEN)
    assert row.status == Outbox.Status.PENDING and row.last_error == _unreachable()
    assert inside.hits == []


def test_only_the_federation_servers_own_refusal_is_shown_cleaned_and_short(
    played, servers, loopback_allowed
):
    reason = "Jeton de club inconnu\r\n\u202e<script>x</script>\x00" + "é" * 2000
    refusing = _answering(servers, 403, json.dumps({"ok": False, "fr": reason, "en": "Unknown"}).encode())
    row = outbox.outbox_add(game=played, url=_page(refusing.port), token=TOKEN)
    assert row.status == Outbox.Status.REFUSED and "Jeton de club inconnu" in row.last_error
    assert not any(c in row.last_error for c in "\r\n\x00\u202e") and len(row.last_error) < 300
    method, path, headers = refusing.hits[0]
    assert (method, path) == ("POST", "/simultane/abcdef/envoi/")
    assert headers["Authorization"] == f"Bearer {TOKEN}" and headers["Host"] == f"127.0.0.1:{refusing.port}"
    taking = _answering(servers, 200, b'{"ok": true, "club": "Montlu\\u00e7on"}')
    sent = outbox.outbox_add(game=played, url=_page(taking.port), token=TOKEN)
    assert sent.status == Outbox.Status.SENT and sent.last_error == ""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", "Jeton inconnu"),
        ("en", "Unknown token"),
        ("es", "Unknown token"),  # the federation's server writes French and English only
        ("ca", "Unknown token"),
    ],
)
def test_the_refusal_is_shown_in_the_readers_language_or_in_english(
    lang, said, played, servers, loopback_allowed
):
    answer = {"ok": False, "fr": "Jeton inconnu", "en": "Unknown token"}
    refusing = _answering(servers, 403, json.dumps(answer).encode())
    with translation.override(lang):
        row = outbox.outbox_add(game=played, url=_page(refusing.port), token=TOKEN)
        assert (row.status, row.last_error) == (
            Outbox.Status.REFUSED,
            ServiceError("outbox_refused", reason=said).text(),
        )


def test_a_refusal_written_in_the_readers_language_is_shown_in_it(played, servers, loopback_allowed):
    answer = {"ok": False, "fr": "Jeton inconnu", "en": "Unknown token", "ca": "Testimoni desconegut"}
    refusing = _answering(servers, 403, json.dumps(answer).encode())
    with translation.override("ca"):
        row = outbox.outbox_add(game=played, url=_page(refusing.port), token=TOKEN)
    assert row.status == Outbox.Status.REFUSED and "Testimoni desconegut" in row.last_error


# -- what ends in a header -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    [
        TOKEN[:20] + "\r\nX-Evil: 1",
        TOKEN[:20] + "\nX",
        "jéton-de-mon-club-à-moi",
        "court",
        "a b" * 10,
        "x" * 65,
    ],
)
def test_a_token_that_is_not_a_club_token_is_refused_by_the_form(
    token, played, club_arbiter, client, servers, loopback_allowed
):
    listening = _answering(servers, 200, b'{"ok": true}')
    client.force_login(club_arbiter[1])
    address = reverse("results:game_send", args=[played.pk])
    answer = client.post(address, {"url": _page(listening.port), "token": token}, **HTMX)
    plain = client.post(address, {"url": _page(listening.port), "token": token})
    assert answer.status_code == 200 and "jeton de votre club" in answer.content.decode().lower()
    assert plain.status_code == 302
    assert not Outbox.objects.exists() and listening.hits == []


def test_a_row_kept_before_these_checks_says_why_it_never_goes(played, servers, settings):
    """Rows written before the address and the token were checked: tried once more, marked refused
    with why, never sent; a row never tried (a try that crashed) is tried too."""
    listening = _answering(servers, 200, b'{"ok": true}')
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    loopback = Outbox.objects.create(game=played, url=_page(listening.port), token=TOKEN, tried_at=long_ago)
    broken = Outbox.objects.create(
        game=played, url="https://example.org/simultane/abcdef/", token="abc\r\nX-Evil: 1", tried_at=None
    )
    assert outbox.outbox_send_due() == 2
    loopback.refresh_from_db()
    broken.refresh_from_db()
    assert loopback.status == broken.status == Outbox.Status.REFUSED
    assert "n'est plus acceptée" in loopback.last_error and "pas un jeton de club" in broken.last_error
    assert listening.hits == [] and outbox.outbox_send_due() == 0


def test_a_try_that_fails_unexpectedly_marks_its_row_instead_of_a_500(
    played, club_arbiter, client, servers, loopback_allowed, monkeypatch
):
    listening = _answering(servers, 200, b'{"ok": true}')

    def broken(game):
        raise RuntimeError("a bug")

    monkeypatch.setattr(exports, "results_file", broken)
    client.force_login(club_arbiter[1])
    address = reverse("results:game_send", args=[played.pk])
    answer = client.post(address, {"url": _page(listening.port), "token": TOKEN}, **HTMX)
    row = Outbox.objects.get()
    assert answer.status_code == 200 and row.status == Outbox.Status.REFUSED
    assert "erreur sur cet ordinateur" in row.last_error and row.last_error in answer.content.decode()
    assert listening.hits == []


# -- downloads named from what people typed ------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        'Coupe "du club"\r\nSet-Cookie: x=1.pdf',
        "Coupe d'été — Œuvre.pdf",
        "../../etc/passwd",
        "日本語.pdf",
        "",
    ],
)
def test_a_download_named_from_any_text_sends_one_valid_header(name, played, club_arbiter, client):
    printout = Printout.objects.create(
        tournament=played.tournament, game=played, kind=Printout.Kind.RANKING, status=Printout.Status.DONE,
        filename=name, pdf=b"%PDF-1.4 test",
    )  # fmt: skip
    client.force_login(club_arbiter[1])
    answer = client.get(reverse("results:printout_pdf", args=[printout.pk]))
    value = answer["Content-Disposition"]
    assert answer.status_code == 200 and value == content_disposition(name, inline=True)
    assert all(" " <= c <= "~" for c in value) and "\r" not in value and "\n" not in value
    kind, parameters = parse_header_parameters(value)  # filename* first, as RFC 6266 asks
    plain = re.fullmatch(
        r'inline; filename="([A-Za-z0-9._-]+)"(; filename\*=UTF-8\'\'[A-Za-z0-9%._~-]+)?', value
    )
    filename = parameters["filename"]
    assert kind == "inline" and plain and filename and not any(c in filename for c in '/\\"\r\n')
    if name.endswith(".pdf"):
        assert filename.endswith(".pdf") and plain.group(1).endswith(".pdf")
    if "été" in name:
        assert filename == "Coupe d'été — Œuvre.pdf" and plain.group(1) == "Coupe-d-ete-OEuvre.pdf"
