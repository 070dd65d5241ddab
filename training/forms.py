"""The training's start form: which game, which word list, the time per round, topping or not.  The
games and lists offered are those the visitor may train on (``training.access``); any other id sent
is refused with a sentence."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from lexicons.files import SHIPPED
from lexicons.models import LexiconList
from server.language import interface_language
from server.writes import ServiceError
from tournaments.forms import LexiconChoiceField, record_upload
from training import access
from training.games import MAX_SEED


class TimingForm(forms.Form):
    """The time per round and topping: all a player chooses to train on their own game."""

    TIMINGS = [(180, _("3 minutes")), (120, _("2 minutes")), (60, _("1 minute")), (0, _("sans limite"))]

    seconds = forms.TypedChoiceField(
        label=_("temps par coup"), choices=TIMINGS, coerce=int, initial=180, widget=forms.RadioSelect
    )
    topping = forms.BooleanField(
        label=_("topping : le coup s'arrête au top trouvé, le score est le temps mis"), required=False
    )


class StartForm(TimingForm):
    SOURCES = [
        ("random", _("une nouvelle partie tirée au hasard")),
        ("club", _("une partie jouée au club")),
        ("file", _("un fichier de partie préparée")),
    ]
    source = forms.ChoiceField(label=_("partie"), choices=SOURCES, initial="random", widget=forms.RadioSelect)
    seed = forms.IntegerField(
        label=_("numéro de la partie au hasard (facultatif)"),
        required=False,
        min_value=1,
        max_value=MAX_SEED,
        help_text=_("Le même numéro donne la même partie : donnez-le à vos amis."),
    )
    game = forms.ChoiceField(label=_("partie du club"), required=False)
    record = forms.FileField(
        label=_("fichier de partie préparée"),
        required=False,
        help_text=_("Un enregistrement de partie (JSON, 256 Ko au plus)."),
    )
    lexicon = LexiconChoiceField(
        LexiconList.objects.order_by("name", "id"),
        label=_("dictionnaire (partie au hasard ou fichier)"),
        required=False,
        empty_label=None,
    )

    def __init__(self, *args, user=None, **kwargs):
        """``user``: who trains (None: a visitor without login), whose games and lists are offered."""
        super().__init__(*args, **kwargs)
        games = list(access.games_for(user))
        self.fields["game"].choices = [("", "—")] + [
            (str(g.pk), f"{g} ({g.tournament.date:%d/%m/%Y})") for g in games
        ]
        self.fields["game"].error_messages["invalid_choice"] = ServiceError("training_game_closed").text()
        if not games:
            self.fields["source"].choices = [c for c in self.SOURCES if c[0] != "club"]
            self.fields["source"].error_messages["invalid_choice"] = ServiceError(
                "training_game_closed"
            ).text()
        lexicon = self.fields["lexicon"]
        lexicon.queryset = access.lexicons_for(user)
        # The list shipped for the interface's language when there is one, else the French one.
        shipped = [row for row in lexicon.queryset if row.path.startswith(SHIPPED)]
        lang = interface_language()
        lexicon.initial = next((row.pk for row in shipped if row.letters == lang), None) or next(
            (row.pk for row in shipped if row.letters == "fr"), None
        )
        lexicon.error_messages["invalid_choice"] = ServiceError("training_lexicon_closed").text()

    def clean_record(self):
        return record_upload(self.cleaned_data.get("record"), "training_file_invalid")

    def clean(self):
        data = super().clean()
        source = data.get("source")
        if source == "club" and not data.get("game"):
            self.add_error("game", ServiceError("training_game_missing").text())
        if source == "file" and not data.get("record"):
            self.add_error("record", ServiceError("training_file_missing").text())
        return data
