"""The WSGI application gunicorn serves: creates the schema and seeds the CRM first (once, in
gunicorn's master with --preload; its connection is closed before the worker forks)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crmsite.settings")

import django  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.db import connections  # noqa: E402

django.setup()
call_command("migrate", run_syncdb=True, verbosity=0)

from crm import seeds  # noqa: E402

seeds.reset()
connections.close_all()
application = get_wsgi_application()
