"""Pages anyone reads without an account, kept a moment by the web process as rendered.

A simultaneous's public results are refreshed by hundreds of readers at once (200 requests a second),
and rendering the page for each of them takes the CPU the room's phones wait for.  A plain visitor
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
from django.http.cookie import parse_cookie
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
        if request.META.get(DOOR_ASKS):
            request.META[KEPT_HERE] = True  # the door keeps the answer as it is
        elif not _proxy_puts_token(request):
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


# -- the door: the laptop's nginx for the kept pages ----------------------------------------------

#: Set by ``Door`` in the request's environ (never a header: no client sets it): leave the mark.
DOOR_ASKS = "arbiter.door_asks"
#: Set by ``Pages.answer`` in the environ: the answer is a kept page with the mark left in.
KEPT_HERE = "arbiter.kept_here"
#: The pages ``Pages`` keeps: a simultaneous's public results (as nginx's ``kept`` location).
KEPT_PATH = re.compile(r"/simultane/[^/]+/\Z")


@dataclass(frozen=True)
class Answer:
    status: str
    headers: list[tuple[str, str]]
    body: bytes


class Door:
    """In front of Django (``arbiter.wsgi``), a kept page answered as nginx answers it at scale: the
    laptop's one Python process serves the room's phones, and 200 readers a second of a
    simultaneous's public page, each through Django's middlewares even with the page kept, make the
    phones' polls wait (measured: docs/developer/benchmarks.md).  A plain visitor's GET
    (no session, no message waiting, a CSRF cookie already: nginx's ``$kept_bypass``) is answered
    the whole answer Django gave another such visitor with the same path, query, language cookie
    and ``Accept-Language`` (nginx's ``proxy_cache_key``) at most the page's window ago, the
    visitor's own CSRF cookie put in the mark's place (nginx's ``sub_filter``): headers and all, no
    cookie set.  The copy never holds anyone's token.  A request nginx sends (``X-Kept-Page``)
    goes to Django untouched, and so does anything else."""

    def __init__(self, application) -> None:
        self.application = application
        self._answers: memo.Recent[Answer | None] = memo.Recent("PUBLIC_RESULTS_SECONDS")

    def __call__(self, environ, start_response):
        secret, cookies = _plain_secret(environ)
        if secret is None:
            return self.application(environ, start_response)
        key = (
            environ.get("PATH_INFO"),
            environ.get("QUERY_STRING", ""),
            cookies.get(settings.LANGUAGE_COOKIE_NAME, ""),
            environ.get("HTTP_ACCEPT_LANGUAGE", ""),
        )
        fresh: list[Answer] = []

        def ask() -> Answer | None:
            answer, kept = self._ask(environ)
            fresh.append(answer)
            return answer if kept else None

        answer = self._answers.get(key, ask)
        if answer is None:  # not a kept page: Django's, asked now (its mark put in if it left one)
            answer = fresh[0] if fresh else self._ask(environ)[0]
        body = answer.body.replace(TOKEN_MARK.encode(), secret.encode())
        start_response(answer.status, [*answer.headers, ("Content-Length", str(len(body)))])
        return [body]

    def _ask(self, environ) -> tuple[Answer, bool]:
        """Django's answer with the mark left in, and whether it is a kept page."""
        said: dict = {}

        def start_response(status, headers, exc_info=None):
            said["status"], said["headers"] = status, headers
            return lambda data: None

        environ[DOOR_ASKS] = True
        result = self.application(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        kept = bool(environ.get(KEPT_HERE)) and said["status"].startswith("200")
        headers = [
            (name, value)
            for name, value in said["headers"]
            if name.lower() != "content-length" and not (kept and name.lower() == "set-cookie")
        ]
        return Answer(said["status"], headers, body), kept


def _cookies(environ) -> dict[str, str]:
    return parse_cookie(environ.get("HTTP_COOKIE", ""))


def _plain_secret(environ) -> tuple[str | None, dict[str, str]]:
    """The visitor's CSRF cookie, when the request is a plain visitor's GET of a kept page with one,
    and its cookies (read only for such a page)."""
    if environ.get("REQUEST_METHOD") != "GET" or "HTTP_X_KEPT_PAGE" in environ:
        return None, {}
    if not KEPT_PATH.fullmatch(environ.get("PATH_INFO", "")):
        return None, {}
    cookies = _cookies(environ)
    if cookies.get(settings.SESSION_COOKIE_NAME) or cookies.get("messages"):
        return None, cookies
    secret = cookies.get(settings.CSRF_COOKIE_NAME, "")
    return (secret if CSRF_SECRET.fullmatch(secret) else None), cookies
