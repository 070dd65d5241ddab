"""The laptop's server (``manage.py serve``: waitress, its two threads) is sent a malicious word
list by the arbiter's form while a round runs.  The player's slip is stored and answered within 2 s
while the list is being refused, and the refused list leaves nothing behind.

Real HTTP against a real server process on the test's database (SQLite, or PostgreSQL with
``DATABASE_URL``)."""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
import zlib
from pathlib import Path

import pytest

from lexicons.loaded import lexicon_default_row
from lexicons.models import LexiconList
from tests.live_services import free_port, listening, shared_database_url, wait_for
from tournaments import services
from tournaments.models import Submission, Tournament

ROOT = Path(__file__).resolve().parents[2]
MIB = 1024 * 1024
#: What the phone may wait for its slip's answer, the upload running.
SLIP_SECONDS = 2.0


def _bomb_member() -> bytes:
    """One gzip member of 256 MB of zeros: about 260 KB."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"\0" * MIB
    return b"".join([packer.compress(zeros) for _ in range(256)] + [packer.flush()])


#: Uploads that must be refused: a bomb of 260 KB that would unpack to 256 MB (read whole, it would
#: hold the server for minutes and gigabytes), 20 MB (past the 16 MB sent), and 15 MB of gzip
#: members that would unpack to 15 GB (refused at 16 MB unpacked).
UPLOADS = {
    "260 KB that would unpack to 256 MB": (0, "Une fois décompressée, la liste dépasse 16 Mo"),
    "20 MB that would unpack to 20 GB": (
        20 * MIB,
        "Fichier trop gros : une liste de mots fait au plus 16 Mo",
    ),
    "15 MB that would unpack to 15 GB": (15 * MIB, "Une fois décompressée, la liste dépasse 16 Mo"),
}


@pytest.fixture(scope="module")
def bomb_member() -> bytes:
    return _bomb_member()


@pytest.fixture
def laptop(tmp_path, arbiter):
    """``manage.py serve`` as ``run.py`` starts it, on the test's database and a folder of its own
    (the arbiter's account made first: the server makes one when there is none)."""
    port, var = free_port(), tmp_path / "var"
    env = {**os.environ, "DATABASE_URL": shared_database_url(), "ARBITER_VAR_DIR": str(var)}
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env, stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        if not wait_for(lambda: listening(port) or process.poll() is not None, 90) or not listening(port):
            pytest.fail("the server did not start:\n" + (tmp_path / "serve.log").read_text(errors="replace"))
        yield Laptop(f"http://127.0.0.1:{port}", var, process.pid)
    finally:
        process.kill()
        process.wait(timeout=10)
        log.close()


class Laptop:
    def __init__(self, base: str, var: Path, pid: int):
        self.base, self.var, self.pid = base, var, pid

    def peak_memory_mb(self) -> float:
        status = Path(f"/proc/{self.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024


class Browser:
    """Cookies, a page's CSRF token, forms posted as a browser posts them."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as answer:
            return answer.read().decode()

    def post(self, path: str, body: bytes, content_type: str, **headers) -> str:
        request = urllib.request.Request(
            self.base + path, data=body,
            headers={"Content-Type": content_type, "Referer": self.base + path, **headers},
        )  # fmt: skip
        with self.opener.open(request, timeout=120) as answer:
            return answer.read().decode()

    def form(self, path: str, fields: dict) -> str:
        return self.post(path, urllib.parse.urlencode(fields).encode(), "application/x-www-form-urlencoded")


def _field(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def _multipart(fields: dict, name: str, filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in fields.items()
    ]
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
    parts.append(head.encode() + b"Content-Type: application/gzip\r\n\r\n" + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _tournament_fields(csrf: str) -> dict:
    return {
        "csrfmiddlewaretoken": csrf, "name": "Bombe", "date": "2027-04-03", "place": "Salle",
        "lexicon": lexicon_default_row().pk, "round_seconds": 180, "grading": "computed",
        "warning_threshold": 3, "warning_penalty": 5, "solo_value": 10, "solo_min_players": 16,
        "grace_seconds": 2, "percent_base": "total", "tie_break": "last", "aggregate": "average",
        "sheet_language": "fr",
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("upload", list(UPLOADS))
def test_a_slip_is_stored_within_two_seconds_while_a_malicious_word_list_is_refused(
    laptop, tournament, players, bomb_member, upload
):
    size, refusal = UPLOADS[upload]
    bomb = (bomb_member * (size // len(bomb_member) + 1))[:size] if size else bomb_member  # cut at size
    game = services.game_start(tournament=tournament, seed=5)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    lists_before = LexiconList.objects.count()

    phone = Browser(laptop.base)
    page = phone.get(f"/j/{players[0].token}/")
    top = rnd.tops[0]
    slip = {
        "csrfmiddlewaretoken": _field(page, "csrfmiddlewaretoken"), "round": _field(page, "round"),
        "request_id": _field(page, "request_id"), "slip": f"{top['ref']} {top['word']}",
        "claimed": top["score"],
    }  # fmt: skip

    arbiter = Browser(laptop.base)
    login = arbiter.get("/login/")
    arbiter.form(
        "/login/",
        {
            "csrfmiddlewaretoken": _field(login, "csrfmiddlewaretoken"),
            "username": "arbitre",
            "password": "secret-123",
        },
    )
    create = arbiter.get("/tournois/nouveau/")
    assert "Nouveau tournoi" in create, "the arbiter is not logged in"
    body, content_type = _multipart(
        _tournament_fields(_field(create, "csrfmiddlewaretoken")), "lexicon_file", "ods8.txt.gz", bomb
    )
    memory_before = laptop.peak_memory_mb()

    answered: dict[str, float | str] = {}

    def send_the_list():
        answered["page"] = arbiter.post("/tournois/nouveau/", body, content_type)
        answered["at"] = time.monotonic()

    uploader = threading.Thread(target=send_the_list)
    started = time.monotonic()
    uploader.start()
    time.sleep(0.02)  # the list is on its way: the round's last seconds
    sent = time.monotonic()
    answer = phone.form(f"/j/{players[0].token}/bulletin/", slip)
    slip_seconds = time.monotonic() - sent
    polls = []
    while uploader.is_alive():
        asked = time.monotonic()
        phone.get(f"/j/{players[0].token}/")
        polls.append(time.monotonic() - asked)
    uploader.join(120)

    upload_seconds = answered["at"] - started
    memory_growth = laptop.peak_memory_mb() - memory_before
    print(
        f"\n{upload}: refused in {upload_seconds:.2f} s, slip answered in {slip_seconds:.3f} s, "
        f"{len(polls)} polls meanwhile (slowest {max(polls, default=0):.3f} s), "
        f"server peak memory +{memory_growth:.0f} MB"
    )
    assert "reçu à" in answer and slip_seconds < SLIP_SECONDS
    assert sent < answered["at"], "the list was refused before the slip was sent: nothing was shown"
    assert Submission.objects.get(round=rnd, player=players[0]).word == top["word"]
    assert all(seconds < SLIP_SECONDS for seconds in polls)

    assert "Liste de mots refusée" in answered["page"] and refusal in answered["page"]
    assert LexiconList.objects.count() == lists_before
    assert not Tournament.objects.filter(name="Bombe").exists()
    media = laptop.var / "media" / "lexicons"
    assert not media.exists() or not any(media.iterdir())
    assert memory_growth < 300
