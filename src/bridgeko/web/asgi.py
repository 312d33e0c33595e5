"""ASGI entry point: ``bridgeko.web.asgi:application``."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
application = get_asgi_application()
