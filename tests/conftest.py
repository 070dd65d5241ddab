"""Shared fixtures: the full lexicon once per session, tiny inline lexicons for unit tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from engine.lexicon import Lexicon

REFERENCE_GAMES = Path(__file__).resolve().parent / "data" / "reference-games"

# The laptop's terminal speaks the system's language (``server.language.system_language``): the
# servers the tests start speak the default, French, whatever the machine running the suite speaks.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(scope="session", autouse=True)
def _cache_in_tmp(tmp_path_factory):
    """Lexicon caches go to a folder of the test session, never the user's."""
    os.environ["ARBITER_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """``redis://127.0.0.1:<port>``: a Redis server of this test session's own, which no other program
    on the machine uses (``tests.live_services.own_redis``); add a database number to it."""
    from tests.live_services import own_redis

    process, url = own_redis(tmp_path_factory.mktemp("redis"))
    yield url
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(autouse=True)
def _accounts_are_arbiters_of_the_first_club(request):
    """Every account a test makes is an arbiter of the server's first club, as the laptop's arbiter
    is; a test marked ``clubs`` makes the memberships it means."""
    if "clubs" in request.keywords or "django" not in sys.modules:
        yield
        return
    from django.contrib.auth.models import User
    from django.db.models.signals import post_save

    def join(sender, instance, created, raw=False, **_kwargs):
        if created and not raw and not instance.is_superuser:
            from clubs.access import first_club
            from clubs.models import Member

            Member.objects.get_or_create(club=first_club(), user=instance)

    post_save.connect(join, sender=User, dispatch_uid="tests-first-club")
    yield
    post_save.disconnect(sender=User, dispatch_uid="tests-first-club")


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the server's own language (French), as a request, a task or a command
    does: a test that switches its thread to English (a request through the test client, a call to
    ``translation.activate``) leaves it so for whatever test the same process runs next."""
    if "django" not in sys.modules:
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def french() -> Lexicon:
    return Lexicon.default()
