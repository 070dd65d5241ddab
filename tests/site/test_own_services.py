"""The test suite's Redis is a server of its own (``redis_server``, tests/conftest.py), so that
another program on the machine cannot fail it: on the machine's shared Redis, another process using
a database number the tests use (14, say) fails them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import redis

TESTS = Path(__file__).resolve().parents[1]
#: The machine's shared Redis, as a test would name it.
SHARED = re.compile(r"(127\.0\.0\.1|localhost):6379\b")


def test_the_sessions_redis_is_a_server_this_session_started(redis_server):
    server = redis.Redis.from_url(f"{redis_server}/0")
    info = server.info("server")
    assert info["tcp_port"] != 6379
    # Its parent is this test process: no other program knows its port.
    stat = Path(f"/proc/{info['process_id']}/stat").read_text()
    assert int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid()
    server.close()


def test_no_test_uses_the_machines_shared_redis():
    named = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if SHARED.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert named == [], f"use the session's own Redis (the redis_server fixture) in {named}"
