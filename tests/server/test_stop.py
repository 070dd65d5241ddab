"""Ctrl+C stops the laptop's server without a traceback, whether it was started with
``manage.py serve`` or ``python3 run.py`` (which waits for the server it started).  A real process
each time, sent SIGINT as a terminal sends it: to its whole process group."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live_services import free_port, listening, wait_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")


def _stopped_by_ctrl_c(command: list[str], var: Path, port: int) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["ARBITER_VAR_DIR"] = str(var)  # the laptop default: its own SQLite file
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # its own group, as a terminal's foreground job
    )  # fmt: skip
    try:
        assert wait_for(lambda: listening(port) or process.poll() is not None, 240), "never listened"
        assert process.poll() is None, process.communicate()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_ctrl_c_stops_manage_py_serve_with_a_sentence_and_no_traceback(tmp_path):
    port = free_port()
    done = _stopped_by_ctrl_c([sys.executable, "manage.py", "serve", "--port", str(port)], tmp_path, port)
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 0 and f"Arrêté. Tout est gardé dans {tmp_path}" in done.stdout
    assert not listening(port)


def test_ctrl_c_stops_run_py_and_its_server_with_no_traceback(tmp_path):
    port = free_port()
    done = _stopped_by_ctrl_c([sys.executable, "run.py", "--port", str(port)], tmp_path, port)
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 0 and "Arrêté." in done.stdout
    assert not listening(port)
