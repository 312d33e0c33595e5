"""One read-only view per paper form: it checks who asks, picks the language (``?lang=cs`` or
``?lang=en``, else the reader's), builds the data (:mod:`bridgeko.paper.documents`) and sends
the PDF (:func:`bridgeko.paper.render.render`) inline with a file name. A URL naming nothing
(an unknown team, match, segment, language) is a 404."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, time

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required, has_role
from bridgeko.boards import secrecy
from bridgeko.boards.models import BoardDeal
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.entries.queries import team_info
from bridgeko.matches import standings as match_standings
from bridgeko.matches.models import Match, Segment
from bridgeko.paper import documents
from bridgeko.paper.documents import Document
from bridgeko.paper.render import render

TD = str(Role.TD)
CAPTAIN = str(Role.CAPTAIN)
APPEALS = str(Role.APPEALS)
LANGUAGES = ("cs", "en")


def _language(request: HttpRequest) -> str:
    asked = request.GET.get("lang")
    if asked is None:
        return (translation.get_language() or "cs").split("-")[0]
    if asked not in LANGUAGES:
        raise Http404(_("No such language: %(lang)s") % {"lang": asked[:10]})
    return asked


def _pdf(request: HttpRequest, build: Callable[[], Document]) -> HttpResponse:
    """The PDF of ``build()`` in the chosen language. Its creation date is the day of printing
    (midnight UTC), so a form read twice on one day is the same file byte for byte."""
    with translation.override(_language(request)):
        document = build()
        day = datetime.combine(timezone.localdate(), time(0), tzinfo=UTC)
        body = render(document.template, document.data, at=day)
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{document.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _team(edition: Edition, team: int) -> Team:
    return get_object_or_404(Team, pk=team, edition=edition)


def _match(request: HttpRequest, edition: Edition, code: str) -> Match:
    """The match, for the TDs, the appeals committee and the captains of its two teams."""
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    match.edition = edition
    user = request.user
    if not has_role(user, edition, [TD, APPEALS]) and not any(
        team_id is not None and has_role(user, edition, [CAPTAIN], team_id=team_id)
        for team_id in (match.home_id, match.visitors_id)
    ):
        raise PermissionDenied
    return match


def _segment(match: Match, number: int) -> Segment:
    segment = get_object_or_404(Segment, match=match, number=number)
    segment.match = match
    return segment


@require_safe
@edition_role_required(TD, CAPTAIN)
def entry_form(request: HttpRequest, edition: Edition) -> HttpResponse:
    """The blank entry form (R3.1) with the R16.5 declaration."""
    return _pdf(request, lambda: documents.entry_form(edition, None, timezone.localdate()))


@require_safe
@edition_role_required(CAPTAIN, team_kwarg="team")
def team_entry_form(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    """The entry form filled in for a team (its captain, the organiser)."""
    info = team_info(_team(edition, team))
    return _pdf(request, lambda: documents.entry_form(edition, info, timezone.localdate()))


@require_safe
@edition_role_required(CAPTAIN, team_kwarg="team")
def receipt(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    """A receipt for the entry fee the team paid (none paid: 404)."""
    found = _team(edition, team)
    if found.fee_paid <= 0:
        raise Http404(_("No payment of the entry fee is recorded for this team."))
    info = team_info(found)
    return _pdf(request, lambda: documents.receipt(edition, info, timezone.localdate()))


@require_safe
@edition_role_required(TD)
def line_ups(request: HttpRequest, edition: Edition, code: str, number: int) -> HttpResponse:
    """The table cards and line-up slips of a segment (R12.2, R12.6): the TD's, like the HTML
    table cards (a captain must not see the other team's line-up before giving their own)."""
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    segment = _segment(match, number)
    return _pdf(
        request,
        lambda: documents.line_up_cards(edition, match, segment, timezone.localdate()),
    )


@require_safe
@edition_role_required(TD, APPEALS, CAPTAIN)
def match_record(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    """The match record (R14.2b): blank before play, filled in as results come."""
    match = _match(request, edition, code)
    return _pdf(request, lambda: documents.match_record(edition, match, timezone.localdate()))


@require_safe
@edition_role_required(TD, APPEALS, CAPTAIN)
def appeal_form(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    """The blank appeal form of a match (R16.2; the participants receive a sample)."""
    match = _match(request, edition, code)
    return _pdf(request, lambda: documents.appeal_form(edition, match, timezone.localdate()))


@require_safe
@edition_role_required(TD, APPEALS, CAPTAIN)
def hand_records(request: HttpRequest, edition: Edition, code: str, number: int) -> HttpResponse:
    """The hand records of a segment: secret until the segment has ended in both rooms, except
    for the organiser and the chief TD (I15, :func:`bridgeko.boards.secrecy.may_see`)."""
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    match.edition = edition
    segment = _segment(match, number)
    if not secrecy.may_see(request.user, segment):
        raise PermissionDenied
    deals = list(BoardDeal.objects.filter(deal_set__segment=segment).order_by("board"))
    if not deals:
        raise Http404(_("No deals are stored for this segment."))
    return _pdf(
        request,
        lambda: documents.hand_records(edition, match, segment, deals, timezone.localdate()),
    )


@require_safe
@edition_role_required(TD, CAPTAIN, APPEALS)
def prize_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    """The prize list (R5.1, I7); before the end, the standings so far marked provisional."""
    summary = match_standings.summary(edition)
    return _pdf(request, lambda: documents.prize_list(edition, summary, timezone.localdate()))
