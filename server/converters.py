"""``<id:pk>`` in the rooms' URLs: a row's id as the databases can hold it.  ``<int:…>`` reads any
number of digits, and an id beyond 2^63 reached the database (SQLite: "Python int too large to convert
to SQLite INTEGER", a 500); these ids are at most 18 digits, so every lookup is a plain 404."""

import re

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    @classmethod
    def accepts(cls, value) -> bool:
        """Whether ``value`` (a form's or a query's text) is such an id."""
        return isinstance(value, int | str) and re.fullmatch(cls.regex, str(value)) is not None

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
