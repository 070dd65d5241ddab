"""The interface's language as the message catalogue (``engine.messages``) names it, and the
catalogues of the languages beyond French and English: ``locale/<lang>/messages.json``, each code's
sentence with the French sentence it translates (a French sentence changed since leaves its
translation stale, which the tests see)."""

from __future__ import annotations

import contextlib
import importlib
import json
import locale
import os
import pkgutil
from pathlib import Path

from django.conf import settings
from django.utils.translation import get_language

from engine import messages

#: The packages whose modules register sentences (``engine.messages.register``).
PACKAGES = (
    "engine",
    "server",
    "tournaments",
    "live",
    "results",
    "review",
    "training",
    "lexicons",
    "clubs",
    "simultaneous",
)


def interface_language() -> str:
    """The active interface language when the interface has it, French otherwise."""
    lang = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def system_language() -> str:
    """The laptop's own language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, or Windows' locale) when the
    interface has it, French otherwise: what the terminal's lines are written in."""
    found = [os.environ.get(name, "") for name in ("LC_ALL", "LC_MESSAGES", "LANG")]
    if os.name == "nt":  # Windows says it through its locale ("Spanish_Spain"), not the environment
        with contextlib.suppress(ValueError):
            found.append(locale.getlocale()[0] or "")
    offered = dict(settings.LANGUAGES)
    for name in found:
        word = name.split(".")[0].split("_")[0].split("-")[0].lower()
        lang = _WINDOWS_NAMES.get(word, word)
        if lang in offered:
            return lang
    return settings.LANGUAGE_CODE


#: Windows' names of the interface's languages.
_WINDOWS_NAMES = {"french": "fr", "english": "en", "spanish": "es", "catalan": "ca"}


def catalogue_path(lang: str) -> Path:
    return Path(settings.LOCALE_PATHS[0]) / lang / "messages.json"


def read_catalogue(lang: str) -> dict[str, dict[str, str]]:
    """``{code: {"fr": French sentence, lang: sentence}}`` as the file holds it ({} without one)."""
    try:
        return json.loads(catalogue_path(lang).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def load_catalogues() -> None:
    """Every further language's sentences into ``engine.messages`` (once, at start)."""
    for lang, _name in settings.LANGUAGES:
        if lang not in messages.LANGUAGES:
            found = read_catalogue(lang)
            messages.add_language(
                lang, {code: entry[lang] for code, entry in found.items() if entry.get(lang)}
            )


def registered() -> dict[str, dict[str, str]]:
    """Every code registered by the project's modules, with its French and English sentences."""
    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            if ".migrations" in info.name or info.name.endswith("__main__"):
                continue
            importlib.import_module(info.name)
    return messages.catalogue()
