"""Strangers' work does not slow the room: at scale nginx keeps a simultaneous's public page a
second for plain visitors (deploy/nginx.conf) and puts each visitor's own CSRF cookie where the
token goes (server/public.py): readers share one copy, no copy holds anyone's token, and each
reader's language switch is accepted.  nginx and gunicorn in processes of their own
(tests/scale_front.py)."""

from __future__ import annotations

import http.client
import re
import urllib.parse

import pytest

from tests.scale_front import collected_static, front_publishing
from tests.simultaneous.test_public_readers import event  # noqa: F401 - the fixture

pytestmark = [pytest.mark.clubs, pytest.mark.django_db(transaction=True)]


class Visitor:
    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            for cookie in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return answer.status, answer.headers, answer.read().decode()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def static_files(tmp_path_factory):
    return collected_static(tmp_path_factory.mktemp("front-static"))


@pytest.fixture
def front(tmp_path, static_files, settings):
    with front_publishing(tmp_path, static_files, settings) as running:
        yield running


def test_readers_share_nginx_s_copy_each_with_its_own_token(front, event):  # noqa: F811
    path = f"/simultane/{event.public_key}/"
    readers = [Visitor(front.port) for _ in range(3)]
    for reader in readers:
        assert reader.request("GET", path)[0] == 200  # the first visit sets the CSRF cookie
    caches, pages = [], []
    for _ in range(10):
        for reader in readers:
            status, headers, html = reader.request("GET", path)
            assert status == 200 and "Alice" in html
            caches.append(headers["X-Cache-Status"])
            pages.append((reader, html))
    assert "HIT" in caches
    for reader, html in pages:
        assert "kept-page-csrf-token" not in html
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        assert token == reader.cookies["csrftoken"]
    reader, html = pages[-1]
    form = {"language": "en", "next": path, "csrfmiddlewaretoken": reader.cookies["csrftoken"]}
    assert reader.request("POST", "/i18n/setlang/", form)[0] == 302
    assert "Alice" in reader.request("GET", path)[2]
