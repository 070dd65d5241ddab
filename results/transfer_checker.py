"""The checks a tournament's file is read with (``transfer_reading``): each value as its column holds
it, the problems collected with where they are, up to ``MAX_PROBLEMS``."""

from __future__ import annotations

import datetime
import json
import re

from django.db import models
from django.utils.dateparse import parse_datetime

from engine.alphabet import FRENCH, LetterSet
from engine.messages import Message
from engine.texts import codepoint, forbidden_char, quoted

#: Problems listed in one refusal.
MAX_PROBLEMS = 20
#: A text inside a column holding JSON (a slip's history, a top's word).
MAX_JSON_TEXT = 300

_DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")
_RANGES = {
    models.PositiveSmallIntegerField: (0, 32_767),
    models.PositiveIntegerField: (0, 2**31 - 1),
    models.IntegerField: (-(2**31), 2**31 - 1),
    models.BigIntegerField: (-(2**63), 2**63 - 1),
}


class Full(Exception):
    """Enough problems to list: the reading stops."""


class Checker:
    """The document's checks, collecting problems (``where`` names the object, as a person finds it)."""

    def __init__(self):
        self.problems: list[Message] = []
        #: The tournament's letter set, once read: racks and slips are read in it.
        self.letters: LetterSet = FRENCH

    def add(self, code: str, where: str, **params) -> None:
        self.problems.append(Message(code, {"where": where, **params}))
        if len(self.problems) >= MAX_PROBLEMS:
            raise Full

    def keys(self, where: str, obj: object, required: tuple) -> bool:
        """Whether ``obj`` is an object with exactly these keys (a problem said otherwise)."""
        if not isinstance(obj, dict):
            self.add("transfer_not_object", where)
            return False
        missing = [k for k in required if k not in obj]
        unknown = [k for k in obj if k not in required]
        if missing:
            self.add("transfer_key_missing", where, key=missing[0])
        if unknown:
            self.add("transfer_key_unknown", where, key=quoted(unknown[0]))
        return not missing and not unknown

    def items(self, where: str, obj: dict, key: str, limit: int) -> list:
        value = obj[key]
        if not isinstance(value, list):
            self.add("transfer_not_list", where, key=key)
            return []
        if len(value) > limit:
            self.add("transfer_too_many", where, key=key, count=len(value), limit=limit)
            return []
        return value

    def fields(self, where: str, model, obj: dict, names: tuple) -> dict:
        """``obj``'s values as ``model``'s columns hold them (a bad one is left out, its problem said)."""
        good = {}
        for name in names:
            field = model._meta.get_field(name)
            ok, value = self.value(where, field, obj[name])
            if ok:
                good[name] = value
        return good

    def value(self, where: str, field, value) -> tuple[bool, object]:
        key = field.name
        if value is None:
            if field.null:
                return True, None
            self.add("transfer_value", where, key=key, value="null")
            return False, None
        if isinstance(field, models.JSONField):
            return self.json(where, key, value, 0), value
        if isinstance(field, models.BooleanField):
            if isinstance(value, bool):
                return True, value
        elif isinstance(field, models.CharField):
            if isinstance(value, str):
                return self.text(where, field, value), value
        elif isinstance(field, models.DateTimeField):
            moment = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
            if moment is not None and moment.tzinfo is not None:
                return True, moment
        elif isinstance(field, models.DateField):
            try:
                if isinstance(value, str) and _DATE.fullmatch(value):
                    return True, datetime.date.fromisoformat(value)
            except ValueError:
                pass
        elif type(value) is int:
            low, high = _RANGES[type(field)]
            if field.choices:
                allowed = [c for c, _label in field.choices]
                if value in allowed:
                    return True, value
                self.add("transfer_choice", where, key=key, value=quoted(value), expected=_listed(allowed))
                return False, None
            if low <= value <= high:
                return True, value
            self.add("transfer_range", where, key=key, value=quoted(value), low=low, high=high)
            return False, None
        self.add("transfer_value", where, key=key, value=quoted(json.dumps(value, ensure_ascii=False)))
        return False, None

    def text(self, where: str, field, value: str) -> bool:
        char = forbidden_char(value)
        if char is not None:
            self.add("transfer_char", where, key=field.name, char=codepoint(char))
        elif len(value) > field.max_length:
            self.add("transfer_long", where, key=field.name, limit=field.max_length)
        elif field.choices and value not in [c for c, _label in field.choices]:
            allowed = [c for c, _label in field.choices]
            self.add("transfer_choice", where, key=field.name, value=quoted(value), expected=_listed(allowed))
        else:
            return True
        return False

    def json(self, where: str, key: str, value, depth: int) -> bool:
        """A value kept in a JSON column: texts clean, whole numbers of 64 bits, no fractions."""
        if isinstance(value, str):
            char = forbidden_char(value)
            if char is not None:
                self.add("transfer_char", where, key=key, char=codepoint(char))
                return False
            if len(value) > MAX_JSON_TEXT:
                self.add("transfer_long", where, key=key, limit=MAX_JSON_TEXT)
                return False
            return True
        if value is None or isinstance(value, bool):
            return True
        if type(value) is int:
            if -(2**63) <= value < 2**63:
                return True
            self.add("transfer_range", where, key=key, value=quoted(value), low=-(2**63), high=2**63 - 1)
            return False
        if isinstance(value, list):
            return all(self.json(where, key, item, depth + 1) for item in value)
        if isinstance(value, dict):
            return all(
                self.json(where, key, k, depth + 1) and self.json(where, key, v, depth + 1)
                for k, v in value.items()
            )
        self.add("transfer_value", where, key=key, value=quoted(value))
        return False

    def shape(self, where: str, key: str, ok: bool) -> bool:
        if not ok:
            self.add("transfer_shape", where, key=key)
        return ok


def _listed(allowed: list) -> str:
    return ", ".join(str(choice) for choice in allowed)
