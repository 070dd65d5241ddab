"""A simultaneous's ranking rows, written in Python: the public page shows every centre's players
twice (overall, then per centre), and drawn by the template language they are most of each reader's
request (measured: docs/developer/benchmarks.md); a world simultaneous has 6,000 (scripts/loadbench.py
``--centres``)."""

from __future__ import annotations

from html import escape

from django import template
from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def event_ranking_rows(rows) -> SafeString:
    """``engine.ranking.Row``: rank, name, club, series and category (with their own ranks), the
    figure ranked on (``Row.score``: the total, or the paid scores on the "scores seuls" base, §4)
    and percentage (two decimals, in the language's notation)."""
    if not rows:
        empty = escape(gettext("Aucun joueur pour l'instant."))
        return mark_safe(f'\n    <tr><td colspan="7" class="empty">{empty}</td></tr>')
    out = []
    for row in rows:
        series = escape(row.series) + (f" ({row.series_rank})" if row.series_rank else "")
        category = escape(row.category) + (f" ({row.category_rank})" if row.category_rank else "")
        out.append(
            f"\n    <tr><td>{row.rank}</td><td>{escape(row.name)}</td><td>{escape(row.club)}</td>"
            f"<td>{series}</td><td>{category}</td><td>{row.score}</td>"
            f"<td>{formats.number_format(row.percent, 2)}</td></tr>"
        )
    return mark_safe("".join(out))
