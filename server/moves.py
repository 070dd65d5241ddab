"""A model moved to another room's app, its table kept: the new app's first migration declares it as
the old app's migration made it (``moved_model``), in Django's state only, and the old app's next
migration deletes it from its own state.  The database is never touched: a laptop that upgrades keeps
every row (tests/site/test_migrations.py)."""

from __future__ import annotations

import importlib

from django.db import migrations


def moved_model(migration: str, name: str, table: str) -> migrations.SeparateDatabaseAndState:
    """The model ``name`` exactly as the migration module ``migration`` created it, for the app whose
    migration this is, on the existing ``table``."""
    made = importlib.import_module(migration).Migration.operations
    create = next(op for op in made if isinstance(op, migrations.CreateModel) and op.name == name)
    state = migrations.CreateModel(
        name=create.name,
        fields=[(field_name, field.clone()) for field_name, field in create.fields],
        options={**create.options, "db_table": table},
        bases=create.bases,
        managers=create.managers,
    )
    return migrations.SeparateDatabaseAndState(state_operations=[state], database_operations=[])
