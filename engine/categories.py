"""The category table (§4): age categories are data, shipped as ``categories.json`` or read from a
federation's own file, named in French and English, and in Spanish and Catalan when the file says."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

#: The languages a category is named in, French first: every file names French and English.
LANGUAGES = ("fr", "en", "es", "ca")


@dataclass(frozen=True)
class Category:
    """An age category from ``categories.json``: ages in years, both bounds included."""

    code: str
    fr: str
    en: str
    min_age: int
    #: ``None``: no upper bound.
    max_age: int | None
    #: ``""``: the file does not name it in that language (its French name stands in).
    es: str = ""
    ca: str = ""

    def label(self, lang: str = "fr") -> str:
        """The name in ``lang``; the French one for a language the table does not name it in."""
        return (getattr(self, lang) if lang in LANGUAGES else "") or self.fr

    def names(self) -> tuple[str, ...]:
        """Every name it is given, French first."""
        return tuple(name for name in (getattr(self, lang) for lang in LANGUAGES) if name)


def categories(path: str | Path | None = None) -> tuple[Category, ...]:
    """The category table: the one shipped with the engine, or the JSON file at ``path``."""
    if path is None:
        return _shipped_categories()
    return _parse_categories(Path(path).read_text(encoding="utf-8"))


def category_label(code: str, lang: str = "fr") -> str:
    """The category's name in ``lang`` (``"fr"``, ``"en"``, ``"es"`` or ``"ca"``; French for another);
    an unknown code is returned as is."""
    wanted = code.strip().casefold()
    for category in categories():
        if category.code.casefold() == wanted:
            return category.label(lang)
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
            es=str(item.get("es") or ""),
            ca=str(item.get("ca") or ""),
        )
        for item in json.loads(text)
    )


def category_code(text: str) -> str | None:
    """The code of a category given by its code or its name in any language, case as typed or not,
    accents as written (``v``, ``Vermeil``, ``vermeil (62+)``, ``Sub-11``, ``Sènior``): ``""`` for none,
    ``None`` when no category has it."""
    wanted = text.strip().casefold()
    if not wanted:
        return ""
    for category in categories():
        if wanted in (category.code.casefold(), *(name.casefold() for name in category.names())):
            return category.code
    return None
