"""Clubs, their members and the invitations that make members."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: How long an invitation link can be used.
INVITATION_DAYS = 7


def _token() -> str:
    return secrets.token_urlsafe(24)


def _upload_token() -> str:
    return secrets.token_urlsafe(32)


class Club(models.Model):
    name = models.CharField(_("nom du club"), max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: What the club's laptop sends with a results file to this server (``simultaneous``): the
    #: club's arbiters see it on the club's page.
    upload_token = models.CharField(max_length=64, default=_upload_token, db_index=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    ARBITER = "arbiter", _("arbitre")
    #: Enters paper slips and corrections during a game, nothing else.
    DEPUTY = "deputy", _("adjoint")


class Member(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    role = models.CharField(_("rôle"), max_length=10, choices=Role.choices, default=Role.ARBITER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="clubs_member_once")]
        ordering = ["club", "user__username"]


def _expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=INVITATION_DAYS)


class Invitation(models.Model):
    """A link that makes its opener a member of the club with the role, once they choose a name and a
    password; used once, for ``INVITATION_DAYS`` days."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.ARBITER)
    token = models.CharField(max_length=40, unique=True, default=_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=_expiry)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def usable(self, now=None) -> bool:
        return self.used_by_id is None and (now or timezone.now()) < self.expires_at
