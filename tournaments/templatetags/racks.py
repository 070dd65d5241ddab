"""The phone's rack, written once per rack and language: the whole room shows the same tiles, and
drawn by the template language (a sentence per tile for a screen reader) for each phone's new screen
they would be paid a thousand times over at each change of a round."""

from __future__ import annotations

from functools import lru_cache
from html import escape

from django import template
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

register = template.Library()


@register.simple_tag
def player_rack(rack) -> SafeString:
    """The rack's tiles (``phone.RackTile``) as the items of its list: the letter and its value,
    and for a screen reader "A, 1 point" or "joker"."""
    return _rack(tuple((tile.letter, tile.value) for tile in rack), translation.get_language() or "fr")


@lru_cache(maxsize=128)
def _rack(tiles: tuple[tuple[str, int], ...], language: str) -> SafeString:
    with translation.override(language):
        joker = f'<span class="sr">{escape(gettext("joker"))}</span>'
        items = []
        for letter, value in tiles:
            if letter == "?":
                items.append(f'<li class="tile joker"><span aria-hidden="true">?</span>{joker}</li>')
                continue
            points = escape(ngettext("%(counter)s point", "%(counter)s points", value) % {"counter": value})
            wide = " w2" if len(letter) > 1 else ""
            items.append(
                f'<li class="tile{wide}">{escape(letter)}<sub aria-hidden="true">{value}</sub>'
                f'<span class="sr">, {points}</span></li>'
            )
    return mark_safe("".join(items))


@register.filter
def tiles_plain(word: str) -> str:
    """A word in the record's notation as the room reads it: a tile of several letters without its
    brackets (``[CH]A[LL]EmOS`` reads ``CHALLEmOS``; a joker stays in lower case)."""
    return str(word).replace("[", "").replace("]", "")
