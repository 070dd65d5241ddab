from django.apps import AppConfig


class ServerConfig(AppConfig):
    name = "server"
    verbose_name = "Serveur"

    def ready(self):
        from celery.signals import worker_process_init
        from django.db.backends.signals import connection_created
        from django.db.models.signals import pre_save

        from server import messages  # noqa: F401 - registers the room's sentences
        from server.text import clean_before_saving

        # Each Celery worker process loads what the rooms need before its first task (a top search).
        worker_process_init.connect(_warm_up_worker, weak=False, dispatch_uid="server-warm-up")
        # No NUL, lone surrogate or too long a string reaches a column, on either database.
        pre_save.connect(clean_before_saving, dispatch_uid="server-clean-text")
        # The laptop's database holds the players' data: readable by this account only.
        connection_created.connect(_private_database, dispatch_uid="server-private-database")


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
