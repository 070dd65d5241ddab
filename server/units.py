"""The scale deployment as systemd services (``manage.py systemd_units``): one service per process
of server/deployment.py and ``arbiter.target`` grouping them, so that ``systemctl restart
arbiter.target`` restarts the whole server and the machine starts it at boot.  Each service is
restarted when it fails, its output goes to the journal (``journalctl -u 'arbiter-*'``), and the web
and worker processes read the federation's settings from an environment file (DATABASE_URL,
REDIS_URL, DJANGO_SECRET_KEY...)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from server.deployment import Layout, Process

TARGET = "arbiter.target"
#: The database and the broker when they run on this machine (Debian's services); ordering only: a
#: unit that does not exist is no requirement.
LOCAL_SERVICES = "postgresql.service redis-server.service"


def service_name(process: Process) -> str:
    return f"arbiter-{process.name}.service"


@dataclass(frozen=True)
class Units:
    layout: Layout
    user: str = "arbiter"  # the system account the web and worker processes run as
    env_file: Path = Path("/etc/arbiter/env")
    folder: Path = Path(settings.BASE_DIR)  # the working directory: the checkout

    def files(self) -> dict[str, str]:
        """Every unit's file name and its text."""
        units = {service_name(p): self.service(p) for p in self.layout.processes()}
        return {**units, TARGET: self.target()}

    def target(self) -> str:
        services = " ".join(service_name(p) for p in self.layout.processes())
        return (
            "[Unit]\n"
            "Description=Duplicate arbiter: the whole server (web, strangers, worker, nginx)\n"
            f"Wants={services}\n"
            f"After={services}\n"
            "\n"
            "[Install]\n"
            "WantedBy=multi-user.target\n"
        )

    def service(self, process: Process) -> str:
        lines = [
            "[Unit]",
            f"Description=Duplicate arbiter: {process.description}",
            f"PartOf={TARGET}",
            "Wants=network-online.target",
            f"After=network-online.target {LOCAL_SERVICES}",
            # Restarted for ever on failure: no start limit stops the tries after a long outage
            # (the database or Redis down); RestartSec spaces them.
            "StartLimitIntervalSec=0",
            "",
            "[Service]",
            f"Type={'notify' if process.notifies else 'exec'}",
            *self._account(process),
            f"ExecStart={shlex.join(process.command)}",
            "Restart=on-failure",
            "RestartSec=2",
            f"TimeoutStopSec={process.stop_seconds}",
            f"SyslogIdentifier=arbiter-{process.name}",
            "NoNewPrivileges=yes",
            "PrivateTmp=yes",
            "ProtectSystem=full",
        ]
        if process.nice:
            lines.append(f"Nice={process.nice}")
        return "\n".join(lines) + "\n"

    def _account(self, process: Process) -> list[str]:
        if process.root:
            # nginx's master listens on port 80 as root and runs its workers as nginx_user; its
            # folder (pid, temporary files, error log) is made at each start, kept over a restart.
            lines = [
                f"ExecStartPre={shlex.join([*process.command, '-t', '-q'])}",
                "ExecReload=/bin/kill -HUP $MAINPID",
            ]
            if self.layout.run.parent == Path("/run"):
                lines += [f"RuntimeDirectory={self.layout.run.name}", "RuntimeDirectoryPreserve=restart"]
            return lines
        environment = " ".join(f"{k}={v}" for k, v in self.layout.environment().items())
        return [
            f"User={self.user}",
            f"Group={self.user}",
            f"WorkingDirectory={self.folder}",
            f"EnvironmentFile={self.env_file}",
            f"Environment={environment}",
            "Environment=PYTHONUNBUFFERED=1",
            # SIGTERM to the main process alone: gunicorn lets its workers finish their requests,
            # Celery its worker its task; what is left after TimeoutStopSec is killed.
            "KillMode=mixed",
        ]
