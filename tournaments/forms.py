"""Forms parse what the arbiter typed; the rules stay in the services."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from engine import record as engine_record
from engine.categories import categories, category_label
from engine.lexicon import DEFAULT_NAME, LexiconError
from engine.lexicon.normalize import check_file_size
from engine.messages import Message
from lexicons.files import SHIPPED
from lexicons.loaded import lexicon_default_row
from lexicons.models import LexiconList
from lexicons.services import lexicons_of
from server.converters import IdConverter
from server.language import interface_language
from server.writes import ServiceError
from tournaments.models import LETTER_SETS, MAX_TABLE, GameVariant, Player, Tournament
from tournaments.services import players_csv

MAX_UPLOAD = 20 * 1024 * 1024


def read_upload(upload, limit: int = MAX_UPLOAD) -> bytes:
    if upload.size > limit:
        raise forms.ValidationError(_("Fichier trop gros."))
    return upload.read()


class IdChoiceField(forms.ModelChoiceField):
    """A row chosen by its id, an id the databases can hold (``server.converters``): anything else
    is an invalid choice, never a database error."""

    def to_python(self, value):
        if value not in self.empty_values and not IdConverter.accepts(value):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class LexiconSelect(forms.Select):
    """Each list's option says its letter set (``data-letters``): the page's script shows the lists
    of the set chosen, with no request."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        instance = getattr(value, "instance", None)
        if instance is not None:
            option["attrs"]["data-letters"] = instance.letters
            if instance.path.startswith(SHIPPED):
                option["attrs"]["data-shipped"] = ""
        return option


class LexiconChoiceField(IdChoiceField):
    """A word list, named with its letter set when it is not French."""

    widget = LexiconSelect

    def label_from_instance(self, obj) -> str:
        return (
            str(obj) if obj.letters == "fr" else f"{obj} · {dict(LETTER_SETS).get(obj.letters, obj.letters)}"
        )


class TournamentForm(forms.ModelForm):
    lexicon = LexiconChoiceField(
        LexiconList.objects.order_by("name", "id"),
        label=_("dictionnaire"),
        required=False,
        empty_label=_("la liste livrée pour ce jeu de lettres"),
    )
    lexicon_file = forms.FileField(
        label=_("ou une liste de mots à envoyer"),
        required=False,
        help_text=_(
            "Un mot par ligne, en texte (UTF-8, Latin-1 ou UTF-16) ou compressé en gzip, 16 Mo au plus ; "
            "remplace le choix ci-dessus."
        ),
    )
    warning_threshold = forms.IntegerField(
        label=_("avertissements tolérés"),
        min_value=0,
        max_value=99,
        initial=3,
        help_text=_("3 par défaut ; 5 en blitz si vous laissez 3."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "place",
            "club",
            "letters",
            "round_seconds",
            "grading",
            "warning_threshold",
            "warning_penalty",
            "solo_value",
            "solo_min_players",
            "grace_seconds",
            "percent_base",
            "tie_break",
            "aggregate",
            "sheet_language",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, default_lexicon: LexiconList | None = None, clubs=None, own_club=None, **kw):
        """``clubs``: the clubs the arbiter may create the tournament for (a choice when there are
        several: ``own_club``, the one the arbiter belongs to, chosen first; the administrator of no
        club chooses); the word lists offered are theirs and the shipped one.  A new tournament is
        dated today unless another date is typed."""
        super().__init__(*args, **kw)
        if self.instance.pk is None:
            self.fields["date"].initial = timezone.localdate
        if clubs is not None:
            self.fields["lexicon"].queryset = lexicons_of(clubs)
            if len(clubs) > 1:
                choices = Club.objects.filter(pk__in=[club.pk for club in clubs]).order_by("name", "pk")
                mine = own_club if own_club in {club.pk for club in clubs} else None
                self.fields["owner"] = IdChoiceField(
                    choices,
                    label=_("club propriétaire"),
                    empty_label=None if mine else _("— choisissez le club —"),
                    initial=mine,
                )
        if default_lexicon is not None:
            self.fields["lexicon"].initial = default_lexicon.pk
        # A form sent without it (a script, a page of an earlier version) plays the French set.
        self.fields["letters"].required = False
        self.fields["letters"].help_text = _(
            "Les lettres du sac et leurs valeurs. Le dictionnaire doit être écrit pour ce jeu ; "
            "la liste livrée par l'application est remplacée par celle de ce jeu."
        )
        if self.instance.pk is None:  # a new tournament's sheets speak its set's language unless chosen
            self.fields["sheet_language"].widget.attrs["data-follow"] = ""
        # Said beside the choice (§6): the shipped list is not the ODS the clubs play.
        self.shipped_name = DEFAULT_NAME
        self.fields["lexicon"].widget.attrs["aria-describedby"] = "lexicon-notice"

    def clean_letters(self) -> str:
        return self.cleaned_data.get("letters") or "fr"

    def clean_lexicon_file(self):
        """The list's name and bytes, refused by its size before it is read (the other limits:
        ``lexicons.services.lexicon_upload``)."""
        upload = self.cleaned_data.get("lexicon_file")
        if not upload:
            return None
        try:
            check_file_size(upload.size)
        except LexiconError as error:
            raise forms.ValidationError(_refusal("lexicon_refused", error.message)) from None
        return (upload.name, upload.read())

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("lexicon_file"):
            self._lexicon_of_letters(cleaned)
        if not cleaned.get("lexicon") and not cleaned.get("lexicon_file") and "lexicon" not in self.errors:
            self.add_error("lexicon", _("Choisissez un dictionnaire ou envoyez une liste."))
        return cleaned

    def _lexicon_of_letters(self, cleaned: dict) -> None:
        """The list chosen, of the letter set chosen: a shipped list left as offered while another
        set is chosen becomes that set's shipped list, as does no list chosen; a club's list of
        another set is refused."""
        letters, lexicon = cleaned.get("letters"), cleaned.get("lexicon")
        if letters is None or "lexicon" in self.errors:
            return
        if lexicon is not None and lexicon.letters == letters:
            return
        if lexicon is None or lexicon.path.startswith(SHIPPED):
            shipped = lexicon_default_row(letters)
            if shipped is not None:
                cleaned["lexicon"] = shipped
                return
            message = Message("lexicon_none_shipped", {"letters": letters})
        else:
            message = Message("lexicon_other_letters", {"name": lexicon.name, "letters": lexicon.letters})
        cleaned.pop("lexicon", None)
        self.add_error("lexicon", message.text(interface_language()))

    def tournament_fields(self) -> dict:
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields}
        if self.cleaned_data.get("owner"):
            fields["owner"] = self.cleaned_data["owner"]
        if "warning_threshold" not in self.changed_data:
            fields["warning_threshold"] = None  # left as shown: the service applies §3.4's default
        if "sheet_language" not in self.changed_data:
            del fields["sheet_language"]  # left as shown: the service gives the set's language
        return fields


