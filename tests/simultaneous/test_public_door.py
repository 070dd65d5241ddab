"""Strangers' work does not slow the room, on the laptop: its one Python process answers a kept
public page's plain visitors at the door, before Django (server/public.py ``Door``), as nginx does
at scale: readers share one answer, each with its own CSRF cookie put in, no copy holds anyone's
token."""

from __future__ import annotations

import io
import re
import urllib.parse

import pytest

from arbiter.wsgi import django_application
from server.public import TOKEN_MARK, Door
from tests.simultaneous.test_public_readers import event  # noqa: F401 - the fixture
from tournaments.models import Player

pytestmark = [pytest.mark.clubs, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def door(settings):
    settings.PUBLIC_RESULTS_SECONDS = 5.0
    asked = []

    def django(environ, start_response):
        asked.append(environ["PATH_INFO"])
        return django_application(environ, start_response)

    front = Door(django)
    front.asked = asked
    return front


def _get(app, path, cookies=None, method="GET", body=b"", **headers):
    said = {}

    def start_response(status, headers_, exc_info=None):
        said["status"], said["headers"] = status, headers_

    url = urllib.parse.urlsplit(path)
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": url.path, "QUERY_STRING": url.query, "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1:8000",
        "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(), "SERVER_PROTOCOL": "HTTP/1.1", "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in (cookies or {}).items()),
    }  # fmt: skip
    environ.update({f"HTTP_{k.upper()}": v for k, v in headers.items()})
    result = app(environ, start_response)
    text = b"".join(result).decode()
    getattr(result, "close", lambda: None)()
    set_cookies = [v.strip() for k, v in said["headers"] if k.lower() == "set-cookie"]
    return said["status"], dict(said["headers"]), set_cookies, text


def _token(text: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)


def _secret(set_cookies: list[str]) -> str:
    return next(c.split(";")[0].split("=", 1)[1] for c in set_cookies if c.startswith("csrftoken="))


def test_readers_share_the_doors_answer_each_with_its_own_token(door, event):  # noqa: F811
    path = f"/simultane/{event.public_key}/"
    readers = []
    for _ in range(3):  # a first visit: Django's page, which sets the cookie
        status, _headers, cookies, text = _get(door, path)
        assert status.startswith("200") and TOKEN_MARK not in text
        readers.append({"csrftoken": _secret(cookies)})
    assert len(door.asked) == 3
    answers = [_get(door, path, reader) for reader in readers for _ in range(3)]
    assert len(door.asked) == 4  # one of the nine asked Django: the others had its answer
    first = answers[0][1]
    for (status, headers, cookies, text), reader in zip(answers, [r for r in readers for _ in range(3)]):
        assert status.startswith("200") and "Alice" in text and TOKEN_MARK not in text
        assert _token(text) == reader["csrftoken"] and not cookies
        assert headers["Content-Security-Policy"] == first["Content-Security-Policy"]
        assert headers["Content-Language"] == "fr" and headers["X-Frame-Options"] == "DENY"
        assert int(headers["Content-Length"]) == len(text.encode())
    for kept in door._answers._values.values():  # no copy holds anyone's token
        assert not any(reader["csrftoken"] in kept[1].body.decode() for reader in readers)
    # The language switch takes the token the door put in.
    token = _token(answers[0][3])  # readers[0]'s
    form = urllib.parse.urlencode({"language": "en", "next": path, "csrfmiddlewaretoken": token})
    status, _headers, cookies, _text = _get(door, "/i18n/setlang/", readers[0], "POST", form.encode())
    assert status.startswith("302") and any(c.startswith("django_language=en") for c in cookies)
    english = {**readers[0], "django_language": "en"}
    _status, headers, _cookies, text = _get(door, path, english)
    assert headers["Content-Language"] == "en" and _token(text) == readers[0]["csrftoken"]


def test_anyone_else_is_answered_by_django(door, event):  # noqa: F811
    path = f"/simultane/{event.public_key}/"
    secret = _secret(_get(door, path)[2])
    asked = len(door.asked)
    for cookies, headers in (
        ({"csrftoken": secret, "sessionid": "abc"}, {}),  # a session: perhaps an arbiter
        ({"csrftoken": secret, "messages": "x"}, {}),  # a message waiting
        ({"csrftoken": "short"}, {}),  # not a cookie Django set
        ({"csrftoken": secret}, {"X_KEPT_PAGE": "token-from-cookie"}),  # nginx's: Django decides
    ):
        for _ in range(2):
            status, _h, _c, text = _get(door, path, cookies, **headers)
            assert status.startswith("200") and TOKEN_MARK not in text  # not a trusted proxy
    assert len(door.asked) == asked + 8
    # Another path, a HEAD: Django's, untouched.
    assert _get(door, "/login/", {"csrftoken": secret})[0].startswith("200")
    assert _get(door, path, {"csrftoken": secret}, "HEAD")[0].startswith("200")
    assert len(door.asked) == asked + 10


def test_a_save_in_this_process_forgets_the_doors_copies(door, event):  # noqa: F811
    path = f"/simultane/{event.public_key}/"
    reader = {"csrftoken": _secret(_get(door, path)[2])}
    _get(door, path, reader)
    _get(door, path, reader)
    assert len(door.asked) == 2
    alice = Player.objects.get(name="Alice")
    alice.name = "Alicia"
    alice.save()  # a save in this process forgets the copies (server.memo): Django is asked again
    assert "Alice" in _get(door, path, reader)[3] and len(door.asked) == 3
    status, _h, _c, _text = _get(door, "/simultane/nosuchkey/", reader)
    assert status.startswith("404")
