"""The boards' 225 squares, written in Python: drawn by the template language they are most of a
phone's request (measured: docs/developer/benchmarks.md), and after each round every phone of the room
asks for one.

Each board is a grid of rows for a screen reader: a row of column headers (1 to 15), then each row
led by its letter (a row header), each square named by its coordinate, its premium and what is on it
("H8, mot compte double, vide"; "H4, J"; "H5, E, joker"), in the interface's language.  The names'
fixed part is worked out once per language (``_names``)."""

from __future__ import annotations

import json
from functools import cache
from html import escape

from django import template
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from engine.board import CELLS, SIZE, square_name
from tournaments.boards import premium_class

register = template.Library()

#: The header row's column numbers, as a row of a grid (``grid``) or a table (``table``).
_HEADER = {
    kind: f'<span role="row" class="row"><span role="{cell}" class="{{lab}} corner"></span>'
    + "".join(f'<span role="columnheader" class="{{lab}}">{n}</span>' for n in range(1, SIZE + 1))
    + "</span>"
    for kind, cell in (("grid", "gridcell"), ("table", "cell"))
}

#: A row's start: the row and its header, the row's letter.
_ROW = '<span role="row" class="row"><span role="rowheader" class="{lab}">{row}</span>'


def _text(value: str) -> str:
    """Letters and square names are plain ASCII letters and digits; anything else is escaped.  The
    class names come from fixed lists (``boards.premium_class``, ``boards.Cell.mark``)."""
    return value if not value or (value.isascii() and value.isalnum()) else escape(value)


@cache
def _names(language: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """Each square's name without its content (``H8, mot compte double``), and the words said of a
    content, in ``language``."""
    with translation.override(language):
        premiums = {
            "tw": gettext("mot compte triple"), "dw": gettext("mot compte double"),
            "star": gettext("mot compte double"), "tl": gettext("lettre compte triple"),
            "dl": gettext("lettre compte double"), "": "",
        }  # fmt: skip
        words = {
            "empty": gettext("vide"), "joker": gettext("joker"), "mine": gettext("votre bulletin"),
            "last": gettext("dernier top"),
        }  # fmt: skip
    names = []
    for sq in range(CELLS):
        premium = premiums[premium_class(sq)]
        names.append(escape(f"{square_name(sq)}, {premium}" if premium else square_name(sq)))
    return tuple(names), {key: escape(word) for key, word in words.items()}


def _label(cell, names: tuple[str, ...], words: dict[str, str]) -> str:
    if not cell.letter:
        return f"{names[cell.sq]}, {words['empty']}"
    label = f"{names[cell.sq]}, {cell.letter}"
    if cell.blank:
        label += f", {words['joker']}"
    if cell.mark == "mine":
        label += f", {words['mine']}"
    if cell.last:
        label += f", {words['last']}"
    return label


@register.simple_tag
def player_board_header(kind: str = "grid") -> SafeString:
    """The phone's row of column headers; ``table`` for a board that is only read (the review's)."""
    return mark_safe(_HEADER[kind].replace("{lab}", "lab"))


@register.simple_tag
def player_board_words() -> str:
    """The words of the squares' names, for the phone's script that redraws the board from a pushed
    message (``player.js``): the premiums by class, then what a square holds (escaped once more by the
    template, as an attribute's JSON)."""
    with translation.override(translation.get_language() or "fr"):
        return json.dumps(
            {
                "tw": gettext("mot compte triple"), "dw": gettext("mot compte double"),
                "star": gettext("mot compte double"), "tl": gettext("lettre compte triple"),
                "dl": gettext("lettre compte double"), "empty": gettext("vide"), "joker": gettext("joker"),
                "mine": gettext("votre bulletin"), "last": gettext("dernier top"),
            },
            ensure_ascii=False,
        )  # fmt: skip


@register.simple_tag
def player_board_cells(cells, kind: str = "grid") -> SafeString:
    """The phone's board squares (``boards.Cell``), row by row, each row led by its letter: the
    cells of a grid walked with the keyboard, or of a ``table`` only read (the review's)."""
    role = "cell" if kind == "table" else "gridcell"
    names, words = _names(translation.get_language() or "fr")
    out = []
    for cell in cells:
        if cell.row_label:
            if cell.sq:
                out.append("</span>")
            out.append(_ROW.format(lab="lab", row=_text(cell.row_label)))
        classes = "c " + cell.premium
        if cell.letter:
            classes += " t" if len(cell.letter) == 1 else " t w2"
        if cell.blank:
            classes += " b"
        if cell.mark:
            classes += " " + cell.mark
        if cell.last:
            classes += " last"
        out.append(
            f'<span role="{role}" aria-label="{_label(cell, names, words)}"'
            f' class="{classes}" data-sq="{cell.sq}">{_text(cell.letter)}</span>'
        )
    if cells:
        out.append("</span>")
    return mark_safe("".join(out))


@register.simple_tag
def board_rows(cells) -> SafeString:
    """The arbiter's and the projector's squares (``boards.Cell``) as a table's rows under its column
    headers, with the tiles' values; a covered square shows its tile, not its premium."""
    names, words = _names(translation.get_language() or "fr")
    out = [_HEADER["table"].replace("{lab}", "head"), "\n  "]
    for cell in cells:
        if cell.row_label:
            out.append(_ROW.format(lab="head", row=_text(cell.row_label)))
        classes = "sq " + cell.premium if cell.premium and not cell.letter else "sq"
        content = ""
        if cell.letter:
            classes += " tile" if len(cell.letter) == 1 else " tile w2"
            if cell.blank:
                classes += " blank"
            if cell.last:
                classes += " last"
            content = _text(cell.letter.lower() if cell.blank else cell.letter)
            if not cell.blank:
                content += f'<sub aria-hidden="true">{cell.value}</sub>'
        label = _label(cell, names, words)
        out.append(f'<span role="cell" aria-label="{label}" class="{classes}">{content}</span>')
        if cell.sq % SIZE == SIZE - 1:
            out.append("</span>\n  ")
    return mark_safe("".join(out))
