"""The built guides served as files, offline: ``/aide/<path>`` from ``$ARBITER_VAR_DIR/guides``."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.views.static import serve

from guides.build import ensure_built


def guide(request, path: str = ""):
    root = ensure_built()
    if not (root / path).resolve().is_relative_to(root.resolve()):
        raise Http404("Page du guide introuvable.")
    if path and not path.endswith("/") and (root / path).is_dir():
        return redirect(f"/aide/{path}/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    try:
        return serve(request, path, document_root=root)
    except Http404:
        raise Http404("Page du guide introuvable.") from None
