"""The public hand records (issue 11): after a segment has ended in both rooms (I15) anyone
reads a board's record and the segment's set; before, these addresses answer 404 — the same as
for a segment that does not exist, so that the answer tells nothing.

GET and HEAD only; the views read neither the user nor the session. ``ETag`` and
``Last-Modified`` come from the match (its ``version`` rises with every result and with the end
of a segment) and the analysis so far, with the language: a reader asks again and usually gets
a 304. The JSON of a segment's hand records is :func:`hand_records_json`, their PDF (the paper
app's form, issue 20) :func:`hand_records_pdf`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC
from typing import Any

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from bridgeko.boards import handrecords, secrecy
from bridgeko.boards.models import BoardDeal, DealSet
from bridgeko.editions.models import Edition
from bridgeko.matches.models import Match, Segment
from bridgeko.paper import documents
from bridgeko.paper.render import render
from bridgeko.public.api import CACHE_CONTROL, _json_safe, not_found
from bridgeko.public.render import PublicFile, page, public_file


def _edition(request: HttpRequest, slug: str) -> Edition | None:
    edition = getattr(request, "edition", None)
    if not isinstance(edition, Edition) or edition.slug != slug:
        edition = Edition.objects.filter(slug=slug).first()
    return edition


def _match(edition: Edition | None, code: str) -> Match | None:
    if edition is None:
        return None
    match = Match.objects.select_related("home", "visitors").filter(edition=edition, code=code)
    found = match.first()
    if found is not None:
        found.edition = edition
    return found


def _revealed(segment: Segment | None) -> bool:
    """A segment with a set of deals that has ended in both rooms (I15)."""
    return (
        segment is not None
        and secrecy.revealed(segment)
        and DealSet.objects.filter(segment=segment).exists()
    )


def _cached(
    request: HttpRequest,
    segment: Segment,
    make: Callable[[], HttpResponse],
    kind: str,
    *,
    page: bool = True,
) -> HttpResponseBase:
    """``make()`` unless the reader's copy is current (304); with ETag and Last-Modified. A
    page (``page``) is in the reader's language, chosen by a cookie: its tag and ``Vary`` say
    so; the JSON is the same in every language (no ``Vary: Cookie``, one tag)."""
    match = segment.match
    version = handrecords.set_version(segment)
    language = get_language() if page else "-"
    digest = hashlib.sha256(f"{kind}:{version}:{language}".encode()).hexdigest()[:20]
    etag = f'"hr-{digest}"'
    changed = max(t for t in (match.updated_at, segment.ended_at) if t is not None)
    last_modified = int(changed.timestamp())
    response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        response = make()
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, **CACHE_CONTROL)
    if page:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _context(edition: Edition, match: Match, segment: Segment) -> dict[str, Any]:
    return {
        "edition": edition,
        "match": match,
        "segment": segment,
        "visible": True,
        "has_set": True,
        "revealed": True,
        "strains": handrecords.STRAINS,
        "set_url_name": "public:hand_records",
        "board_url_name": "public:hand_record",
    }


@require_safe
def hand_records(request: HttpRequest, edition: str, code: str, segment: int) -> HttpResponseBase:
    """All boards of a segment's set (compact), after its end."""
    obj = _edition(request, edition)
    match = _match(obj, code)
    seg = Segment.objects.filter(match=match, number=segment).first() if match else None
    if obj is None or match is None or seg is None or not _revealed(seg):
        raise Http404
    seg.match = match

    def context() -> dict[str, Any]:
        return _context(obj, match, seg) | {"records": handrecords.segment_set(seg)}

    return page(request, obj, "public/hand_records.html", context)


@require_safe
def hand_record(request: HttpRequest, edition: str, code: str, board: int) -> HttpResponseBase:
    """One board's record, after the end of its segment."""
    obj = _edition(request, edition)
    match = _match(obj, code)
    seg = handrecords.segment_of_board(match, board) if match else None
    if obj is None or match is None or seg is None or not _revealed(seg):
        raise Http404
    seg.match = match

    def context() -> dict[str, Any]:
        records = handrecords.segment_set(seg)
        assert records is not None
        rec = records.board(board)
        if rec is None:
            raise Http404
        previous, following = records.neighbours(board)
        return _context(obj, match, seg) | {
            "records": records,
            "rec": rec,
            "board": board,
            "previous": previous,
            "following": following,
        }

    return page(request, obj, "public/hand_record.html", context)


