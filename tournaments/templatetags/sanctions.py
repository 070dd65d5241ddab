"""A slip's sanction as the arbiter reads it (``selectors.SANCTIONS``, in the interface's language)."""

from django import template

from tournaments.selectors import SANCTIONS

register = template.Library()


@register.filter
def sanction(code: str) -> str:
    return str(SANCTIONS.get(code, code))
