"""What the CPU columns count: only what this benchmark started, never another process of the same name
on the machine (another run's gunicorn, a test's nginx, someone else's PostgreSQL session).

- web, front, workers: each process the deployment spawned (``Deployment.roots``: gunicorn, the
  strangers' gunicorn or ``manage.py serve``; nginx; the Celery worker) and every process descending
  from it (parent after parent in ``/proc``, or in the session it leads: each is started leading one),
  alive at the sample, with its reaped children's time (a gunicorn worker that ended counts in its
  master's); a web process's training worker (multiprocessing's ``spawn_main``) in "training";
- database: the PostgreSQL backends whose ``pg_stat_activity`` row names the benchmark's own database
  (the servers' connections, and the client's ORM thread's), their CPU read in ``/proc``; a backend
  that ended keeps what it had used at its last sample (its parent, the postmaster, is everyone's);
- client: this process (``time.process_time()``).

Redis is not counted: the benchmark uses the machine's server (a database number of its own), one
process serving everyone.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from . import PG_ADMIN_URL

COMPONENTS = ("web", "front", "database", "workers", "training")
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Process:
    """One line of ``/proc/<pid>/stat``, what the columns need of it."""

    pid: int
    parent: int
    session: int
    started: int  # clock ticks after boot: with the pid, one process (pids are reused)
    ticks: int  # its own CPU: utime + stime
    children_ticks: int  # its children that ended and were reaped: cutime + cstime


def processes() -> dict[int, Process]:
    """Every process on the machine now."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            # After the command's name: state, ppid, pgrp, session ... utime (11) ... starttime (19)
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            pid = int(name)
            table[pid] = Process(
                pid,
                parent=int(fields[1]),
                session=int(fields[3]),
                started=int(fields[19]),
                ticks=int(fields[11]) + int(fields[12]),
                children_ticks=int(fields[13]) + int(fields[14]),
            )
        except (OSError, IndexError, ValueError):
            continue  # ended while read
    return table


def _is_training_worker(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def own_processes(roots: dict[int, str], table: dict[int, Process]) -> dict[int, str]:
    """The processes of ``table`` the benchmark started (``roots``: pid -> column) or descending from
    one of them (parent after parent, or in the session a root leads), each with its root's column; a
    web process's training worker in "training".  Nothing else, whatever its name."""
    children = defaultdict(list)
    for process in table.values():
        children[process.parent].append(process.pid)
    own: dict[int, str] = {}
    for root, column in roots.items():
        if root not in table:
            continue
        stack = [root]
        while stack:
            pid = stack.pop()
            if pid not in own:
                own[pid] = column
                stack += children[pid]
    for process in table.values():  # orphans of a root's tree, adopted by init, are still its session's
        if process.pid not in own and process.session in roots and process.session in table:
            own[process.pid] = roots[process.session]
    for pid, column in own.items():
        if column == "web" and pid not in roots and _is_training_worker(pid):
            own[pid] = "training"
    return own


class Backends:
    """The PostgreSQL backends serving one database: which they are from ``pg_stat_activity`` (a
    connection of its own, to the ``postgres`` database), what they used from ``/proc``."""

    def __init__(self, database: str):
        self.database = database
        self.used: dict[tuple[int, int], int] = {}  # (pid, started) -> ticks at its last sample
        self.connection = None

    def pids(self) -> list[int]:
        import psycopg

        try:
            if self.connection is None:
                url = PG_ADMIN_URL.replace("postgres://", "postgresql://")
                self.connection = psycopg.connect(url, autocommit=True)
            query = "SELECT pid FROM pg_stat_activity WHERE datname = %s"
            return [pid for (pid,) in self.connection.execute(query, [self.database]).fetchall()]
        except psycopg.Error:
            self.close()
            return []

    def seconds(self, table: dict[int, Process]) -> float:
        """CPU seconds used so far by the database's backends, those that ended included."""
        for pid in self.pids():
            process = table.get(pid)
            if process is not None:
                self.used[(pid, process.started)] = process.ticks
        return sum(self.used.values()) / TICK

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def cpu_now(
    roots: dict[int, str], backends: Backends | None = None, counted: Counter | None = None
) -> dict[str, float]:
    """CPU seconds used so far by each column's processes (see the module's docstring); ``counted``
    is given how many processes each column counts now."""
    table = processes()
    totals = dict.fromkeys(COMPONENTS, 0.0)
    own = own_processes(roots, table)
    for pid, column in own.items():
        totals[column] += (table[pid].ticks + table[pid].children_ticks) / TICK
    if counted is not None:
        counted.clear()
        counted.update(own.values())
    if backends is not None:
        totals["database"] = backends.seconds(table)
    totals["client"] = time.process_time()
    return totals


class CpuSampler:
    """``cpu_now()`` every half second, in a thread of its own: (wall time, totals)."""

    def __init__(self, roots: dict[int, str], database: str = "") -> None:
        self.roots = roots
        self.backends = Backends(database) if database else None
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.counted: Counter = Counter()  # processes per column at the last sample
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def finish(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(10)
        if self.backends is not None:
            self.backends.close()

    def _run(self) -> None:
        while not self.stop.is_set():
            self.samples.append((time.time(), cpu_now(self.roots, self.backends, self.counted)))
            self.stop.wait(0.5)

    def counted_line(self) -> str:
        """What the columns counted: the processes at the last sample, the database's backends."""
        processes = ", ".join(f"{column} {n}" for column, n in sorted(self.counted.items()))
        line = f"{sum(self.counted.values())} processes started by this run ({processes})"
        if self.backends is not None:
            line += f", {len(self.backends.used)} backends of its database {self.backends.database}"
        return line

    def used(self, start: float, end: float) -> dict[str, float]:
        """CPU seconds each component used between two wall times (the nearest samples)."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return {}
        (t0, a), (t1, b) = inside[0], inside[-1]
        return {k: b[k] - a[k] for k in b} | {"seconds": t1 - t0}
