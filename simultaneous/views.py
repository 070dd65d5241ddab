"""The organiser's and the centres' pages of a simultaneous event, and its public results page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from clubs import access
from clubs.access import home_club, members_only
from clubs.models import Role
from lexicons.loaded import lexicon_default_row
from server.language import interface_language
from server.writes import ServiceError
from simultaneous import reads, services
from simultaneous.forms import EventForm
from simultaneous.models import Centre, Event


def _clubs_of_event(event_id: int) -> set[int]:
    """The organiser and the centres: who may open the event's page."""
    event = Event.objects.filter(pk=event_id).values_list("organiser_id", flat=True).first()
    if event is None:
        return set()
    return {event, *Centre.objects.filter(event_id=event_id).values_list("club_id", flat=True)}


def _event_page_allowed(request, pk: int) -> Event:
    """The organiser's and the centres' arbiters (a centre's deputy: 403, their slips are on the
    game's page; anyone else: 404)."""
    access.check_any(request.user, _clubs_of_event(pk), Role.ARBITER)
    return get_object_or_404(Event.objects.select_related("organiser", "lexicon"), pk=pk)


@members_only(Role.ARBITER)
def event_list(request):
    """Events the user's clubs organise or play, and the others of the server, to join."""
    mine = set(access.clubs(request.user, Role.ARBITER).values_list("pk", flat=True))
    events = Event.objects.select_related("organiser").prefetch_related("centres")
    rows = [
        {"event": e, "mine": e.organiser_id in mine or any(c.club_id in mine for c in e.centres.all())}
        for e in events
    ]
    return render(request, "simultaneous/event_list.html", {"rows": rows})


@members_only(Role.ARBITER)
def event_create(request):
    clubs = list(access.clubs(request.user, Role.ARBITER))
    shipped = lexicon_default_row()  # the shipped list's row is made on first use
    initial = {"lexicon": shipped.pk}
    form = EventForm(request.POST or None, request.FILES or None, clubs=clubs, initial=initial)
    if request.method == "POST" and form.is_valid():
        fields = {
            name: form.cleaned_data[name] for name in ("name", "date", "kind", "lexicon", "round_seconds")
        }
        try:
            event = services.event_create(
                organiser=home_club(request.user), created_by=request.user,
                record_file=form.cleaned_data["record_file"], **fields,
            )  # fmt: skip
        except ServiceError as error:
            form.add_error("record_file", error.text())
        else:
            return redirect("simultaneous:event_detail", pk=event.pk)
    return render(request, "simultaneous/event_form.html", {"form": form})


def event_detail(request, pk: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event_page_allowed(request, pk)
    centres = list(event.centres.select_related("club").order_by("-lead", "id"))
    standing = reads.event_standing(event, interface_language())
    context = {
        "event": event,
        "standing": standing,
        "centres": [
            {"centre": c, "line": line, "mine": access.may(request.user, c.club_id, Role.DEPUTY)}
            for c, line in zip(centres, standing.centres[: len(centres)], strict=True)
        ],
        # Centres that played on their own laptop and sent their results file.
        "sent": standing.centres[len(centres) :],
        "public_url": request.build_absolute_uri(
            reverse("simultaneous:event_public", args=[event.public_key])
        ),
    }
    return render(request, "simultaneous/event_detail.html", context)


@members_only(Role.ARBITER)
@require_POST
def event_join(request, pk: int):
    """The user's club joins as a centre: its room is made, the game started from the event."""
    event = get_object_or_404(Event, pk=pk)
    try:
        centre = services.event_join(event=event, club=home_club(request.user), created_by=request.user)
    except ServiceError as error:
        messages.error(request, error.text())
        return redirect("simultaneous:event_list")
    return redirect("tournaments:tournament_detail", pk=centre.tournament_id)


def event_public(request, key: str):
    """The results for everyone, without login: overall, per centre, by series and category."""
    event = Event.objects.filter(public_key=key[:24]).first()
    if event is None:
        raise Http404
    lang = interface_language()
    standing = reads.event_standing_recent(event, lang)
    series, category = request.GET.get("serie", "")[:4], request.GET.get("categorie", "")[:40]
    rows = [
        row for row in standing.rows
        if (not series or row.series == series) and (not category or row.category == category)
    ]  # fmt: skip
    context = {
        "event": event,
        "standing": standing,
        "rows": rows,
        "series": sorted({r.series for r in standing.rows if r.series}),
        "categories": sorted({r.category for r in standing.rows if r.category}),
        "chosen": series or category,
    }
    return render(request, "simultaneous/event_public.html", context)


@csrf_exempt  # a laptop's program, not a browser: the club's token is its credential
@require_POST
def event_upload(request, key: str):
    """A centre's laptop sends its results file: ``Authorization: Bearer <club token>``, the file as
    the body.  Answers JSON: ``{"ok": true}``, or the refusal in French and English (403 for an
    unknown token, 400 for a file that is not this event's game, 413 for one too big)."""
    event = Event.objects.select_related("lexicon").filter(public_key=key[:24]).first()
    if event is None:
        raise Http404
    token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    try:
        data = request.body
    except RequestDataTooBig:
        return _refused(ServiceError("upload_too_big"), 413)
    try:
        upload = services.upload_receive(
            event=event, token=token, name=request.headers.get("X-File-Name", "resultats.json"), data=data
        )
    except ServiceError as error:
        return _refused(error, 403 if error.message.code == "upload_token_unknown" else 400)
    return JsonResponse({"ok": True, "club": upload.club.name})


def _refused(error: ServiceError, status: int) -> JsonResponse:
    return JsonResponse(
        {"ok": False, "fr": error.message.text("fr"), "en": error.message.text("en")}, status=status
    )
