"""Site-wide views: the friendly error pages (static files are served by WhiteNoise)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from bridgeko.public import api


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The friendly 403 page (a logged-in user without the role)."""
    return render(request, "403.html", status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without a valid CSRF token (an old page, cookies blocked): the friendly
    403 page saying what to do, never Django's technical one."""
    return render(request, "403_csrf.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The friendly 404 page; under ``/api/`` (the JSON API) a JSON body instead."""
    if request.path_info.startswith("/api/"):
        return api.not_found(_("There is nothing at this address."))
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Never a traceback for the user; the error itself is logged by Django."""
    return render(request, "500.html", status=500)
