"""Word-list normalization (rules §6) and decoding of the files clubs bring, within limits.

A file comes from anyone who can reach the arbiter's form, so every level of it is bounded before
it costs anything: the bytes sent, the bytes unpacked (a gzip is inflated piece by piece and
dropped at the cap, never inflated whole), the lines and their length; ``Dawg.build`` bounds the
graph.  Each limit refused says itself (``LexiconError.message``, French and English).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from engine.alphabet import FRENCH, LetterSet
from engine.messages import Message, register
from engine.tiletext import TileTextError, word_tiles

_WORD = re.compile(r"[A-Z]{2,15}")
_LIGATURES = str.maketrans({"œ": "OE", "Œ": "OE", "æ": "AE", "Æ": "AE"})
_MIB = 1024 * 1024


@dataclass(frozen=True)
class ListLimits:
    """How much of a word-list file is read.  ODS 8 (402,325 words) is about 4.4 MB as plain text
    (10 MB in UTF-16 with CRLF, 0.9 MB gzipped); a list of its size makes 86,603 nodes, the shipped
    list 36,834."""

    #: The file as sent, plain or gzip.
    file_bytes: int = 16 * _MIB
    #: The text once unpacked.
    text_bytes: int = 16 * _MIB
    lines: int = 1_000_000
    #: A word has at most 15 letters; the rest leaves room for spaces, accents and a comment line.
    line_chars: int = 256
    #: Nodes of the word graph (``Dawg.build``): memory and build time grow with them while building,
    #: not with the words.
    graph_nodes: int = 300_000


LIMITS = ListLimits()


class LexiconError(ValueError):
    """A word-list file refused; ``message`` says which limit, in every language."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))


def normalize_word(raw: str) -> str | None:
    """The word as the lexicon keeps it, or None if it is not kept (§6)."""
    if raw.isascii():  # most lists: nothing to translate or decompose
        text = raw.strip().upper()
        return text if _WORD.fullmatch(text) else None
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


#: How many of the lines a list's set cannot spell are quoted back.
EXAMPLES = 5


@dataclass(frozen=True)
class ListReading:
    """A word list read for a letter set: its words as the graph keys them (``LetterSet.key``),
    deduplicated and sorted, and the lines holding text that gave no word of 2 to 15 tiles the
    set can spell (counted, a few quoted), never dropped without a count."""

    words: list[str]
    unspellable: int = 0
    examples: tuple[str, ...] = ()


def spelled_word(raw: str, letters: LetterSet) -> str | None:
    """The word's graph key in ``letters``, cut by the set's spelling rule (or written with its
    tiles of several characters in brackets, ``CO[CH]E``), or None."""
    if letters is FRENCH:
        return normalize_word(raw)
    if "[" in raw:
        try:
            tiles, _lower = word_tiles(raw.strip().upper(), letters)
        except TileTextError:
            return None
        return letters.key(tiles) if 2 <= len(tiles) <= 15 else None
    return letters.key_of(letters.fold(raw))


def spell_words(lines: Iterable[str], letters: LetterSet = FRENCH) -> ListReading:
    """The words of ``lines`` in ``letters``, with the lines it cannot spell counted."""
    words = set()
    skipped = 0
    examples: list[str] = []
    for line in lines:
        word = spelled_word(line, letters)
        if word:
            words.add(word)
        elif line.strip():
            skipped += 1
            if len(examples) < EXAMPLES:
                examples.append(line.strip()[:40])
    return ListReading(sorted(words), skipped, tuple(examples))


def read_words(data: bytes, limits: ListLimits = LIMITS) -> list[str]:
    """The normalized words of a word-list file; ``LexiconError`` past a limit."""
    return normalize_words(list_lines(decode_list(data, limits), limits))


def read_list(data: bytes, letters: LetterSet = FRENCH, limits: ListLimits = LIMITS) -> ListReading:
    """A word-list file read for ``letters``; ``LexiconError`` past a limit."""
    return spell_words(list_lines(decode_list(data, limits), limits), letters)


def list_text(words: list[str]) -> bytes:
    """The normalized list as a file, one word per line (UTF-8: a French list is ASCII, another set's
    holds its own letters, Ñ, Ç): its sha256 is ``checksum(words)``."""
    return "".join(f"{word}\n" for word in words).encode("utf-8")


def check_file_size(size: int, limits: ListLimits = LIMITS) -> None:
    """Refuse a file by its size alone, before reading it."""
    if size > limits.file_bytes:
        raise LexiconError("list_file_too_big", **_sizes(limits.file_bytes))


