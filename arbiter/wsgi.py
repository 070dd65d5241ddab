"""The site's WSGI application (gunicorn's ``arbiter.wsgi:application``; ``manage.py serve`` loads it
through ``settings.WSGI_APPLICATION``): Django's, behind the gate that answers the phones' slips and
polls on their lean path (``live.slipgate``), and the door that answers a kept public page's
plain visitors with Django's last answer (``server.public.Door``); everything else to Django
untouched."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
django_application = get_wsgi_application()

from live.slipgate import SlipGate  # noqa: E402
from server.public import Door  # noqa: E402 - once Django is set up

application = Door(SlipGate(django_application))
