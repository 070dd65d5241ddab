"""The first page of a fresh installation (issue 25): "Reprendre une soirée depuis une copie", a copy
sent or the folder of the copies named (the USB key), checked now and resumed at the server's next
start (server/restore.py)."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.access import members_only
from clubs.models import Role
from server.restore import resume_prepare
from server.writes import ServiceError


class ResumeForm(forms.Form):
    copy = forms.FileField(label=gettext_lazy("Copie (arbiter-….sqlite3)"), required=False)
    path = forms.CharField(
        label=gettext_lazy("ou son dossier sur ce portable (la clé USB)"), required=False, max_length=500
    )


@members_only(Role.ARBITER)
@require_POST
def evening_resume(request):
    form = ResumeForm(request.POST, request.FILES)
    upload = request.FILES.get("copy") if form.is_valid() else None
    path = form.cleaned_data.get("path", "") if form.is_valid() else ""
    if upload is None and not path.strip():
        messages.error(request, _("Envoyez une copie ou indiquez son dossier."))
        return redirect("tournaments:home")
    database = Path(settings.DATABASES["default"]["NAME"])
    try:
        copy = resume_prepare(
            var_dir=settings.VAR_DIR,
            database=database,
            chunks=upload.chunks() if upload is not None else None,
            name=upload.name if upload is not None else "",
            path=path,
        )
    except ServiceError as error:
        messages.error(request, error.text())
    else:
        messages.success(
            request,
            _(
                "Copie vérifiée (%(path)s). Pour reprendre la soirée : arrêtez le serveur (Ctrl+C dans sa "
                "fenêtre) et relancez « python3 run.py » ; il reprend cette copie."
            )
            % {"path": upload.name if upload is not None else copy},
        )
    return redirect("tournaments:home")
