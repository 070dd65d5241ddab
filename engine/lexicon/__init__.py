"""The lexicon: a normalized word list (rules §6) held as a DAWG.

Identity is the list's name plus the sha256 of its normalized form, so a game
records exactly which list it was played with.  The graph is cached on disk,
keyed by the sha256 of the source file's bytes, so loading a known list is a
hash and a read.  Several lexicons can live in one process: nothing here is
module state except the read-only paths of the shipped lists.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from engine.alphabet import FRENCH, LetterSet
from engine.lexicon.dawg import Dawg, DawgTooLarge
from engine.lexicon.normalize import (
    LIMITS,
    LexiconError,
    ListLimits,
    ListReading,
    check_file_size,
    checksum,
    graph_too_large,
    read_list,
    spell_words,
)

DATA = Path(__file__).with_name("data")
#: The free list shipped for each letter set, by the set's code (``data/README.md``; the lists other
#: than French are made by ``scripts/wordlists.py``).  None is a federation's official list.
SHIPPED = {"fr": "fr-wfrench", "es": "es-hunspell", "ca": "ca-hunspell", "en": "en-scowl"}
DEFAULT_NAME = SHIPPED["fr"]
DEFAULT_PATH = DATA / f"{DEFAULT_NAME}.txt.gz"
_CACHE_MAGIC = b"LEXCACHE2\n"


def shipped_path(letters: LetterSet = FRENCH) -> Path:
    """The file of the list shipped for ``letters`` (``KeyError`` if there is none)."""
    return DATA / f"{SHIPPED[letters.code]}.txt.gz"


def cache_dir() -> Path:
    """``ARBITER_CACHE_DIR`` if set, else the user's cache folder."""
    env = os.environ.get("ARBITER_CACHE_DIR")
    base = Path(env) if env else Path.home() / ".cache" / "duplicate-arbiter"
    return base / "lexicons"


@dataclass(eq=False)
class Lexicon:
    """A word list's graph, with the letter set its words are spelt in: the set travels with the
    lexicon into every search, score and record."""

    name: str
    sha256: str
    word_count: int
    dawg: Dawg
    letters: LetterSet = FRENCH
    #: Lines of the source holding text that gave no word the set can spell, and a few of them.
    unspellable: int = 0
    unspellable_examples: tuple[str, ...] = ()

    @cached_property
    def anagrams(self) -> dict[int, bytes | tuple[bytes, ...]]:
        """Words by tile multiset: ``anagram_key(word)`` -> the word, or a tuple of the words when
        several share the multiset (each as the ``bytes`` of its tile codes: indexing one gives a
        code, and it takes a third of a tuple's memory; most multisets have one word, kept without a
        tuple around it).  Built on first use (about half a second for the French list)."""
        return _anagram_index(self.dawg)

    def memo(self, name: str) -> Memo:
        """A bounded memo of results that depend only on this lexicon and their key."""
        memos = self.__dict__.setdefault("_memos", {})
        found = memos.get(name)
        if found is None:
            found = memos[name] = Memo()
        return found

    @property
    def identity(self) -> str:
        return f"{self.name}:{self.sha256}"

    def __contains__(self, word) -> bool:
        """A word given as text (upper case; in the set's spelling) or as tile codes."""
        if isinstance(word, str):
            if self.letters is not FRENCH:
                word = self.letters.spell(word) if word.isupper() else None
                return word is not None and self.dawg.contains(word)
            if not word.isascii() or not word.isupper():
                return False
            word = [ord(ch) - 64 for ch in word]
        return self.dawg.contains(word)

    @classmethod
    def from_words(
        cls, words, name: str = "custom", *, limits: ListLimits = LIMITS, letters: LetterSet = FRENCH
    ) -> Lexicon:
        """From any iterable of words; normalized as §6 says, cut into tiles by ``letters``."""
        return cls.from_reading(spell_words(words, letters), name, limits=limits, letters=letters)

    @classmethod
    def from_reading(
        cls, reading: ListReading, name: str, *, limits: ListLimits = LIMITS, letters: LetterSet = FRENCH
    ) -> Lexicon:
        """From a list read for ``letters`` (``normalize.read_list``), its unspellable lines kept count of."""
        lexicon = cls.from_normalized(reading.words, name, limits=limits, letters=letters)
        lexicon.unspellable = reading.unspellable
        lexicon.unspellable_examples = reading.examples
        return lexicon

    @classmethod
    def from_normalized(
        cls,
        words: list[str],
        name: str,
        *,
        limits: ListLimits = LIMITS,
        sha256: str | None = None,
        letters: LetterSet = FRENCH,
    ) -> Lexicon:
        """From words already normalized (keyed by ``letters``), deduplicated and sorted;
        ``LexiconError`` if their graph passes ``limits.graph_nodes``.  ``sha256``: their
        ``checksum``, when the caller has it."""
        try:
            dawg = Dawg.build(words, max_nodes=limits.graph_nodes)
        except DawgTooLarge:
            raise graph_too_large(limits.graph_nodes) from None
        return cls(name, sha256 or checksum(words), len(words), dawg, letters)

    @classmethod
    def from_bytes(
        cls,
        data: bytes,
        name: str,
        *,
        use_cache: bool = True,
        limits: ListLimits = LIMITS,
        letters: LetterSet = FRENCH,
    ) -> Lexicon:
        """From a word-list file's bytes (gzip or text, UTF-8, UTF-16 or Latin-1) read for
        ``letters``; ``LexiconError`` past one of ``limits`` (``normalize.ListLimits``)."""
        path = _cache_path(hashlib.sha256(data).hexdigest(), letters)
        if use_cache:
            cached = _read_cache(path, name, letters)
            if cached is not None:
                return cached
        reading = read_list(data, letters, limits)
        lexicon = cls.from_reading(reading, name, limits=limits, letters=letters)
        if use_cache:
            _write_cache(path, lexicon)
        return lexicon

    def cache_for(self, data: bytes, sha256: str | None = None) -> None:
        """Keep this lexicon's graph in the disk cache as the graph of the file ``data`` (whose
        sha256 the caller may already have): a later ``from_bytes(data)`` (or ``from_file``) reads it
        instead of building it again."""
        _write_cache(_cache_path(sha256 or hashlib.sha256(data).hexdigest(), self.letters), self)

    @classmethod
    def from_file(
        cls, path: str | os.PathLike, name: str | None = None, *, use_cache: bool = True,
        limits: ListLimits = LIMITS, letters: LetterSet = FRENCH,
    ) -> Lexicon:  # fmt: skip
        path = Path(path)
        stem = path.name.split(".")[0]
        check_file_size(path.stat().st_size, limits)  # before reading it
        data = path.read_bytes()
        return cls.from_bytes(data, name or stem, use_cache=use_cache, limits=limits, letters=letters)

    @classmethod
    def default(cls, *, use_cache: bool = True, letters: LetterSet = FRENCH) -> Lexicon:
        """The free list shipped with the engine for ``letters`` (French: ``fr-wfrench``, GPL-2+)."""
        return cls.shipped(letters, use_cache=use_cache)

    @classmethod
    def shipped(cls, letters: LetterSet = FRENCH, *, use_cache: bool = True) -> Lexicon:
        """The free list shipped for ``letters`` (``SHIPPED``), read for that set and cached as any
        list is; ``LookupError`` for a set the engine ships no list for."""
        name = SHIPPED.get(letters.code)
        if name is None:
            raise LookupError(f"no word list is shipped for the letter set {letters.code!r}")
        return cls.from_file(shipped_path(letters), name, use_cache=use_cache, letters=letters)


