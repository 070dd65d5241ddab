"""An event played in several centres, and its centres."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def _key() -> str:
    return secrets.token_urlsafe(12)


class Event(models.Model):
    class Kind(models.TextChoices):
        PREPARED = "prepared", _("partie préparée")
        LIVE = "live", _("en direct, tirée dans le centre principal")

    name = models.CharField(_("nom"), max_length=120)
    date = models.DateField(_("date"))
    organiser = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("déroulement"), max_length=10, choices=Kind.choices, default=Kind.PREPARED)
    #: A prepared event's game record (formats/game-record.md): the centres' games replay it.
    record = models.JSONField(null=True, blank=True)
    lexicon = models.ForeignKey(
        "lexicons.LexiconList", on_delete=models.PROTECT, verbose_name=_("dictionnaire")
    )
    round_seconds = models.PositiveIntegerField(_("temps par coup"), default=180)
    #: The public results page's address: readable without login by whoever has it.
    public_key = models.CharField(max_length=24, unique=True, default=_key)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name


class Centre(models.Model):
    """A club playing the event in its own room: its tournament and the game started from the event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="centres")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.PROTECT, related_name="+")
    game = models.OneToOneField("tournaments.Game", on_delete=models.PROTECT, related_name="centre")
    #: A live event's lead centre: its arbiter draws the racks every centre plays.
    lead = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-lead", "joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "club"], name="one_centre_per_club")]


class Registration(models.Model):
    """A club the organiser made a centre of the event, and how it plays: live on the server (it
    joins with "Jouer comme centre") or offline on its own laptop (it sends its results file).  Only
    a registered club joins or sends; the organiser withdraws a centre (``withdrawn_at``): it leaves
    the public page and the overall ranking, its room and game stay its club's, and registering the
    club again brings it back."""

    class Mode(models.TextChoices):
        LIVE = "live", _("en direct sur le serveur")
        OFFLINE = "offline", _("sur son ordinateur, envoie ses résultats")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    mode = models.CharField(_("déroulement"), max_length=10, choices=Mode.choices, default=Mode.LIVE)
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "club"], name="one_registration_per_club")]


class Upload(models.Model):
    """The results file of a centre that played the event on its own laptop (no Internet in its
    hall), sent with its club's token; a file sent again replaces the club's earlier one.  The
    organiser withdraws a file (``withdrawn_at``): it leaves the public page, and a file the centre
    sends again counts again."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="uploads")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    #: The results file's text (``results.exports.results_export``).
    data = models.TextField()
    received_at = models.DateTimeField(auto_now=True)
    #: What the file holds, for the organiser's page.
    players = models.PositiveIntegerField(default=0)
    rounds = models.PositiveSmallIntegerField(default=0)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["received_at", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "club"], name="one_upload_per_club")]
