"""Wrong passwords (django-axes, ``settings.AXES_HANDLER``): three locks, each lasting
``AXES_COOLOFF_TIME`` after the last wrong password that counts for it.

- An account from one address (``AXES_LOCKOUT_PARAMETERS``: the pair): ``AXES_FAILURE_LIMIT`` wrong
  passwords for "arbitre" from a phone on the club's Wi-Fi lock "arbitre" from that address only; the
  arbiter's laptop, at another address, still logs in.
- An address, whatever the accounts: ``LOGIN_FAILURES_PER_ADDRESS`` wrong passwords (higher) lock
  every login from that address, so one address cannot try a few passwords on each of many
  accounts.  It is counted from the attempts axes keeps (one row per account, address and browser).
- An account from one known device, whatever its address.  A hall of phones shares one public address
  (a NAT), so a guesser in the hall would lock the arbiter's own laptop out with the two locks above.
  A browser that logged in to an account carries a device cookie naming it (OWASP's "device cookies":
  the account and a random nonce, signed with the server's key, kept a year).  An attempt on that
  account from that browser counts only for the pair (account, device), ``AXES_FAILURE_LIMIT`` too,
  and neither the address's locks nor its count apply to it; its good password resets that pair only,
  never the strangers' count.  A browser without the cookie, with a cookie that does not verify or
  that names other accounts is a stranger: the two locks above.

Axes keeps a device's attempts as its own rows: the account, no address and the device's key in the
user agent column.  The pair and the address read rows of their address only, so they never count
them; a stranger's rows always have an address.

The address is ``server.addresses.client_address`` (``AXES_CLIENT_IP_CALLABLE``)."""

from __future__ import annotations

import secrets
from contextlib import contextmanager
from datetime import timedelta

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.core import signing
from django.db.models import Sum

#: The device cookie: its name, what its signature is salted with, how long a browser keeps it (and
#: how long its signature is believed), and how many accounts one browser remembers.
DEVICE_COOKIE = "arbiter_device"
DEVICE_SALT = "server.logins.device"
DEVICE_AGE = timedelta(days=365)
DEVICE_ACCOUNTS = 5
#: A device's key in axes' user agent column: the prefix, then the cookie's nonce for the account.
DEVICE_KEY_PREFIX = "device:"


def _device_entries(request) -> list[tuple[str, str]]:
    """The (account, nonce) pairs of the request's device cookie, most recent login first; none when
    there is no cookie, or when it is expired, not signed by this server or not of the expected shape."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return []
    try:
        entries = signing.loads(value, salt=DEVICE_SALT, max_age=DEVICE_AGE)
    except signing.BadSignature:
        return []
    if not isinstance(entries, list):
        return []
    return [
        (entry[0], entry[1])
        for entry in entries
        if isinstance(entry, list) and len(entry) == 2 and all(isinstance(part, str) for part in entry)
    ]


def device_key(request, credentials: dict | None = None) -> str | None:
    """The device's key when the request carries a valid device cookie for the account being tried,
    else None (a stranger)."""
    if request is None:
        return None
    username = get_client_username(request, credentials)
    for account, nonce in _device_entries(request):
        if account == username:
            return DEVICE_KEY_PREFIX + nonce
    return None


def device_cookie_value(request, username: str) -> str:
    """The device cookie after ``username`` logged in from this browser: a fresh nonce for it, first,
    and the browser's other accounts after it."""
    others = [[account, nonce] for account, nonce in _device_entries(request) if account != username]
    entries = [[username, secrets.token_urlsafe(16)], *others][:DEVICE_ACCOUNTS]
    return signing.dumps(entries, salt=DEVICE_SALT)


@contextmanager
def _recorded_as_device(request, key: str):
    """Axes records an attempt under the request's (account, address, user agent): a known device's
    goes under (account, no address, its key), which the pair and the address never read."""
    address, agent = request.axes_ip_address, request.axes_user_agent
    request.axes_ip_address, request.axes_user_agent = None, key
    try:
        yield
    finally:
        request.axes_ip_address, request.axes_user_agent = address, agent


class LoginHandler(AxesDatabaseHandler):
    def address_failures(self, request) -> int:
        """Wrong passwords from this request's address, every account together, still counting."""
        address = getattr(request, "axes_ip_address", None)
        if not address:
            return 0
        attempts = AccessAttempt.objects.filter(
            ip_address=address, attempt_time__gte=get_cool_off_threshold(request)
        )
        return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0

    def address_locked(self, request) -> bool:
        return self.address_failures(request) >= settings.LOGIN_FAILURES_PER_ADDRESS

    def filter_user_attempts(self, request, credentials=None):
        """A known device's attempts on its account; a stranger's, those of its (account, address)."""
        key = device_key(request, credentials)
        if key is None:
            return super().filter_user_attempts(request, credentials)
        username = get_client_username(request, credentials)
        return [AccessAttempt.objects.filter(username=username, ip_address=None, user_agent=key)]

    def is_locked(self, request, credentials=None) -> bool:
        if super().is_locked(request, credentials):
            return True
        return device_key(request, credentials) is None and self.address_locked(request)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        key = device_key(request, credentials)
        if key is not None:
            with _recorded_as_device(request, key):
                super().user_login_failed(sender, credentials, request, **kwargs)
            return
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if self.address_locked(request):
            request.axes_locked_out = True  # this failure was the address's last: answered as locked
            request.axes_credentials = credentials

    def user_logged_in(self, sender, request, user, **kwargs):
        super().user_logged_in(sender, request, user, **kwargs)
        request.login_device_account = user.get_username()  # DeviceCookieMiddleware gives the cookie


class DeviceCookieMiddleware:
    """Gives the browser its device cookie on the answer to a successful login (``LoginHandler``):
    HttpOnly, SameSite=Lax, Secure when the request came over HTTPS, kept ``DEVICE_AGE``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        username = getattr(request, "login_device_account", None)
        if username:
            response.set_cookie(
                DEVICE_COOKIE,
                device_cookie_value(request, username),
                max_age=int(DEVICE_AGE.total_seconds()),
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response
