"""The staff's hand-record pages (organisers and chief TDs before the end of the segment; the
TDs and the appeals committee too, once it has ended): a board's record and a segment's set.

The deals are shown only when :func:`bridgeko.boards.secrecy.may_see` says so (I15); until then
the page says that they are secret, whoever opens it (a superuser who does not organise the
edition included). The public pages are :mod:`bridgeko.public.handrecord_views`."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.boards import handrecords, secrecy
from bridgeko.editions.models import Edition
from bridgeko.matches.models import Match, Segment

READERS = (str(Role.TD), str(Role.APPEALS))
"""Who opens the staff pages (organisers always); the deals follow :func:`secrecy.may_see`."""


def _match(edition: Edition, code: str) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    match.edition = edition
    return match


def _urls(match: Match, segment: Segment) -> dict[str, Any]:
    return {
        "set_url_name": "boards:hand_records",
        "board_url_name": "boards:hand_record",
        "strains": handrecords.STRAINS,
        "match_url": reverse(
            "matches:detail", kwargs={"edition": match.edition.slug, "code": match.code}
        ),
    }


@require_safe
@edition_role_required(*READERS)
def hand_records(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    """All boards of a segment's set, compact."""
    match = _match(edition, code)
    seg = get_object_or_404(Segment, match=match, number=segment)
    seg.match = match
    visible = secrecy.may_see(request.user, seg)
    found = handrecords.segment_set(seg) if visible else None
    return render(
        request,
        "boards/hand_records.html",
        {
            "edition": edition,
            "match": match,
            "segment": seg,
            "visible": visible,
            "has_set": found is not None or seg_has_set(seg),
            "records": found,
            "revealed": secrecy.revealed(seg),
            **_urls(match, seg),
        },
    )


def seg_has_set(segment: Segment) -> bool:
    from bridgeko.boards.models import DealSet

    return DealSet.objects.filter(segment=segment).exists()


@require_safe
@edition_role_required(*READERS)
def hand_record(request: HttpRequest, edition: Edition, code: str, board: int) -> HttpResponse:
    """One board: the four hands, HCP, the double-dummy table, par, the makeable contracts and
    both rooms' results, with the previous and the next board."""
    match = _match(edition, code)
    seg = handrecords.segment_of_board(match, board)
    if seg is None:
        raise Http404
    seg.match = match
    visible = secrecy.may_see(request.user, seg)
    found = handrecords.segment_set(seg) if visible else None
    record = found.board(board) if found is not None else None
    previous, following = found.neighbours(board) if found is not None else (None, None)
    return render(
        request,
        "boards/hand_record.html",
        {
            "edition": edition,
            "match": match,
            "segment": seg,
            "board": board,
            "visible": visible,
            "has_set": found is not None or seg_has_set(seg),
            "records": found,
            "rec": record,
            "previous": previous,
            "following": following,
            "revealed": secrecy.revealed(seg),
            **_urls(match, seg),
        },
    )
