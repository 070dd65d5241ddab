"""How this installation runs one of its management commands in a process of its own (the strangers'
server, the resume's reference database) and how it tells the arbiter to type one: ``manage.py`` in a
source checkout, ``python -m arbiter`` (the ``arbiter`` command) once installed as a package."""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings


def manage(*args: str) -> list[str]:
    """The command line of ``manage.py ARGS`` for this very interpreter."""
    if settings.CHECKOUT:
        return [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args]
    return [sys.executable, "-m", "arbiter", *args]
