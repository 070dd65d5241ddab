"""``manage.py first_account``: the site's first account, made without a question, as the laptop's
first start makes it (``manage.py serve``): the administrator (a Django superuser), who makes the
clubs and their first arbiters' invitations.  Prints its name and password once; run again, it makes
nothing and prints the command that changes the password.  For the scale deployment, after
``migrate``: its web processes (gunicorn) make no account."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from server.management.commands.serve import change_password_command, ensure_arbiter


class Command(BaseCommand):
    help = "Make the site's first account (the administrator) and print its password, once."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="arbitre", help="the account's name (default: arbitre)")

    def handle(self, *args, username: str, **options):
        password = ensure_arbiter(username)
        if password:
            self.stdout.write(
                _("Compte arbitre : identifiant « %(username)s », mot de passe « %(password)s »")
                % {"username": username, "password": password}
            )
            return
        self.stdout.write(
            _("Compte arbitre : « %(username)s » (mot de passe déjà donné). Pour le changer :")
            % {"username": username}
        )
        self.stdout.write(f"    {change_password_command(username)}")
