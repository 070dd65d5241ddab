"""The 'Aide' link of the arbiter's screens (tournaments/base.html): the page about this screen."""

from guides.pages import page_for


def help_link(request) -> dict:
    match = getattr(request, "resolver_match", None)
    return {"help_url": page_for(match.view_name if match else None, getattr(request, "LANGUAGE_CODE", "fr"))}
