"""Files of the installation that only its own account may read (plain Python: the settings use it)."""

from __future__ import annotations

import os


def private(path, mode: int) -> None:
    """Only this account may read ``path`` (``var/`` 0700, the secret key and the database 0600):
    on a shared laptop, another user must not read the key that signs sessions, nor the players'
    data.  Windows has no such modes: its user folders are private already."""
    if os.name == "posix":
        os.chmod(path, mode)
