"""``python -m arbiter`` and the ``arbiter`` command of an installed package: what ``manage.py`` is in a
source checkout (``arbiter serve``, ``arbiter migrate``, ``arbiter changepassword arbitre``...)."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except KeyboardInterrupt:  # Ctrl+C: stopped as asked, no traceback (``serve`` says so itself)
        sys.exit(130)


if __name__ == "__main__":
    main()
