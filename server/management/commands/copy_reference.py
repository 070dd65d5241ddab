"""``manage.py copy_reference APP.MIGRATION ...``: internal to the resume (server/reference.py), run
in a process of its own on an empty database of its own (``DATABASE_URL``): that database migrated
forwards to the migrations named, with their predecessors, and to nothing else.

A database that already holds a migration is refused: the command never moves an installation's
own database (forwards or backwards)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


class Command(BaseCommand):
    help = "Internal (resume): migrate this empty database to the migrations named (app.name)."

    def add_arguments(self, parser):
        parser.add_argument("targets", nargs="+", help="app.migration")

    def handle(self, *args, targets: list[str], **options):
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.vendor != "sqlite":
            raise CommandError("copy_reference builds an SQLite database only.")
        executor = MigrationExecutor(connection)
        if executor.loader.applied_migrations:
            raise CommandError("copy_reference needs an empty database: this one holds migrations.")
        nodes = [tuple(target.partition(".")[::2]) for target in targets]
        unknown = [f"{app}.{name}" for app, name in nodes if (app, name) not in executor.loader.graph.nodes]
        if unknown:
            raise CommandError(f"Unknown migration: {unknown[0]}")
        executor.migrate(nodes)
        connection.close()
