"""Reaching the real services the integration tests need (PostgreSQL, Redis): under CI=true an
unreachable service fails the test, elsewhere it skips it."""

from __future__ import annotations

import os
import socket

import pytest
from django.db import connection


def require_port(name: str, host: str, port: int) -> None:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is not reachable at {host}:{port}: CI needs it.")
        pytest.skip(f"{name} is not reachable at {host}:{port}")


def shared_database_url() -> str:
    """A URL of the database this test runs against, for another process to open."""
    cfg = connection.settings_dict
    if cfg["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{cfg['NAME']}"
    user = cfg.get("USER") or "postgres"
    return f"postgres://{user}@{cfg.get('HOST') or '127.0.0.1'}:{cfg.get('PORT') or 5432}/{cfg['NAME']}"