@require_safe
def hand_records_pdf(
    request: HttpRequest, edition: str, code: str, segment: int
) -> HttpResponseBase:
    """All boards of a segment's set as PDF (A4: the paper app's hand records), after its end
    (I15); 404 before, and for a segment without stored deals — as the pages answer. Like a
    page: the same bytes for every reader of the URL's language, ``ETag``/``Last-Modified``,
    no cookie. The file is dated by the last change of the match or the end of the segment
    (:func:`bridgeko.paper.documents.public_hand_records`), never by the clock."""
    obj = _edition(request, edition)
    match = _match(obj, code)
    seg = Segment.objects.filter(match=match, number=segment).first() if match else None
    if (
        obj is None
        or match is None
        or seg is None
        or not secrecy.revealed(seg)
        or not BoardDeal.objects.filter(deal_set__segment=seg).exists()
    ):
        raise Http404
    seg.match = match

    def make() -> PublicFile:
        deals = list(BoardDeal.objects.filter(deal_set__segment=seg).order_by("board"))
        changed = max(t for t in (match.updated_at, seg.ended_at) if t is not None)
        document = documents.public_hand_records(obj, match, seg, deals, changed)
        body = render(document.template, document.data, at=changed.astimezone(UTC))
        disposition = f'inline; filename="{document.filename}"'
        return PublicFile(body, "application/pdf", disposition)

    return public_file(request, obj, make)


@require_safe
def index(request: HttpRequest, edition: str) -> HttpResponseBase:
    """The segments whose hand records are public, by match (each with its PDF when deals
    are stored)."""
    obj = _edition(request, edition)
    if obj is None:
        raise Http404

    def context() -> dict[str, Any]:
        sets = (
            DealSet.objects.filter(
                segment__match__edition=obj,
                segment__open_ended_at__isnull=False,
                segment__closed_ended_at__isnull=False,
            )
            .annotate(deals=Count("boards"))
            .select_related("segment__match__home", "segment__match__visitors")
            .order_by("segment__match__position", "segment__number")
        )
        matches: dict[int, tuple[Match, list[tuple[Segment, bool]]]] = {}
        for s in sets:
            seg = s.segment
            matches.setdefault(seg.match_id, (seg.match, []))[1].append((seg, s.deals > 0))
        return {"matches": list(matches.values())}

    return page(request, obj, "public/hand_records_index.html", context)


# ---------------------------------------------------------------------------------------------
# JSON


def board_json(rec: handrecords.BoardRecord) -> dict[str, Any]:
    """One board's hand record as JSON (codes only, no translated words)."""

    def room(r: handrecords.RoomResult | None) -> dict[str, Any] | None:
        if r is None:
            return None
        return {
            "text": r.text,
            "ns_score": r.ns_score,
            "auction": [c.text + ("!" if c.alerted else "") for row in r.auction for c in row if c]
            or None,
            "play": [str(card) for t in r.play for card in t.cards] or None,
        }

    return {
        "number": rec.board,
        "dealer": rec.dealer.value,
        "vulnerability": rec.vulnerability.value,
        "deal": rec.deal,
        "hands": {s.value: h.pbn for s, h in rec.hands.items()},
        "hcp": {s.value: h.hcp for s, h in rec.hands.items()},
        "dd": (
            {
                row.declarer.value: dict(
                    zip((t.value for t in handrecords.STRAINS), row.tricks, strict=True)
                )
                for row in rec.dd
            }
            if rec.dd is not None
            else None
        ),
        "par": (
            {
                "score": rec.par_score,
                "contracts": [
                    {
                        "contract": f"{p.level}{p.strain.value}{p.doubled}" if p.strain else "Pass",
                        "declarers": p.declarers,
                        "over_under": p.over_under,
                    }
                    for p in rec.par
                ],
            }
            if rec.par_score is not None
            else None
        ),
        "makeable": (
            {
                m.declarer.value: [f"{level}{t.value}" for level, t in m.contracts]
                for m in rec.makeable
            }
            if rec.dd is not None
            else None
        ),
        "open": room(rec.open),
        "closed": room(rec.closed),
        "imps": rec.imps,
    }


@_json_safe
def hand_records_json(
    request: HttpRequest, edition: str, code: str, segment: int
) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/matches/<code>/segments/<n>/hand-records/`` (first
    ``/api/e/<edition>/matches/<code>/segments/<n>/hand-records/``): the segment's hand
    records after its end (404 before, as for a segment that does not exist)::

        {"match": "QF1", "segment": 1, "boards": [board, ...],
         "analysis": {"done": 16, "total": 16}}
    """
    obj = _edition(request, edition)
    match = _match(obj, code)
    seg = Segment.objects.filter(match=match, number=segment).first() if match else None
    if obj is None or match is None or seg is None or not _revealed(seg):
        return not_found(_("There are no public hand records of this segment."))
    seg.match = match

    def make() -> HttpResponse:
        records = handrecords.segment_set(seg)
        assert records is not None
        return JsonResponse(
            {
                "match": match.code,
                "segment": seg.number,
                "boards": [board_json(b) for b in records.boards],
                "analysis": {"done": records.analysed, "total": records.total},
            },
            json_dumps_params={"ensure_ascii": False},
        )

    return _cached(request, seg, make, "json", page=False)
