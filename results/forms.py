"""Forms of the results room: parse what the arbiter sends; the rules stay in the services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from results import outbox, reading
from results.models import Printout
from server.writes import ServiceError
from tournaments.forms import read_upload


class _MultipleFiles(forms.ClearableFileInput):
    allow_multiple_selected = True


class _MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented recipe): each is checked, a list comes back."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", _MultipleFiles())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        files = data if isinstance(data, list | tuple) else [data]
        return [super(_MultipleFileField, self).clean(one, initial) for one in files]


class MergeForm(forms.Form):
    """The results files exported by each club that played the same prepared game (§5)."""

    files = _MultipleFileField(
        label=_("fichiers de résultats des clubs"),
        widget=_MultipleFiles(attrs={"accept": ".json,application/json"}),
        help_text=_("Le fichier « résultats pour fusion » de chaque club, au moins deux."),
    )

    def clean_files(self):
        """The files' names and bytes, their number and sizes checked before any is read."""
        uploads = self.cleaned_data["files"]
        try:
            reading.check_sizes([(upload.name, upload.size) for upload in uploads])
        except ServiceError as error:
            raise forms.ValidationError(error.text()) from None
        return [(upload.name, read_upload(upload, reading.MAX_FILE_MB * 1024 * 1024)) for upload in uploads]


class PrintoutForm(forms.Form):
    """What to print (the game, if any, is in the address's tournament) and, for the printouts that hold
    score cards, how many cards to cut from each sheet."""

    kind = forms.ChoiceField(choices=Printout.Kind.choices)
    cards_per_page = forms.TypedChoiceField(
        label=_("fiches des joueurs"),
        choices=Printout.CardsPerPage.choices,
        coerce=int,
        required=False,
        empty_value=Printout.CardsPerPage.ONE,
        initial=Printout.CardsPerPage.ONE,
    )


class OutboxForm(forms.Form):
    """Where the results go and with what token: both end in the request (its address, a header), so
    both are checked here as the service checks them, with the service's sentence."""

    url = forms.CharField(
        label=_("adresse de la page publique du simultané"),
        max_length=300,
        help_text=_("Telle que l'organisateur l'a envoyée : https://…/simultane/…/"),
    )
    token = forms.CharField(label=_("jeton de votre club"), max_length=64)

    def clean_url(self) -> str:
        return self._checked(outbox.event_address, self.cleaned_data["url"]).url

    def clean_token(self) -> str:
        return self._checked(outbox.club_token, self.cleaned_data["token"])

    @staticmethod
    def _checked(check, value: str):
        try:
            return check(value)
        except ServiceError as error:
            raise forms.ValidationError(error.text()) from None