class Memo:
    """A dict that forgets everything when it grows past ``limit`` entries: results are cheap
    to recompute, and a long-running worker must not grow without bound."""

    __slots__ = ("data", "limit")

    def __init__(self, limit: int = 20_000):
        self.data: dict = {}
        self.limit = limit

    def get(self, key):
        return self.data.get(key)

    def put(self, key, value):
        if len(self.data) >= self.limit:
            self.data.clear()
        self.data[key] = value
        return value


#: One prime per tile code: a word's multiset of tiles is the product of its primes (code 27, the
#: blank, is never in a word).
PRIMES = (
    0,
    2,
    3,
    5,
    7,
    11,
    13,
    17,
    19,
    23,
    29,
    31,
    37,
    41,
    43,
    47,
    53,
    59,
    61,
    67,
    71,
    73,
    79,
    83,
    89,
    97,
    101,
    0,
    103,
    107,
    109,
    113,
)


def anagram_key(codes) -> int:
    key = 1
    for c in codes:
        key *= PRIMES[c]
    return key


def _anagram_index(dawg: Dawg) -> dict[int, bytes | tuple[bytes, ...]]:
    index: dict[int, bytes | tuple[bytes, ...]] = {}
    children, lengths = dawg.children, dawg.lengths
    primes = PRIMES
    stack = [(dawg.root, (), 1)]
    while stack:
        node, word, key = stack.pop()
        if lengths[node] & 1:
            found = index.get(key)
            if found is None:
                index[key] = bytes(word)
            else:
                index[key] = (found, bytes(word)) if found.__class__ is bytes else (*found, bytes(word))
        for letter, child in children[node].items():
            stack.append((child, (*word, letter), key * primes[letter]))
    return index


# A cache file: magic, the sha256 of the body, newline, then the body: the list's
# sha256 and word count, newline, the DAWG.  The body's digest catches a damaged
# file (disk, copy, another program) that would otherwise load as a wrong lexicon.


def _cache_path(file_sha256: str, letters: LetterSet) -> Path:
    """The same file read for another set is another graph: the set's code is in the name."""
    suffix = "" if letters is FRENCH else f".{letters.code}"
    return cache_dir() / f"{file_sha256}{suffix}.dawg"


def _read_cache(path: Path, name: str, letters: LetterSet = FRENCH) -> Lexicon | None:
    """The cached lexicon, or None if the file is missing or damaged in any way."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_CACHE_MAGIC):
        return None
    digest, newline, body = data[len(_CACHE_MAGIC) :].partition(b"\n")
    if not newline or hashlib.sha256(body).hexdigest().encode("ascii") != digest:
        return None
    head, newline, graph = body.partition(b"\n")
    try:
        sha, count, *rest = head.decode("ascii").split(maxsplit=3)
        unspellable = int(rest[0]) if rest else 0
        examples = tuple(json.loads(rest[1])) if len(rest) > 1 else ()
        return Lexicon(name, sha, int(count), Dawg.from_bytes(graph), letters, unspellable, examples)
    except (ValueError, TypeError):
        return None


def _write_cache(path: Path, lexicon: Lexicon) -> None:
    """Write atomically: a half-written cache is never read."""
    head = f"{lexicon.sha256} {lexicon.word_count}"
    if lexicon.unspellable:
        head += f" {lexicon.unspellable} {json.dumps(list(lexicon.unspellable_examples))}"
    body = f"{head}\n".encode("ascii") + lexicon.dawg.to_bytes()
    digest = hashlib.sha256(body).hexdigest().encode("ascii")
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(_CACHE_MAGIC + digest + b"\n" + body)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


__all__ = [
    "DEFAULT_NAME",
    "LIMITS",
    "PRIMES",
    "SHIPPED",
    "Dawg",
    "Lexicon",
    "LexiconError",
    "ListLimits",
    "Memo",
    "anagram_key",
    "cache_dir",
    "shipped_path",
]
