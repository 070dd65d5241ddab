"""The laptop's own server, ``manage.py serve`` in a process of its own, answers the phones' slips
on their lean path (``settings.WSGI_APPLICATION``, ``live/slipgate.py``): the slip stored and
answered with the receipt alone, marked as the application's; the same URL without the phone's
script, and every other page, still Django's."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from tests.live_services import free_port, listening, wait_for

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "reference-games" / "game-001.json"

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")


def _env(var: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(ARBITER_VAR_DIR=str(var), ARBITER_BACKUP_DIR=str(var / "copies"))
    env["DJANGO_SETTINGS_MODULE"] = "arbiter.settings"
    return env


def _evening(var: Path, *arguments: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.server.evening", *arguments], cwd=ROOT,
                          env=_env(var), capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def laptop(tmp_path):
    var, port = tmp_path / "var", free_port()
    hall = _evening(var, "hall", str(RECORD))  # a hall of three, round 1 running on a long clock
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=_env(var),
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        started = wait_for(lambda: listening(port) or process.poll() is not None, 120)
        assert started and process.poll() is None, log.read_text(errors="replace")
        yield port, hall, var
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def _post(port: int, path: str, form: dict, headers: dict) -> tuple[int, object, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=urllib.parse.urlencode(form).encode(), headers={
            "Content-Type": "application/x-www-form-urlencoded", **headers,
        })  # fmt: skip
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_the_laptops_server_answers_a_slip_with_the_receipt_alone(laptop):
    port, hall, var = laptop
    alice = hall["players"]["Alice"]["token"]
    page = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    page.request("GET", f"/j/{alice}/")
    html = page.getresponse().read().decode()
    page.close()
    round_id = html.split('name="round" value="', 1)[1].split('"', 1)[0]
    form = {"round": round_id, "slip": "H4 FAVO?RI", "claimed": "30", "request_id": "abc"}
    status, headers, text = _post(port, f"/j/{alice}/bulletin/", form, {"HX-Request": "true"})
    assert status == 200 and headers["X-Arbiter"] == "1"
    assert text.startswith('<div id="player-receipt"') and "player-board" not in text
    assert 'data-slip-ref="H4" data-slip-word="FAVoRI"' in text and "reçu à" in text
    assert _evening(var, "slips")["slips"] == {"Alice": "H4 FAVoRI 30"}
    # The same URL sent without the phone's script is Django's (its CSRF check on the page's form).
    status, headers, _ = _post(port, f"/j/{alice}/bulletin/", form, {})
    assert status == 403 and headers["X-Arbiter"] == "1"
