"""Word-list normalization (rules §6) and decoding of the files clubs bring."""

from __future__ import annotations

import gzip
import hashlib
import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"[A-Z]{2,15}")
_LIGATURES = str.maketrans({"œ": "OE", "Œ": "OE", "æ": "AE", "Æ": "AE"})


def normalize_word(raw: str) -> str | None:
    """The word as the lexicon keeps it, or None if it is not kept (§6)."""
    text = raw.strip().translate(_LIGATURES)
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    text = text.upper()
    return text if _WORD.fullmatch(text) else None


def normalize_words(lines: Iterable[str]) -> list[str]:
    """Normalized, deduplicated, sorted."""
    words = set()
    for line in lines:
        word = normalize_word(line)
        if word:
            words.add(word)
    return sorted(words)


def decode_list(data: bytes) -> str:
    """Text of a word-list file: gzip or plain; UTF-8 (with or without BOM), else Latin-1/CP1252."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def checksum(words: list[str]) -> str:
    """sha256 of the normalized list written one word per line."""
    h = hashlib.sha256()
    for word in words:
        h.update(word.encode("ascii"))
        h.update(b"\n")
    return h.hexdigest()
