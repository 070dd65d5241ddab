"""The pinned, hashed requirements, generated from pyproject.toml by uv (never written by hand):
``requirements.txt`` the application's (``python3 run.py`` installs it), ``requirements-test.txt``
those of the tests and the documentation too (the ``test`` and ``docs`` extras, at the same versions
as the application's), as ``./scripts/test`` installs both.  Each lists every package for every
platform (``--universal``: Windows' ``colorama`` and ``tzdata`` with their markers) from Python 3.11
on, with the hashes of all its files.

``python scripts/lock.py``: the files written again, keeping every version they pin that pyproject.toml
still allows (a version changes only when pyproject.toml asks for it, or with ``--upgrade`` /
``--upgrade-package NAME``, passed on to uv).  ``python scripts/lock.py --check``: the files generated
afresh in a temporary folder and compared; exit 1, naming the files, when they differ.
The tool is uv, pinned in the ``test`` extra (so in requirements-test.txt)."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = "3.11"
COMMAND = "python scripts/lock.py"
#: Each file, and what it is compiled from (the base file of the test's constrains its versions).
LOCKS = {
    "requirements.txt": [],
    "requirements-test.txt": ["--extra", "test", "--extra", "docs", "--constraint", "requirements.txt"],
}


def uv() -> str:
    """The uv of this interpreter's environment (requirements-test.txt), else one on the PATH."""
    scripts = Path(sysconfig.get_path("scripts"))
    for name in ("uv", "uv.exe"):
        if (scripts / name).is_file():
            return str(scripts / name)
    found = shutil.which("uv")
    if not found:
        sys.exit("uv is not installed: pip install -r requirements-test.txt")
    return found


def compile_locks(folder: Path, extra: list[str]) -> None:
    """Every lock file in ``folder`` (which holds pyproject.toml and the current files) written again."""
    for name, options in LOCKS.items():
        command = [
            uv(), "pip", "compile", "pyproject.toml", *options, "--universal", "--python-version", PYTHON,
            "--generate-hashes", "--output-file", name, "--custom-compile-command", COMMAND, "--quiet",
            *extra,
        ]  # fmt: skip
        subprocess.run(command, cwd=folder, check=True)


def check() -> int:
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        for name in ["pyproject.toml", *LOCKS]:
            shutil.copy2(ROOT / name, folder / name)
        compile_locks(folder, [])
        changed = [name for name in LOCKS if not filecmp.cmp(ROOT / name, folder / name, shallow=False)]
    if changed:
        print(f"Not what pyproject.toml gives: {', '.join(changed)}: run {COMMAND}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--check"]:
        return check()
    compile_locks(ROOT, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
