"""A centre that played the simultaneous on its own laptop (no Internet in its hall) sends its
results file to the federation's server with its club's token.  The laptop's first try finds the
server unreachable: the file waits in its outbox and goes on a later try (the laptop server's
chores, ``server.background``); the public page then ranks that centre's players with the others'.
A wrong token, or another game, is refused with the reason.

Here the federation's server is ``live_server``; the laptop is this test process calling the
laptop's own service, or (the last test) a second server on loopback, ``manage.py serve`` in a process
of its own with its own database; both reach the server through a port where nothing listens at
first and a relay to the server later (the hall's connection coming back)."""

from __future__ import annotations

import datetime
import html
import json
import re
import socket
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from results import exports, outbox, reading
from results.models import Outbox
from server.background import run_chores
from simultaneous import services as events
from simultaneous.models import Event, Registration, Upload
from tests.live_services import free_port, wait_for
from tests.simultaneous.laptop import Laptop, Relay, laptop_game
from tournaments import services

pytestmark = pytest.mark.clubs

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "data" / "reference-games"
MB = 1024 * 1024


@pytest.fixture(autouse=True)
def _server_on_loopback(settings):
    """The federation's server here is ``live_server``, on loopback: the outbox may reach it."""
    settings.OUTBOX_ALLOW_PRIVATE = True


