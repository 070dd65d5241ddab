"""``manage.py stack``: the whole scale deployment on this machine, in the foreground, for trying it
(server/stack.py): the Celery worker, the room's and the strangers' gunicorn and nginx in front, as
the systemd services run them (``manage.py systemd_units``), on the PostgreSQL database of
DATABASE_URL and the Redis of REDIS_URL.  Ctrl+C (or SIGTERM) stops all of it."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from server import stack
from server.deployment import missing_programs


class Command(BaseCommand):
    help = "Run the whole scale deployment (worker, web, strangers, nginx) in the foreground until Ctrl+C."

    def add_arguments(self, parser):
        parser.add_argument(
            "--port", type=int, default=0, help="nginx's port on 127.0.0.1 (default: a free one)"
        )

    def handle(self, *args, port: int, **options):
        if not 0 <= port <= 65535:
            raise CommandError(f"--port {port}: a port is 1 to 65535 (0: a free one)")
        missing = missing_programs()
        if not settings.REDIS_URL:
            missing.append("REDIS_URL (the worker's broker: redis://127.0.0.1:6379/0)")
        if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            missing.append("DATABASE_URL (PostgreSQL: postgres://user@127.0.0.1:5432/arbiter)")
        if missing:
            raise CommandError("The stack needs: " + "; ".join(missing))

        def say(line: str) -> None:
            self.stdout.write(f"[stack] {line}")
            self.stdout.flush()

        code = stack.run(port, say)
        if code:
            raise CommandError("the stack stopped: a process ended by itself", returncode=code)
