"""Pages anyone reads without an account, kept a moment by the web process as rendered.

A simultaneous's public results are refreshed by hundreds of readers at once: 200 requests a second,
each rendering the page, took the room's phones' p99 from 73 ms to 2.9 s at scale.  A plain visitor
(a GET carrying no cookie but the CSRF and language ones: no account, no session, no message
waiting) is answered the page this process rendered at most ``window`` seconds ago for the same key
(what the page shows: its object, the language, the filter), with its own CSRF token put in: no
query, no template.  Anyone else gets the page rendered for them.  The copies are ``memo.Recent``
values: a change saved in this process forgets them at once, another's is seen after the window.

At scale nginx keeps the page too, a second (deploy/nginx.conf): for a plain visitor that has its
CSRF cookie it asks with ``X-Kept-Page: token-from-cookie``, is answered the page with ``TOKEN_MARK``
left in and no cookie set, keeps that, and puts each visitor's own cookie in the mark's place (a CSRF
form field may hold the cookie's secret itself).  Believed from a trusted proxy only: a kept copy
never holds anyone's token."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import get_token

from server import memo
from server.addresses import trusted_proxy

#: Stands for the CSRF token in a kept page: each visitor's own replaces it.
TOKEN_MARK = "kept-page-csrf-token"
#: The header and value by which nginx asks for the page with the mark left in.
PROXY_HEADER, PROXY_ASKS = "X-Kept-Page", "token-from-cookie"
#: A CSRF cookie as Django sets it: its secret, 32 letters and digits.
CSRF_SECRET = re.compile(r"[A-Za-z0-9]{32}")


def plain_visitor(request) -> bool:
    cookies = {settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME}
    return request.method == "GET" and set(request.COOKIES) <= cookies


@dataclass(frozen=True)
class Kept:
    status: int
    content_type: str
    content: bytes


class Pages:
    """The pages of one view kept for plain visitors (``window``: the setting naming the seconds)."""

    def __init__(self, window: str) -> None:
        self._memo: memo.Recent[Kept] = memo.Recent(window)

    def answer(self, request, key: Hashable, render: Callable[[dict], HttpResponse]) -> HttpResponse:
        """The page for ``key``: kept for a plain visitor, else ``render({})``.  ``render(extra)``
        renders the page with ``extra`` added to its context (the kept copy's token mark)."""
        if not plain_visitor(request):
            return render({})
        kept = self._memo.get(key, lambda: _kept(render({"csrf_token": TOKEN_MARK})))
        content = kept.content
        if not _proxy_puts_token(request):
            content = content.replace(TOKEN_MARK.encode(), get_token(request).encode())
        return HttpResponse(content, status=kept.status, content_type=kept.content_type)


def _proxy_puts_token(request) -> bool:
    return (
        request.headers.get(PROXY_HEADER) == PROXY_ASKS
        and trusted_proxy(request.META)
        and bool(CSRF_SECRET.fullmatch(request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")))
    )


def _kept(response: HttpResponse) -> Kept:
    return Kept(response.status_code, response["Content-Type"], response.content)
