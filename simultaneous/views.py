"""The organiser's and the centres' pages of a simultaneous event, and its public results page."""

from __future__ import annotations

from urllib.parse import quote as urlquote

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from clubs import access
from clubs.access import home_club, members_only
from clubs.models import Role
from lexicons.loaded import lexicon_default_row
from results import reading
from server import public
from server.language import interface_language
from server.writes import ServiceError
from simultaneous import reads, services
from simultaneous.forms import CentreForm, EventForm
from simultaneous.models import Centre, Event, Registration


def _clubs_of_event(event_id: int) -> set[int]:
    """The organiser, the centres registered and the centres that joined: who may open the event's
    page."""
    event = Event.objects.filter(pk=event_id).values_list("organiser_id", flat=True).first()
    if event is None:
        return set()
    registered = Registration.objects.filter(event_id=event_id, withdrawn_at__isnull=True)
    return {
        event,
        *registered.values_list("club_id", flat=True),
        *Centre.objects.filter(event_id=event_id).values_list("club_id", flat=True),
    }


def _event_page_allowed(request, pk: int) -> Event:
    """The organiser's and the centres' arbiters (a centre's deputy: 403, their slips are on the
    game's page; anyone else: 404)."""
    access.check_any(request.user, _clubs_of_event(pk), Role.ARBITER)
    return get_object_or_404(Event.objects.select_related("organiser", "lexicon"), pk=pk)


def _organiser_only(request, pk: int) -> Event:
    """The organiser's arbiters (a centre's arbiter or deputy: 403; anyone else: 404)."""
    event = _event_page_allowed(request, pk)
    if not access.may(request.user, event.organiser_id, Role.ARBITER):
        raise PermissionDenied
    return event


def _may_join(user, event_ids) -> dict[int, list[int]]:
    """Per event, the user's clubs registered to play it live that have not joined yet."""
    mine = set(access.clubs(user, Role.ARBITER).values_list("pk", flat=True))
    joined = set(Centre.objects.filter(event_id__in=event_ids).values_list("event_id", "club_id"))
    found: dict[int, list[int]] = {}
    registered = Registration.objects.filter(
        event_id__in=event_ids, club_id__in=mine, withdrawn_at__isnull=True, mode=Registration.Mode.LIVE
    ).values_list("event_id", "club_id")
    for event_id, club_id in registered:
        if (event_id, club_id) not in joined:
            found.setdefault(event_id, []).append(club_id)
    return found