def _club(name: str) -> tuple[Club, User]:
    club = Club.objects.create(name=name)
    arbiter = User.objects.create_user(f"arbitre-{name.lower()}", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    return club, arbiter


def _laptop_game(club: Club, arbiter: User, record: str, rounds: int):
    """The game as the centre's laptop played it (``tests.simultaneous.laptop``)."""
    return laptop_game(club, arbiter, (GAMES / record).read_bytes(), rounds)


def _prepared_event(organiser: Club, arbiter: User, *offline: Club) -> Event:
    """A prepared event of ``organiser``, the clubs ``offline`` registered as centres playing on their
    laptops."""
    event = events.event_create(
        organiser=organiser, created_by=arbiter, name="Simultané", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(), round_seconds=180,
        record_file=(GAMES / "game-001.json").read_bytes(),
    )  # fmt: skip
    for club in offline:
        events.centre_register(event=event, club=club, mode=Registration.Mode.OFFLINE)
    return event


def _live_centre(event: Event, club: Club, arbiter: User):
    events.centre_register(event=event, club=club, mode=Registration.Mode.LIVE)
    return events.event_join(event=event, club=club, created_by=arbiter)


def test_a_laptops_results_wait_offline_then_reach_the_event_and_its_public_page(live_server, client):
    vichy, arbiter_v = _club("Vichy")
    montlucon, arbiter_m = _club("Montluçon")
    event = _prepared_event(vichy, arbiter_v, montlucon)
    centre = _live_centre(event, vichy, arbiter_v)
    services.player_register(tournament=centre.tournament, name="Alice")
    game = _laptop_game(montlucon, arbiter_m, "game-001.json", rounds=2)

    port = free_port()
    url = f"http://127.0.0.1:{port}/simultane/{event.public_key}/"
    first = outbox.outbox_add(game=game, url=url, token=montlucon.upload_token)
    assert first.status == Outbox.Status.PENDING and first.attempts == 1 and first.last_error
    assert not Upload.objects.exists()
    # Not tried again before its time; then the connection is back.
    assert outbox.outbox_send_pending(game)[0].attempts == 1
    host, server_port = live_server.url.removeprefix("http://").split(":")
    relay = Relay(port, (host, int(server_port))).start()
    try:
        Outbox.objects.update(tried_at=timezone.now() - datetime.timedelta(minutes=1))
        # The laptop server's chores thread (every 30 s in ``manage.py serve``) tries it again.
        assert run_chores() >= 1
        sent = Outbox.objects.get()
    finally:
        relay.stop()
    assert sent.status == Outbox.Status.SENT and sent.attempts == 2 and sent.sent_at
    upload = Upload.objects.get()
    assert upload.club == montlucon and json.loads(upload.data)["players"][0]["name"] == "Émile"

    page = client.get(f"/simultane/{event.public_key}/").content.decode()
    # Vichy has played no round yet: it holds nothing back, the page says so.
    assert "Classement général sur 2 coups" in page and "Pas commencé : Vichy." in page
    assert "Émile" in page and "Fanny" in page and "Montluçon" in page


def test_a_laptop_server_of_its_own_sends_its_results_once_its_connection_is_back(live_server, tmp_path):
    """The centre's laptop is a second server on loopback (``manage.py serve``, its own SQLite): its
    first try finds the federation's server unreachable; once the connection is back, its chores
    send the file, and the event's public page ranks its players."""
    vichy, arbiter_v = _club("Vichy")
    montlucon, _ = _club("Montluçon")
    event = _prepared_event(vichy, arbiter_v, montlucon)
    centre = _live_centre(event, vichy, arbiter_v)
    services.player_register(tournament=centre.tournament, name="Alice")
    port = free_port()
    url = f"http://127.0.0.1:{port}/simultane/{event.public_key}/"
    laptop = Laptop(tmp_path, GAMES / "game-001.json", url, montlucon.upload_token, rounds=2)
    assert laptop.first["status"] == Outbox.Status.PENDING and laptop.first["attempts"] == 1
    assert laptop.first["error"] and not Upload.objects.exists()

    host, server_port = live_server.url.removeprefix("http://").split(":")
    relay = Relay(port, (host, int(server_port))).start()
    laptop.serve()
    try:
        sent = wait_for(lambda: Upload.objects.exists(), 90)
        assert sent, f"the laptop server did not send its results: {laptop.says()}"
    finally:
        laptop.stop()
        relay.stop()
    upload = Upload.objects.get()
    names = {player["name"] for player in json.loads(upload.data)["players"]}
    assert upload.club == montlucon and names == {"Émile", "Fanny"}
    with urllib.request.urlopen(f"{live_server.url}/simultane/{event.public_key}/", timeout=20) as answer:
        page = answer.read().decode()
    assert "Émile" in page and "Pas commencé : Vichy." in page and "Montluçon" in page


def test_a_wrong_token_or_another_game_is_refused_with_its_reason(live_server):
    vichy, arbiter_v = _club("Vichy")
    moulins, arbiter_m = _club("Moulins")
    event = _prepared_event(vichy, arbiter_v, moulins)
    url = f"{live_server.url}/simultane/{event.public_key}/"
    game = _laptop_game(moulins, arbiter_m, "game-001.json", rounds=1)
    wrong = outbox.outbox_add(game=game, url=url, token="pas-le-bon-jeton")
    assert wrong.status == Outbox.Status.REFUSED and "Jeton de club inconnu" in wrong.last_error
    other = _laptop_game(moulins, arbiter_m, "game-002.json", rounds=1)
    refused = outbox.outbox_add(game=other, url=url, token=moulins.upload_token)
    assert refused.status == Outbox.Status.REFUSED and "coup 1" in refused.last_error.lower()
    assert not Upload.objects.exists()


def test_the_upload_address_answers_every_request_without_a_500(client, db):
    vichy, arbiter_v = _club("Vichy")
    event = _prepared_event(vichy, arbiter_v, vichy)
    address = f"/simultane/{event.public_key}/envoi/"
    assert client.get(address).status_code == 405
    assert client.post(address, b"{}", content_type="application/json").status_code == 403
    auth = {"HTTP_AUTHORIZATION": f"Bearer {vichy.upload_token}"}
    for body in (b"", b"not json", b"[]", b'{"format": 1}', "\ud800".encode("utf-8", "surrogatepass")):
        answer = client.post(address, body, content_type="application/json", **auth)
        assert answer.status_code == 400 and answer.json()["ok"] is False and answer.json()["fr"], body
    assert (
        client.post("/simultane/inconnu/envoi/", b"{}", content_type="application/json", **auth).status_code
        == 404
    )


# -- only a registered centre sends, and the README's limit -------------------------------------------


def _raw_post(live_server, path: str, token: str, length: int, sent: bytes) -> bytes:
    """A POST announcing ``length`` bytes of body and sending only ``sent``: the answer, as long as it
    comes within 10 s (a server that read the body would wait for the rest)."""
    host, port = live_server.url.removeprefix("http://").split(":")
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    )
    answer = b""
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head.encode() + sent)
        try:
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            pass
    return answer


