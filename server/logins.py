"""Wrong passwords (django-axes, ``settings.AXES_HANDLER``): two locks, each lasting
``AXES_COOLOFF_TIME`` after the last wrong password that counts for it.

- An account from one address (``AXES_LOCKOUT_PARAMETERS``: the pair): ``AXES_FAILURE_LIMIT`` wrong
  passwords for "arbitre" from a phone on the club's Wi-Fi lock "arbitre" from that phone only; the
  arbiter's laptop, at another address, still logs in.  Nobody can lock an account they do not sit at.
- An address, whatever the accounts: ``LOGIN_FAILURES_PER_ADDRESS`` wrong passwords (higher) lock
  every login from that address, so one address cannot try a few passwords on each of many
  accounts.  It is counted from the attempts axes keeps (one row per account, address and browser).

The address is ``server.addresses.client_address`` (``AXES_CLIENT_IP_CALLABLE``)."""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum


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

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or self.address_locked(request)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if self.address_locked(request):
            request.axes_locked_out = True  # this failure was the address's last: answered as locked
            request.axes_credentials = credentials
