"""The scale deployment's reverse proxy: ``deploy/nginx.conf`` with this server's values filled in
(``manage.py nginx_conf``; the load benchmark and the tests run nginx with it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

TEMPLATE = Path(settings.BASE_DIR) / "deploy" / "nginx.conf"
#: Where Debian's packages put nginx's dynamic modules (libnginx-mod-nchan).
MODULES = "/usr/lib/nginx/modules"


@dataclass(frozen=True)
class Proxy:
    listen: str  # where the phones connect: "80", "0.0.0.0:8080"
    app: str  # the web processes (gunicorn): "127.0.0.1:8000"
    publisher: str  # nchan's publisher, for the application only: "127.0.0.1:8081"
    run: Path  # nginx's pid, error log and temporary files
    static: Path = Path(settings.STATIC_ROOT)
    foreground: bool = False  # "daemon off": run under a supervisor, a test or the benchmark
    user: str = ""  # the account nginx's workers run as (they read the static files); "": nginx's default

    def conf(self) -> str:
        values = {
            "@MODULES@": MODULES,
            "@RUN@": str(self.run),
            "@DAEMON@": "daemon off;" if self.foreground else "",
            "@USER@": f"user {self.user};" if self.user else "",
            "@APP@": self.app,
            "@LISTEN@": self.listen,
            "@PUBLISHER@": self.publisher,
            "@STATIC@": str(self.static).rstrip("/"),
        }
        text = TEMPLATE.read_text()
        for word, value in values.items():
            text = text.replace(word, value)
        return text

    def publish_url(self) -> str:
        """``ARBITER_PUSH_PUBLISH_URL`` for the web and worker processes."""
        host = self.publisher if ":" in self.publisher else f"127.0.0.1:{self.publisher}"
        return f"http://{host}/pub/"
