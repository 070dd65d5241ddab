"""A database that fails for a moment (SQLite locked by a long write, a PostgreSQL connection
dropped) must not lose a phone's slip.  The phone is answered 503 with ``Retry-After`` instead of a
500 page, and sends the same request again; its request id has the retry stored once
(``services.submission_record``)."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError

from server.answers import error_answer

logger = logging.getLogger(__name__)

#: Seconds the phone is asked to wait: a lock or a reconnection lasts about that long.
RETRY_AFTER_SECONDS = 1
#: The phone's pages (live/urls.py).
PLAYER_VIEWS = "live:player_"
SUBMIT_VIEW = "live:player_submit"


class PlayerDatabaseErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        """The database's own failure on a phone's page answers 503; anything else is left to Django.
        Nothing here touches the database: the connection may be the broken one."""
        view = request.resolver_match.view_name if request.resolver_match else ""
        if not isinstance(exception, OperationalError | InterfaceError) or not view.startswith(PLAYER_VIEWS):
            return None
        logger.warning("Database error on %s, answered 503: %s", request.path, exception)
        code = "player_database_busy_slip" if view == SUBMIT_VIEW else "player_database_busy"
        response = error_answer(request, code, 503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
