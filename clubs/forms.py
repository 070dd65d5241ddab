from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Role


class ClubForm(forms.Form):
    name = forms.CharField(label=_("nom du club"), max_length=Club._meta.get_field("name").max_length)


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("rôle"), choices=Role.choices, initial=Role.ARBITER)


class JoinForm(UserCreationForm):
    """The invited person's name and password (Django's checks of a password's strength)."""
