from django.apps import AppConfig


class ServerConfig(AppConfig):
    name = "server"
    verbose_name = "Serveur"

    def ready(self):
        from celery.signals import worker_process_init
        from django.db.backends.signals import connection_created
        from django.db.models.signals import pre_save

        from server import messages  # noqa: F401 - registers the room's sentences
        from server.language import load_catalogues
        from server.text import clean_before_saving

        load_catalogues()
        # Each Celery worker process loads what the rooms need before its first task (a top search).
        worker_process_init.connect(_warm_up_worker, weak=False, dispatch_uid="server-warm-up")
        # No NUL, lone surrogate or too long a string reaches a column, on either database.
        pre_save.connect(clean_before_saving, dispatch_uid="server-clean-text")
        # The laptop's database holds the players' data: readable by this account only.
        connection_created.connect(_private_database, dispatch_uid="server-private-database")

    def resumed(self) -> None:
        """``server.restore``, after an evening is resumed from a copy: the copy's sessions were
        signed with the other laptop's secret key (a key is never copied), and a browser bringing
        one back would be answered as a stranger with "Session data corrupted" in the log.  The
        sessions this laptop cannot read are deleted: such a browser starts a new one (its arbiter
        logs in again); a copy resumed on the laptop that made it keeps its sessions."""
        from django.contrib.sessions.backends.db import SessionStore
        from django.contrib.sessions.models import Session
        from django.core import signing

        store = SessionStore()
        unreadable = []
        for key, data in Session.objects.values_list("session_key", "session_data").iterator():
            try:
                signing.loads(data, salt=store.key_salt, serializer=store.serializer)
            except Exception:  # signed elsewhere (BadSignature), or not a session at all
                unreadable.append(key)
        for start in range(0, len(unreadable), SESSIONS_PER_DELETE):
            Session.objects.filter(session_key__in=unreadable[start : start + SESSIONS_PER_DELETE]).delete()


#: Sessions deleted per statement (SQLite's older builds take at most 999 parameters).
SESSIONS_PER_DELETE = 500


def _warm_up_worker(**_kwargs) -> None:
    from server.warmup import warm_up_rooms

    warm_up_rooms()


def _private_database(connection, **_kwargs) -> None:
    from pathlib import Path

    from server.files import private

    if connection.vendor != "sqlite":
        return
    name = Path(str(connection.settings_dict["NAME"]))
    for path in (name, name.with_name(name.name + "-wal"), name.with_name(name.name + "-shm")):
        if path.is_file():
            private(path, 0o600)
