"""``{% backup_line %}``: one line on the arbiter's screens saying where the evening was last copied
and how long ago, or, styled as a warning, that it cannot be (server/backup.py)."""

from __future__ import annotations

import datetime

from django import template

from server import backup

register = template.Library()


@register.inclusion_tag("server/_backup.html", takes_context=True)
def backup_line(context) -> dict:
    state = backup.status()
    if state.folder is None:
        return {"shown": False}
    request = context.get("request")
    user = getattr(request, "user", None)
    ago = None
    if state.last_ok is not None:
        ago = max(0, int((datetime.datetime.now(datetime.UTC) - state.last_ok).total_seconds()))
    return {
        "shown": True,
        "folder": str(state.folder),
        "ago": ago,
        "minutes": ago // 60 if ago is not None else None,
        "error": state.error,
        "error_since": state.error_since,
        "may_choose": bool(user and user.is_superuser),
        "csrf_token": context.get("csrf_token"),
        "here": request.get_full_path() if request is not None else "/",
    }
