"""Writes of the word lists."""

from __future__ import annotations

import hashlib

from django.conf import settings

from lexicons.loaded import engine_lexicon_from_path
from lexicons.models import LexiconList
from server.writes import ServiceError


def lexicon_upload(*, name: str, data: bytes) -> LexiconList:
    """Store a club's word list (any encoding a French list comes in) and load it once."""
    folder = settings.MEDIA_ROOT / "lexicons"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.txt"
    path.write_bytes(data)
    lexicon = engine_lexicon_from_path(path, name)
    if lexicon.word_count == 0:
        raise ServiceError("lexicon_empty")
    row, _ = LexiconList.objects.get_or_create(
        sha256=lexicon.sha256, defaults={"name": name, "word_count": lexicon.word_count, "path": str(path)}
    )
    return row
