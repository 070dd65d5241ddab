"""Strangers' pages go to web processes of their own: at scale a simultaneous's public results and
training, through nginx, reach the strangers' gunicorn (``nginx_conf --strangers``, a lower
priority), the room's requests the room's, so that the room's never queue behind theirs; without the
option both go to the room's.  Here nginx stands before two recording servers in place of the two
gunicorns: what each was asked is what nginx routed to it."""

from __future__ import annotations

import http.server
import threading
import urllib.request
from pathlib import Path

import pytest

from tests.live_services import free_port
from tests.scale_front import Front, require_nginx

STRANGERS = ["/entrainement/", "/entrainement/coup/", "/simultane/abcdef/"]
ROOM = ["/j/some-token/", "/j/some-token/bulletin/", "/parties/1/", "/tournois/", "/"]


class Recorder(http.server.ThreadingHTTPServer):
    """A web server that answers 200 to anything and remembers the paths it was asked."""

    daemon_threads = True

    def __init__(self, port: int) -> None:
        self.paths: list[str] = []
        super().__init__(("127.0.0.1", port), _Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.server.paths.append(self.path)
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def _front(tmp_path: Path, **options) -> Front:
    require_nginx()
    (tmp_path / "static").mkdir()
    return Front(tmp_path, tmp_path / "static", **options)


def _ask(front: Front, paths: list[str]) -> None:
    for path in paths:
        with urllib.request.urlopen(front.url(path), timeout=10) as answer:
            assert answer.status == 200


@pytest.mark.parametrize("own_pool", [True, False], ids=["strangers' pool", "no pool"])
def test_strangers_pages_reach_their_own_web_processes_and_the_rooms_the_rooms(tmp_path, own_pool):
    strangers_port = free_port()
    front = _front(tmp_path, strangers=f"127.0.0.1:{strangers_port}" if own_pool else "")
    room = Recorder(front.app_port)
    strangers = Recorder(strangers_port)
    front.start_nginx()
    try:
        _ask(front, STRANGERS + ROOM)
    finally:
        front.stop_nginx()
        room.shutdown()
        strangers.shutdown()
    if own_pool:
        assert sorted(strangers.paths) == sorted(STRANGERS)
        assert sorted(room.paths) == sorted(ROOM)
    else:
        assert strangers.paths == []
        assert sorted(room.paths) == sorted(STRANGERS + ROOM)