def decode_list(data: bytes, limits: ListLimits = LIMITS) -> str:
    """Text of a word-list file: gzip or plain; UTF-8 (with or without BOM), UTF-16 with its BOM,
    else Latin-1/CP1252."""
    check_file_size(len(data), limits)
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, limits.text_bytes)
    elif data[:4] == b"PK\x03\x04":
        raise LexiconError("list_zip")
    if len(data) > limits.text_bytes:
        raise LexiconError("list_unpacked_too_big", **_sizes(limits.text_bytes))
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8", errors="replace")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def list_lines(text: str, limits: ListLimits = LIMITS) -> list[str]:
    """The lines of a list's text (LF, CRLF or CR), refused past the number or length allowed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    count = text.count("\n") + (not text.endswith("\n"))
    if count > limits.lines:
        raise LexiconError("list_too_many_lines", **_numbers("lines", limits.lines))
    lines = text.split("\n")
    if max(map(len, lines)) > limits.line_chars:
        number = next(i for i, line in enumerate(lines, 1) if len(line) > limits.line_chars)
        raise LexiconError("list_line_too_long", line=number, chars=limits.line_chars)
    return lines


#: Bytes inflated per step: the cap is checked between steps, so at most this much passes it.
_STEP = 64 * 1024


def _gunzip(data: bytes, limit: int) -> bytearray:
    """The unpacked bytes of every gzip member in ``data``, refused as soon as they pass ``limit``;
    a damaged or cut member is refused too (``zlib`` raises, or the stream never ends)."""
    out = bytearray()
    rest = data
    while rest[:2] == b"\x1f\x8b":
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = rest
        try:
            while not inflater.eof:
                piece = inflater.decompress(pending, _STEP)
                stalled = not piece and len(inflater.unconsumed_tail) == len(pending)
                pending = inflater.unconsumed_tail
                out += piece
                if len(out) > limit:
                    raise LexiconError("list_unpacked_too_big", **_sizes(limit))
                if stalled:
                    break
        except zlib.error:
            raise LexiconError("list_gzip_damaged") from None
        if not inflater.eof:
            raise LexiconError("list_gzip_damaged")
        rest = inflater.unused_data
    if rest.strip(b"\0"):  # padding of zeros after the last member is tolerated, as gzip does
        raise LexiconError("list_gzip_damaged")
    return out


def _sizes(limit: int) -> dict[str, str]:
    if limit % _MIB == 0:
        return {"size_fr": f"{limit // _MIB} Mo", "size_en": f"{limit // _MIB} MB"}
    return {"size_fr": f"{limit:,} octets".replace(",", "\u202f"), "size_en": f"{limit:,} bytes"}


def _numbers(name: str, value: int) -> dict[str, str]:
    return {f"{name}_fr": f"{value:,}".replace(",", "\u202f"), f"{name}_en": f"{value:,}"}


def graph_too_large(limit: int) -> LexiconError:
    return LexiconError("list_graph_too_large", **_numbers("nodes", limit))


def checksum(words: list[str]) -> str:
    """sha256 of the normalized list written one word per line."""
    h = hashlib.sha256()
    for word in words:
        h.update(word.encode("ascii"))
        h.update(b"\n")
    return h.hexdigest()


register(
    {
        "list_file_too_big": {
            "fr": "Fichier trop gros : une liste de mots fait au plus {size_fr} (l'ODS 8 en texte : 4,4 Mo).",
            "en": "File too large: a word list is at most {size_en} (ODS 8 as text: 4.4 MB).",
        },
        "list_unpacked_too_big": {
            "fr": "Une fois décompressée, la liste dépasse {size_fr}, la limite (l'ODS 8 : 4,4 Mo).",
            "en": "Unpacked, the list is larger than {size_en}, the limit (ODS 8: 4.4 MB).",
        },
        "list_gzip_damaged": {
            "fr": "Le fichier gzip est endommagé ou incomplet : envoyez-le de nouveau, ou la liste en texte.",
            "en": "The gzip file is damaged or incomplete: send it again, or the list as text.",
        },
        "list_zip": {
            "fr": "C'est une archive ZIP : envoyez la liste elle-même (texte, ou compressée en gzip).",
            "en": "This is a ZIP archive: send the list itself (text, or compressed with gzip).",
        },
        "list_too_many_lines": {
            "fr": "La liste a plus de {lines_fr} lignes, la limite (l'ODS 8 a 402\u202f325 mots).",
            "en": "The list has more than {lines_en} lines, the limit (ODS 8 has 402,325 words).",
        },
        "list_line_too_long": {
            "fr": "Ligne {line} : plus de {chars} caractères, la limite (un mot a au plus 15 lettres).",
            "en": "Line {line}: more than {chars} characters, the limit (a word has at most 15 letters).",
        },
        "list_graph_too_large": {
            "fr": "Ces mots ne forment pas le graphe d'une langue : plus de {nodes_fr} nœuds, la limite "
            "(la liste française livrée en a 36\u202f834).",
            "en": "These words do not make a language's graph: more than {nodes_en} nodes, the limit "
            "(the shipped French list has 36,834).",
        },
    }
)
