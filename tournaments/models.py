"""The live room's state, all of it in the database: a restart in the middle of a round keeps the
rack, the slips and the deadline.  Rules live in ``engine`` and ``services``; models carry data and
the constraints that protect it."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.alphabet import LetterSet
from engine.lettersets import letter_set
from engine.variants import Variant

#: The letter sets a tournament plays (``engine.lettersets``), each named in its own language.
LETTER_SETS = [
    ("fr", "Français"),
    ("es", "Español"),
    ("ca", "Català"),
    ("en", "English"),
    ("it", "Italiano"),
    ("pt", "Português"),
    ("nl", "Nederlands"),
    ("de", "Deutsch"),
]
#: The interface's languages, each named in itself (``settings.LANGUAGES``): the sheets' too.
INTERFACE_LANGUAGES = [("fr", "Français"), ("en", "English"), ("es", "Español"), ("ca", "Català")]


def new_token() -> str:
    """A player's secret: 192 random bits, URL-safe; never derived from an id."""
    return secrets.token_urlsafe(24)


#: A join code's characters: capitals and digits without look-alikes (no 0/O, 1/I/L).  Eight of
#: them: 31^8, about 8.5e11 codes; guessing at the rate limit's pace (``server.ratelimit``, 30 a
#: minute), an address finds one of 3,000 players about once in 18 years.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8


def new_join_code() -> str:
    """A player's short join code, typed where the link cannot be scanned (``live.codes``)."""
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


class GameVariant(models.TextChoices):
    """``engine.variants.Variant``: the classic game or one of the original games (docs/rules/variants.md)."""

    CLASSIC = Variant.CLASSIC.value, _("partie classique")
    JOKER = Variant.JOKER.value, _("partie joker")
    EXPLOSIVE = Variant.EXPLOSIVE.value, _("partie explosive")
    SEVEN_OF_EIGHT = Variant.SEVEN_OF_EIGHT.value, _("7 sur 8")


class Grading(models.TextChoices):
    FISF = "fisf", _("FISF : mot, référence et score annoncé")
    COMPUTED = "computed", _("Calculé : mot et référence, score calculé")


class PercentBase(models.TextChoices):
    """engine.ranking.Base: which total the percentage, the négatif and the rank use (§4)."""

    TOTAL = "total", _("total avec solos et pénalités")
    PAID = "paid", _("scores seuls")


class TieBreak(models.TextChoices):
    """engine.ranking.TieBreak (§4)."""

    NONE = "none", _("aucun : ex æquo")
    LAST = "last", _("dernière partie, puis coups à rebours")
    TOPS = "tops", _("nombre de tops, puis meilleur coup")


class Aggregate(models.TextChoices):
    """engine.ranking.Aggregate (§4)."""

    CUMULATED = "cumulated", _("total cumulé")
    AVERAGE = "average", _("moyenne des pourcentages")


class Tournament(models.Model):
    class RoundTime(models.IntegerChoices):
        STANDARD = 180, _("3 min")
        LONG_SEMI = 150, _("2 min 30")
        SEMI = 120, _("2 min (semi-rapide)")
        BLITZ = 60, _("1 min (blitz)")

    name = models.CharField(_("nom"), max_length=120)
    date = models.DateField(_("date"))
    place = models.CharField(_("lieu"), max_length=120, blank=True)
    #: The club that organises the tournament: the results files and sheets name it.
    club = models.CharField(_("club organisateur"), max_length=120, blank=True)
    #: The game's tiles (``engine.lettersets``): the word lists offered follow it, and it is fixed
    #: once a game has started (``services.registration.tournament_locked``).
    letters = models.CharField(_("jeu de lettres"), max_length=8, choices=LETTER_SETS, default="fr")
    lexicon = models.ForeignKey(
        "lexicons.LexiconList", on_delete=models.PROTECT, verbose_name=_("dictionnaire")
    )
    round_seconds = models.PositiveIntegerField(
        _("temps par coup"), choices=RoundTime.choices, default=RoundTime.STANDARD
    )
    grading = models.CharField(_("correction"), max_length=10, choices=Grading.choices, default=Grading.FISF)
    warning_threshold = models.PositiveSmallIntegerField(_("avertissements tolérés"), default=3)
    warning_penalty = models.PositiveSmallIntegerField(_("pénalité par avertissement en plus"), default=5)
    solo_value = models.PositiveSmallIntegerField(_("valeur d'un solo"), default=10)
    solo_min_players = models.PositiveSmallIntegerField(_("joueurs minimum pour les solos"), default=16)
    grace_seconds = models.PositiveSmallIntegerField(_("délai de grâce (s)"), default=2)
    percent_base = models.CharField(
        _("base du pourcentage"), max_length=10, choices=PercentBase.choices, default=PercentBase.TOTAL
    )
    tie_break = models.CharField(
        _("départage"), max_length=10, choices=TieBreak.choices, default=TieBreak.NONE
    )
    aggregate = models.CharField(
        _("classement sur plusieurs parties"),
        max_length=10,
        choices=Aggregate.choices,
        default=Aggregate.CUMULATED,
    )
    sheet_language = models.CharField(
        _("langue des feuilles"), max_length=2, choices=INTERFACE_LANGUAGES, default="fr"
    )
    #: The languages the room's phones read (each phone its browser's): its pushed states and each
    #: player's result at a close are written in these only.  A phone of another language adds it.
    room_languages = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    #: The club that owns the tournament on this server (``clubs``): only its members see it.
    owner = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="tournaments")

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def letter_set(self) -> LetterSet:
        """The engine's set of this tournament's tiles."""
        return letter_set(self.letters)


