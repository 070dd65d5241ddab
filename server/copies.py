"""The arbiter's choice of the folder the evening is copied to (server/backup.py): the
form under the backup line of the arbiter's screens, for the installation's own account, on the
laptop only (SQLite): on a server no path typed in a form reaches its file system (server/urls.py
leaves the route out; this view answers 404 there)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from server.backup import folder_choose
from server.restore import on_the_laptop
from server.writes import ServiceError


@require_POST
def backup_folder(request):
    if not on_the_laptop():
        raise Http404
    if not request.user.is_superuser:
        raise PermissionDenied
    try:
        folder = folder_choose(request.POST.get("folder", "")[:500])
    except ServiceError as error:
        messages.error(request, error.text())
    else:
        messages.success(
            request, _("Les copies de la soirée vont maintenant dans %(path)s.") % {"path": folder}
        )
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/"
    return redirect(back)
