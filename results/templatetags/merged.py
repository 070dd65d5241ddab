"""The merged ranking's rows (rules §5), written in Python as the rooms' rankings are
(``live.templatetags.rows``): a merge ranks up to ``reading.MAX_PLAYERS`` players."""

from __future__ import annotations

from html import escape

from django import template
from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def merged_rows(rows, centres) -> SafeString:
    """``rows`` (``engine.ranking.Row``) with each one's centre: rank, centre, table, name, club, the
    figure ranked on, négatif, percentage, solos and warnings.  Table numbers are each centre's own:
    the centre beside the table tells two centres' table 1 apart."""
    if not rows:
        return mark_safe(f'<tr><td colspan="10" class="empty">{escape(gettext("Aucun joueur."))}</td></tr>')
    return mark_safe("".join(_row(row, centre) for row, centre in zip(rows, centres, strict=True)))


def _row(row, centre: str) -> str:
    return (
        f'\n    <tr><td class="num">{row.rank}</td><td>{escape(centre)}</td><td class="num">{row.table}</td>'
        f'<td>{escape(row.name)}</td><td>{escape(row.club)}</td><td class="num">{row.score}</td>'
        f'<td class="num">{row.negatif}</td><td class="num">{formats.number_format(row.percent, 2)}</td>'
        f'<td class="num">{row.solos or ""}</td><td class="num">{row.warnings or ""}</td></tr>'
    )
