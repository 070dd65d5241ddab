"""On the laptop: strangers' pages in a process of their own (server/strangers.py).
``manage.py serve`` starts ``manage.py strangers`` beside it, at a lower priority; the room's
process sends a simultaneous's public page and training there (307), the strangers' process sends
anything else back; both serve the static files; the strangers' process ends with the room's,
however it ends; without it the room's process serves strangers itself."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.live_services import free_port, listening, wait_for
from tests.server.test_serve_slips import ROOT, _env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and POSIX signals")


def _get(port: int, path: str, method: str = "GET", body: bytes | None = None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers={"Host": f"127.0.0.1:{port}", **(headers or {})})
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read().decode("utf-8", "replace")
    finally:
        conn.close()


def _children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(name))
    return found


def _strangers_pid(pid: int) -> int | None:
    for child in _children(pid):
        try:
            if b"strangers" in Path(f"/proc/{child}/cmdline").read_bytes():
                return child
        except OSError:
            continue
    return None


def _niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


@pytest.fixture
def laptop(tmp_path):
    var, port, strangers = tmp_path / "var", free_port(), free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--strangers-port", str(strangers)],
            cwd=ROOT, env=_env(var), stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        up = wait_for(lambda: (listening(port) and listening(strangers)) or process.poll() is not None, 120)
        assert up and process.poll() is None, log.read_text(errors="replace")
        yield process, port, strangers, log
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)


def test_strangers_are_sent_to_their_own_process_and_the_room_stays_in_its_own(laptop):
    process, port, strangers, _log = laptop
    # Ready once it answers: the room's process sends strangers only then.
    assert wait_for(lambda: _get(port, "/entrainement/")[0] == 307, 30)
    status, headers, _ = _get(port, "/entrainement/?source=random")
    assert (
        status == 307 and headers["Location"] == f"http://127.0.0.1:{strangers}/entrainement/?source=random"
    )
    status, headers, _ = _get(port, "/simultane/abcdef/", "POST", b"x=1")  # method and body kept
    assert status == 307 and headers["Location"] == f"http://127.0.0.1:{strangers}/simultane/abcdef/"
    status, _headers, text = _get(strangers, "/entrainement/")
    assert status == 200 and '<form class="form" method="post"' in text
    assert _get(strangers, "/simultane/nosuchkey/")[0] == 404  # Django's answer, there
    # The room's pages go back to the room's process; the files are served by both.
    for path in ("/", "/login/", "/j/sometoken/etat/"):
        status, headers, _ = _get(strangers, path)
        assert status == 307 and headers["Location"] == f"http://127.0.0.1:{port}{path}"
    assert _get(port, "/login/")[0] == 200
    static = next(part for part in text.split('"') if part.startswith("/static/") and part.endswith(".css"))
    assert _get(strangers, static)[0] == 200 and _get(port, static)[0] == 200
    # A host Django refuses is not sent anywhere: Django's 400.
    assert _get(port, "/entrainement/", headers={"Host": "bad host"})[0] == 400
    # At a lower priority than the room's.
    child = _strangers_pid(process.pid)
    assert child is not None and _niceness(child) > _niceness(process.pid)
    assert os.sched_getscheduler(child) == os.SCHED_IDLE != os.sched_getscheduler(process.pid)


def test_without_its_strangers_process_the_room_serves_strangers_itself(laptop):
    process, port, _strangers, _log = laptop
    assert wait_for(lambda: _get(port, "/entrainement/")[0] == 307, 30)
    child = _strangers_pid(process.pid)
    os.kill(child, signal.SIGKILL)
    assert wait_for(lambda: _get(port, "/entrainement/")[0] == 200, 10)  # served by the room's now
    assert _get(port, "/")[0] in (200, 302)


def test_the_room_process_killed_takes_its_strangers_process_with_it(laptop):
    process, port, strangers, _log = laptop
    assert wait_for(lambda: _get(port, "/entrainement/")[0] == 307, 30)
    child = _strangers_pid(process.pid)
    process.kill()  # kill -9 of the room's process alone: not its group
    process.wait(timeout=30)
    assert wait_for(lambda: not Path(f"/proc/{child}").exists() or _zombie(child), 15)
    time.sleep(0.2)
    assert not listening(strangers)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
