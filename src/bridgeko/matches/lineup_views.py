"""The line-up pages (R12.2, R12.6, I5, I14): a team's line-up for a segment (its captain until
the segment starts, the TD at any time), the TD's clearing of a line-up and start of a segment,
and the printable table cards of a segment. Every write calls :mod:`bridgeko.matches.lineups`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required, has_role
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches import lineups
from bridgeko.matches.lineup_forms import FIELDS, ClearLineUpForm, LineUpForm
from bridgeko.matches.models import Match, Segment

TD = str(Role.TD)
CAPTAIN = str(Role.CAPTAIN)


def _segment(edition: Edition, code: str, number: int) -> tuple[Match, Segment]:
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    segment = get_object_or_404(Segment, match=match, number=number)
    segment.match = match
    return match, segment


def _team(match: Match, side: str) -> Team:
    if side not in lineups.SIDES:
        raise Http404
    team = match.home if side == "home" else match.visitors
    if team is None:
        raise Http404  # the team is not known yet
    return team


def _seats(segment: Segment, side: str) -> dict[str, str]:
    """Each field of the form -> the seat its player takes (R12.2)."""
    out = {}
    for name in FIELDS:
        room, order = name.split("_")
        first, second = lineups.SEATS[lineups.line_of(segment, side, room)]
        out[name] = first if order == "first" else second
    return out


def _closed_reason(view: lineups.SegmentLineUps, side: str, as_td: bool) -> str:
    """Why the line-up cannot be given now (empty: it can), in the reader's language."""
    if side == view.second and view.of(view.first) is None:
        team = view.first_team
        name = team.name if team is not None else ""
        if as_td:
            return _("%(first)s sit first: enter their line-up first (R12.6).") % {"first": name}
        return _("%(first)s sit first: their line-up comes first, then you see it (R12.6).") % {
            "first": name
        }
    if as_td:
        return ""
    if view.started:
        return _("The segment has started: only the TD can change its line-ups now.")
    if side == view.first and view.of(view.second) is not None:
        team = view.second_team
        return _(
            "%(second)s have given their line-up after seeing yours: only the TD can change "
            "yours now (R12.6)."
        ) % {"second": team.name if team is not None else ""}
    return ""


def _previous(segment: Segment) -> lineups.SegmentLineUps | None:
    """The previous segment's line-ups when both are in (its tables must not repeat, I14)."""
    prev = Segment.objects.filter(match_id=segment.match_id, number=segment.number - 1).first()
    if prev is None:
        return None
    view = lineups.segment_line_ups(prev)
    return view if view.home is not None and view.visitors is not None else None


@edition_role_required(TD, CAPTAIN)
def line_up(request: HttpRequest, edition: Edition, code: str, number: int, side: str) -> Any:
    """A team's line-up for a segment: four selects from its roster, the seating order, the
    first team's line-up shown to the second once given (R12.6)."""
    match, segment = _segment(edition, code, number)
    team = _team(match, side)
    as_td = has_role(request.user, edition, [TD])
    if not as_td and not has_role(request.user, edition, [CAPTAIN], team_id=team.pk):
        raise PermissionDenied
    view = lineups.segment_line_ups(segment)
    own = view.of(side)
    players = lineups.roster_of(team)
    seats = _seats(segment, side)
    initial = {name: getattr(own, f"{name}_id") for name in FIELDS} if own is not None else {}
    closed = _closed_reason(view, side, as_td)
    form = LineUpForm(
        request.POST if request.method == "POST" else None,
        players=players,
        seats=seats,
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        try:
            lineups.set_line_up(
                segment=segment,
                side=side,
                **form.chosen(),
                user=request.user,
                now=timezone.now(),
                as_td=as_td,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Line-up of %(team)s for segment %(number)s saved.")
                % {"team": team.name, "number": number},
            )
            return redirect(
                "matches:line_up", edition=edition.slug, code=code, number=number, side=side
            )
    other = "visitors" if side == "home" else "home"
    return render(
        request,
        "matches/line_up.html",
        {
            "edition": edition,
            "match": match,
            "segment": segment,
            "side": side,
            "team": team,
            "view": view,
            "own": own,
            "other_side": other,
            "other_team": _team(match, other),
            "show_other": as_td or view.visible_to(side),
            "form": form,
            "closed": closed,
            "as_td": as_td,
            "previous": _previous(segment),
            "rooms": view.rooms(),
            "lines": {room: lineups.line_of(segment, side, room) for room in ("open", "closed")},
        },
    )


@edition_role_required(TD)
def line_up_clear(request: HttpRequest, edition: Edition, code: str, number: int, side: str) -> Any:
    """The TD removes a team's line-up: the page shows what will be removed and asks for the
    reason; the POST removes it (audited)."""
    match, segment = _segment(edition, code, number)
    team = _team(match, side)
    view = lineups.segment_line_ups(segment)
    own = view.of(side)
    form = ClearLineUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and own is not None and form.is_valid():
        try:
            lineups.clear_line_up(
                segment=segment,
                side=side,
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Line-up of %(team)s for segment %(number)s cleared.")
                % {"team": team.name, "number": number},
            )
            return redirect(
                "matches:line_up", edition=edition.slug, code=code, number=number, side=side
            )
    return render(
        request,
        "matches/line_up_clear.html",
        {
            "edition": edition,
            "match": match,
            "segment": segment,
            "side": side,
            "team": team,
            "own": own,
            "form": form,
            "seats": _seats(segment, side),
        },
    )


@require_POST
@edition_role_required(TD)
def segment_start(request: HttpRequest, edition: Edition, code: str, number: int) -> Any:
    """The TD starts a segment: from now on only the TD changes its line-ups."""
    _match, segment = _segment(edition, code, number)
    try:
        lineups.start_segment(segment=segment, user=request.user, now=timezone.now())
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Segment %(number)s started.") % {"number": number})
    side = request.POST.get("side")
    if side not in lineups.SIDES:
        side = lineups.sits_first(segment)
    return redirect("matches:line_up", edition=edition.slug, code=code, number=number, side=side)


@require_safe
@edition_role_required(TD)
def slips(request: HttpRequest, edition: Edition, code: str, number: int) -> HttpResponse:
    """The printable table cards of a segment: for each room the match, the segment, its boards
    and who sits North, East, South and West (R12.2), with the teams."""
    match, segment = _segment(edition, code, number)
    view = lineups.segment_line_ups(segment)
    return render(
        request,
        "matches/slips.html",
        {
            "edition": edition,
            "match": match,
            "segment": segment,
            "view": view,
            "rooms": view.rooms(),
        },
    )
