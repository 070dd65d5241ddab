"""The scale deployment's reverse proxy: ``deploy/nginx.conf`` with this server's values filled in
(``manage.py nginx_conf``; the load benchmark and the tests run nginx with it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

TEMPLATE = Path(settings.DEPLOY_DIR) / "nginx.conf"
#: Where Debian's packages put nginx's dynamic modules (libnginx-mod-nchan).
MODULES = "/usr/lib/nginx/modules"
#: Connections per nginx worker: a hall of 1,500 phones (a push connection and a request each, and
#: the requests' connections to gunicorn: 4,500), possibly all in one worker, twice over for abuse.
CONNECTIONS = 16384
#: Connections with a request under way from one client address: a hall of 1,500 phones behind one
#: Internet address at the round's end (1,500 pushes, 1,500 slips) and a third more for reconnections.
PER_ADDRESS_CONNECTIONS = 4000


#: Where certbot --webroot writes its challenges (Debian's nginx's default root: it exists).
ACME_ROOT = "/var/www/html"
TLS = """ssl_certificate {certificate};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:tls:10m;
        ssl_session_timeout 1d;"""
REDIRECT = """server {{
        listen {listen};
        location /.well-known/acme-challenge/ {{
            root {root};
        }}
        location / {{
            return 301 https://$host$request_uri;
        }}
    }}"""


@dataclass(frozen=True)
class Proxy:
    listen: str  # where the phones connect: "80", "0.0.0.0:8080"
    app: str  # the web processes (gunicorn): "127.0.0.1:8000"
    publisher: str  # nchan's publisher, for the application only: "127.0.0.1:8081"
    run: Path  # nginx's pid, error log and temporary files
    static: Path = Path(settings.STATIC_ROOT)
    foreground: bool = False  # "daemon off": run under a supervisor, a test or the benchmark
    user: str = ""  # the account nginx's workers run as (they read the static files); "": nginx's default
    connections: int = CONNECTIONS  # per worker (worker_connections)
    per_address: int = PER_ADDRESS_CONNECTIONS  # with a request under way, per client address (limit_conn)
    message_timeout: str = "0"  # how long a room's last message is kept (nchan_message_timeout; 0: always)
    #: The strangers' web processes (a simultaneous's public page, training): a gunicorn of their own,
    #: at a lower priority, so that the room's requests never wait behind theirs; "": the room's.
    strangers: str = ""
    #: HTTPS: the certificate's and its key's files (PEM: Let's Encrypt's fullchain.pem, privkey.pem);
    #: ``listen`` then speaks TLS only.  "": plain HTTP.
    certificate: str = ""
    certificate_key: str = ""
    #: With HTTPS, a plain-HTTP port ("80") redirecting to it, and the folder it serves the certificate
    #: authority's challenges from (certbot --webroot); "": none.
    redirect: str = ""
    acme_root: str = ACME_ROOT

    @property
    def open_files(self) -> int:
        """A worker's open files (worker_rlimit_nofile): two per connection (the phone's, gunicorn's)
        and some for the static files and logs."""
        return 2 * self.connections + 1024

    def conf(self) -> str:
        values = {
            "@MODULES@": MODULES,
            "@RUN@": str(self.run),
            "@DAEMON@": "daemon off;" if self.foreground else "",
            "@USER@": f"user {self.user};" if self.user else "",
            "@APP@": self.app,
            "@STRANGERS@": self.strangers or self.app,
            "@LISTEN@": f"{self.listen} ssl" if self.certificate else self.listen,
            "@TLS@": self._tls(),
            "@REDIRECT@": self._redirect(),
            "@PUBLISHER@": self.publisher,
            "@STATIC@": str(self.static).rstrip("/"),
            "@OPEN_FILES@": str(self.open_files),
            "@CONNECTIONS@": str(self.connections),
            "@PER_ADDRESS@": str(self.per_address),
            "@MESSAGE_TIMEOUT@": self.message_timeout,
        }
        text = TEMPLATE.read_text()
        for word, value in values.items():
            text = text.replace(word, value)
        return text

    def _tls(self) -> str:
        if not self.certificate:
            return ""
        return TLS.format(certificate=self.certificate, key=self.certificate_key)

    def _redirect(self) -> str:
        if not (self.certificate and self.redirect):
            return ""
        return REDIRECT.format(listen=self.redirect, root=self.acme_root)

    def publish_url(self) -> str:
        """``ARBITER_PUSH_PUBLISH_URL`` for the web and worker processes."""
        host = self.publisher if ":" in self.publisher else f"127.0.0.1:{self.publisher}"
        return f"http://{host}/pub/"
