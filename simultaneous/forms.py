from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from lexicons.services import lexicons_of
from simultaneous.models import Event, Registration
from tournaments.forms import IdChoiceField, LexiconChoiceField, record_upload
from tournaments.models import Tournament


class EventForm(forms.ModelForm):
    #: Each list named with its letter set when not French: the event plays its list's set.
    lexicon = LexiconChoiceField(None, label=_("dictionnaire"), empty_label=None)
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
        return record_upload(self.cleaned_data.get("record_file"), "event_record_invalid")


class CentreForm(forms.Form):
    """A club the organiser registers as a centre, and how it plays."""

    club = IdChoiceField(Club.objects.order_by("name", "id"), label=_("club"), empty_label=None)
    mode = forms.ChoiceField(label=_("le centre joue"), choices=Registration.Mode.choices)
