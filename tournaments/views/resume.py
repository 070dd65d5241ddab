"""The first page of a fresh laptop: "Reprendre une soirée depuis une copie", a copy sent
or the folder of the copies named (the USB key), checked and rebuilt now and resumed at the server's
next start (server/restore.py).

Replacing the installation's evening is its administrator's act alone (the laptop's own account, a
superuser); a club's arbiter gets 403, whatever the form holds.  The page exists on the laptop only
(SQLite): a server's database is restored with ``pg_restore``, and no path typed in a form ever
reaches its file system (tournaments/urls.py leaves the route out; this view answers 404 there)."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.access import is_admin
from server.restore import on_the_laptop, resume_prepare
from server.writes import ServiceError


class ResumeForm(forms.Form):
    copy = forms.FileField(label=gettext_lazy("Copie (arbiter-….sqlite3)"), required=False)
    path = forms.CharField(
        label=gettext_lazy("ou son dossier sur ce portable (la clé USB)"), required=False, max_length=500
    )


@require_POST
def evening_resume(request):
    if not on_the_laptop():
        raise Http404
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_admin(request.user):
        raise PermissionDenied("forbidden_admin_only")
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
