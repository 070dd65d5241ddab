"""The application's shared fixtures (tests/fixtures.py)."""

from tests.fixtures import *  # noqa: F403
