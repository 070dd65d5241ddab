"""The boards' 225 squares, written in Python: drawn by the template language they cost a phone's
request about 8 ms (scripts/loadbench.py), and after each round every phone of the room asks for one."""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

from engine.board import SIZE

register = template.Library()


def _text(value: str) -> str:
    """Letters and square names are plain ASCII letters and digits; anything else is escaped.  The
    class names come from fixed lists (``boards.premium_class``, ``boards.Cell.mark``)."""
    return value if not value or (value.isascii() and value.isalnum()) else escape(value)


@register.simple_tag
def player_board_cells(cells) -> SafeString:
    """The phone's board squares (``boards.Cell``), each row led by its letter."""
    out = []
    for cell in cells:
        if cell.row_label:
            out.append(f'<span class="lab">{_text(cell.row_label)}</span>')
        classes = "c " + cell.premium
        if cell.letter:
            classes += " t"
        if cell.blank:
            classes += " b"
        if cell.mark:
            classes += " " + cell.mark
        if cell.last:
            classes += " last"
        out.append(f'<span class="{classes}" data-sq="{cell.sq}">{_text(cell.letter)}</span>')
    return mark_safe("".join(out))


@register.simple_tag
def board_rows(cells) -> SafeString:
    """The arbiter's and the projector's squares (``boards.Cell``), row by row, with the tiles' values;
    a covered square shows its tile, not its premium."""
    out = []
    for cell in cells:
        if cell.row_label:
            out.append(f'<span class="head">{_text(cell.row_label)}</span>')
        classes = "sq " + cell.premium if cell.premium and not cell.letter else "sq"
        content = ""
        if cell.letter:
            classes += " tile"
            if cell.blank:
                classes += " blank"
            if cell.last:
                classes += " last"
            content = _text(cell.letter.lower() if cell.blank else cell.letter)
            if not cell.blank:
                content += f"<sub>{cell.value}</sub>"
        out.append(f'<span class="{classes}" title="{_text(cell.name)}">{content}</span>')
        if cell.sq % SIZE == SIZE - 1:
            out.append("\n  ")
    return mark_safe("".join(out))