#: Table numbers as players, cards and paper slips carry them.
MAX_TABLE = 9_999


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("nom"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("licence"), max_length=30, blank=True)
    series = models.CharField(_("série"), max_length=4, blank=True)
    category = models.CharField(_("catégorie"), max_length=30, blank=True)
    table_number = models.PositiveIntegerField(_("table"))
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    #: Unique on the installation; made unique on writing by ``services.registration.codes_fresh``.
    join_code = models.CharField(
        _("code"), max_length=JOIN_CODE_LENGTH, unique=True, default=new_join_code, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table_number"], name="one_player_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table_number}. {self.name}"

    @property
    def join_code_shown(self) -> str:
        """The code as cards and phones print it and people type it: ``ABCD-EFGH``."""
        return f"{self.join_code[:4]}-{self.join_code[4:]}"


class Game(models.Model):
    class Source(models.TextChoices):
        RANDOM = "random", _("tirage aléatoire")
        TYPED = "typed", _("tirages saisis")
        PREPARED = "prepared", _("partie préparée")

    class Status(models.TextChoices):
        PLAYING = "playing", _("en cours")
        ENDED = "ended", _("terminée")
        #: Started by mistake: it leaves the rankings.
        ABANDONED = "abandoned", _("abandonnée")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.RANDOM)
    seed = models.BigIntegerField()
    #: The prepared game's record (formats/game-record.md) when ``source`` is PREPARED.
    prepared = models.JSONField(null=True, blank=True)
    #: The game's variant (``engine.variants``): its racks, tops, grading and free warnings follow it.
    #: Chosen when the game starts; a prepared game's is its record's.
    variant = models.CharField(
        _("variante"), max_length=10, choices=GameVariant.choices, default=GameVariant.CLASSIC
    )
    #: A centre of a live simultaneous (``tournaments.follow``) whose lead still plays: the record gets
    #: each rack as the lead draws it, and a round it does not hold yet waits for the lead instead of
    #: ending the game.
    growing = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    end_reason = models.CharField(max_length=40, blank=True)
    #: Tiles still in the bag, as rack codes; the board as 225 tile codes.
    bag = models.JSONField(default=list)
    board = models.JSONField(default=list)
    #: Random draws made so far: the generator is re-seeded from (seed, draws) so a restart
    #: continues the same sequence.
    draws = models.PositiveIntegerField(default=0)
    #: Typed racks rejected for the next round (§3.1.4, §3.1.5), waiting for the rack that stands:
    #: ``[{"rack": "AEI+BCDF", "reason": "vowels"}]``.  Their tiles are back in the bag.
    pending_rejections = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_game_number")]

    def __str__(self) -> str:
        return gettext("%(tournament)s — partie %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }

    @property
    def engine_variant(self) -> Variant:
        """The engine's value of this game's variant."""
        return Variant.parse(self.variant)


class Round(models.Model):
    class Status(models.TextChoices):
        DRAWN = "drawn", _("tirage annoncé")
        RUNNING = "running", _("en cours")
        CLOSED = "closed", _("terminé")
        PLACED = "placed", _("top placé")
        CANCELLED = "cancelled", _("annulé")

    class TopState(models.TextChoices):
        PENDING = "pending", _("en calcul")
        READY = "ready", _("prêt")
        FAILED = "failed", _("échec")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    #: Which draw of this round number (a cancelled round is drawn again: attempt 2, 3...).
    attempt = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAWN)
    #: The rack as written on records (``AEI+BLRN``, ``-BBNOORS``) and its tiles.
    rack = models.CharField(max_length=20)
    tiles = models.JSONField(default=list)
    rejections = models.JSONField(default=list)
    #: Why each rejected rack went back (``engine.draw.Rejection`` values), in the same order.
    rejection_reasons = models.JSONField(default=list, blank=True)
    #: Typed from a physical bag: a cancel waits for the next rack to be typed too.
    typed = models.BooleanField(default=False)
    #: An explosive game's rack whose new blank was swapped at the draw (``engine.draw.explode``): the
    #: letter it became, as written in racks (the arbiter of a physical bag swaps the tiles); else "".
    exploded = models.CharField(max_length=8, blank=True)
    drawn_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    top_state = models.CharField(max_length=10, choices=TopState.choices, default=TopState.PENDING)
    top_score = models.IntegerField(null=True, blank=True)
    #: Every tied top, the proposed one first: [{"ref", "word", "tiles", "score"}].
    tops = models.JSONField(default=list)
    #: The top placed on the board (one of ``tops``).  In an original game it also keeps what placing
    #: it did (``engine.variants.after_top``): ``"board"``, the ``[square, tile]`` that went on the
    #: board (a joker game's blank swapped for its letter is that letter), and ``"reliquat"``, the
    #: tiles left for the next rack (the blank come back included).  Without them (a classic game,
    #: rows made before the variants): the top's own tiles, and the rack minus the tiles it used.
    placed = models.JSONField(null=True, blank=True)
    #: Bumped on every change players or the projector must see: polls compare it.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["game", "number", "attempt"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number", "attempt"], name="one_draw_per_attempt"),
        ]

    def __str__(self) -> str:
        return gettext("%(game)s — coup %(number)s") % {"game": self.game, "number": self.number}


