"""Where a word list's bytes are, as its row names them: never an absolute path of this laptop, so an
evening copied to another laptop, or an installation moved to another folder, finds its lists.

``LexiconList.path`` holds one of:

- ``shipped:<file>``: a list shipped with the engine, in ``engine/lexicon/data/`` of this installation;
- ``lexicons/<sha256>.txt``: a club's uploaded list, relative to ``MEDIA_ROOT`` (the backup copies
  ``MEDIA_ROOT`` beside each copy and a resume puts it back, ``server.restore``);
- an absolute path: a file named as it is (a list made by hand, outside both folders).

``lexicon_file`` is the one way a row's path is opened."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from django.conf import settings

from engine.lettersets import letter_set
from engine.lexicon import DEFAULT_PATH, shipped_path
from engine.lexicon import SHIPPED as SHIPPED_LISTS

#: The prefix of a shipped list's path: the rest is its file's name in the engine's data folder.
SHIPPED = "shipped:"
#: The shipped free list's path as its row holds it.
SHIPPED_DEFAULT = SHIPPED + DEFAULT_PATH.name
#: The folder of the uploaded lists, under MEDIA_ROOT.
UPLOADED_FOLDER = "lexicons"


def lexicon_file(path: str) -> Path:
    """The file a row's ``path`` names on this installation."""
    if path.startswith(SHIPPED):
        return DEFAULT_PATH.parent / Path(path[len(SHIPPED) :]).name
    named = Path(path)
    if named.is_absolute():
        return named
    return Path(settings.MEDIA_ROOT) / PurePosixPath(path)


def shipped_file(letters: str) -> Path | None:
    """The free list shipped for the letter set ``letters`` (``engine.lexicon.shipped_path``), or
    None when none is."""
    if letters not in SHIPPED_LISTS:
        return None
    return shipped_path(letter_set(letters))


def uploaded_path(sha256: str) -> str:
    """An uploaded list's path as its row holds it: its normalized words, named by their sha256."""
    return f"{UPLOADED_FOLDER}/{sha256}.txt"


def path_stored(path: str, sha256: str) -> str:
    """A path as rows hold it from an absolute one (a row written before paths were kept relative,
    or on another laptop): a shipped list by its name, an uploaded list (under MEDIA_ROOT here or
    on the laptop that uploaded it: ``…/lexicons/<sha256>.txt``) relative to MEDIA_ROOT; any other
    path as it is."""
    named = Path(path)
    if not named.is_absolute():
        return path
    if named.parent == DEFAULT_PATH.parent or named.parent.parts[-3:] == ("engine", "lexicon", "data"):
        return SHIPPED + named.name
    if named.name == f"{sha256}.txt" and named.parent.name == UPLOADED_FOLDER:
        return uploaded_path(sha256)
    try:
        return named.relative_to(Path(settings.MEDIA_ROOT)).as_posix()
    except ValueError:
        return path
