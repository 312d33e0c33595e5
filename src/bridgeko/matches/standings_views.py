"""The standings and the prize list (R5.1, I7) with the organiser's decisions (I16), and the
dates and home teams of the matches to be played: rescheduling by agreement (R14.2, the TDs)
and swapping home and visitors (I2, the chief TD). Thin views over
:mod:`bridgeko.matches.standings` and :mod:`bridgeko.matches.match_admin`."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import (
    ORGANISERS,
    edition_role_required,
    has_role,
    is_organiser,
)
from bridgeko.competition import schedule
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.draw.models import MatchDate
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches import bracket_sync, cbs, match_admin
from bridgeko.matches import standings as standings_service
from bridgeko.matches.models import Match, MatchStatus, PlaceDecision
from bridgeko.matches.standings_forms import DecisionForm, ReasonForm, RescheduleForm

TD = str(Role.TD)
READERS = (TD, str(Role.APPEALS), str(Role.CAPTAIN))
"""Who reads the standings page: every role of the edition (the organisers always)."""


# ---------------------------------------------------------------------------------------------
# Standings and prizes


def _decision_form(result: standings_service.Standings, data: Any = None) -> DecisionForm:
    places = [p for group in result.needed for p in range(group.first, group.last + 1)]
    teams = [(t.pk, t.name) for group in result.needed for t in group.teams]
    return DecisionForm(data, places=places, teams=teams)


def _standings_page(
    request: HttpRequest, edition: Edition, form: DecisionForm | None = None
) -> HttpResponse:
    result = standings_service.summary(edition)
    can_decide = is_organiser(request.user, edition)
    return render(
        request,
        "matches/standings.html",
        {
            "edition": edition,
            "result": result,
            "can_decide": can_decide,
            "form": form or (_decision_form(result) if can_decide and result.needed else None),
            "currency": edition.regulations.edition.currency,
            "can_export": result.finished
            and not result.needed
            and (can_decide or has_role(request.user, edition, [TD])),
        },
    )


@require_safe
@edition_role_required(*READERS)
def standings(request: HttpRequest, edition: Edition) -> HttpResponse:
    return _standings_page(request, edition)


@require_safe
@edition_role_required(TD)
def cbs_files(request: HttpRequest, edition: Edition) -> HttpResponse:
    """The files for Matrika ČBS of a finished edition, as one ZIP (issue 20)."""
    try:
        out = cbs.files(edition)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("matches:standings", edition=edition.slug)
    buffer = io.BytesIO()
    files = dict(out.files)
    if out.problems:
        files["problems.txt"] = ("\n".join(out.problems) + "\n").encode()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():  # a fixed time: the same edition, the same bytes
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{edition.slug}-matrika-cbs.zip"'
    return response


@require_POST
@edition_role_required(*ORGANISERS)
def decide(request: HttpRequest, edition: Edition) -> HttpResponse:
    result = standings_service.summary(edition)
    form = _decision_form(result, request.POST)
    if form.is_valid():
        team = Team.objects.filter(edition=edition, pk=form.cleaned_data["team"]).first()
        try:
            if team is None:
                raise ServiceError(_("Choose the team."), field="team")
            standings_service.decide_place(
                edition=edition,
                place=form.cleaned_data["place"],
                team=team,
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The decision on the place is recorded."))
            return redirect("matches:standings", edition=edition.slug)
    return _standings_page(request, edition, form)


@edition_role_required(*ORGANISERS)
def withdraw_decision(request: HttpRequest, edition: Edition, decision: int) -> HttpResponse:
    """Asks first (what will be lost), withdraws on POST with a reason."""
    row = get_object_or_404(
        PlaceDecision.objects.select_related("team", "decided_by"), pk=decision, edition=edition
    )
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            standings_service.withdraw_decision(
                decision=row,
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The decision on the place is withdrawn."))
            return redirect("matches:standings", edition=edition.slug)
    return render(
        request,
        "matches/withdraw_decision.html",
        {"edition": edition, "decision": row, "form": form},
    )


# ---------------------------------------------------------------------------------------------
# Dates and home teams of the matches to be played


@dataclass(frozen=True, slots=True)
class DateRow:
    match: Match
    start: datetime | None
    location: str
    rescheduled: bool
    started: bool
    record_deadline: schedule.Deadline | None


def _rows(edition: Edition) -> list[DateRow]:
    draw = bracket_sync.held_draw(edition)
    dates = {d.match: d for d in MatchDate.objects.filter(draw=draw)} if draw else {}
    rows = []
    matches = (
        Match.objects.filter(edition=edition)
        .exclude(status__in=(MatchStatus.BYE, MatchStatus.NOT_NEEDED))
        .select_related("home", "visitors", "edition")
    )
    for m in matches:
        if m.home_id is None or m.visitors_id is None:
            continue
        when = dates.get(m.code)
        start, location = (when.start, when.location) if when else (None, "")
        if m.start is not None:
            start, location = m.start, m.location or location
        rows.append(
            DateRow(
                m,
                start,
                location,
                m.start is not None,
                match_admin.started(m),
                match_admin.record_deadline(m),
            )
        )
    return rows


@require_safe
@edition_role_required(TD)
def dates(request: HttpRequest, edition: Edition) -> HttpResponse:
    return render(
        request,
        "matches/dates.html",
        {
            "edition": edition,
            "rows": _rows(edition),
            "can_swap": is_organiser(request.user, edition),
        },
    )


def _match(edition: Edition, code: str) -> Match:
    return get_object_or_404(
        Match.objects.select_related("home", "visitors", "edition"), edition=edition, code=code
    )


@edition_role_required(TD)
def reschedule(request: HttpRequest, edition: Edition, match: str) -> HttpResponse:
    obj = _match(edition, match)
    now = timezone.now()
    form = RescheduleForm(
        request.POST or None,
        initial={
            "start": timezone.localtime(obj.start) if obj.start else None,
            "location": obj.location or edition.regulations.edition.venue,
            "notice_received_at": timezone.localtime(now),
        },
    )
    if request.method == "POST" and form.is_valid():
        ruling = form.cleaned_data["ruling"]
        try:
            done = match_admin.reschedule(
                match=obj,
                start=form.cleaned_data["start"],
                location=form.cleaned_data["location"],
                agreed_by=form.cleaned_data["agreed_by"],
                reason=form.cleaned_data["reason"],
                notice_received_at=form.cleaned_data["notice_received_at"],
                td_allowed=None if not ruling else ruling == "allow",
                user=request.user,
                now=now,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            if done.allowed:
                messages.success(
                    request, _("Match %(match)s is rescheduled.") % {"match": obj.code}
                )
            else:
                messages.warning(
                    request,
                    _("The TD refused to reschedule match %(match)s; the ruling is recorded.")
                    % {"match": obj.code},
                )
            return redirect("matches:dates", edition=edition.slug)
    normal, last = match_admin.normal_dates(obj)
    reg = edition.regulations
    return render(
        request,
        "matches/reschedule.html",
        {
            "edition": edition,
            "match": obj,
            "form": form,
            "started": match_admin.started(obj),
            "normal": normal,
            "notice_deadline": (
                schedule.reschedule_notice_deadline(normal, reg) if normal else None
            ),
            "record_deadline": (
                schedule.result_record_deadline(last, reg) if last is not None else None
            ),
        },
    )


@edition_role_required(*ORGANISERS)
def swap(request: HttpRequest, edition: Edition, match: str) -> HttpResponse:
    """Shows the teams before and after and asks for the reason; swaps on POST (I2)."""
    obj = _match(edition, match)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            match_admin.swap_home(
                match=obj, reason=form.cleaned_data["reason"], user=request.user, now=timezone.now()
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Home and visitors of match %(match)s are swapped.") % {"match": obj.code},
            )
            return redirect("matches:dates", edition=edition.slug)
    return render(
        request,
        "matches/swap.html",
        {
            "edition": edition,
            "match": obj,
            "form": form,
            "started": match_admin.started(obj),
            "known": obj.home_id is not None and obj.visitors_id is not None,
        },
    )
