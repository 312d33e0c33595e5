"""Public downloads of results for other programs (issue 20): a match's whole result file as
PBN (:func:`bridgeko.boards.exports.match_pbn`: both rooms, the players, the scores and the
IMPs; the boards of segments that have ended, I15) and an edition as USEBIO XML
(:func:`bridgeko.boards.exports.usebio_document`). Like every public page: GET and HEAD, no
cookie, the same bytes for every reader, ``ETag``/``Last-Modified`` and 304
(:func:`bridgeko.public.render.public_file`); 404 when there is nothing to give yet."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponseBase
from django.views.decorators.http import require_safe

from bridgeko.boards import exports
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.matches.models import Match
from bridgeko.public.render import PublicFile, public_file

__all__ = ["match_pbn", "usebio"]


def _edition(slug: str) -> Edition:
    found = Edition.objects.filter(slug=slug).first()
    if found is None:
        raise Http404
    return found


@require_safe
def match_pbn(request: HttpRequest, edition: str, code: str) -> HttpResponseBase:
    obj = _edition(edition)
    match = Match.objects.select_related("home", "visitors").filter(edition=obj, code=code).first()
    if match is None:
        raise Http404
    match.edition = obj
    try:
        data = exports.match_pbn(match)
    except ServiceError:
        raise Http404 from None
    name = exports.match_pbn_name(match)
    return public_file(
        request,
        obj,
        lambda: PublicFile(
            data, "application/x-pbn; charset=utf-8", f'attachment; filename="{name}"'
        ),
    )


@require_safe
def usebio(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(edition)

    def make() -> PublicFile:
        data = exports.usebio_document(obj)
        name = f"{obj.slug}-usebio.xml"
        return PublicFile(data, "application/xml", f'attachment; filename="{name}"')

    try:
        return public_file(request, obj, make)
    except ServiceError:
        raise Http404 from None
