"""Writes ``locale/<lang>/messages.json`` for a language beyond French and English: every sentence
the project registers (``engine.messages``), its French sentence beside it, the translation kept
where the French is unchanged and "" where a translation is wanted.

    python scripts/catalogue.py es ca
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

import django

django.setup()

from server.language import catalogue_path, read_catalogue, registered  # noqa: E402


def main(langs: list[str]) -> None:
    codes = registered()
    for lang in langs:
        old = read_catalogue(lang)
        new = {}
        for code in sorted(codes):
            french = codes[code]["fr"]
            kept = old.get(code, {})
            new[code] = {
                "fr": french,
                "en": codes[code]["en"],
                lang: kept.get(lang, "") if kept.get("fr") == french else "",
            }
        path = catalogue_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(new, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        wanted = sum(1 for entry in new.values() if not entry[lang])
        print(f"{path}: {len(new)} sentences, {wanted} to translate")


if __name__ == "__main__":
    main(sys.argv[1:])
