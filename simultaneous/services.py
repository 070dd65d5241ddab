"""Writes of the simultaneous events: an event made, its centres registered and withdrawn by the
organiser, a registered club joining as a centre or sending its laptop's results file, and the lead
centre's tops and end passed on to the other centres of a live event."""

from __future__ import annotations

import logging

from django.utils import timezone

from clubs.models import Club
from engine import record as engine_record
from lexicons.loaded import engine_lexicon
from results import exports, merges, reading
from server.writes import ServiceError, writing
from simultaneous.models import Centre, Event, Registration, Upload
from tournaments import services as live
from tournaments.models import Game, Round

logger = logging.getLogger(__name__)


def event_create(*, organiser, created_by, record_file: bytes | None = None, **fields) -> Event:
    """An event of ``organiser`` (a club).  A prepared one is read and replayed first (refused with
    the round and the reason); a live one starts with the organiser's room as its lead centre."""
    event = Event(organiser=organiser, created_by=created_by, **fields)
    if event.kind == Event.Kind.PREPARED:
        if not record_file:
            raise ServiceError("event_record_missing")
        try:
            record = engine_record.parse(record_file)
            engine_record.check(record, engine_lexicon(event.lexicon))
        except engine_record.RecordError as error:
            raise ServiceError.because("event_record_invalid", error.message) from None
        event.record = engine_record.to_dict(record)
    with writing():
        event.save()
        if event.kind == Event.Kind.LIVE:
            Registration.objects.create(event=event, club=organiser, mode=Registration.Mode.LIVE)
            event_join(event=event, club=organiser, created_by=created_by, lead=True)
    return event


def centre_register(*, event: Event, club: Club, mode: str = Registration.Mode.LIVE) -> Registration:
    """The organiser makes ``club`` a centre of the event, playing live on the server or offline on
    its laptop (``mode``): a club registered before (or withdrawn) is registered again with ``mode``.
    The lead centre of a live event plays live and stays."""
    if mode not in Registration.Mode.values:
        raise ServiceError("centre_mode_unknown")
    with writing():
        registration, made = Registration.objects.select_for_update().get_or_create(
            event=event, club=club, defaults={"mode": mode}
        )
        if not made:
            if _is_lead(registration) and mode != Registration.Mode.LIVE:
                raise ServiceError("centre_lead_stays")
            registration.mode, registration.withdrawn_at = mode, None
            registration.save(update_fields=["mode", "withdrawn_at"])
    return registration


def centre_withdraw(*, event: Event, registration_id: int) -> Registration:
    """The organiser withdraws a centre: it leaves the public page and the overall ranking, its later
    files are refused.  Nothing of it is deleted: a live centre's room and game stay its club's (a live
    event's racks still reach it: its players may finish the game), a file it sent stays kept (and
    counts again if the club is registered again)."""
    with writing():
        registration = (
            Registration.objects.select_for_update().filter(event=event, pk=registration_id).first()
        )
        if registration is None:
            raise ServiceError("centre_unknown")
        if _is_lead(registration):
            raise ServiceError("centre_lead_stays")
        if registration.withdrawn_at is None:
            registration.withdrawn_at = timezone.now()
            registration.save(update_fields=["withdrawn_at"])
    return registration


def upload_withdraw(*, event: Event, upload_id: int) -> Upload:
    """The organiser withdraws a centre's file: it leaves the public page; the row is kept (the
    organiser's page says when it came and when it was withdrawn) and a file the centre sends again
    replaces it and counts."""
    with writing():
        upload = Upload.objects.select_for_update().filter(event=event, pk=upload_id).first()
        if upload is None:
            raise ServiceError("upload_unknown")
        if upload.withdrawn_at is None:
            upload.withdrawn_at = timezone.now()
            upload.save(update_fields=["withdrawn_at"])
    return upload


def _is_lead(registration: Registration) -> bool:
    return Centre.objects.filter(
        event_id=registration.event_id, club_id=registration.club_id, lead=True
    ).exists()


def _registered(event: Event, club: Club) -> Registration | None:
    return Registration.objects.filter(event=event, club=club, withdrawn_at__isnull=True).first()


