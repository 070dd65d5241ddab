"""The connections nginx keeps open to gunicorn are closed by nginx, never by gunicorn first.  Were
gunicorn to close an idle one first, a slip nginx sent on it in that instant would be answered 502
by nginx and not stored (nginx does not send a POST again)."""

from __future__ import annotations

import re
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from arbiter import gunicorn as gunicorn_settings
from server.proxy import Proxy
from tests.server.test_hall import Phone, _running, _top_slip, front, static_files  # noqa: F401
from tournaments.models import Submission

#: nginx's upstream keepalive_timeout when the configuration names none.
NGINX_UPSTREAM_DEFAULT = 60.0


def _upstream_keepalive_timeout(conf: str) -> float:
    upstream = re.search(r"upstream arbiter_web \{(.*?)\}", conf, re.S).group(1)
    found = re.search(r"keepalive_timeout\s+(\d+)(s?)\s*;", upstream)
    return float(found.group(1)) if found else NGINX_UPSTREAM_DEFAULT


def _gunicorn_keepalive() -> float:
    return float(gunicorn_settings.keepalive)


def test_gunicorn_keeps_an_idle_connection_longer_than_nginx_does(tmp_path):
    conf = Proxy(listen="80", app="127.0.0.1:8000", publisher="127.0.0.1:8081", run=tmp_path).conf()
    nginx = _upstream_keepalive_timeout(conf)
    # gunicorn's check of idle connections runs about once a second: a margin of several.
    assert _gunicorn_keepalive() >= nginx + 5, (_gunicorn_keepalive(), nginx)


def _open_to(port: int) -> int:
    """The established TCP connections to ``port`` on 127.0.0.1 (nginx's side of its connections
    to gunicorn)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[2].split(":")[1], 16) == port and fields[3] == "01":
            count += 1
    return count


@pytest.mark.django_db(transaction=True)
def test_through_nginx_a_slip_sent_after_the_connection_to_gunicorn_idled_is_stored(front, players, game):  # noqa: F811
    rnd = _running(game, deadline_in=120)
    phone = Phone(front, players[0].token)  # nginx now keeps a connection to gunicorn
    assert _open_to(front.app_port) >= 1
    time.sleep(12.5)  # idle past a keep-alive of 10 s (checked every second)
    assert _open_to(front.app_port) >= 1, "gunicorn closed the idle connection nginx keeps"
    request = urllib.request.Request(
        front.url(f"/j/{players[0].token}/bulletin/"),
        data=urllib.parse.urlencode({
            "csrfmiddlewaretoken": phone.field("csrfmiddlewaretoken"), "round": phone.field("round"),
            "request_id": phone.field("request_id"), "slip": _top_slip(rnd),
        }).encode(),
        headers={"Referer": front.url(f"/j/{players[0].token}/"), "HX-Request": "true"},
    )  # fmt: skip
    with phone.opener.open(request, timeout=30) as answer:
        assert answer.status == 200
        assert answer.headers["X-Arbiter"] == "1"
        assert "reçu à" in answer.read().decode()
    assert Submission.objects.get(round=rnd, player=players[0]).word == rnd.tops[0]["word"]
