"""``manage.py systemd_units``: the federation's server as systemd services (server/units.py) and
nginx's configuration they start it with, for this checkout and its virtualenv.  Printed, or written
with ``--write`` (as root: into /etc/systemd/system and the ``--nginx-conf`` path), then
``systemctl daemon-reload && systemctl enable --now arbiter.target``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from server.deployment import Layout, missing_programs
from server.management.commands.nginx_conf import add_tls_arguments, tls_options
from server.units import Units


class Command(BaseCommand):
    help = "Print (or --write) the systemd services of the scale deployment and nginx's configuration."

    def add_arguments(self, parser):
        defaults = Layout()
        parser.add_argument("--user", default="arbiter", help="the web and worker processes' account")
        parser.add_argument(
            "--env-file", default="/etc/arbiter/env",
            help="the settings file (DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY...)",
        )  # fmt: skip
        parser.add_argument("--listen", default=defaults.listen, help="where the phones connect (default 80)")
        parser.add_argument(
            "--web", default=defaults.web, help="the room's gunicorn (default 127.0.0.1:8000)"
        )
        parser.add_argument(
            "--strangers", default=defaults.strangers, help="the strangers' gunicorn (default 127.0.0.1:8001)"
        )
        parser.add_argument(
            "--publisher",
            default=defaults.publisher,
            help="nchan's publisher, loopback (default 127.0.0.1:8081)",
        )
        parser.add_argument(
            "--nginx-conf", default=str(defaults.nginx_conf), help="where nginx's configuration is written"
        )
        parser.add_argument(
            "--run", default=str(defaults.run), help="nginx's pid, error log and temporary files"
        )
        parser.add_argument(
            "--nginx-user",
            default=defaults.nginx_user,
            help="nginx's workers' account (reads the static files)",
        )
        parser.add_argument("--units-dir", default="/etc/systemd/system", help="where --write puts the units")
        add_tls_arguments(parser)
        parser.add_argument("--write", action="store_true", help="write the files instead of printing them")

    def handle(self, *args, **options):
        missing = missing_programs()
        if missing:
            raise CommandError("This machine lacks: " + "; ".join(missing))
        layout = Layout(
            listen=options["listen"], web=options["web"], strangers=options["strangers"],
            publisher=options["publisher"], nginx_conf=Path(options["nginx_conf"]), run=Path(options["run"]),
            nginx_user=options["nginx_user"], tls=tuple(tls_options(options).items()),
        )  # fmt: skip
        units = Units(layout, user=options["user"], env_file=Path(options["env_file"]))
        files = {Path(options["units_dir"]) / name: text for name, text in units.files().items()}
        files[layout.nginx_conf] = layout.proxy().conf()
        for path, text in files.items():
            if options["write"]:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text)
                except OSError as error:
                    raise CommandError(f"{path}: {error.strerror} (run as root)") from error
                self.stdout.write(f"written: {path}")
            else:
                self.stdout.write(f"# ==> {path} <==\n{text}")
        if options["write"]:
            self.stdout.write("then: systemctl daemon-reload && systemctl enable --now arbiter.target")
