"""A player's cumulative score against the tops', drawn as SVG on the server: no script, no
library, readable on an old phone and printed as is.  The numbers are in the page's table too."""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe

#: The drawing's box (the SVG scales to the page's width).
WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 26


def _step(limit: int) -> int:
    """A round gridline step giving about four lines up to ``limit``."""
    for step in (10, 20, 50, 100, 200, 250, 500, 1000):
        if limit / step <= 5:
            return step
    return 2000


def cumulative_chart(
    points, *, title: str, tops_label: str, player_label: str, round_label: str
) -> SafeString:
    """``points``: ``review.reads.LinePoint`` rows, in round order."""
    if not points:
        return mark_safe("")
    rounds = len(points)
    highest = max(points[-1].top_total, points[-1].paid_total, 1)
    step = _step(highest)
    ceiling = -(-highest // step) * step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(number: int) -> float:
        return LEFT + inner_w * number / rounds

    def y(value: int) -> float:
        return TOP + inner_h * (1 - value / ceiling)

    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{escape(title)}</title>',
    ]
    for value in range(0, ceiling + 1, step):
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
            f'<text class="axis" x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>'
        )
    label_every = max(1, -(-rounds // 10))
    for point in points:
        if point.number % label_every == 0 or point.number == 1:
            out.append(
                f'<text class="axis" x="{x(point.number):.1f}" y="{HEIGHT - 10}" '
                f'text-anchor="middle">{point.number}</text>'
            )
    out.append(f'<text class="axis" x="2" y="{HEIGHT - 10}" text-anchor="start">{escape(round_label)}</text>')
    for cls, attr in (("tops", "top_total"), ("mine", "paid_total")):
        path = " ".join(
            f"{x(n):.1f},{y(v):.1f}" for n, v in [(0, 0)] + [(p.number, getattr(p, attr)) for p in points]
        )
        out.append(f'<polyline class="{cls}" points="{path}"/>')
    out.append(
        f'<g class="legend"><rect class="tops" x="{LEFT + 6}" y="{TOP + 2}" width="12" height="4"/>'
        f'<text x="{LEFT + 22}" y="{TOP + 8}">{escape(tops_label)}</text>'
        f'<rect class="mine" x="{LEFT + 6}" y="{TOP + 16}" width="12" height="4"/>'
        f'<text x="{LEFT + 22}" y="{TOP + 22}">{escape(player_label)}</text></g>'
    )
    out.append("</svg>")
    return mark_safe("".join(out))
