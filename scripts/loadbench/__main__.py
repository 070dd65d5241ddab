"""The command line (``scripts/loadbench.py`` or ``python -m scripts.loadbench``) and one run: the
deployment started, the CPU sampled, the rooms played, everything stopped, the report printed."""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

from . import __doc__ as DOC
from . import client
from .cpu import CpuSampler
from .deployments import Deployment
from .play import ORM, session, session_centres
from .report import report, summarize_timings
from .timings import serve_embedded
from .tournament import setup_django


def run(args) -> int:
    workdir = Path(tempfile.mkdtemp(prefix=f"loadbench-{args.deployment}-"))
    deployment = Deployment(args, workdir)
    args.load_before = os.getloadavg()[0]
    print(f"{args.deployment}: work files in {workdir}, load average {args.load_before:.2f}", flush=True)
    client.NO_PUSH = args.no_push
    sampler = CpuSampler(deployment.roots, deployment.database)
    try:
        deployment.start()
        setup_django(deployment.env)
        sampler.start()
        play = session_centres if args.centres else session
        results = asyncio.run(play(args, deployment.port))
    finally:
        sampler.finish()
        deployment.stop()
        ORM.shutdown()
        print(f"  server logs: {workdir}")
        if not args.keep:
            shutil.rmtree(workdir / "var", ignore_errors=True)
    status = report(args, results, deployment, sampler)
    if args.profile or args.timings:
        summarize_timings(args.profile or args.timings)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=DOC.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--deployment", choices=["embedded", "scale"], default="embedded")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--round-seconds", type=int, default=30, help="set on the tournament through the ORM")
    parser.add_argument(
        "--join-seconds", type=float, default=15, help="the phones open their links over this"
    )
    parser.add_argument(
        "--pause", type=float, default=3, help="seconds between placing a top and the next draw"
    )
    parser.add_argument("--results-timeout", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--web-workers", type=int, help="scale: gunicorn workers (default: arbiter/gunicorn.py)"
    )
    parser.add_argument(
        "--web-threads", type=int, help="scale: threads per worker (default: arbiter/gunicorn.py)"
    )
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument(
        "--centres", type=int, default=0, help="a simultaneous: the players shared among N centres"
    )
    parser.add_argument(
        "--centre-stagger", type=float, default=4.0, help="--centres: seconds between centres' starts"
    )
    parser.add_argument(
        "--readers", type=int, default=20, help="--centres: readers of the public results page"
    )
    parser.add_argument(
        "--no-proxy", action="store_true", help="scale: phones straight to gunicorn, no nginx"
    )
    parser.add_argument(
        "--public-rps", type=int, default=0, help="strangers reading a simultaneous's public page, per second"
    )
    parser.add_argument("--trainers", type=int, default=0, help="strangers starting random training games")
    parser.add_argument(
        "--no-push", action="store_true", help="scale: nothing pushed, the phones poll every 2 s"
    )
    parser.add_argument("--redis-db", type=int, default=13, help="scale: Redis database number (flushed)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the work directory")
    parser.add_argument("--profile", type=Path, help="embedded: profile the server, write to this folder")
    parser.add_argument(
        "--connection-limit",
        type=int,
        help="embedded: start waitress with this connection limit (default: manage.py serve as shipped)",
    )
    parser.add_argument(
        "--timings",
        type=Path,
        help="embedded: time and count queries per kind of request, write to this folder",
    )
    parser.add_argument("--threads", type=int, help="embedded: waitress threads (default: manage.py serve's)")
    parser.add_argument("--serve-embedded", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_embedded:
        port, limit, mode, out, threads = args.serve_embedded
        serve_embedded(int(port), int(limit), mode, out, int(threads))
        return 0
    if (args.profile or args.connection_limit) and args.deployment != "embedded":
        parser.error("--profile and --connection-limit are for the embedded server")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
