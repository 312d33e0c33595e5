"""The Content-Security-Policy of every response (issue 23): scripts, styles, images, fonts and
connections from this site only — no inline script (the pages' few actions are in
``bridgeko/actions.js``), no plugin, no other site's frame around a page. Inline styles stay
allowed (a few ``<style>`` blocks of printed forms). A view that must differ sets its own header
first: the embeddable bracket allows any site to frame it (:data:`FRAMEABLE`)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

__all__ = ["FRAMEABLE", "POLICY", "ContentSecurityPolicyMiddleware"]

_COMMON = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'"
)
POLICY = f"{_COMMON}; frame-ancestors 'none'"
"""Every page: nobody may frame it (as ``X-Frame-Options: DENY`` says to older browsers)."""
FRAMEABLE = f"{_COMMON}; frame-ancestors *"
"""The embeddable bracket (``public:embed_bracket``): any site may show it in a frame."""


class ContentSecurityPolicyMiddleware:
    """Adds :data:`POLICY` to a response that has no policy of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = POLICY
        return response
