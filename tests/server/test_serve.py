"""``manage.py serve`` on a laptop: the first start makes the arbiter's account and prints its password
and that the shipped word list is not the ODS; a later start prints a command that changes the
password, and that command works as written."""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _serve(var: Path, **environ) -> str:
    env = {**os.environ, "ARBITER_VAR_DIR": str(var), **environ}
    env.pop("DATABASE_URL", None)  # the laptop default: its own SQLite file in ``var``
    done = subprocess.run(
        [sys.executable, "manage.py", "serve", "--no-serve"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_second_start_prints_a_password_change_command_that_works_as_written(tmp_path):
    first = _serve(tmp_path)
    assert "mot de passe « " in first
    # The first start says the shipped list is not the ODS, and the first step.
    assert "la liste livrée (« fr-wfrench ») n'est pas l'ODS : QI, WOK, OK, ZEF, KI, BLOG" in first
    assert "Premier pas : envoyez la liste ODS de votre club" in first
    second = _serve(tmp_path)
    assert "n'est pas l'ODS" not in second
    lines = second.splitlines()
    at = next(i for i, line in enumerate(lines) if "Pour le changer" in line)
    folder, command = lines[at + 1].strip(), lines[at + 2].strip()
    assert folder.startswith("cd ") and "changepassword arbitre" in command
    cwd = shlex.split(folder)[1]
    env = {**os.environ, "ARBITER_VAR_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    changed = subprocess.run(
        shlex.split(command), cwd=cwd, env=env, input="un-nouveau-secret\nun-nouveau-secret\n",
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert changed.returncode == 0, changed.stderr
    check = (
        "import django; django.setup(); from django.contrib.auth.models import User; "
        "print(User.objects.get(username='arbitre').check_password('un-nouveau-secret'))"
    )
    env["DJANGO_SETTINGS_MODULE"] = "arbiter.settings"
    verified = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert verified.stdout.strip() == "True", verified.stderr


def test_a_port_already_taken_is_said_before_anything_with_a_free_one_to_use(tmp_path):
    """No "l'application est prête … Ouvrir : http://…" then a traceback: the taken port said, and
    the command with a port that is free (its next one too, for the strangers' process)."""
    env = {**os.environ, "ARBITER_VAR_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    for taken_offset in (0, 1):  # the room's port, then the strangers' (the next one)
        with socket.socket() as holder:
            holder.bind(("0.0.0.0", 0))
            holder.listen()
            port = holder.getsockname()[1] - taken_offset
            done = subprocess.run(
                [sys.executable, "manage.py", "serve", "--port", str(port)],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
            )  # fmt: skip
        said = done.stdout + done.stderr
        assert done.returncode == 1, said
        assert f"Le port {port + taken_offset} est déjà pris" in said, said
        assert "Traceback" not in said and "prête" not in said and "Ouvrir" not in said, said
        other = int(said.rsplit("--port ", 1)[1].split()[0])
        assert other > port + 1
        with socket.socket() as probe:
            probe.bind(("0.0.0.0", other))  # free indeed


def test_the_terminal_speaks_the_laptops_language_when_the_interface_has_it(tmp_path, monkeypatch):
    spanish = _serve(tmp_path / "es", LANG="es_ES.UTF-8")
    assert "Cuenta de árbitro: usuario «arbitre»" in spanish
    assert "Compte arbitre" not in spanish
    from server.language import system_language

    for name, lang in (("de_DE.UTF-8", "fr"), ("ca_ES.UTF-8", "ca"), ("C.UTF-8", "fr"), ("en_GB", "en")):
        monkeypatch.setenv("LANG", name)  # German is no interface language: French
        assert system_language() == lang, name
