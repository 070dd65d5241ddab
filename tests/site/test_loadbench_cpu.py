"""The load benchmark's CPU columns count only the processes it started (scripts/loadbench/cpu.py): a
tree it spawned, its reaped children included, and never another process of the same name."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts.loadbench.cpu import cpu_now, own_processes, processes

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

#: Burn this many CPU seconds, then end.
BURN = "import sys, time\nwhile time.process_time() < float(sys.argv[1]): pass"


def spawn_tree(command: str, *args: str) -> subprocess.Popen:
    """A shell leading a session of its own, as the benchmark starts its servers (Deployment.spawn)."""
    return subprocess.Popen(["sh", "-c", command, *args], start_new_session=True)


def _command(pid: int) -> str:
    """A process's command name; "" once it has ended (between the listing and this read)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def children(pid: int, name: str, seconds: float = 10) -> list[int]:
    """The pids of ``pid``'s children running ``name``, once there is one."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = [p.pid for p in processes().values() if p.parent == pid and _command(p.pid) == name]
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {name} under {pid}")


def stop(tree: subprocess.Popen, stranger: subprocess.Popen) -> None:
    os.killpg(tree.pid, signal.SIGKILL)  # the shell and its children
    stranger.kill()
    tree.wait(timeout=10)
    stranger.wait(timeout=10)


def test_the_spawned_tree_is_counted_and_a_same_named_stranger_is_not():
    tracked = spawn_tree("sleep 60 & wait")
    stranger = subprocess.Popen(["sleep", "60"])  # the same name, not started by the benchmark
    try:
        (child,) = children(tracked.pid, "sleep")
        own = own_processes({tracked.pid: "web"}, processes())
        assert own == {tracked.pid: "web", child: "web"}
        assert stranger.pid not in own
    finally:
        stop(tracked, stranger)


def test_the_cpu_of_the_tree_counts_its_ended_children_and_not_a_strangers():
    python = sys.executable
    # The tracked tree: a child burns 0.3 CPU-s and ends (reaped by the shell), then the shell waits.
    tracked = spawn_tree('"$0" -c "$1" 0.3; sleep 60', python, BURN)
    # The same program burning 0.6 CPU-s, not started under the tracked tree.
    stranger = subprocess.Popen([python, "-c", BURN, "0.6"], start_new_session=True)
    try:
        children(tracked.pid, "sleep", seconds=30)  # the burner has ended
        stranger.wait(timeout=30)
        used = cpu_now({tracked.pid: "workers"})["workers"]
        assert 0.25 <= used < 0.8, used
    finally:
        stop(tracked, stranger)


def test_a_state_changes_window_is_counted_once_when_changes_come_together():
    """A draw and its clock started 0.2 s apart share one window: its CPU is not counted twice."""
    from scripts.loadbench.report import change_windows

    windows = change_windows([100.0, 10.0, 10.2, 30.0, 14.0])
    assert windows == [(9.5, 19.0, 3), (29.5, 35.0, 1), (99.5, 105.0, 1)]
    assert change_windows([]) == []
