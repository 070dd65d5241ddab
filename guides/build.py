"""The guides built from docs/ by MkDocs into a folder the application serves.

The folder is ``$ARBITER_VAR_DIR/guides``: built at install (``run.py``, ``manage.py build_guides``)
or at the first page asked for when it is missing.  A stamp names the sources it was built from, so
a build of the same sources is skipped, and an upgrade's new pages are built at the next start.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
from pathlib import Path

from django.conf import settings

HERE = Path(__file__).resolve().parent
CONFIG = HERE / "mkdocs.yml"
#: The guides' Markdown: docs/ of a checkout, carried as arbiter/docs by an installed package.
DOCS = Path(settings.SHARE_DIR) / "docs"
SOURCES = (DOCS, HERE / "theme", CONFIG)
STAMP = ".sources"
_lock = threading.Lock()


def site_dir() -> Path:
    return Path(settings.VAR_DIR) / "guides"


def sources_key() -> str:
    """A digest of every source file's path and bytes: what the built site was made from."""
    digest = hashlib.sha256()
    for source in SOURCES:
        files = sorted(p for p in source.rglob("*") if p.is_file()) if source.is_dir() else [source]
        for path in files:
            digest.update(str(path.relative_to(source.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build(target: Path, *, strict: bool = False) -> None:
    """MkDocs' build of docs/ into ``target`` (replaced whole: written beside, then renamed)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    target.parent.mkdir(parents=True, exist_ok=True)
    draft = Path(tempfile.mkdtemp(prefix=".guides-", dir=target.parent))
    try:
        config = load_config(str(CONFIG), docs_dir=str(DOCS), site_dir=str(draft), strict=strict)
        mkdocs_build(config)
        (draft / STAMP).write_text(sources_key(), encoding="ascii")
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            target.rename(old)
        draft.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(draft, ignore_errors=True)


def is_current(target: Path) -> bool:
    stamp = target / STAMP
    return stamp.exists() and stamp.read_text(encoding="ascii") == sources_key()


def ensure_built() -> Path:
    """The served folder, built first if it is missing (once per process at a time)."""
    target = site_dir()
    if not (target / STAMP).exists():
        with _lock:
            if not (target / STAMP).exists():
                build(target)
    return target
