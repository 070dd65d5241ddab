"""The federation's server as systemd services (``manage.py systemd_units``): each process of the
scale deployment in a service restarted on failure, run as the server's account with its settings'
file, logging to the journal, grouped by ``arbiter.target``; every program a service starts exists;
systemd's own checker finds nothing to say (under CI=true it must be there); nginx's configuration is
written with the same addresses.  What the services start is what ``manage.py stack`` runs and
tests/server/test_stack.py answers through."""

from __future__ import annotations

import configparser
import io
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from tests.scale_front import require_nginx

ROOT = Path(settings.BASE_DIR)
SERVICES = ("arbiter-worker", "arbiter-web", "arbiter-strangers", "arbiter-nginx")


def _write(tmp_path: Path, *options: str) -> tuple[Path, str]:
    out = io.StringIO()
    call_command(
        "systemd_units", "--write", "--units-dir", str(tmp_path / "units"),
        "--nginx-conf", str(tmp_path / "etc" / "nginx.conf"), *options, stdout=out,
    )  # fmt: skip
    return tmp_path / "units", out.getvalue()


def _unit(path: Path) -> configparser.ConfigParser:
    """A unit read as systemd reads it (repeated keys such as Environment= kept in order)."""
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    lines: dict[str, list[str]] = {}
    section = ""
    for line in path.read_text().splitlines():
        if line.startswith("["):
            section = line.strip("[]")
            parser.add_section(section)
        elif "=" in line:
            key, value = line.split("=", 1)
            lines.setdefault(f"{section}/{key}", []).append(value)
            parser.set(section, key, "\n".join(lines[f"{section}/{key}"]))
    return parser


def test_each_process_is_a_service_restarted_on_failure_with_its_settings(tmp_path):
    require_nginx()
    folder, said = _write(
        tmp_path, "--user", "federation", "--env-file", "/etc/federation/env", "--listen", "8080",
        "--web", "127.0.0.1:9000", "--strangers", "127.0.0.1:9001", "--publisher", "127.0.0.1:9002",
    )  # fmt: skip
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"{s}.service" for s in SERVICES] + ["arbiter.target"]
    )
    assert "systemctl daemon-reload && systemctl enable --now arbiter.target" in said
    units = {name: _unit(folder / f"{name}.service") for name in SERVICES}
    commands = {name: shlex.split(unit["Service"]["ExecStart"]) for name, unit in units.items()}
    for name, unit in units.items():
        service = unit["Service"]
        assert service["Restart"] == "on-failure" and unit["Unit"]["PartOf"] == "arbiter.target", name
        assert unit["Unit"]["StartLimitIntervalSec"] == "0"  # tried again for ever (a long outage)
        assert service["SyslogIdentifier"] == name  # journalctl -t arbiter-web
        program = Path(commands[name][0])
        assert program.is_absolute() and program.is_file() and os.access(program, os.X_OK), name
    for name in ("arbiter-worker", "arbiter-web", "arbiter-strangers"):
        service = units[name]["Service"]
        assert service["User"] == "federation" and service["EnvironmentFile"] == "/etc/federation/env"
        assert service["WorkingDirectory"] == str(ROOT) and service["KillMode"] == "mixed"
        environment = " ".join(service["Environment"].splitlines())
        assert "ARBITER_PUSH_PUBLISH_URL=http://127.0.0.1:9002/pub/" in environment
        assert (
            "ARBITER_TRUSTED_PROXIES=127.0.0.1" in environment
            and "ARBITER_CLIENT_IP_HEADER=X-Real-IP" in environment
        )
    gunicorn = ["arbiter.wsgi:application", "--config", "python:arbiter.gunicorn", "--no-control-socket"]
    assert commands["arbiter-web"][1:] == [*gunicorn, "--bind", "127.0.0.1:9000"]
    assert commands["arbiter-strangers"][1:] == [*gunicorn, "--bind", "127.0.0.1:9001", "--workers", "1"]
    assert units["arbiter-strangers"]["Service"]["Nice"] == "10"
    assert units["arbiter-web"]["Service"]["Type"] == "notify"  # gunicorn says when it is ready
    assert commands["arbiter-worker"][1:] == ["-A", "arbiter", "worker", "--loglevel=INFO", "--concurrency=2"]
    # nginx: as root (port 80), its folder made at each start, its configuration checked first.
    nginx = units["arbiter-nginx"]["Service"]
    conf = tmp_path / "etc" / "nginx.conf"
    assert "User" not in nginx and nginx["RuntimeDirectory"] == "arbiter-nginx"
    assert commands["arbiter-nginx"][1:] == ["-c", str(conf), "-e", "/run/arbiter-nginx/start.log"]
    assert shlex.split(nginx["ExecStartPre"]) == [*commands["arbiter-nginx"], "-t", "-q"]
    text = conf.read_text()
    assert "daemon off;" in text and "user www-data;" in text and "listen 8080;" in text
    assert (
        "server 127.0.0.1:9000;" in text
        and "server 127.0.0.1:9001;" in text
        and "listen 127.0.0.1:9002;" in text
    )
    assert f"alias {settings.STATIC_ROOT}/;" in text
    target = _unit(folder / "arbiter.target")
    assert target["Unit"]["Wants"].split() == [f"{s}.service" for s in SERVICES]
    assert target["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_finds_nothing_to_say_about_the_units(tmp_path):
    """``systemd-analyze verify``: every directive known, every program there."""
    require_nginx()
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is missing (apt-get install systemd): CI checks the units with it.")
        pytest.skip("systemd-analyze is missing (apt-get install systemd)")
    folder, _said = _write(tmp_path)
    units = sorted(str(p) for p in folder.iterdir())
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), done.stderr
    # The checker does see a mistake: a program that is not there fails it.
    broken = folder / "arbiter-web.service"
    broken.write_text(
        broken.read_text().replace(
            str(Path(shlex.split(_unit(broken)["Service"]["ExecStart"])[0])), "/nowhere/gunicorn"
        )
    )
    done = subprocess.run([analyze, "verify", str(broken)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "/nowhere/gunicorn" in done.stderr


def test_printed_without_write_and_refused_where_it_cannot_write(tmp_path):
    require_nginx()
    out = io.StringIO()
    call_command("systemd_units", stdout=out)
    printed = out.getvalue()
    assert "# ==> /etc/systemd/system/arbiter-web.service <==" in printed
    assert "# ==> /etc/arbiter/nginx.conf <==" in printed and "Restart=on-failure" in printed
    # HTTPS goes through to nginx's configuration.
    out = io.StringIO()
    certificate = ["--certificate", "/etc/letsencrypt/live/a.example/fullchain.pem"]
    key = ["--certificate-key", "/etc/letsencrypt/live/a.example/privkey.pem"]
    call_command("systemd_units", "--listen", "443", "--redirect", "80", *certificate, *key, stdout=out)
    assert "listen 443 ssl;" in out.getvalue() and "return 301 https://$host$request_uri;" in out.getvalue()
    assert "ssl_certificate_key /etc/letsencrypt/live/a.example/privkey.pem;" in out.getvalue()
    (tmp_path / "file").write_text("")
    with pytest.raises(CommandError, match="file/units"):
        call_command(
            "systemd_units", "--write", "--units-dir", str(tmp_path / "file" / "units"), stdout=io.StringIO()
        )
