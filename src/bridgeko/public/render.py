"""How every public HTML page is answered: the same bytes for every reader of a language.

A public page is rendered **without the request** (``render_to_string`` with no request): no
context processor runs, nothing reads the user or the session, no CSRF token is made — so no
cookie is set and nothing varies by cookie, and any proxy or CDN may keep the page. The
language is the URL's (``/cs/…``, ``/en/…``).

:func:`page` answers ``If-None-Match``/``If-Modified-Since`` with a 304 after one query (the
edition's :func:`~bridgeko.public.freshness.edition_version`, or the version the view passes),
keeps the rendered bytes of recent pages in memory (keyed by their ``ETag``, so a change of the
data is a new key), and renders otherwise. ``bridgeko export-site`` asks the same views for the
same bytes. :func:`public_file` answers a file (a PDF) the same way.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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

__all__ = [
    "CACHE_CONTROL",
    "PublicFile",
    "cache_headers",
    "forget",
    "page",
    "page_context",
    "public_file",
]

CACHE_CONTROL = "public, max-age=0, must-revalidate"
"""Every reader asks again (a score changes at any moment) and usually gets the 304."""

_CACHE_SIZE = 256
_cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class PublicFile:
    """A public file that is not a page (a PDF): its bytes, type and ``Content-Disposition``."""

    body: bytes
    content_type: str
    disposition: str = ""


_FILES_SIZE = 32
"""Fewer files than pages are kept: a PDF of hand records weighs some 150 kB."""
_files: OrderedDict[tuple[str, str], PublicFile] = OrderedDict()


def forget() -> None:
    """Drops the kept pages (tests: each test's database starts again from the same numbers)."""
    with _lock:
        _cache.clear()
        _files.clear()


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


def _conditional(
    request: HttpRequest, edition: Edition, version: Version | None
) -> tuple[Version, str, HttpResponseBase | None]:
    """The version, the ``ETag`` and the 304 (or 412) when the reader's copy is current."""
    if version is None:
        version = edition_version(edition)
    tag = etag(version, request.path, get_language())
    last_modified = int(version.at.timestamp()) if version.at is not None else None
    return version, tag, get_conditional_response(request, etag=tag, last_modified=last_modified)


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
    version, tag, response = _conditional(request, edition, version)
    if response is None:
        key = (request.path, tag)
        body = _cached(key)
        if body is None:
            data = page_context(edition, request.path, version) | dict(context())
            body = render_to_string(template, data).encode()
            _keep(key, body)
        response = HttpResponse(body)
    return cache_headers(response, tag, version)


def public_file(
    request: HttpRequest,
    edition: Edition,
    make: Callable[[], PublicFile],
    *,
    version: Version | None = None,
) -> HttpResponseBase:
    """A public file of ``edition`` (``make()``, called only when it must be made), answered
    conditionally like a :func:`page`: the same ``ETag`` rule (the edition's version, the path,
    the language), ``Last-Modified``, ``Cache-Control``; the recent files kept in memory."""
    version, tag, response = _conditional(request, edition, version)
    if response is None:
        key = (request.path, tag)
        with _lock:
            found = _files.get(key)
            if found is not None:
                _files.move_to_end(key)
        if found is None:
            found = make()
            with _lock:
                _files[key] = found
                while len(_files) > _FILES_SIZE:
                    _files.popitem(last=False)
        response = HttpResponse(found.body, content_type=found.content_type)
        if found.disposition:
            response["Content-Disposition"] = found.disposition
    return cache_headers(response, tag, version)
