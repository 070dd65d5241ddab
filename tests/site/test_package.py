"""The package (pyproject.toml, setup.py): its wheel holds every room with every file of it (templates,
static files, migrations, the shipped word list), the translations and the reverse proxy's template;
installed into a Python environment of its own and started from another folder by its ``arbiter``
command, it serves the arbiter's pages in French and in English, its static files and icon, and the
strangers' process beside it, and keeps its data in the account's data folder; its gunicorn reads the
scale deployment's settings from the package, as the deployment names them.  The wheel is built from
a copy of this folder without build isolation (setuptools is pinned in requirements-test.txt); the
installed environment takes its dependencies from this one's (a .pth line), at the pinned versions."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

from arbiter import gunicorn as gunicorn_settings
from server.deployment import GUNICORN_CONFIG
from tests.live_services import free_port, listening, wait_for

ROOT = Path(__file__).resolve().parents[2]
#: Folders with an __init__.py that are not the application's.
NOT_SHIPPED = {"tests", "scripts"}
#: Folders of the checkout carried inside arbiter/ (setup.py).
CARRIED = {"locale": "arbiter/locale", "deploy": "arbiter/deploy", "docs": "arbiter/docs"}
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")


def rooms() -> list[str]:
    """Every top-level folder of the checkout that is a Python package, the tests' and scripts' aside."""
    packages = [path.name for path in ROOT.iterdir() if (path / "__init__.py").is_file()]
    return sorted(name for name in packages if name not in NOT_SHIPPED)


def _files(folder: Path) -> list[str]:
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("package")
    source = work / "source"
    shutil.copytree(
        ROOT, source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "var", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", ".*_cache",
            ".hypothesis", "artifacts", "node_modules",
        ),
    )  # fmt: skip
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "--quiet", "--wheel-dir", str(work / "dist"), str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = (work / "dist").glob("*.whl")
    assert found.name == f"duplicate_arbiter-{VERSION}-py3-none-any.whl"
    return found


def test_the_wheel_holds_every_room_with_every_file_and_the_translations(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == set(rooms())
    assert {"engine", "arbiter", "server", "clubs", "lexicons", "tournaments", "results", "simultaneous",
            "review", "training"} <= top  # fmt: skip
    missing = [f"{room}/{name}" for room in rooms() for name in _files(ROOT / room)]
    missing += [f"{inside}/{name}" for folder, inside in CARRIED.items() for name in _files(ROOT / folder)]
    assert [name for name in missing if name not in names] == []
    for needed in (
        "engine/lexicon/data/fr-wfrench.txt.gz",
        "arbiter/locale/en/LC_MESSAGES/django.mo",
        "arbiter/deploy/nginx.conf",
        "tournaments/templates/registration/login.html",
        "tournaments/migrations/0001_initial.py",
        "server/root/favicon.ico",
        "guides/mkdocs.yml",
        "arbiter/docs/fr/laptop-dies.md",
    ):
        assert needed in names
    entry_points = zipfile.ZipFile(wheel).read(f"duplicate_arbiter-{VERSION}.dist-info/entry_points.txt")
    assert "arbiter = arbiter.__main__:main" in entry_points.decode()


def _environment(wheel: Path, folder: Path) -> Path:
    """A new environment with the wheel installed, its dependencies this environment's."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    paths = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(own) / "dependencies.pth").write_text("\n".join(sorted(paths)) + "\n", encoding="utf-8")
    return bin_dir


def _get(url: str, language: str = "fr") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.read().decode("utf-8", "replace")


def test_installed_elsewhere_it_starts_serves_both_languages_and_keeps_its_data_in_the_account(
    wheel, tmp_path
):
    bin_dir = _environment(wheel, tmp_path / "env")
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "ARBITER_VAR_DIR", "XDG_DATA_HOME", "PYTHONPATH",
                       "DJANGO_SETTINGS_MODULE", "VIRTUAL_ENV")
    }  # fmt: skip
    env["HOME"] = str(home)
    where = subprocess.run(
        [str(bin_dir / "python"), "-c",
         "import importlib.metadata, arbiter, engine.lexicon as l; print(arbiter.__file__); "
         "print(importlib.metadata.version('duplicate-arbiter')); print(l.DEFAULT_PATH)"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    module, version, word_list = where.stdout.split("\n")[:3]
    assert Path(module).is_relative_to(tmp_path / "env") and version == VERSION
    assert Path(word_list).is_relative_to(tmp_path / "env") and Path(word_list).is_file()
    # The deployment's gunicorn command reads its settings from the installed package, in a folder
    # without a gunicorn.conf.py: what gunicorn would run with, said without starting a worker.
    checked = subprocess.run(
        [str(bin_dir / "python"), "-m", "gunicorn", "--check-config", "--print-config",
         "--config", GUNICORN_CONFIG, "arbiter.wsgi:application"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    said = dict(line.split(" = ", 1) for line in checked.stdout.splitlines() if " = " in line)
    said = {name.strip(): value.strip() for name, value in said.items()}
    assert said["config"] == GUNICORN_CONFIG
    for name in ("workers", "worker_class", "threads", "keepalive"):
        assert said[name] == str(getattr(gunicorn_settings, name)), name
    assert said["post_worker_init"] == "<post_worker_init()>"  # the warm-up, not gunicorn's own hook

    port = free_port()
    process = subprocess.Popen(
        [str(bin_dir / "arbiter"), "serve", "--port", str(port)],
        cwd=elsewhere, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        up = wait_for(lambda: (listening(port) and listening(port + 1)) or process.poll() is not None, 240)
        assert up and process.poll() is None, process.communicate()
        status, french = _get(f"http://127.0.0.1:{port}/login/")
        assert status == 200 and "Connexion de l'arbitre" in french
        status, english = _get(f"http://127.0.0.1:{port}/login/", "en")
        assert status == 200 and "Arbiter sign-in" in english and "Connexion de l'arbitre" not in english
        assert _get(f"http://127.0.0.1:{port}/static/tournaments/arbiter.css")[0] == 200
        assert _get(f"http://127.0.0.1:{port}/favicon.ico")[0] == 200
        # The guides, built from the Markdown the package carries, read offline.
        status, guide = _get(f"http://127.0.0.1:{port}/aide/fr/laptop-dies/")
        assert status == 200 and "ordinateur" in guide
        # The strangers' process, started by the installed command (python -m arbiter strangers).
        assert _get(f"http://127.0.0.1:{port + 1}/entrainement/")[0] == 200
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    data = home / ".local" / "share" / "arbiter"
    assert process.returncode == 0 and "Traceback" not in err, err
    assert "la liste livrée (« fr-wfrench »)" in out and f"Arrêté. Tout est gardé dans {data}" in out, out
    assert "-m arbiter changepassword" not in out  # a first start gives the password itself
    assert (data / "arbiter.sqlite3").is_file()
    assert not (tmp_path / "env" / "var").exists() and list(elsewhere.iterdir()) == []


def test_the_changelog_tells_this_version_first():
    headings = [line for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
                if line.startswith("## ") and line[3:4].isdigit()]  # fmt: skip
    assert headings[0].startswith(f"## {VERSION} ")
