"""The laptop server's chores between requests: a room's ``AppConfig`` may define ``chores()``,
called every ``INTERVAL_SECONDS`` by one thread of ``manage.py serve`` (the laptop has no Celery
beat).  The results room sends there the results files waiting for a federation's server."""

from __future__ import annotations

import logging
import threading

from django.apps import apps
from django.db import close_old_connections, connections

logger = logging.getLogger(__name__)

INTERVAL_SECONDS = 30


def run_chores() -> int:
    """Every room's ``chores()`` once, each one's failure logged, not raised; how many ran."""
    ran = 0
    for config in apps.get_app_configs():
        chores = getattr(config, "chores", None)
        if chores is None:
            continue
        close_old_connections()
        try:
            chores()
            ran += 1
        except Exception:
            logger.warning("chores of %s failed", config.label, exc_info=True)
    connections.close_all()
    return ran


def start_chores(interval: float = INTERVAL_SECONDS) -> threading.Event:
    """A daemon thread running the chores every ``interval`` seconds; set the event to stop it."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval):
            run_chores()

    threading.Thread(target=loop, name="chores", daemon=True).start()
    return stop