#: Rounds whose scores count in the rankings (a closed round counts before its top is placed).
COUNTED = (Round.Status.CLOSED, Round.Status.PLACED)


class Submission(models.Model):
    """Whatever a player handed in for a round (perhaps invalid), and how it was graded."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="submissions")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="submissions")
    ref = models.CharField(max_length=10, blank=True)
    word = models.CharField(max_length=40)
    claimed = models.IntegerField(null=True, blank=True)
    received_at = models.DateTimeField()
    #: How many times the player sent a slip this round: the last one counts.
    revision = models.PositiveIntegerField(default=1)
    #: The client's id of the last request stored, so a retried request is stored once.
    request_id = models.CharField(max_length=64, blank=True)
    #: Every slip the player sent this round, in order: ``[{"slip": "H4 MOT 24", "at": ISO time}]``.
    history = models.JSONField(default=list, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paid = models.IntegerField(null=True, blank=True)
    sanction = models.CharField(max_length=10, blank=True)
    reason = models.CharField(max_length=20, blank=True)
    message = models.CharField(max_length=300, blank=True)
    message_en = models.CharField(max_length=300, blank=True)
    #: The grade's sentence in the interface's further languages (``{"es": …, "ca": …}``).
    message_more = models.JSONField(default=dict, blank=True)
    graded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="one_slip_per_round")]

    def said(self, lang: str) -> str:
        """The grade's sentence in ``lang`` (French where it was not written in it)."""
        if lang == "en" and self.message_en:
            return self.message_en
        if lang not in ("fr", "en"):
            return (self.message_more or {}).get(lang) or self.message
        return self.message

    def slip_text(self) -> str:
        parts = [self.ref or "-", self.word]
        if self.claimed is not None:
            parts.append(str(self.claimed))
        return " ".join(parts)


class SubmissionChange(models.Model):
    """Who changed which slip, when, from what to what (the arbiter's corrections and their undos).
    Kept by round and player: a slip the arbiter typed and then took back is gone, its log stays."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey(
        Submission, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes"
    )
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)
    #: The slip before and after (``{"slip", "paid", "sanction", "reason"}``); None: no slip.
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    #: The correction this change took back (an undo); a correction taken back is not undone again.
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by"
    )

    class Meta:
        ordering = ["-changed_at", "-id"]


class TriedSlip(models.Model):
    """A slip a phone says it first tried to send at ``tried_at`` while the server did not answer, and
    that reached the server after the round's cutoff: never counted by itself, for the
    server's clock decides lateness (§3.3.3) and a phone's is not trusted; shown to the arbiter, who
    accepts it as a late paper slip (``services.tried``) or refuses it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("en attente")
        ACCEPTED = "accepted", _("accepté")
        REFUSED = "refused", _("refusé")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tried")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    #: The slip as the engine reads it (``phone.slip_text``), as long as a slip's history keeps one.
    text = models.CharField(max_length=80)
    #: When the phone says it first tried (its own clock), and when the server received it (its own).
    tried_at = models.DateTimeField()
    received_at = models.DateTimeField()
    #: The phone's id of the last sending (``views.player._request_id``).
    request_id = models.CharField(max_length=64, blank=True)
    #: Every sending this claim stands for, in order (a newer one replaces a pending claim; a repeat
    #: of any is not another): ``[{"request_id", "slip", "tried_at", "at"}]``, a few at most.
    history = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    #: The correction an acceptance logged (the slip written in): undoing it takes the acceptance back.
    change = models.OneToOneField(
        SubmissionChange, null=True, blank=True, on_delete=models.SET_NULL, related_name="tried"
    )

    class Meta:
        ordering = ["received_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"], condition=models.Q(status="pending"), name="one_pending_try"
            ),
        ]