class TournamentSettingsForm(TournamentForm):
    """A tournament's settings changed after its creation.  Once a game has started, the settings its
    slips were graded with (``services.tournament_locked``) are shown but cannot change; the others
    apply at once (rankings) or to the rounds to come (time per round)."""

    def __init__(self, *args, locked: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["lexicon_file"]
        self.fields["warning_threshold"].help_text = _("3 par défaut ; 5 en blitz.")
        self.locked = locked
        for name in locked:
            self.fields[name].disabled = True
            self.fields[name].help_text = _(
                "Verrouillé : une partie a commencé et ses bulletins ont été corrigés avec ce réglage."
            )

    def clean(self):
        cleaned = forms.ModelForm.clean(self)
        self._lexicon_of_letters(cleaned)
        if not cleaned.get("lexicon") and "lexicon" not in self.errors:
            self.add_error("lexicon", _("Choisissez un dictionnaire ou envoyez une liste."))
        return cleaned

    def settings_fields(self) -> dict:
        fields = {name: self.cleaned_data[name] for name in ("lexicon", *self.Meta.fields)}
        if "warning_threshold" not in self.changed_data and "round_seconds" in self.changed_data:
            fields["warning_threshold"] = None  # the time per round changed: §3.4's default again
        return {name: value for name, value in fields.items() if name not in self.locked}


def category_choices() -> list[tuple[str, str]]:
    """The category table (``engine.categories``), named in the interface's language."""
    lang = interface_language()
    return [("", "—"), *((c.code, category_label(c.code, lang)) for c in categories())]


class PlayerForm(forms.ModelForm):
    table_number = forms.IntegerField(
        label=_("table"),
        required=False,
        min_value=1,
        max_value=MAX_TABLE,
        help_text=_("vide : la première table libre"),
    )
    category = forms.ChoiceField(label=_("catégorie"), required=False, choices=category_choices)

    class Meta:
        model = Player
        fields = ["name", "club", "licence", "series", "category", "table_number"]


class PlayerEditForm(PlayerForm):
    """A player's details corrected: every field, the table included."""

    table_number = forms.IntegerField(label=_("table"), min_value=1, max_value=MAX_TABLE)


class PlayersCsvForm(forms.Form):
    file = forms.FileField(
        label=_("fichier CSV"),
        help_text=_("Colonnes : nom, club, licence, série, catégorie, table (virgule ou point-virgule)."),
    )
    #: How many of a refused file's problems the page lists; the others are counted.
    SHOWN_PROBLEMS = 50

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.problems: list[str] = []
        self.more_problems = 0

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > players_csv.MAX_CSV_BYTES:  # said before a byte is read
            raise forms.ValidationError(ServiceError("csv_too_big", limit=players_csv.MAX_CSV_MB).text())
        return read_upload(upload, players_csv.MAX_CSV_BYTES)

    def refuse(self, error: ServiceError) -> None:
        """The service's refusal under the field, then the first bad rows and how many more."""
        self.add_error("file", error.text())
        lang = interface_language()
        problems = [message.text(lang) for message in getattr(error, "rows", ())]
        self.problems = problems[: self.SHOWN_PROBLEMS]
        self.more_problems = len(problems) - len(self.problems)


class GameStartForm(forms.Form):
    SOURCES = [
        ("random", _("tirages au sort par l'application")),
        ("typed", _("sac de lettres réel : l'arbitre saisit chaque tirage")),
    ]
    source = forms.ChoiceField(
        label=_("tirages"), choices=SOURCES, initial="random", widget=forms.RadioSelect, required=False
    )
    #: Each variant (``engine.variants``) named with what it changes, as the arbiter chooses it.
    VARIANTS = [
        (GameVariant.CLASSIC, _("classique : les règles habituelles")),
        (
            GameVariant.JOKER,
            _(
                "joker : un joker dans chaque tirage tant qu'il en reste ; joué au top, il est remplacé "
                "par sa lettre prise dans le sac et revient au tirage suivant"
            ),
        ),
        (
            GameVariant.EXPLOSIVE,
            _(
                "explosive : un joker dans chaque tirage ; au tirage, un joker nouveau devient la lettre "
                "qu'il prend dans le meilleur coup, quand elle est dans le sac"
            ),
        ),
        (
            GameVariant.SEVEN_OF_EIGHT,
            _("7 sur 8 : huit lettres par tirage, sept au plus posées ; le scrabble se fait en sept"),
        ),
    ]
    variant = forms.ChoiceField(
        label=_("variante"),
        choices=VARIANTS,
        initial=GameVariant.CLASSIC,
        widget=forms.RadioSelect,
        required=False,
        help_text=_(
            "Partie originale : au moins cinq avertissements tolérés avant la pénalité. Une partie "
            "préparée se joue dans la variante de son enregistrement."
        ),
    )
    prepared = forms.FileField(
        label=_("partie préparée (facultatif)"),
        required=False,
        help_text=_(
            "Un enregistrement de partie (JSON, 256 Ko au plus) ; il fixe les tirages de chaque coup."
        ),
    )

    def typed(self) -> bool:
        return self.cleaned_data.get("source") == "typed"

    def chosen_variant(self) -> str:
        """The variant chosen (the classic game when none is)."""
        return self.cleaned_data.get("variant") or GameVariant.CLASSIC

    def clean_prepared(self):
        return record_upload(self.cleaned_data.get("prepared"), "game_prepared_invalid")


def record_upload(upload, code: str) -> bytes | None:
    """A game record's bytes, refused (``code``, the reason: its size) before they are read; the
    rest is ``engine.record.parse``'s.  None: no file."""
    if not upload:
        return None
    if upload.size > engine_record.MAX_BYTES:
        raise forms.ValidationError(_refusal(code, engine_record.TOO_BIG))
    return upload.read()


def _refusal(code: str, reason: Message) -> str:
    """A service's refusal of an upload, said by the form in the interface's language."""
    return ServiceError.because(code, reason).text()


class DrawForm(forms.Form):
    expected_number = forms.IntegerField(min_value=1, max_value=1000, widget=forms.HiddenInput)
    rack = forms.CharField(
        label=_("tirage saisi"),
        required=False,
        max_length=40,
        help_text=_("les nouvelles lettres seulement (le reliquat reste) ; un rejet : - et sept lettres"),
    )

    def typed(self) -> str | None:
        return self.cleaned_data["rack"].strip() or None


class PlaceTopForm(forms.Form):
    index = forms.IntegerField(min_value=0, max_value=10_000, initial=0)
