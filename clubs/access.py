"""Who may do what to which club's objects.

A room above names how one of its objects leads to a club (``owner_of``: the object's id to its
club's id, one query) and wraps its views in ``club_view``: the login is checked, then the object's
club.  Someone of another club gets 404 (the object's existence is not told), a deputy asking for an
arbiter's action 403.  The site's administrator (a superuser) may everything everywhere."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404

from clubs.models import Club, Member, Role

#: What each role may do: an arbiter everything a deputy may, and more.
_RANK = {Role.DEPUTY: 1, Role.ARBITER: 2}


def roles(user) -> dict[int, str]:
    """The user's clubs and role in each, read once per request (kept on the user object)."""
    if not user.is_authenticated:
        return {}
    cached = getattr(user, "_club_roles", None)
    if cached is None:
        cached = dict(Member.objects.filter(user=user).values_list("club_id", "role"))
        user._club_roles = cached
    return cached


def is_admin(user) -> bool:
    return bool(user.is_authenticated and user.is_superuser)


def may(user, club_id: int | None, role: str = Role.ARBITER) -> bool:
    if club_id is None or not user.is_authenticated:
        return False
    if is_admin(user):
        return True
    held = roles(user).get(club_id)
    return held is not None and _RANK[held] >= _RANK[role]


def club_ids(user, role: str = Role.DEPUTY) -> list[int]:
    """The clubs where the user holds ``role`` or better, by membership (the administrator's too)."""
    return sorted(club for club, held in roles(user).items() if _RANK[held] >= _RANK[role])


def clubs(user, role: str = Role.DEPUTY):
    """The clubs whose objects the user may see with ``role`` (the administrator: all)."""
    if is_admin(user):
        return Club.objects.all()
    return Club.objects.filter(pk__in=club_ids(user, role))


def holds(user, role: str) -> bool:
    """Whether the user holds ``role`` (or better) in some club (the administrator: always)."""
    return is_admin(user) or any(_RANK[held] >= _RANK[role] for held in roles(user).values())


def check(user, club_id: int | None, role: str = Role.ARBITER) -> None:
    """404 for an object of a club the user is not in (or no object), 403 for too low a role."""
    check_any(user, () if club_id is None else (club_id,), role)


def check_any(user, club_ids: Iterable[int], role: str = Role.ARBITER) -> None:
    """``check`` for an object shared by several clubs (a simultaneous event): ``role`` in one of
    them is enough."""
    club_ids = set(club_ids)
    if any(may(user, club, role) for club in club_ids):
        return
    if club_ids & set(roles(user)):
        raise PermissionDenied("forbidden_arbiters_only")  # the sentence the 403 page shows
    raise Http404


def club_view(owner_of: Callable[[int], int | None], role: str = Role.ARBITER, key: str = "pk"):
    """A view of one object (``kwargs[key]``) for members of its club with ``role`` at least."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            check(request.user, owner_of(kwargs[key]), role)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def members_only(role: str = Role.ARBITER):
    """A view of no one object (a list, a form to create one) for anyone holding ``role`` in a club."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not holds(request.user, role):
                held = holds(request.user, Role.DEPUTY)
                raise PermissionDenied("forbidden_arbiters_only" if held else "forbidden_no_club")
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


#: The club every server starts with (``clubs.0002``), made again if a database was emptied.
FIRST_CLUB = "Mon club"


def first_club() -> Club:
    return Club.objects.order_by("id").first() or Club.objects.get_or_create(name=FIRST_CLUB)[0]


def home_club(user) -> Club:
    """The club what this user creates belongs to when they do not choose: their first club as an
    arbiter; for the administrator (the laptop's one arbiter), the first club."""
    ids = club_ids(user, Role.ARBITER)
    return Club.objects.get(pk=ids[0]) if ids else first_club()
