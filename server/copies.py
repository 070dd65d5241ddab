"""The arbiter's choice of the folder the evening is copied to (issue 25; server/backup.py): the
form under the backup line of the arbiter's screens, for the installation's own account."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from server.backup import folder_choose
from server.writes import ServiceError


@require_POST
def backup_folder(request):
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
