"""Issue 14: a centre that played the simultaneous on its own laptop (no Internet in its hall) sends
its results file to the federation's server with its club's token.  The laptop's first try finds the
server unreachable: the file waits in its outbox and goes on a later try (the laptop server's chores,
``server.background``); the public page then ranks that centre's players with the others'.  A wrong
token, or another game, is refused with the reason.

Here the federation's server is ``live_server``; the laptop is this test process calling the
laptop's own service, or (the last test) a second server on loopback, ``manage.py serve`` in a process
of its own with its own database; both reach the server through a port where nothing listens at
first and a relay to the server later (the hall's connection coming back)."""

from __future__ import annotations

import datetime
import json
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from results import outbox
from results.models import Outbox
from server.background import run_chores
from simultaneous import services as events
from simultaneous.models import Event, Upload
from tests.live_services import free_port, wait_for
from tests.simultaneous.laptop import Laptop, Relay, laptop_game
from tournaments import services

pytestmark = pytest.mark.clubs

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "data" / "reference-games"


def _club(name: str) -> tuple[Club, User]:
    club = Club.objects.create(name=name)
    arbiter = User.objects.create_user(f"arbitre-{name.lower()}", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    return club, arbiter


def _laptop_game(club: Club, arbiter: User, record: str, rounds: int):
    """The game as the centre's laptop played it (``tests.simultaneous.laptop``)."""
    return laptop_game(club, arbiter, (GAMES / record).read_bytes(), rounds)


def _prepared_event(organiser: Club, arbiter: User) -> Event:
    return events.event_create(
        organiser=organiser, created_by=arbiter, name="Simultané", date=datetime.date(2026, 11, 28),
        kind=Event.Kind.PREPARED, lexicon=lexicon_default_row(), round_seconds=180,
        record_file=(GAMES / "game-001.json").read_bytes(),
    )  # fmt: skip


def test_a_laptops_results_wait_offline_then_reach_the_event_and_its_public_page(live_server, client):
    vichy, arbiter_v = _club("Vichy")
    montlucon, arbiter_m = _club("Montluçon")
    event = _prepared_event(vichy, arbiter_v)
    centre = events.event_join(event=event, club=vichy, created_by=arbiter_v)
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
    assert "Émile" in page and "Fanny" in page and "Alice" in page and "Montluçon" in page


def test_a_laptop_server_of_its_own_sends_its_results_once_its_connection_is_back(live_server, tmp_path):
    """The centre's laptop is a second server on loopback (``manage.py serve``, its own SQLite): its
    first try finds the federation's server unreachable; once the connection is back, its chores
    send the file, and the event's public page ranks its players."""
    vichy, arbiter_v = _club("Vichy")
    montlucon, _ = _club("Montluçon")
    event = _prepared_event(vichy, arbiter_v)
    centre = events.event_join(event=event, club=vichy, created_by=arbiter_v)
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
    assert "Émile" in page and "Alice" in page and "Montluçon" in page


def test_a_wrong_token_or_another_game_is_refused_with_its_reason(live_server):
    vichy, arbiter_v = _club("Vichy")
    moulins, arbiter_m = _club("Moulins")
    event = _prepared_event(vichy, arbiter_v)
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
    event = _prepared_event(vichy, arbiter_v)
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
