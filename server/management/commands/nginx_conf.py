"""``manage.py nginx_conf``: the reverse proxy's configuration for this server (``deploy/nginx.conf``
filled in), to save as nginx's configuration file and start with ``nginx -c FILE``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from server.proxy import Proxy


class Command(BaseCommand):
    help = "Print the nginx configuration of the scale deployment (deploy/nginx.conf filled in)."

    def add_arguments(self, parser):
        parser.add_argument("--listen", default="80", help="where the phones connect (default 80)")
        parser.add_argument("--app", default="127.0.0.1:8000", help="the web processes (gunicorn)")
        parser.add_argument("--publisher", default="127.0.0.1:8081", help="nchan's publisher (loopback)")
        parser.add_argument(
            "--run", default="/run/arbiter-nginx", help="pid file, error log, temporary files"
        )
        parser.add_argument("--foreground", action="store_true", help="daemon off (under a supervisor)")
        parser.add_argument("--user", default="", help="nginx's workers' account (reads STATIC_ROOT)")

    def handle(self, *args, **options):
        proxy = Proxy(
            listen=options["listen"],
            app=options["app"],
            publisher=options["publisher"],
            run=Path(options["run"]),
            foreground=options["foreground"],
            user=options["user"],
        )
        self.stdout.write(proxy.conf())
        self.stderr.write(
            f"# the web and worker processes: ARBITER_TRUSTED_PROXIES=127.0.0.1 "
            f"ARBITER_CLIENT_IP_HEADER=X-Real-IP ARBITER_PUSH_PUBLISH_URL={proxy.publish_url()}"
        )
