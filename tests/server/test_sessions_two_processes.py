"""The laptop serves from two processes (the room's and the strangers', ``server/serve.py``) on one
SQLite file, each with its own memory cache (``CACHES``: locmem without Redis).  A session must read
the same in both: the arbiter logs in through one, logs out, logs in again, changes the password,
and the other always sees the session as the database holds it, never a copy its own cache kept;
after a resume, a session signed on another laptop is gone in both, and neither logs "Session data
corrupted".  Each process is played here by its own cache instance, swapped in for its requests."""

from __future__ import annotations

import contextlib
import logging

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils.module_loading import import_string

PROCESSES = {name: LocMemCache(name, {}) for name in ("room", "strangers")}


@contextlib.contextmanager
def in_process(name: str):
    """This thread's requests as ``name``'s process handles them: its own memory cache."""
    kept = getattr(caches._connections, "default", None)
    caches._connections.default = PROCESSES[name]
    try:
        yield
    finally:
        caches._connections.default = kept


def _session(key: str, process: str) -> dict:
    """The session as ``process`` reads it for a browser bringing ``key``."""
    from django.conf import settings

    with in_process(process):
        return dict(import_string(f"{settings.SESSION_ENGINE}.SessionStore")(key).load())


@pytest.fixture
def corrupted(caplog):
    caplog.set_level(logging.WARNING, logger="django.security.SuspiciousSession")
    yield lambda: [r for r in caplog.records if r.name == "django.security.SuspiciousSession"]
    for cache in PROCESSES.values():
        cache.clear()


def _login(client, password: str) -> str:
    with in_process("room"):
        answer = client.post("/login/", {"username": "arbitre", "password": password})
    assert answer.status_code == 302, answer.content[:500]
    return client.cookies["sessionid"].value


def test_the_strangers_process_reads_the_session_the_room_just_wrote(client, arbiter, corrupted):
    first = _login(client, "secret-123")
    assert _session(first, "strangers")[SESSION_KEY] == str(arbiter.pk)  # now kept by that process
    with in_process("room"):
        assert client.post("/logout/").status_code == 302
    assert _session(first, "strangers") == {} == _session(first, "room")
    second = _login(client, "secret-123")
    assert second != first and _session(second, "strangers")[SESSION_KEY] == str(arbiter.pk)
    with in_process("room"):  # the password changed on the room's side: the session's hash with it
        arbiter.set_password("another-secret-456")
        arbiter.save()
        Session.objects.filter(session_key=second).delete()
    assert _session(second, "strangers") == {}
    assert corrupted() == []


def test_after_a_resume_a_session_of_another_laptop_is_gone_in_both_processes(
    client, arbiter, corrupted, settings
):
    from django.apps import apps

    here = _login(client, "secret-123")
    assert _session(here, "strangers")[SESSION_KEY] == str(arbiter.pk)
    other_key = "another laptop's secret key, never copied " * 2
    Session.objects.filter(session_key=here).update(
        session_data=signing.dumps(
            {SESSION_KEY: str(arbiter.pk)},
            key=other_key,
            salt="django.contrib.sessions.SessionStore",
            compress=True,
        )
    )
    apps.get_app_config("server").resumed()  # what server.restore runs after a resume
    assert not Session.objects.filter(session_key=here).exists()
    assert _session(here, "strangers") == {} == _session(here, "room")
    assert corrupted() == []
