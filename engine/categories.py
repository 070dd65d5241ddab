"""The category table (§4): age categories are data, shipped as ``categories.json`` or read from a
federation's own file, named in French or English."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class Category:
    """An age category from ``categories.json``: ages in years, both bounds included."""

    code: str
    fr: str
    en: str
    min_age: int
    #: ``None``: no upper bound.
    max_age: int | None


def categories(path: str | Path | None = None) -> tuple[Category, ...]:
    """The category table: the one shipped with the engine, or the JSON file at ``path``."""
    if path is None:
        return _shipped_categories()
    return _parse_categories(Path(path).read_text(encoding="utf-8"))


def category_label(code: str, lang: str = "fr") -> str:
    """The category's name in ``lang`` (``"fr"`` or ``"en"``); an unknown code is returned as is."""
    wanted = code.strip().casefold()
    for category in categories():
        if category.code.casefold() == wanted:
            return category.en if lang == "en" else category.fr
    return code


@cache
def _shipped_categories() -> tuple[Category, ...]:
    return _parse_categories(resources.files("engine").joinpath("categories.json").read_text("utf-8"))


def _parse_categories(text: str) -> tuple[Category, ...]:
    return tuple(
        Category(
            code=str(item["code"]),
            fr=str(item["fr"]),
            en=str(item["en"]),
            min_age=int(item["min_age"]),
            max_age=None if item["max_age"] is None else int(item["max_age"]),
        )
        for item in json.loads(text)
    )


def category_code(text: str) -> str | None:
    """The code of a category given by its code or its name in either language, case and accents as
    typed (``v``, ``Vermeil``, ``vermeil (62+)``): ``""`` for none, ``None`` when no category has it."""
    wanted = text.strip().casefold()
    if not wanted:
        return ""
    for category in categories():
        if wanted in (category.code.casefold(), category.fr.casefold(), category.en.casefold()):
            return category.code
    return None
