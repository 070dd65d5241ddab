"""Writes of the word lists."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from django.conf import settings
from django.db.models import Q

from engine.alphabet import FRENCH, LetterSet
from engine.lettersets import letter_set
from engine.lexicon import Lexicon, LexiconError
from engine.lexicon.normalize import list_text, read_list, read_words
from engine.texts import replaced
from engine.tiletext import tiles_text
from lexicons.files import UPLOADED_FOLDER, lexicon_file, uploaded_path
from lexicons.loaded import lexicon_keep
from lexicons.models import LexiconList
from server.writes import ServiceError, writing

#: The list's name as stored: the column's length.
NAME_LENGTH = LexiconList._meta.get_field("name").max_length


def _words_read(data: bytes, letters: LetterSet) -> tuple[list[str], bytes, int]:
    """The list's words as the engine's graph keys them, the list as stored (one word per line: the
    French list's plain words; another set's words written with their tiles of several characters in
    brackets, ``CO[CH]E``, so that reading the file again cuts them the same way), and how many lines
    held no word the set can spell."""
    if letters is FRENCH:
        words = read_words(data)
        return words, list_text(words), 0
    reading = read_list(data, letters)
    written = sorted(tiles_text([ord(ch) - 64 for ch in key], letters) for key in reading.words)
    return reading.words, list_text(written), reading.unspellable


def lexicon_upload(*, name: str, data: bytes, club=None, letters: str = "fr") -> LexiconList:
    """Store a club's word list (gzip or text, in any encoding a French list comes in) and keep it
    loaded.  Everything costly happens before the room's write lock: the file is read within the
    limits of ``engine.lexicon.normalize.ListLimits`` and the graph built (``ServiceError``
    ``lexicon_refused`` saying the limit passed); only the row's insert waits for the lock.  What is
    kept on disk is the normalized list (one word per line, named by its sha256), written once the
    list is accepted and removed if its row cannot be made; the row names it relative to MEDIA_ROOT
    (``lexicons.files``).  A list whose file is missing here (an evening resumed without its
    ``media/``) is whole again when the same words are sent.  ``club``: the ``clubs.Club`` that
    sent it, which plays with it from now on (the same words sent by two clubs: one list, both's).
    ``letters``: the letter set the list is read for (``engine.lettersets``); lines holding no word
    the set can spell are counted (``LexiconList.unspellable``), a list with none refused."""
    ls = letter_set(letters)
    try:
        words, text, unspellable = _words_read(data, ls)
        if not words:
            raise ServiceError("lexicon_empty")
        sha256 = hashlib.sha256(text).hexdigest()
        known = LexiconList.objects.filter(sha256=sha256, letters=ls.code).first()
        if known is not None and lexicon_file(known.path).is_file():
            _shared_with(known, club)
            return known  # the same words: the same list, whatever its name
        lexicon = Lexicon.from_normalized(words, lexicon_name(name), sha256=sha256, letters=ls)
    except LexiconError as error:
        raise ServiceError.because("lexicon_refused", error.message) from None
    path, written = _store(text, sha256)
    try:
        with writing():
            row, made = LexiconList.objects.get_or_create(
                sha256=sha256,
                letters=ls.code,
                defaults={
                    "name": lexicon.name,
                    "word_count": lexicon.word_count,
                    "path": uploaded_path(sha256),
                    "unspellable": unspellable,
                },
            )
            if not made and row.path != uploaded_path(sha256):  # its file was missing: here now
                row.path = uploaded_path(sha256)
                row.save(update_fields=["path"])
    except BaseException:
        if written:
            path.unlink(missing_ok=True)
        raise
    _shared_with(row, club)
    lexicon.cache_for(text, sha256)
    lexicon_keep(lexicon, key=row.key)
    return row


def _shared_with(row: LexiconList, club) -> None:
    if club is not None:
        with writing():
            row.clubs.add(club)


def lexicons_of(clubs, letters: str | None = None):
    """The word lists these clubs play with: theirs, and the shipped lists (no club: everyone's);
    with ``letters``, those of that letter set only."""
    shared_or_theirs = Q(clubs__isnull=True) | Q(clubs__in=clubs)
    found = LexiconList.objects.filter(shared_or_theirs)
    if letters is not None:
        found = found.filter(letters=letters)
    return found.distinct().order_by("name", "id")


def lexicon_preferred(clubs, letters: str = "fr") -> LexiconList | None:
    """The list a new tournament of these clubs starts on: the list of that letter set they uploaded
    last (their ODS, §6), or None when they have none yet (the shipped list then, which is not the
    federation's)."""
    theirs = LexiconList.objects.filter(clubs__in=clubs, letters=letters)
    return theirs.order_by("-uploaded_at", "-id").first()


def lexicon_name(name: str) -> str:
    """The name as the column keeps it: no control character (PostgreSQL refuses NUL) nor half of
    a UTF-16 pair, within the column's length; the file's name is all an upload gives."""
    kept = replaced(name, " ")
    return " ".join(kept.split())[:NAME_LENGTH].strip() or "liste"


def _store(text: bytes, sha256: str) -> tuple[Path, bool]:
    """The normalized list written under its sha256 (atomically: a file of that name is always
    whole); whether this call wrote it."""
    folder = Path(settings.MEDIA_ROOT) / UPLOADED_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sha256}.txt"
    if path.exists():
        return path, False
    draft = path.with_suffix(f".{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        draft.write_bytes(text)
        os.replace(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    return path, True
