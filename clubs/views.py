"""The club's page (its members, invitations for new ones), the administrator's clubs, and the
invitation a new arbiter or deputy opens to choose a name and a password."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import access, services
from clubs.forms import ClubForm, InvitationForm, JoinForm
from clubs.models import Club, Invitation, Member, Role
from server.network import public_base
from server.writes import ServiceError


def _link(request, invitation: Invitation) -> str:
    """The link the invited person opens on their own device: built on the laptop's network address
    when the administrator browses the laptop itself (``server.network.public_base``)."""
    base, _loopback = public_base(request)
    return base + reverse("clubs:join", kwargs={"token": invitation.token})


def _club_of(pk: int) -> int | None:
    return pk if Club.objects.filter(pk=pk).exists() else None


@access.club_view(_club_of)
def club_detail(request, pk: int):
    """Members, their roles, invitations still open; an invitation made here shows its link."""
    club = get_object_or_404(Club, pk=pk)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        role = form.cleaned_data["role"]
        invitation = services.invitation_create(club=club, role=role, created_by=request.user)
        messages.success(request, _("Invitation créée : envoyez ce lien à la personne invitée."))
        return redirect(f"{reverse('clubs:club_detail', kwargs={'pk': pk})}?lien={invitation.pk}")
    shown = request.GET.get("lien", "")
    invitations = [
        {"invitation": inv, "link": _link(request, inv) if str(inv.pk) == shown or not shown else ""}
        for inv in club.invitations.filter(used_by__isnull=True).order_by("-created_at")
        if inv.usable()
    ]
    context = {
        "club": club,
        "members": club.members.select_related("user").order_by("role", "user__username"),
        "invitations": invitations,
        "form": form,
    }
    return render(request, "clubs/club_detail.html", context)


def _member_club(pk: int) -> int | None:
    return Member.objects.filter(pk=pk).values_list("club_id", flat=True).first()


@access.club_view(_member_club)
@require_POST
def member_remove(request, pk: int):
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    try:
        services.member_remove(member=member)
    except ServiceError as error:
        messages.error(request, error.text())
    return redirect("clubs:club_detail", pk=member.club_id)


@login_required
def club_list(request):
    """The administrator's clubs; a club made here comes with its first arbiter's invitation."""
    if not access.is_admin(request.user):
        arbiter_of = access.club_ids(request.user, Role.ARBITER)
        if len(arbiter_of) == 1:
            return redirect("clubs:club_detail", pk=arbiter_of[0])
        context = {"clubs": access.clubs(request.user, Role.DEPUTY), "arbiter_of": arbiter_of, "form": None}
        return render(request, "clubs/club_list.html", context)
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club, invitation = services.club_create(name=form.cleaned_data["name"], created_by=request.user)
        except ServiceError as error:
            form.add_error("name", error.text())
        else:
            messages.success(request, _("Club créé : envoyez à son premier arbitre le lien ci-dessous."))
            return redirect(f"{reverse('clubs:club_detail', kwargs={'pk': club.pk})}?lien={invitation.pk}")
    clubs = Club.objects.all()
    context = {"clubs": clubs, "arbiter_of": [club.pk for club in clubs], "form": form}
    return render(request, "clubs/club_list.html", context)


def join(request, token: str):
    """An invitation opened: choose a name and a password, and you are in the club."""
    invitation = Invitation.objects.select_related("club").filter(token=token[:40]).first()
    if invitation is None or not invitation.usable():
        return render(request, "clubs/join_closed.html", status=404)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.invitation_accept(
                invitation=invitation,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("tournaments:home")
    return render(request, "clubs/join.html", {"invitation": invitation, "form": form})
