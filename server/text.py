"""Text that can reach the database: no NUL (PostgreSQL refuses it in text and in JSON), no lone
surrogate (UTF-8 cannot encode it: a 500 when written or exported), and no longer than its column (SQLite
would keep it, PostgreSQL refuse it).  Services validate what they are given with a sentence that
says what is wrong; ``clean_before_saving`` is the net under every save, on both databases."""

from __future__ import annotations

import re

from django.db import models

from server.writes import ServiceError

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(value: str) -> str:
    """``value`` without NUL characters and lone surrogates."""
    if "\x00" in value:
        value = value.replace("\x00", "")
    return _SURROGATE.sub("", value) if _SURROGATE.search(value) else value


def clean_json(value):
    """A JSON value with every string (keys too) cleaned."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [clean_json(item) for item in value]
    if isinstance(value, dict):
        return {clean_json(key): clean_json(item) for key, item in value.items()}
    return value


def clean_before_saving(sender, instance, update_fields=None, **_kwargs) -> None:
    """``pre_save`` of every model: strings cleaned, and a string longer than its column refused; a
    save of some fields (``update_fields``: a round's version bumped on every slip) checks those."""
    fields = instance._meta.concrete_fields
    if update_fields:
        fields = [field for field in fields if field.name in update_fields or field.attname in update_fields]
    for field in fields:
        value = getattr(instance, field.attname, None)
        if isinstance(field, models.JSONField):
            if isinstance(value, list | dict | str):
                setattr(instance, field.attname, clean_json(value))
        elif isinstance(value, str):
            value = clean_text(value)
            setattr(instance, field.attname, value)
            if field.max_length is not None and len(value) > field.max_length:
                raise ServiceError("text_too_long", field=str(field.verbose_name), limit=field.max_length)
