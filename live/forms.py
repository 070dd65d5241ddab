"""The arbiter's form of the live room: a paper slip or a correction typed on the game's screen."""

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.alphabet import FRENCH, LetterSet
from live.phone import slip_text
from tournaments.models import MAX_TABLE


class SlipForm(forms.Form):
    """A paper slip or a correction: the table number and the slip as written (``H4 MOT 24``)."""

    table_number = forms.IntegerField(label=_("table"), min_value=1, max_value=MAX_TABLE)
    text = forms.CharField(label=_("bulletin"), max_length=200)

    def __init__(self, *args, letters: LetterSet = FRENCH, **kwargs):
        super().__init__(*args, **kwargs)
        self.letters = letters

    def clean_text(self) -> str:
        """Read as the phone reads a slip: letters are letters whatever their case, a
        joker is the letter followed by ``?`` (``h4 cablot 26`` pays CABLOT, ``h4 cabl?ot`` has a
        joker L).  The result is in the record's notation (``H4 CABLoT 26``)."""
        return slip_text(self.cleaned_data["text"], fisf=False, letters=self.letters)
