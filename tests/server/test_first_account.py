"""At scale nothing makes the first account (the laptop's first start does):
``manage.py first_account`` makes it without a question and prints its password once."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command


def _run(*args) -> str:
    out = io.StringIO()
    call_command("first_account", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_first_account_makes_the_administrator_once_and_prints_its_password():
    said = _run()
    found = re.search(r"identifiant « arbitre », mot de passe « ([^»]+) »", said)
    assert found, said
    account = User.objects.get(username="arbitre")
    assert account.is_superuser and account.check_password(found.group(1))
    # Run again: nothing made, the password not printed again, how to change it said.
    again = _run()
    assert found.group(1) not in again and "changepassword arbitre" in again
    assert User.objects.filter(is_superuser=True).count() == 1
    assert User.objects.get().check_password(found.group(1))


@pytest.mark.django_db
def test_first_account_takes_another_name():
    said = _run("--username", "admin")
    assert "identifiant « admin »" in said and User.objects.get(username="admin").is_superuser
