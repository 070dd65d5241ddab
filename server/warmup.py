"""Before the first request: each room loads what its first request would wait for.

A room's ``AppConfig`` may define ``warm_up()`` (the word list and the search: about a second, which
the first slip graded would wait); ``manage.py serve``, each gunicorn worker and each Celery worker
process call ``warm_up_rooms`` before they serve."""

from __future__ import annotations

import gc
import logging

from django.apps import apps

logger = logging.getLogger(__name__)


def warm_up_rooms() -> None:
    """Every room's ``warm_up``, then everything loaded so far set aside from the garbage collector's
    full passes (``gc.freeze``): a full pass over the loaded application is long, every server thread
    stopped meanwhile (measured: docs/developer/benchmarks.md)."""
    for config in apps.get_app_configs():
        warm_up = getattr(config, "warm_up", None)
        if warm_up is None:
            continue
        try:
            warm_up()
        except Exception:  # the database not there yet, say: the room loads it on first use
            logger.warning("warm-up of %s failed: loaded on first use", config.label, exc_info=True)
    gc.collect()
    gc.freeze()
