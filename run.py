#!/usr/bin/env python3
"""Install and start the arbiter on this machine: ``python3 run.py`` (Windows: ``py run.py``).

Creates ``.venv`` beside this file, installs the pinned requirements into it, builds the guides
(served under /aide/), then runs
``manage.py serve`` there: database migrated, an arbiter account ready (its password printed once),
and the address for the players' phones printed.  Any argument is passed to ``serve`` (``--port``).
"""

import os
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def main() -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - run.py may be started by an older Python
        print("Python 3.11 or newer is needed.", file=sys.stderr)
        return 1
    first = not PYTHON.exists()
    if first:
        print("Première installation : environnement Python dans .venv, puis les dépendances.", flush=True)
        print("First install: a Python environment in .venv, then the dependencies.", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    else:
        print("Vérification des dépendances… / Checking the dependencies…", flush=True)
    # The first time pip says what it downloads (a minute or two); later, only what goes wrong.
    quiet = [] if first else ["--quiet"]
    subprocess.run(
        [
            str(PYTHON),
            "-m",
            "pip",
            "install",
            *quiet,
            "--disable-pip-version-check",
            "-r",
            str(ROOT / "requirements.txt"),
        ],
        check=True,
    )
    # The guides, read offline under /aide/: built once per version of docs/ (a second when current).
    subprocess.run([str(PYTHON), str(ROOT / "manage.py"), "build_guides"], cwd=ROOT, check=False)
    return _serve([str(PYTHON), str(ROOT / "manage.py"), "serve", *sys.argv[1:]])


def _serve(command: list) -> int:
    """``manage.py serve`` until it ends.  Ctrl+C reaches it too (the terminal signals the whole
    group): it stops by itself, saying so, while this process waits for it rather than killing it."""
    server = subprocess.Popen(command, cwd=ROOT)
    try:
        return server.wait()
    except KeyboardInterrupt:
        pass
    try:
        return server.wait(timeout=20)
    except (KeyboardInterrupt, subprocess.TimeoutExpired):  # pressed again, or it hangs: ended
        server.terminate()
        return server.wait()


if __name__ == "__main__":
    # Ctrl+C stops the application even when a job that ignores it started this script (a shell's
    # background job, ``nohup … &``): the default handler put back, for this script and the server.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl+C while installing: stopped, no traceback
        print("\nArrêté. / Stopped.", file=sys.stderr)
        sys.exit(130)