def event_join(*, event: Event, club, created_by, lead: bool = False) -> Centre:
    """``club``, registered by the organiser to play live, plays the event in a room of its own: a
    tournament of the club with the event's game started, the prepared record replayed, or (live) the
    lead's racks as they come."""
    with writing():
        registration = _registered(event, club)
        if registration is None or registration.mode != Registration.Mode.LIVE:
            raise ServiceError("event_not_registered")
        if Centre.objects.filter(event=event, club=club).exists():
            raise ServiceError("event_already_centre")
        tournament = live.tournament_create(
            created_by=created_by, owner=club, lexicon=event.lexicon, letters=event.lexicon.letters,
            name=event.name, date=event.date, club=club.name, round_seconds=event.round_seconds,
        )  # fmt: skip
        if event.kind == Event.Kind.PREPARED:
            game = live.game_start(tournament=tournament, prepared=event.record)
        elif lead:
            game = live.game_start(tournament=tournament)
        else:
            lead_game = Centre.objects.filter(event=event, lead=True).values_list("game_id", flat=True).get()
            game = live.game_follow(tournament=tournament, lead_id=lead_game)
        return Centre.objects.create(event=event, club=club, tournament=tournament, game=game, lead=lead)


def upload_sender(*, event: Event, token: str, name: str, size: int) -> Club:
    """Who sends a results file, told before a byte of it is read: the club of ``token``, a centre
    of the event registered to play on its laptop, announcing a file (``name``, ``size`` bytes) within
    the merge's limit (``results.reading.MAX_FILE_MB``)."""
    club = Club.objects.filter(upload_token=token).first() if token else None
    if club is None:
        raise ServiceError("upload_token_unknown")
    registration = _registered(event, club)
    if registration is None:
        raise ServiceError("upload_not_centre")
    if registration.mode != Registration.Mode.OFFLINE:
        raise ServiceError("upload_centre_live")
    reading.check_sizes([(name, size)])
    return club


def upload_receive(*, event: Event, club: Club, name: str, data: bytes) -> Upload:
    """A centre's results file sent from its laptop (``club``: ``upload_sender``'s): read within the
    merge's limits, checked to be this event's game round for round (fewer rounds is fine: the centre
    may send again later; the overall ranking does not wait for it), kept in place of the club's
    earlier file, withdrawn or not."""
    name = reading.file_name(name)
    reading.check_sizes([(name, len(data))])
    results = reading.read_results(0, name, data)
    merges.check_against(event.name, _reference_rounds(event), event.lexicon.sha256, results)
    with writing():
        if _registered(event, club) is None:  # withdrawn while its file was read
            raise ServiceError("upload_not_centre")
        upload, _ = Upload.objects.update_or_create(
            event=event, club=club,
            defaults={
                "data": data.decode("utf-8"), "players": len(results.players),
                "rounds": len(results.record.rounds), "withdrawn_at": None,
            },
        )  # fmt: skip
    return upload


def _reference_rounds(event: Event):
    """The event's game as the centres play it: the prepared record, or the lead's placed rounds."""
    if event.kind == Event.Kind.PREPARED:
        return engine_record.parse(event.record).rounds
    lead = Centre.objects.select_related("game__tournament__lexicon").get(event=event, lead=True)
    record = exports.placed_record(lead.game)
    return record.rounds if record else ()


def lead_moved(sender, instance, raw: bool = False, created: bool = False, **_kwargs) -> None:
    """After a save of a round or a game, in its transaction.  The lead centre drew a round (its rack
    reaches every centre at once), cancelled or placed one, or its game is over: every other centre's
    game follows (``tournaments.services.follow``).  A centre closed a round: the lead's choice of
    that round's top is told to it, if the lead has placed it.  A centre whose game cannot follow is
    logged and left for the next change (each one brings it fully in line): the lead plays on."""
    if raw:
        return
    if sender is Round:
        follower_closed = instance.status == Round.Status.CLOSED
        if not (created or follower_closed or instance.status in _LEAD_MOVES):
            return
        game_id = instance.game_id
    else:
        if instance.status == Game.Status.PLAYING:
            return
        game_id, follower_closed = instance.pk, False
    centre = Centre.objects.filter(game_id=game_id).values("event_id", "lead").first()
    if centre is None:
        return
    centres = Centre.objects.filter(event_id=centre["event_id"])
    if not centre["lead"]:
        if follower_closed:
            lead_game = centres.filter(lead=True).values_list("game_id", flat=True).first()
            if lead_game is not None:  # None: a prepared event, no lead
                _follow(game_id, lead_game)
        return
    if sender is Round and instance.status == Round.Status.CLOSED:
        return  # the lead's round closed: nothing reaches the centres
    for follower in centres.filter(lead=False).values_list("game_id", flat=True):
        _follow(follower, game_id)


#: A lead's round saved in these states moves the centres' games (a new draw moves them too).
_LEAD_MOVES = (Round.Status.PLACED, Round.Status.CANCELLED)


def _follow(game_id: int, lead_id: int) -> None:
    try:
        live.game_follow_lead(game_id=game_id, lead_id=lead_id)
    except Exception:  # its savepoint rolled back: the lead's change stands
        logger.exception("The centre's game %s could not follow the lead's game %s.", game_id, lead_id)
