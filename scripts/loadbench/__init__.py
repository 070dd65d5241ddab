"""Load benchmark: one arbiter, a projector and 300 phones play rounds against a real server.

    .venv/bin/python scripts/loadbench.py [--players 300] [--deployment embedded|scale] [--rounds 3]
    .venv/bin/python -m scripts.loadbench ...   (the same, from the project's folder)

``embedded`` starts ``manage.py serve`` (waitress, SQLite in a fresh temporary ARBITER_VAR_DIR, tasks
in-process), as ``run.py`` does on a club's laptop.  ``scale`` creates a fresh PostgreSQL database, uses
a Redis database number of its own (flushed), runs the migrations, then starts a Celery worker and
gunicorn with several workers; the database is dropped at the end unless ``--keep``.

The tournament and its players are made through the ORM, and the tournament's round time is set there
too (``--round-seconds``, 30 s by default: shorter than any the form offers).  Everything else goes
over HTTP as the real pages do: the arbiter logs in, starts the game, draws, starts the clock and
places the top, its game screen and the projector polling every second; each phone opens its join
link (and its static files), polls its status every 2 s with the signature (``?s=``, 204 with
X-Remaining while nothing changed) and sends its slip with the CSRF token and the htmx headers at a
random moment of the round's last 10 s; one phone in five sends a second, different slip, and half of
those lose the answer (the connection dropped after sending) and send the same request again, as
player.js does on no answer or a 503.  The client is one asyncio loop (standard library only): every
phone is independent, with its own cookies and kept-alive connections.

Printed: latencies (p50/p90/p99/max) of polls and of slips separately, errors by status, slips accepted
before the deadline, the database checked after each round (one row per player, the last accepted
slip), the time from the deadline to the close, to every slip graded and to the last phone showing its
results.  Exit status 1 when a slip sent before the deadline was lost or the database is wrong.

``--timings DIR`` serves the application through a wrapper that measures, per kind of request, its CPU
time and its queries (embedded and scale); ``--profile DIR`` (embedded) adds a cProfile of CPU time per
kind, much slower.  ``--connection-limit N`` (embedded) starts waitress as ``manage.py serve`` does but
with that connection limit.

Strangers beside the room: ``--public-rps N`` readers of a simultaneous's public page, N
requests a second in all, each reader from an address of its own reading every 2 s (one room: a
prepared event of as many players is made for it; ``--centres``: the event played); ``--trainers N``
people training, each starting random games and playing two rounds of each as fast as a person would.
Their requests are reported apart ("stranger: ..."), and the training worker's CPU as "training".

The CPU columns count only the processes this benchmark started and the database backends serving its
own database, never another process of the same name on the machine (``cpu.py``).

The parts:
    __main__.py     the command line, and one run from the deployment's start to the report
    browser.py      one browser: keep-alive connections and cookies, over asyncio streams
    client.py       the phones (join, status polled or pushed, slips), the arbiter's clicks and screens
    deployments.py  the servers started: the laptop default (manage.py serve), or the scale deployment
                    (PostgreSQL, Redis, Celery, gunicorn, the strangers' gunicorn, nginx in front)
    tournament.py   the tournament, a simultaneous's centres and a public page, made and read by the ORM
    play.py         one room's rounds or a simultaneous's centres played, each round checked in the
                    database
    strangers.py    readers of a public page and people training, beside the room
    measure.py      every request's latency, the arbiter's actions, the client's lag
    cpu.py          what the CPU columns count: the benchmark's own process trees, its database's backends
    report.py       the printed report: latencies, each round, the goals line, CPU by component
    timings.py      the server's own figures per kind of request (--timings, --profile)
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
USER_AGENT = "Mozilla/5.0 (Linux; Android 14) loadbench"
ARBITER = ("loadbench", "loadbench-secret-1")
DUMP_PATH = "/__loadbench__/dump"
