"""WSGI entry point: ``bridgeko.web.wsgi:application``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
application = get_wsgi_application()
