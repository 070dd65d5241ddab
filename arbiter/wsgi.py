"""The site's WSGI application (gunicorn's ``arbiter.wsgi:application``; ``manage.py serve`` loads it
through ``settings.WSGI_APPLICATION``): Django's, behind the gate that answers the phones' slips on
their lean path (``tournaments.slipgate``: that one URL, everything else to Django untouched)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
django_application = get_wsgi_application()

from tournaments.slipgate import SlipGate  # noqa: E402 - once Django is set up

application = SlipGate(django_application)
