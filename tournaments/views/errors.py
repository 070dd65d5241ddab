"""Django's own refusals, said in the interface's language: a phone that lost its CSRF cookie (cleared
by the browser, blocked, or a server reinstalled meanwhile) is told to reload its page, never shown
Django's English technical page, and its script shows the sentence where the receipt goes."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpResponseForbidden
from django.utils.html import escape

import tournaments.messages  # noqa: F401 - registers the sentence below
from engine.messages import Message
from tournaments.selectors import interface_language


def csrf_failure(request, reason: str = ""):
    """``settings.CSRF_FAILURE_VIEW``: 403 with the sentence (a fragment for htmx, else a page)."""
    lang = interface_language()
    body = f'<p class="error" role="alert">{escape(Message("csrf_failed").text(lang))}</p>'
    if not request.headers.get("HX-Request"):
        link = escape(_page_before(request))
        label = escape(Message("csrf_reload").text(lang))
        body = (
            f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>403</title>'
            f'{body}<p><a href="{link}">{label}</a></p></html>'
        )
    return HttpResponseForbidden(body)


def _page_before(request) -> str:
    """The page the refused form was on (its path, on this server only), to reload it; else home."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc == request.get_host() and referer.path.startswith("/"):
        return referer.path
    return "/"
