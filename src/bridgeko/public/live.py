"""``/e/<edition>/live.json``: the edition's version (``{"version": "1234.96", "updated":
"1999-03-12T17:00:00+00:00"}``), which every open public page polls each second; when it has
moved, the page fetches itself again and replaces its content (``static/bridgeko/live.js``).

A hundred bytes, one query, and a 304 while nothing changed. Deployed behind a web server, the
same file is written into the exported site after each change (``bridgeko export-site``) and
the web server answers the pollers without the application (docs/deploying-public.md)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from bridgeko.editions.models import Edition
from bridgeko.public.freshness import Version, edition_version, etag
from bridgeko.public.render import cache_headers

__all__ = ["live", "live_document"]


def live_document(version: Version) -> bytes:
    """The bytes of ``live.json`` for ``version``."""
    data = {"version": version.token, "updated": version.at.isoformat() if version.at else None}
    return json.dumps(data, separators=(",", ":")).encode()


@require_safe
def live(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = getattr(request, "edition", None)
    if not isinstance(obj, Edition) or obj.slug != edition:
        obj = get_object_or_404(Edition, slug=edition)
    version = edition_version(obj)
    tag = etag(version, "live")
    response = get_conditional_response(request, etag=tag)
    if response is None:
        response = HttpResponse(live_document(version), content_type="application/json")
    response["Access-Control-Allow-Origin"] = "*"
    return cache_headers(response, tag, version)
