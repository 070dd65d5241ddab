"""A tournament as a file: its download (the tournament's arbiter) and the import page (an arbiter,
for one of their clubs; the administrator, for any).  Thin views over ``transfer``."""

from __future__ import annotations

from django import forms
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from clubs import access as club_access
from clubs.access import members_only
from clubs.models import Role
from results import transfer
from results.access import for_arbiter
from results.transfer_reading import MAX_SENT_MB, TransferRefused
from server.downloads import download
from server.language import interface_language
from server.writes import ServiceError
from tournaments.models import Tournament


class TransferForm(forms.Form):
    file = forms.FileField(
        label=_("fichier du tournoi"),
        help_text=_("Le fichier exporté depuis la page d'un tournoi (.json.gz), sur ce serveur ou un autre."),
    )
    club = forms.ModelChoiceField(label=_("club"), queryset=None, empty_label=None)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = club_access.clubs(user, Role.ARBITER).order_by("name", "id")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_SENT_MB * 1024 * 1024:
            raise forms.ValidationError(ServiceError("transfer_too_big", limit=MAX_SENT_MB).text())
        return upload


@for_arbiter("tournament")
def tournament_file(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("lexicon"), pk=pk)
    name = f"tournoi-{tournament.date.isoformat()}-{tournament.name}.json.gz"
    return download(name, "application/gzip", transfer.tournament_export(tournament))


@members_only(Role.ARBITER)
def tournament_import(request):
    form = TransferForm(request.POST or None, request.FILES or None, user=request.user)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            tournament = transfer.tournament_import(
                data=form.cleaned_data["file"].read(), club=form.cleaned_data["club"], user=request.user
            )
        except TransferRefused as refused:
            form.add_error(None, refused.text())
            problems = [problem.text(interface_language()) for problem in refused.problems]
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            return redirect("tournaments:tournament_detail", pk=tournament.pk)
    return render(request, "results/tournament_import.html", {"form": form, "problems": problems})
