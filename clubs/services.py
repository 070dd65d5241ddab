"""Writes of the clubs: a club made by the administrator, an invitation, a member joining by it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from clubs.models import Club, Invitation, Member, Role
from server.text import clean_text
from server.writes import ServiceError, writing


def club_create(*, name: str, created_by) -> tuple[Club, Invitation]:
    """A club and the invitation of its first arbiter (the administrator sends the link)."""
    name = clean_text(name).strip()
    if not name:
        raise ServiceError("club_name_empty")
    with writing():
        if Club.objects.filter(name__iexact=name).exists():
            raise ServiceError("club_name_taken", name=name)
        club = Club.objects.create(name=name)
        return club, Invitation.objects.create(club=club, role=Role.ARBITER, created_by=created_by)


def invitation_create(*, club: Club, role: str, created_by) -> Invitation:
    if role not in Role.values:
        raise ServiceError("club_role_unknown")
    with writing():
        return Invitation.objects.create(club=club, role=role, created_by=created_by)


def invitation_accept(*, invitation: Invitation, username: str, password: str):
    """The invited person's account, made a member of the club with the invitation's role; the
    invitation is used up (``ServiceError`` if it was used or has expired meanwhile)."""
    User = get_user_model()
    with writing():
        fresh = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if not fresh.usable():
            raise ServiceError("club_invitation_used")
        try:
            with transaction.atomic():
                user = User.objects.create_user(username=username, password=password)
        except IntegrityError:
            raise ServiceError("club_username_taken", name=username) from None
        Member.objects.create(club=fresh.club, user=user, role=fresh.role)
        fresh.used_by = user
        fresh.save(update_fields=["used_by"])
    return user


def member_remove(*, member: Member) -> None:
    """A member leaves the club (their account stays, with no club: it sees nothing)."""
    with writing():
        arbiters = Member.objects.filter(club=member.club_id, role=Role.ARBITER)
        if member.role == Role.ARBITER and arbiters.count() == 1:
            raise ServiceError("club_last_arbiter")
        member.delete()
