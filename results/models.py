"""What the results keep: printouts (PDFs built by a task) and the clubs' results files of a merge.
The tables are named ``tournaments_printout`` and ``tournaments_mergedresults``, as in the
``tournaments`` app: migration ``results.0001`` moves the models here without touching the tables."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Printout(models.Model):
    """A PDF the arbiter asked for, built by a task that reports its progress (pretix's habit)."""

    class Kind(models.TextChoices):
        BUNDLE = "bundle", _("tout : classement, feuille de partie, fiches")
        RANKING = "ranking", _("classement")
        GAME = "game", _("feuille de partie")
        CARDS = "cards", _("fiches des joueurs")
        TOURNAMENT = "tournament", _("classement général")
        EVENING = "evening", _("toute la soirée : classement général, puis chaque partie")

    class CardsPerPage(models.IntegerChoices):
        """How many score cards are cut from one A4 sheet."""

        ONE = 1, _("1 fiche par page (A4)")
        TWO = 2, _("2 fiches par page (A5)")
        FOUR = 4, _("4 fiches par page (A6)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("en attente")
        RUNNING = "running", _("en cours")
        DONE = "done", _("prêt")
        FAILED = "failed", _("échec")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="printouts"
    )
    game = models.ForeignKey(
        "tournaments.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="printouts"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    cards_per_page = models.PositiveSmallIntegerField(choices=CardsPerPage.choices, default=CardsPerPage.ONE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    filename = models.CharField(max_length=200, blank=True)
    pdf = models.BinaryField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: What the results and the players' names were when it was asked for (``standings.printed_key``):
    #: a printout made before a correction, a round counted or a rename says it is out of date.
    made_on = models.CharField(max_length=200, blank=True)

    class Meta:
        db_table = "tournaments_printout"
        ordering = ["-created_at", "-id"]

    #: The printouts of the whole tournament (no game), and those that hold score cards.
    TOURNAMENT_KINDS = (Kind.TOURNAMENT, Kind.EVENING)
    CARD_KINDS = (Kind.BUNDLE, Kind.CARDS, Kind.EVENING)

    @property
    def has_cards(self) -> bool:
        return self.kind in self.CARD_KINDS

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0

    def outdated(self, printed_key: str) -> bool:
        """Whether the tournament changed since (``printed_key``: ``standings.printed_key`` now)."""
        return bool(self.made_on) and self.made_on != printed_key


class MergedResults(models.Model):
    """The results files of one prepared game played in several clubs (§5), kept as uploaded: the
    merged ranking is computed from them whenever it is shown or exported."""

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    #: The club that made the merge (``clubs``): only its members see it.
    owner = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    #: [{"name": file name, "data": the file's JSON text}], in upload order.
    files = models.JSONField()

    class Meta:
        db_table = "tournaments_mergedresults"
        ordering = ["-created_at", "-id"]


class Outbox(models.Model):
    """A game's results to send to a federation's server (a simultaneous played on this laptop, with
    no Internet in the hall): kept until the server has taken them, tried again when it can."""

    class Status(models.TextChoices):
        PENDING = "pending", _("en attente")
        SENT = "sent", _("envoyé")
        REFUSED = "refused", _("refusé")

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="+")
    #: The event's public page on the federation's server (``…/simultane/<key>/``).
    url = models.URLField(max_length=300)
    token = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    #: Why the last try did not go through (the server's refusal, or that it could not be reached).
    last_error = models.CharField(max_length=300, blank=True)
    tried_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
