"""The Django project package: settings, URLs, WSGI/ASGI, the base templates and the CSS, the
site-wide middleware and the error pages. No app imports it (what apps share is
:mod:`bridgeko.core`)."""
