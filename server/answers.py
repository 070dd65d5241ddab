"""Django's own refusals, said in the interface's language: a phone that lost its CSRF cookie (cleared
by the browser, blocked, or a server reinstalled meanwhile) is told to reload its page, never shown
Django's English technical page, and its script shows the sentence where the receipt goes."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.html import escape

from engine.messages import Message, known
from server.language import interface_language
from server.logins import device_key


def error_answer(request, code: str, status: int, after: str = "") -> HttpResponse:
    """The sentence ``code`` in the interface's language where the phone's script reads it
    (``<p class="error">``): alone for htmx, else in a bare page followed by ``after`` (HTML).  A
    string, not a template: the database may be what failed."""
    lang = interface_language()
    body = f'<p class="error" role="alert">{escape(Message(code).text(lang))}</p>'
    if not request.headers.get("HX-Request"):
        body = (
            f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{status}</title>'
            f"{body}{after}</html>"
        )
    return HttpResponse(body, status=status)


def csrf_failure(request, reason: str = ""):
    """``settings.CSRF_FAILURE_VIEW``: 403 with the sentence and, on a page, a link to reload."""
    link = escape(_page_before(request))
    label = escape(Message("csrf_reload").text(interface_language()))
    return error_answer(request, "csrf_failed", 403, after=f'<p><a href="{link}">{label}</a></p>')


def forbidden(request, exception=None):
    """``handler403``: refused for want of a right, said in the interface's language and saying why.
    The refusal names its sentence (``PermissionDenied("forbidden_arbiters_only")``, registered
    by its room); any other says the account may not do this.  htmx gets the sentence alone; a page
    gets the site's page (``403.html``), or a bare one if that cannot be drawn."""
    code = exception.args[0] if exception is not None and exception.args else ""
    if not isinstance(code, str) or not known(code):
        code = "forbidden"
    lang = interface_language()
    sentence, home = Message(code).text(lang), Message("forbidden_home").text(lang)
    if not request.headers.get("HX-Request"):
        try:
            return render(request, "403.html", {"sentence": sentence, "home": home}, status=403)
        except Exception:  # the database or a template failing: still a 403 in words, bare
            pass
    return error_answer(request, code, 403, after=f'<p><a href="/">{escape(home)}</a></p>')


def _page_before(request) -> str:
    """The page the refused form was on (its path, on this server only), to reload it; else home."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc == request.get_host() and referer.path.startswith("/"):
        return referer.path
    return "/"


def login_locked(request, original_response=None, credentials=None) -> HttpResponse:
    """``settings.AXES_LOCKOUT_CALLABLE``: too many wrong passwords (``server.logins``).  429 with
    ``Retry-After``, the sentence in the interface's language and the wait; a stranger's sentence
    also says that the browser that already logged in to the account is not locked out."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    lang = interface_language()
    code = "login_locked" if device_key(request, credentials) is None else "login_locked_device"
    body = escape(Message(code, {"minutes": minutes}).text(lang))
    response = HttpResponse(
        f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>429</title>'
        f'<p class="error" role="alert">{body}</p></html>',
        status=429,
    )
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response


#: Marks every answer of this application (``MarkedAnswerMiddleware``): the phone's script
#: (``player.js``) takes an answer for the server's only if it carries it, never a proxy's 502 or a
#: captive portal's page, which it answers by sending the same slip again.
MARK_HEADER = "X-Arbiter"


class MarkedAnswerMiddleware:
    """First of the middlewares, so that every answer is marked: a view's, a refusal's, a 503 of a
    database busy, a 500 page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response[MARK_HEADER] = "1"
        return response
