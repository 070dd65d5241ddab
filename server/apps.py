from django.apps import AppConfig


class ServerConfig(AppConfig):
    name = "server"
    verbose_name = "Serveur"

    def ready(self):
        from celery.signals import worker_process_init

        from server import messages  # noqa: F401 - registers the room's sentences

        # Each Celery worker process loads what the rooms need before its first task (a top search).
        worker_process_init.connect(_warm_up_worker, weak=False, dispatch_uid="server-warm-up")


def _warm_up_worker(**_kwargs) -> None:
    from server.warmup import warm_up_rooms

    warm_up_rooms()
