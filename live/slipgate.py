"""The phones' slips on a lean path beside Django's pages: ``POST /j/<token>/bulletin/``
sent by the phone's script (htmx) is answered here, before Django's middlewares and views; so is the
phone's poll (``GET /j/<token>/etat/``, ``SlipGate._poll``: 204 when nothing is new, else the room's
messages for the phone's script to draw, ``live.polled``), the laptop's phones' every 2 s.

- The arrival is the stamp taken before any queue (``server.arrival``: waitress's, or the trusted
  proxy's ``X-Request-Start``), as in Django's view.
- The player and the round come from the process's memory (``live.room``); the slip is read
  and graded by the request's thread, then stored with every other slip waiting in the process, one
  commit for them all (``services.slip_batch``); a slip stamped by the cutoff is stored even if the
  round closed meanwhile.
- The answer is the receipt alone (``_player_receipt.html``'s markup, written by ``receipt_html``),
  never the board nor the screen; when a slip was stored the receipt carries it
  (``data-slip-ref``, ``data-slip-word``: jokers in lower case) for the phone to draw it on its board.
  Its refusals are Django's view's: kept with the round's receipt (``phone.refusal_keep``), a removed
  player's 410, a database that failed answered 503 with ``Retry-After`` (the phone sends the same
  request again, stored once).  Every answer is marked ``X-Arbiter: 1`` and said in the language
  Django's pages choose (``LocaleMiddleware``'s: the language cookie, else the browser's).

A link that names no player is answered by Django's view's own function (``unknown_token``: the
removed player's 410, the guess counted by ``server.ratelimit``, 404 or 429).  Anything else goes to
Django untouched: another URL or method, a form sent without the script (no ``HX-Request``: Django's
view answers with the page), a host Django refuses, plain HTTP where HTTPS is required.  Django's
view answers the script's slip with the same ``views.player.slip_answer`` (a test client, a server
started without ``arbiter.wsgi``).

CSRF: Django's CSRF check protects what a browser's cookies give a forged request; a slip's only
credential is the player's secret in its URL (192 random bits, never in a cookie), which a forging
site would need to know, and knowing it, could send the slip itself.  The check would add nothing
but a cookie a phone may have lost.  As a belt, a request whose ``Origin`` (else ``Referer``) names
another host than the one asked (nor one of ``CSRF_TRUSTED_ORIGINS``) is refused as Django's check
refuses it (``server.answers.csrf_failure``, 403): a browser always sends ``Origin`` with a script's
POST.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import parse_qs, urlsplit

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.core import signals
from django.core.exceptions import DisallowedHost, SuspiciousOperation
from django.core.handlers.exception import response_for_exception
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.core.signals import setting_changed
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.urls import set_script_prefix
from django.utils import translation
from django_htmx.middleware import HtmxDetails

from live import polled, room
from live.middleware import RETRY_AFTER_SECONDS
from live.views.player import close_if_due, slip_answer, unknown_token
from server import arrival
from server.answers import MARK_HEADER, csrf_failure, error_answer

#: The Content-Security-Policy header as Django's chain writes it (django-csp's middleware).
_CSP = CSPMiddleware(lambda request: None)
#: The CSP headers the middleware wrote on a slip's answer with no nonce (the receipt has no inline
#: script): the same for every one, written once (built per answer, it is a share of each slip's CPU).
_csp_plain: dict[str, str] | None = None
_CSP_OWN = ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt", "_csp_exempt_ro")


@receiver(setting_changed)
def _csp_settings_changed(**_kwargs) -> None:
    global _csp_plain
    _csp_plain = None


def _with_csp(request, response):
    global _csp_plain
    plain = getattr(request, "_csp_nonce", None) is None and not any(hasattr(response, a) for a in _CSP_OWN)
    if not plain:
        return _CSP.process_response(request, response)
    if _csp_plain is None:
        response = _CSP.process_response(request, response)
        _csp_plain = {k: v for k, v in response.items() if k.lower().startswith("content-security")}
        return response
    for name, value in _csp_plain.items():
        response[name] = value
    return response


logger = logging.getLogger(__name__)

#: The phone's slip: ``player_urls``' ``player_submit``, the path the waitress stamp watches too.
SLIP_PATH = arrival.SLIP_PATH
#: The phone's poll: ``player_urls``' ``player_status``.
POLL_PATH = re.compile(r"/j/([^/]+)/etat/\Z")


# -- the gate in front of Django ------------------------------------------------------------------


def _security_headers() -> list[tuple[str, str]]:
    """What Django's middlewares add to every answer (from the same settings): the application's
    mark, and the security headers an answer of a few lines needs (the page's own CSP governs what
    the phone does with it)."""
    headers = [(MARK_HEADER, "1"), ("Vary", "Accept-Language, Cookie")]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        headers.append(("Referrer-Policy", settings.SECURE_REFERRER_POLICY))
    headers.append(("X-Frame-Options", settings.X_FRAME_OPTIONS))
    return headers


class SlipGate:
    """The WSGI application of the site: the phones' slips sent by their script on the lean path,
    everything else to ``application`` (Django's), untouched."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        token = self._slip_token(environ)
        if token is None:
            poll_answer = self._poll(environ)
            if poll_answer is not None:
                return poll_answer(start_response)
            return self.application(environ, start_response)
        set_script_prefix(get_script_name(environ))
        signals.request_started.send(sender=self.__class__, environ=environ)
        try:
            response = self._answer(WSGIRequest(environ), token)
        finally:
            signals.request_finished.send(sender=self.__class__)
        if response is None:
            return self.application(environ, start_response)
        return self._send(response, start_response)

    @staticmethod
    def _poll(environ):
        """The phone's poll, answered here: ``GET /j/<token>/etat/`` from the script, naming the state
        it shows (``s``) and its name and table (``p``), the latter still the room's.  A round due to
        close is closed first, as Django's view does (``views.player.close_if_due``: the polls of a
        close's seconds, dozens at each close of a hall, cost far more in Django's view; measured:
        docs/developer/benchmarks.md).  The state still the room's: 204 with the seconds left, as
        Django's view answers it (``views.player.player_status``), with no query (``room``'s memory) and
        none of Django's machinery.  Another, and the script draws the room's messages (``d``, its
        language): the room's state and the phone's own result as pushed (``live.polled``).  Anything
        else (a page without that script, a link that names no player, a player renamed or moved): None,
        and Django's view answers."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_HX_REQUEST") != "true":
            return None
        found = POLL_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if found is None:
            return None
        token = found.group(1)
        query = parse_qs(environ.get("QUERY_STRING", ""), max_num_fields=20)
        shown, person = query.get("s", [""])[-1], query.get("p", [""])[-1]
        signals.request_started.send(sender=SlipGate, environ=environ)
        try:
            ids = room.player_ids(token)
            if ids is None:
                return None
            signature = close_if_due(ids[1], pushed=query.get("k", [""])[-1])
            if person not in ("", room.player_shown(token)):
                return None
            body = None
            if shown != signature.key:
                # Changed: the room's messages for a script that draws them (its language), as pushed.
                lang = query.get("d", [""])[-1]
                if lang:
                    body = polled.answer(ids[1], ids[0], signature.key, lang, signature.remaining)
                if body is None:
                    return None
        except Exception:  # the database or the cache failing: Django's view says it
            logger.warning("A poll could not be answered on the lean path", exc_info=True)
            return None
        finally:
            signals.request_finished.send(sender=SlipGate)
        headers = _security_headers()
        if signature.remaining is not None:
            headers.append(("X-Remaining", f"{signature.remaining:.1f}"))
        if body is not None:
            headers += [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]

        def answer(start_response):
            if body is None:
                start_response("204 No Content", headers)
                return []
            start_response("200 OK", headers)
            return [body]

        return answer

    @staticmethod
    def _slip_token(environ) -> str | None:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("HTTP_HX_REQUEST") != "true":
            return None
        found = SLIP_PATH.fullmatch(environ.get("PATH_INFO", ""))
        return found.group(0)[3:-10] if found else None

    def _answer(self, request, token: str) -> HttpResponse | None:
        """The answer, or None to let Django answer (nothing of the request read yet): a host it refuses,
        plain HTTP where HTTPS is required."""
        try:
            secure_needed = settings.SECURE_SSL_REDIRECT and not request.is_secure()
            request.get_host()  # Django's 400 for a host it refuses
        except DisallowedHost:
            return None
        if secure_needed:
            return None
        language = translation.get_language_from_request(request)
        with translation.override(language):
            request.LANGUAGE_CODE = translation.get_language()
            request.htmx = HtmxDetails(request)
            _CSP.process_request(request)
            try:
                player = room.player_by_token_recent(token, mark_recent=True)
                if player is None:  # as Django's view: a removed player's 410, a guess counted, 404
                    response = unknown_token(request, token)
                elif not _same_site(request):
                    response = csrf_failure(request)
                elif not _readable(request):
                    response = error_answer(request, "phone_refused", 400)
                else:
                    response = slip_answer(request, player)
            except (OperationalError, InterfaceError) as failure:  # as PlayerDatabaseErrorMiddleware
                logger.warning("Database error on %s, answered 503: %s", request.path, failure)
                response = error_answer(request, "player_database_busy_slip", 503)
                response["Retry-After"] = str(RETRY_AFTER_SECONDS)
            except Exception as failure:  # as Django's handler: logged, its 400/403/404/500 page
                response = response_for_exception(request, failure)
            response["Content-Language"] = request.LANGUAGE_CODE
            return _with_csp(request, response)

    @staticmethod
    def _send(response: HttpResponse, start_response):
        headers = [item for item in response.items() if item[0].lower() != "content-length"]
        headers += _security_headers()
        status = f"{response.status_code} {response.reason_phrase}"
        body = response.content
        start_response(status, [*headers, ("Content-Length", str(len(body)))])
        return [body]


def _readable(request) -> bool:
    """Whether the body reads as a form (else Django's 400: too big, too many fields, broken)."""
    try:
        request.POST  # noqa: B018
    except (SuspiciousOperation, MultiPartParserError, UnreadablePostError):
        return False
    return True


def _same_site(request) -> bool:
    """Whether the script's page is this site's: its ``Origin`` (else ``Referer``), when sent, names
    the host asked or one of ``CSRF_TRUSTED_ORIGINS``."""
    sent = request.META.get("HTTP_ORIGIN") or request.META.get("HTTP_REFERER")
    if not sent:
        return True
    try:
        netloc = urlsplit(sent).netloc.lower()
    except ValueError:
        return False
    if netloc and netloc == request.get_host().lower():
        return True
    return any(urlsplit(origin).netloc.lower() == netloc for origin in settings.CSRF_TRUSTED_ORIGINS)
