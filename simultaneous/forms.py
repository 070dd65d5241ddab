from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine import record as engine_record
from lexicons.services import lexicons_of
from server.writes import ServiceError
from simultaneous.models import Event
from tournaments.forms import IdChoiceField
from tournaments.models import Tournament


class EventForm(forms.ModelForm):
    lexicon = IdChoiceField(None, label=_("dictionnaire"), empty_label=None)
    round_seconds = forms.TypedChoiceField(
        label=_("temps par coup"), choices=Tournament.RoundTime.choices, coerce=int, initial=180
    )
    record_file = forms.FileField(
        label=_("fichier de la partie préparée"),
        required=False,
        help_text=_(
            "Pour une partie préparée : son fichier de partie (.json). Les centres ne le voient jamais."
        ),
    )

    class Meta:
        model = Event
        fields = ["name", "date", "kind", "lexicon", "round_seconds"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, clubs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["lexicon"].queryset = lexicons_of(list(clubs))

    def clean_record_file(self):
        upload = self.cleaned_data.get("record_file")
        if not upload:
            return None
        if upload.size > engine_record.MAX_BYTES:
            raise forms.ValidationError(
                ServiceError.because("event_record_invalid", engine_record.TOO_BIG).text()
            )
        return upload.read()
