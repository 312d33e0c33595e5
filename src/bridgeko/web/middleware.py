"""Refuses a request whose body is larger than any form of the application accepts, before the
body is read (Django itself limits form fields, not uploaded files, which it would stream to a
temporary file whatever their size)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

DEFAULT_MAX_REQUEST_BYTES = 12 * 1024 * 1024
"""The largest upload (an Elo list of 10 MB) and the rest of its form."""


class RequestSizeLimitMiddleware:
    """A body above ``settings.BRIDGEKO_MAX_REQUEST_BYTES`` gets the friendly 413 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(getattr(settings, "BRIDGEKO_MAX_REQUEST_BYTES", DEFAULT_MAX_REQUEST_BYTES))
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            return render(request, "413.html", {"limit_mb": -(-limit // (1024 * 1024))}, status=413)
        return self.get_response(request)


class MethodNotAllowedMiddleware:
    """Django answers a method a view does not take (a GET on a POST-only action, a POST to a
    read-only page) with an empty 405: this turns it into the friendly ``405.html`` in the
    site's style and the reader's language; the status and the ``Allow`` header are kept."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        allow = response.headers.get("Allow", "")
        methods = [m.strip() for m in allow.split(",") if m.strip()]
        page = render(
            request,
            "405.html",
            {"methods": methods, "form_only": methods == ["POST"]},
            status=405,
        )
        page.headers["Allow"] = allow
        return page