@members_only(Role.ARBITER)
def event_list(request):
    """Events the user's clubs organise, are registered in or play; a club registered to play one
    live joins it from here."""
    mine = set(access.clubs(request.user, Role.ARBITER).values_list("pk", flat=True))
    events = list(
        Event.objects.filter(
            Q(organiser__in=mine)
            | Q(registrations__club__in=mine, registrations__withdrawn_at__isnull=True)
            | Q(centres__club__in=mine)
        )
        .distinct()
        .select_related("organiser")
    )
    joinable = _may_join(request.user, [e.pk for e in events])
    counts = dict(
        Registration.objects.filter(event__in=events, withdrawn_at__isnull=True)
        .values("event_id")
        .annotate(n=Count("id"))
        .values_list("event_id", "n")
    )
    rows = [{"event": e, "centres": counts.get(e.pk, 0), "join": e.pk in joinable} for e in events]
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
    """The event's page: its public address, its centres (for the organiser: registered, withdrawn,
    each one's room, game and file, with the buttons to register and withdraw) and its overall
    ranking."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event_page_allowed(request, pk)
    standing = reads.event_standing(event, interface_language())
    organiser = access.may(request.user, event.organiser_id, Role.ARBITER)
    states = reads.event_centres(event, standing)
    context = {
        "event": event,
        "standing": standing,
        "organiser": organiser,
        "centres": [
            {"state": s, "mine": access.may(request.user, s.registration.club_id, Role.DEPUTY)}
            for s in states
            if organiser or s.registration.withdrawn_at is None
        ],
        "join": event.pk in _may_join(request.user, [event.pk]),
        "form": CentreForm() if organiser else None,
        "public_url": request.build_absolute_uri(
            reverse("simultaneous:event_public", args=[event.public_key])
        ),
    }
    return render(request, "simultaneous/event_detail.html", context)


@members_only(Role.ARBITER)
@require_POST
def event_join(request, pk: int):
    """The user's club, registered by the organiser to play live, joins as a centre: its room is
    made, the game started from the event.  A club not registered: 404 (403 to a centre's arbiter)."""
    event = get_object_or_404(Event, pk=pk)
    clubs = _may_join(request.user, [event.pk]).get(event.pk, [])
    if not clubs:
        if _clubs_of_event(event.pk) & set(access.roles(request.user)):
            raise PermissionDenied
        raise Http404
    club = next((c for c in clubs if str(c) == request.POST.get("club", "")), clubs[0])
    try:
        centre = services.event_join(
            event=event, club=access.clubs(request.user, Role.ARBITER).get(pk=club), created_by=request.user
        )
    except ServiceError as error:
        messages.error(request, error.text())
        return redirect("simultaneous:event_list")
    return redirect("tournaments:tournament_detail", pk=centre.tournament_id)


@require_POST
def centre_register(request, pk: int):
    """The organiser registers a club as a centre (live, or offline on its laptop)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _organiser_only(request, pk)
    form = CentreForm(request.POST)
    if form.is_valid():
        try:
            services.centre_register(
                event=event, club=form.cleaned_data["club"], mode=form.cleaned_data["mode"]
            )
        except ServiceError as error:
            messages.error(request, error.text())
    else:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect("simultaneous:event_detail", pk=event.pk)


@require_POST
def centre_withdraw(request, pk: int, registration: int):
    """The organiser withdraws a centre: it leaves the public page and the overall ranking."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _organiser_only(request, pk)
    try:
        services.centre_withdraw(event=event, registration_id=registration)
    except ServiceError as error:
        messages.error(request, error.text())
    return redirect("simultaneous:event_detail", pk=event.pk)


@require_POST
def upload_withdraw(request, pk: int, upload: int):
    """The organiser withdraws a centre's results file: it leaves the public page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _organiser_only(request, pk)
    try:
        services.upload_withdraw(event=event, upload_id=upload)
    except ServiceError as error:
        messages.error(request, error.text())
    return redirect("simultaneous:event_detail", pk=event.pk)


#: The public page as rendered for plain visitors, kept ``PUBLIC_RESULTS_SECONDS`` by each process.
_public_pages = public.Pages("PUBLIC_RESULTS_SECONDS")


def event_public(request, key: str):
    """The results for everyone, without login: overall, per centre, by series and category.  Its
    readers, hundreds refreshing at once, are answered the page kept a moment (``server.public``):
    a filter the standing does not hold shows the whole ranking, so a page is kept per filter shown."""
    lang = interface_language()
    found = reads.public_recent(key[:24], lang)
    if found is None:
        raise Http404
    event, standing = found
    all_series = sorted({r.series for r in standing.rows if r.series})
    categories = sorted({r.category for r in standing.rows if r.category})
    series, category = request.GET.get("serie", ""), request.GET.get("categorie", "")
    series, category = series if series in all_series else "", category if category in categories else ""
    rows = [
        row for row in standing.rows
        if (not series or row.series == series) and (not category or row.category == category)
    ]  # fmt: skip
    query = f"?serie={urlquote(series)}" if series else f"?categorie={urlquote(category)}" if category else ""
    context = {
        "event": event,
        "standing": standing,
        "rows": rows,
        "series": all_series,
        "categories": categories,
        "chosen": series or category,
        # The language switch comes back to the page shown (not to the query a first reader typed).
        "language_next": request.path + query,
    }
    return _public_pages.answer(
        request,
        (event.pk, lang, series, category),
        lambda extra: render(request, "simultaneous/event_public.html", {**context, **extra}),
    )


@csrf_exempt  # a laptop's program, not a browser: the club's token is its credential
@require_POST
def event_upload(request, key: str):
    """A centre's laptop sends its results file: ``Authorization: Bearer <club token>``, the file as
    the body.  Answers JSON: ``{"ok": true}``, or the refusal in French and English: 403 for an
    unknown token or a club that is not a centre of the event registered to play on its laptop, 413
    for a file over ``results.reading.MAX_FILE_MB`` (both told from the headers, before a byte of the
    body is read), 400 for a file that is not this event's game.  The body is read here, within that
    limit, not through ``request.body`` (Django's DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB, stays the
    limit of every form)."""
    event = Event.objects.select_related("lexicon").filter(public_key=key[:24]).first()
    if event is None:
        raise Http404
    token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    name = request.headers.get("X-File-Name", "resultats.json")
    try:
        size = max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        size = 0
    try:
        club = services.upload_sender(event=event, token=token, name=name, size=size)
    except ServiceError as error:
        return _refused(error, 413 if error.message.code == "merge_file_too_big" else 403)
    try:
        data = request.read(reading.MAX_FILE_MB * 1024 * 1024 + 1)
        upload = services.upload_receive(event=event, club=club, name=name, data=data)
    except ServiceError as error:
        return _refused(
            error, {"merge_file_too_big": 413, "upload_not_centre": 403}.get(error.message.code, 400)
        )
    return JsonResponse({"ok": True, "club": upload.club.name})


def _refused(error: ServiceError, status: int) -> JsonResponse:
    return JsonResponse(
        {"ok": False, "fr": error.message.text("fr"), "en": error.message.text("en")}, status=status
    )
