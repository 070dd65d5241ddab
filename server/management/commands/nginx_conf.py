"""``manage.py nginx_conf``: the reverse proxy's configuration for this server (``deploy/nginx.conf``
filled in), to save as nginx's configuration file and start with ``nginx -c FILE``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from server import proxy
from server.proxy import Proxy


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def add_tls_arguments(parser) -> None:
    parser.add_argument("--certificate", default="", help="HTTPS: the certificate's file (fullchain.pem)")
    parser.add_argument("--certificate-key", default="", help="HTTPS: its key's file (privkey.pem)")
    parser.add_argument(
        "--redirect", default="",
        help="with HTTPS: a plain-HTTP port (80) redirecting to it and serving certbot's challenges",
    )  # fmt: skip
    parser.add_argument(
        "--acme-root", default=proxy.ACME_ROOT, help=f"certbot --webroot's folder (default {proxy.ACME_ROOT})"
    )


def tls_options(options: dict) -> dict:
    """``Proxy``'s HTTPS fields from the options, or a clear refusal."""
    if bool(options["certificate"]) != bool(options["certificate_key"]):
        raise CommandError("--certificate and --certificate-key go together.")
    if options["redirect"] and not options["certificate"]:
        raise CommandError("--redirect sends plain HTTP to HTTPS: it needs --certificate.")
    return {
        "certificate": options["certificate"], "certificate_key": options["certificate_key"],
        "redirect": options["redirect"], "acme_root": options["acme_root"],
    }  # fmt: skip


class Command(BaseCommand):
    help = "Print the nginx configuration of the scale deployment (deploy/nginx.conf filled in)."

    def add_arguments(self, parser):
        parser.add_argument("--listen", default="80", help="where the phones connect (default 80)")
        parser.add_argument("--app", default="127.0.0.1:8000", help="the web processes (gunicorn)")
        parser.add_argument("--publisher", default="127.0.0.1:8081", help="nchan's publisher (loopback)")
        parser.add_argument(
            "--strangers", default="",
            help="the strangers' web processes (public results, training): a gunicorn of their own at a "
            "lower priority (default: the room's, --app)",
        )  # fmt: skip
        parser.add_argument(
            "--run", default="/run/arbiter-nginx", help="pid file, error log, temporary files"
        )
        parser.add_argument("--foreground", action="store_true", help="daemon off (under a supervisor)")
        parser.add_argument("--user", default="", help="nginx's workers' account (reads STATIC_ROOT)")
        parser.add_argument(
            "--connections", type=_positive, default=proxy.CONNECTIONS,
            help=f"connections per nginx worker (default {proxy.CONNECTIONS}; open files: twice that + 1024)",
        )  # fmt: skip
        parser.add_argument(
            "--per-address-connections", type=_positive, default=proxy.PER_ADDRESS_CONNECTIONS,
            help="connections with a request under way from one client address, beyond which nginx "
            f"answers 503 (default {proxy.PER_ADDRESS_CONNECTIONS}: a hall of 1,500 phones behind one "
            "Internet address)",
        )  # fmt: skip
        add_tls_arguments(parser)

    def handle(self, *args, **options):
        front = Proxy(
            listen=options["listen"],
            app=options["app"],
            publisher=options["publisher"],
            run=Path(options["run"]),
            foreground=options["foreground"],
            user=options["user"],
            connections=options["connections"],
            per_address=options["per_address_connections"],
            strangers=options["strangers"],
            **tls_options(options),
        )
        self.stdout.write(front.conf())
        self.stderr.write(
            f"# the web and worker processes: ARBITER_TRUSTED_PROXIES=127.0.0.1 "
            f"ARBITER_CLIENT_IP_HEADER=X-Real-IP ARBITER_PUSH_PUBLISH_URL={front.publish_url()}"
        )
