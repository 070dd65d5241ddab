"""Django's own refusals, said in the interface's language: a phone that lost its CSRF cookie (cleared
by the browser, blocked, or a server reinstalled meanwhile) is told to reload its page, never shown
Django's English technical page, and its script shows the sentence where the receipt goes."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.utils.html import escape

from engine.messages import Message
from server.language import interface_language


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


def _page_before(request) -> str:
    """The page the refused form was on (its path, on this server only), to reload it; else home."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc == request.get_host() and referer.path.startswith("/"):
        return referer.path
    return "/"


def login_locked(request, original_response=None, credentials=None) -> HttpResponse:
    """``settings.AXES_LOCKOUT_CALLABLE``: too many wrong passwords from this address or for this
    account.  429 with ``Retry-After``, the sentence in the interface's language and the wait."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    lang = interface_language()
    body = escape(Message("login_locked", {"minutes": minutes}).text(lang))
    response = HttpResponse(
        f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>429</title>'
        f'<p class="error" role="alert">{body}</p></html>',
        status=429,
    )
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
