"""Forms parse what the arbiter typed; the rules stay in the services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.categories import categories
from lexicons.models import LexiconList
from server.language import interface_language
from tournaments.models import Player, Tournament

MAX_UPLOAD = 20 * 1024 * 1024


def read_upload(upload, limit: int = MAX_UPLOAD) -> bytes:
    if upload.size > limit:
        raise forms.ValidationError(_("Fichier trop gros."))
    return upload.read()


class TournamentForm(forms.ModelForm):
    lexicon = forms.ModelChoiceField(
        LexiconList.objects.order_by("name", "id"),
        label=_("dictionnaire"),
        required=False,
        empty_label=None,
    )
    lexicon_file = forms.FileField(
        label=_("ou une liste de mots à envoyer"),
        required=False,
        help_text=_("Un mot par ligne, texte brut ; remplace le choix ci-dessus."),
    )
    warning_threshold = forms.IntegerField(
        label=_("avertissements tolérés"),
        min_value=0,
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

    def __init__(self, *args, default_lexicon: LexiconList | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if default_lexicon is not None:
            self.fields["lexicon"].initial = default_lexicon.pk

    def clean_lexicon_file(self):
        upload = self.cleaned_data.get("lexicon_file")
        return (upload.name, read_upload(upload)) if upload else None

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("lexicon") and not cleaned.get("lexicon_file"):
            self.add_error("lexicon", _("Choisissez un dictionnaire ou envoyez une liste."))
        return cleaned

    def tournament_fields(self) -> dict:
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields}
        if "warning_threshold" not in self.changed_data:
            fields["warning_threshold"] = None  # left as shown: the service applies §3.4's default
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
        if not cleaned.get("lexicon"):
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
    return [("", "—"), *((c.code, c.en if lang == "en" else c.fr) for c in categories())]


class PlayerForm(forms.ModelForm):
    table_number = forms.IntegerField(
        label=_("table"), required=False, min_value=1, help_text=_("vide : la première table libre")
    )
    category = forms.ChoiceField(label=_("catégorie"), required=False, choices=category_choices)

    class Meta:
        model = Player
        fields = ["name", "club", "licence", "series", "category", "table_number"]


class PlayerEditForm(PlayerForm):
    """A player's details corrected: every field, the table included."""

    table_number = forms.IntegerField(label=_("table"), min_value=1)


class PlayersCsvForm(forms.Form):
    file = forms.FileField(
        label=_("fichier CSV"),
        help_text=_("Colonnes : nom, club, licence, série, catégorie, table (virgule ou point-virgule)."),
    )

    def clean_file(self):
        return read_upload(self.cleaned_data["file"], 2 * 1024 * 1024)


class GameStartForm(forms.Form):
    SOURCES = [
        ("random", _("tirages au sort par l'application")),
        ("typed", _("sac de lettres réel : l'arbitre saisit chaque tirage")),
    ]
    source = forms.ChoiceField(
        label=_("tirages"), choices=SOURCES, initial="random", widget=forms.RadioSelect, required=False
    )
    prepared = forms.FileField(
        label=_("partie préparée (facultatif)"),
        required=False,
        help_text=_("Un enregistrement de partie (JSON) ; il fixe les tirages de chaque coup."),
    )

    def typed(self) -> bool:
        return self.cleaned_data.get("source") == "typed"

    def clean_prepared(self):
        upload = self.cleaned_data.get("prepared")
        return read_upload(upload, 2 * 1024 * 1024) if upload else None


class DrawForm(forms.Form):
    expected_number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    rack = forms.CharField(
        label=_("tirage saisi"),
        required=False,
        max_length=20,
        help_text=_("les nouvelles lettres seulement (le reliquat reste) ; un rejet : - et sept lettres"),
    )

    def typed(self) -> str | None:
        return self.cleaned_data["rack"].strip() or None


class PlaceTopForm(forms.Form):
    index = forms.IntegerField(min_value=0, initial=0)


class SlipForm(forms.Form):
    """A paper slip or a correction: the table number and the slip as written (``H4 MOT 24``)."""

    table_number = forms.IntegerField(label=_("table"), min_value=1)
    text = forms.CharField(label=_("bulletin"), max_length=200)