def test_a_club_that_is_not_a_centre_is_refused_before_its_file_is_read(live_server, client):
    vichy, arbiter_v = _club("Vichy")
    riom, _ = _club("Riom")
    moulins, arbiter_m = _club("Moulins")
    event = _prepared_event(vichy, arbiter_v)
    _live_centre(event, moulins, arbiter_m)  # registered to play live, on the server
    address = f"/simultane/{event.public_key}/envoi/"
    # A body the server would refuse otherwise (not a results file: 400; over the limit: 413) gets the
    # 403 of a club that is not a centre: its token and registration were checked first.
    for token, code in ((riom.upload_token, "n'est pas un centre"), (moulins.upload_token, "en direct")):
        auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        for body in (b"not json", b"{" + b" " * (6 * 1024 * 1024) + b"}"):
            answer = client.post(address, body, content_type="application/json", **auth)
            assert answer.status_code == 403 and code in answer.json()["fr"], (token, len(body))
    # Over the wire: 1 MB announced and 9 bytes sent, or 1 GB announced: answered at once, 403.
    for length in (1024 * 1024, 1 << 30):
        answer = _raw_post(live_server, address, riom.upload_token, length, b'{"format"')
        assert answer.startswith(b"HTTP/1.1 403"), (length, answer[:300])
        assert b"n'est pas un centre" in answer, answer[-400:]
    assert not Upload.objects.exists()
    # Registered to play on its laptop, Riom's file is taken.
    events.centre_register(event=event, club=riom, mode=Registration.Mode.OFFLINE)
    data = exports.results_export(_laptop_game(riom, arbiter_m, "game-001.json", rounds=2))
    answer = client.post(
        address, data, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {riom.upload_token}"
    )
    assert answer.status_code == 200 and answer.json() == {"ok": True, "club": "Riom"}
    upload = Upload.objects.get()
    assert (upload.club, upload.players, upload.rounds) == (riom, 2, 2)


def _padded(data: bytes, size: int) -> bytes:
    """The results file grown to ``size`` bytes with blanks before its last line end: still valid."""
    return data[:-1] + b" " * (size - len(data)) + data[-1:]


def test_a_results_file_up_to_the_readmes_five_mb_is_taken_and_one_byte_more_refused(client, db):
    vichy, arbiter_v = _club("Vichy")
    montlucon, arbiter_m = _club("Montluçon")
    event = _prepared_event(vichy, arbiter_v, montlucon)
    data = exports.results_export(_laptop_game(montlucon, arbiter_m, "game-001.json", rounds=2))
    address = f"/simultane/{event.public_key}/envoi/"
    auth = {"HTTP_AUTHORIZATION": f"Bearer {montlucon.upload_token}", "HTTP_X_FILE_NAME": "montlucon.json"}
    limit = reading.MAX_FILE_MB * MB
    for size in (int(2.5 * MB) + 1, int(4.9 * MB), limit):
        answer = client.post(address, _padded(data, size), content_type="application/json", **auth)
        assert answer.status_code == 200, (size, answer.content[:300])
        assert len(Upload.objects.get().data.encode()) == size
    answer = client.post(address, _padded(data, limit + 1), content_type="application/json", **auth)
    assert answer.status_code == 413
    assert answer.json()["fr"] == "Le fichier « montlucon.json » est trop gros : au plus 5 Mo par fichier."
    assert answer.json()["en"].endswith("at most 5 MB per file.")
    # The merge page takes such a file too (its files are not form fields: no 2.5 MB cap).
    client.force_login(arbiter_v)
    files = [
        SimpleUploadedFile("montlucon.json", _padded(data, int(4.9 * MB))),
        SimpleUploadedFile("vichy.json", data),
    ]
    answer = client.post("/fusions/nouvelle/", {"files": files})
    assert answer.status_code == 302, answer.content.decode()[-2000:]


# -- the club a file names is not the club that sent it ------------------------------------------------


def _club_cell(page: str, name: str) -> str:
    """The club column of ``name``'s row in the overall ranking."""
    found = re.search(rf"<td>{re.escape(name)}</td><td>([^<]*)</td>", page)
    assert found, page[-3000:]
    return html.unescape(found.group(1))


def test_a_file_naming_another_club_ranks_its_players_for_the_club_whose_token_sent_it(client, db):
    vichy, arbiter_v = _club("Vichy")
    moulins, arbiter_m = _club("Moulins")
    event = _prepared_event(vichy, arbiter_v, vichy, moulins)
    game = _laptop_game(moulins, arbiter_m, "game-001.json", rounds=2)
    game.tournament.club = "Vichy"  # the laptop's tournament names the organiser's club
    game.tournament.save(update_fields=["club"])
    doc = json.loads(exports.results_export(game))
    assert doc["club"] == "Vichy" and {p["club"] for p in doc["players"]} == {""}
    doc["players"][1]["club"] = "Riom"  # a player of another club, come to play in Moulins' hall

    answer = client.post(
        f"/simultane/{event.public_key}/envoi/", json.dumps(doc).encode(), content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {moulins.upload_token}",
    )  # fmt: skip

    assert answer.status_code == 200 and answer.json() == {"ok": True, "club": "Moulins"}
    assert Upload.objects.get().club == moulins
    page = client.get(f"/simultane/{event.public_key}/").content.decode()
    assert _club_cell(page, "Émile") == "Moulins"  # not the file's "Vichy"
    assert _club_cell(page, "Fanny") == "Riom"  # a player's own club stays theirs
