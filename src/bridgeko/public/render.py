"""How every public HTML page is answered: the same bytes for every reader of a language.

A public page is rendered **without the request** (``render_to_string`` with no request): no
context processor runs, nothing reads the user or the session, no CSRF token is made — so no
cookie is set and nothing varies by cookie, and any proxy or CDN may keep the page. The
language is the URL's (``/cs/…``, ``/en/…``).

:func:`page` answers ``If-None-Match``/``If-Modified-Since`` with a 304 after one query (the
edition's :func:`~bridgeko.public.freshness.edition_version`, or the version the view passes),
keeps the rendered bytes of recent pages in memory (keyed by their ``ETag``, so a change of the
data is a new key), and renders otherwise. ``bridgeko export-site`` asks the same views for the
same bytes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.urls import reverse, translate_url
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.translation import get_language, get_language_info

from bridgeko.editions.models import Edition
from bridgeko.public.freshness import Version, edition_version, etag

__all__ = ["CACHE_CONTROL", "cache_headers", "forget", "page", "page_context"]

CACHE_CONTROL = "public, max-age=0, must-revalidate"
"""Every reader asks again (a score changes at any moment) and usually gets the 304."""

_CACHE_SIZE = 256
_cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_lock = threading.Lock()


def forget() -> None:
    """Drops the kept pages (tests: each test's database starts again from the same numbers)."""
    with _lock:
        _cache.clear()


def _cached(key: tuple[str, str]) -> bytes | None:
    with _lock:
        body = _cache.get(key)
        if body is not None:
            _cache.move_to_end(key)
        return body


def _keep(key: tuple[str, str], body: bytes) -> None:
    with _lock:
        _cache[key] = body
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def page_context(edition: Edition, path: str, version: Version) -> dict[str, Any]:
    """What the public base template needs: the edition, the page in the other languages
    (``alternates``), the live-update address and when the data last changed."""
    current = get_language()
    alternates = []
    for code, _name in settings.LANGUAGES:
        info = get_language_info(code)
        alternates.append(
            {
                "code": code,
                "name": info["name_local"],
                "url": translate_url(path, code),
                "current": code == current,
            }
        )
    return {
        "edition": edition,
        "current_edition": edition,  # the frame's edition link (its menu: public/base.html)
        "alternates": alternates,
        "live_url": reverse("site:live", kwargs={"edition": edition.slug}),
        "version": version,
        "updated": version.at,
    }


def cache_headers(response: HttpResponseBase, tag: str, version: Version) -> HttpResponseBase:
    """``ETag``, ``Last-Modified`` and ``Cache-Control`` of a public response."""
    response["ETag"] = tag
    if version.at is not None:
        response["Last-Modified"] = http_date(version.at.timestamp())
    response["Cache-Control"] = CACHE_CONTROL
    return response


def page(
    request: HttpRequest,
    edition: Edition,
    template: str,
    context: Callable[[], Mapping[str, Any]],
    *,
    version: Version | None = None,
) -> HttpResponseBase:
    """The public page ``template`` of ``edition`` with ``context()`` (called only when the page
    must be rendered), answered conditionally. ``version``: the data the page shows, when it is
    narrower than the whole edition (one match); the edition's by default."""
    if version is None:
        version = edition_version(edition)
    tag = etag(version, request.path, get_language())
    last_modified = int(version.at.timestamp()) if version.at is not None else None
    response = get_conditional_response(request, etag=tag, last_modified=last_modified)
    if response is None:
        key = (request.path, tag)
        body = _cached(key)
        if body is None:
            data = page_context(edition, request.path, version) | dict(context())
            body = render_to_string(template, data).encode()
            _keep(key, body)
        response = HttpResponse(body)
    return cache_headers(response, tag, version)
