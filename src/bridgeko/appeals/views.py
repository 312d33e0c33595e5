"""The appeals pages (R16): thin views over :mod:`bridgeko.appeals.services`.

Who does what: the TD (and the organiser) lodges an appeal and records its withdrawal; the
organiser or chief TD keeps the list of committee candidates and names each committee; the
committee's decision is entered by the organiser or chief TD, or by a user with the appeals role
who sits on that committee; a member of the committee reads the appeals they sit on; both
captains of the match read their match's appeals (linked from My team)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import ORGANISER_ROLES, Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.appeals import services
from bridgeko.appeals.forms import (
    CommitteeForm,
    DecisionForm,
    LodgeForm,
    SettingsForm,
    WithdrawForm,
)
from bridgeko.appeals.links import state_label
from bridgeko.appeals.models import Appeal, AppealStatus, DepositFate
from bridgeko.competition.appeals import FINALITY
from bridgeko.competition.messages import Message
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.core.i18n import tr
from bridgeko.editions.models import Edition
from bridgeko.matches.models import Match, Segment

TD = str(Role.TD)
APPEALS = str(Role.APPEALS)
CAPTAIN = str(Role.CAPTAIN)


def _roles(request: HttpRequest) -> frozenset[str]:
    return frozenset(getattr(request, "edition_roles", frozenset()))


def _staff(request: HttpRequest) -> bool:
    """A TD, an organiser or chief TD, or a superuser: sees every appeal of the edition."""
    return bool(request.user.is_superuser or _roles(request) & (ORGANISER_ROLES | {TD}))


def _organiser(request: HttpRequest) -> bool:
    return bool(request.user.is_superuser or _roles(request) & ORGANISER_ROLES)


def _appeal(edition: Edition, pk: int) -> Appeal:
    return get_object_or_404(
        Appeal.objects.select_related("match", "appellant", "match__home", "match__visitors"),
        pk=pk,
        edition=edition,
    )


def _readable(request: HttpRequest, appeal: Appeal) -> None:
    """The staff read every appeal; a member of the appeals committee only theirs."""
    if not (_staff(request) or services.sits_on_committee(request.user, appeal)):
        raise PermissionDenied


def _may_decide(request: HttpRequest, appeal: Appeal) -> bool:
    """The organiser or chief TD enters the committee's decision, or a committee member with
    the appeals role (a TD who directed the match does not: it is an appeal against a TD)."""
    return _organiser(request) or (
        APPEALS in _roles(request) and services.sits_on_committee(request.user, appeal)
    )


def _detail_url(appeal: Appeal) -> str:
    return reverse("appeals:detail", kwargs={"edition": appeal.edition.slug, "appeal": appeal.pk})


def _deadline_texts(appeal: Appeal) -> list[str]:
    return [tr(d.detail) for d in services.deadlines(appeal.match, appeal.segment)]


# ---------------------------------------------------------------------------------------------
# The list and the organiser's settings


@require_safe
@edition_role_required(TD, APPEALS)
def appeal_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    appeals = list(
        Appeal.objects.filter(edition=edition).select_related(
            "match", "appellant", "match__home", "match__visitors"
        )
    )
    if not _staff(request):
        appeals = [a for a in appeals if services.sits_on_committee(request.user, a)]
    rows = [{"appeal": a, "state": state_label(a)} for a in appeals]
    return render(
        request,
        "appeals/list.html",
        {
            "edition": edition,
            "rows": rows,
            "organiser": _organiser(request),
            "candidates": services.candidates(edition),
            "settings": services.settings_of(edition),
        },
    )


@edition_role_required()
def appeal_settings(request: HttpRequest, edition: Edition) -> HttpResponse:
    current = services.settings_of(edition)
    form = SettingsForm(
        request.POST or None,
        initial={"candidates": current.candidates, "segment_deadlines": current.segment_deadlines},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.save_settings(
                edition=edition,
                candidates_text=form.cleaned_data["candidates"],
                segment_deadlines=form.cleaned_data["segment_deadlines"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The appeals settings were saved."))
            return redirect("appeals:list", edition=edition.slug)
    return render(
        request,
        "appeals/settings.html",
        {"edition": edition, "form": form, "rules": edition.regulations.appeals},
        status=400 if request.method == "POST" else 200,
    )


# ---------------------------------------------------------------------------------------------
# Lodging


def _user_name(user: Any) -> str:
    return str(user.get_full_name() or user.get_username())


@edition_role_required(TD)
def lodge(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    if match.home is None or match.visitors is None:
        messages.error(
            request, _("The teams of match %(code)s are not known yet.") % {"code": match.code}
        )
        return redirect("matches:detail", edition=edition.slug, code=match.code)
    teams = [(match.home.pk, match.home.name), (match.visitors.pk, match.visitors.name)]
    segments = list(Segment.objects.filter(match=match).values_list("number", flat=True))
    now = timezone.now()
    form = LodgeForm(
        request.POST or None,
        teams=teams,
        segments=segments,
        initial={
            "lodged_at": timezone.localtime(now).replace(second=0, microsecond=0),
            "through_td": _user_name(request.user),
            "deposit_paid": edition.regulations.appeals.deposit,
        },
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            appeal = services.lodge(
                match=match,
                appellant=match.home if data["appellant"] == match.home.pk else match.visitors,
                segment=data["segment"],
                subject=data["subject"],
                deposit_paid=data["deposit_paid"],
                through_td=data["through_td"],
                lodged_at=data["lodged_at"],
                form_received_at=data["form_received_at"],
                user=request.user,
                now=now,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The appeal was lodged."))
            return redirect(_detail_url(appeal))
    return render(
        request,
        "appeals/lodge.html",
        {
            "edition": edition,
            "match": match,
            "form": form,
            "deadlines": [tr(d.detail) for d in services.deadlines(match)],
            "match_end": services.match_end(match),
            "settings": services.settings_of(edition),
            "rules": edition.regulations.appeals,
        },
        status=400 if request.method == "POST" else 200,
    )


# ---------------------------------------------------------------------------------------------
# One appeal: detail, committee, decision, withdrawal


def _render_detail(
    request: HttpRequest,
    edition: Edition,
    appeal: Appeal,
    *,
    committee_form: CommitteeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    organiser = _organiser(request)
    suggestion, why_not = services.suggest_committee(appeal) if appeal.is_open else ([], "")
    if committee_form is None and organiser and appeal.is_open:
        committee_form = CommitteeForm(
            initial={"members": "\n".join(appeal.committee or suggestion)}
        )
    return render(
        request,
        "appeals/detail.html",
        {
            "edition": edition,
            "appeal": appeal,
            "state": state_label(appeal),
            "deadlines": _deadline_texts(appeal),
            "adjusted": list(appeal.adjusted.all()),
            "organiser": organiser,
            "staff": _staff(request),
            "may_decide": appeal.status == AppealStatus.COMMITTEE and _may_decide(request, appeal),
            "committee_form": committee_form if organiser and appeal.is_open else None,
            "suggestion": suggestion,
            "why_not": why_not,
            "candidates": services.candidates(edition),
            "finality": tr(Message(FINALITY)),
        },
        status=status,
    )


@require_safe
@edition_role_required(TD, APPEALS)
def appeal_detail(request: HttpRequest, edition: Edition, appeal: int) -> HttpResponse:
    found = _appeal(edition, appeal)
    _readable(request, found)
    return _render_detail(request, edition, found)


@require_POST
@edition_role_required()
def committee(request: HttpRequest, edition: Edition, appeal: int) -> HttpResponse:
    found = _appeal(edition, appeal)
    form = CommitteeForm(request.POST)
    if form.is_valid():
        try:
            services.name_committee(
                appeal=found, members=form.names(), user=request.user, now=timezone.now()
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The committee was named."))
            return redirect(_detail_url(found))
    return _render_detail(request, edition, found, committee_form=form, status=400)


@edition_role_required(APPEALS)
def decide(request: HttpRequest, edition: Edition, appeal: int) -> HttpResponse:
    found = _appeal(edition, appeal)
    if not _may_decide(request, found):
        raise PermissionDenied
    form = DecisionForm(request.POST or None)
    if request.method == "POST" and found.status == AppealStatus.COMMITTEE and form.is_valid():
        data = form.cleaned_data
        try:
            services.decide(
                appeal=found,
                outcome=data["outcome"],
                reasons=data["reasons"],
                frivolous=data["frivolous"],
                forfeit_deposit=data["deposit"] == DepositFate.FORFEITED,
                adjustments=[services.Adjustment(b, r, t) for b, r, t in form.adjustments()],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The committee's decision was recorded."))
            return redirect(_detail_url(found))
    return render(
        request,
        "appeals/decide.html",
        {
            "edition": edition,
            "appeal": found,
            "form": form,
            "open": found.status == AppealStatus.COMMITTEE,
            "state": state_label(found),
            "finality": tr(Message(FINALITY)),
        },
        status=400 if request.method == "POST" else 200,
    )


@edition_role_required(TD)
def withdraw(request: HttpRequest, edition: Edition, appeal: int) -> HttpResponse:
    """Asks first (the appeal and its committee are shown), then records the withdrawal."""
    found = _appeal(edition, appeal)
    form = WithdrawForm(request.POST or None)
    if request.method == "POST" and found.is_open and form.is_valid():
        try:
            services.withdraw(
                appeal=found,
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The appeal was withdrawn."))
            return redirect(_detail_url(found))
    return render(
        request,
        "appeals/withdraw.html",
        {"edition": edition, "appeal": found, "form": form, "state": state_label(found)},
        status=400 if request.method == "POST" else 200,
    )


# ---------------------------------------------------------------------------------------------
# The captains' page


@require_safe
@edition_role_required(CAPTAIN, TD, team_kwarg="team")
def team_appeal(request: HttpRequest, edition: Edition, team: int, appeal: int) -> HttpResponse:
    """An appeal in one of the team's matches, for its captain (either team's)."""
    found = _appeal(edition, appeal)
    if team not in (found.match.home_id, found.match.visitors_id):
        raise PermissionDenied
    return render(
        request,
        "appeals/team.html",
        {
            "edition": edition,
            "appeal": found,
            "team": team,
            "state": state_label(found),
            "deadlines": _deadline_texts(found),
            "adjusted": list(found.adjusted.all()),
            "finality": tr(Message(FINALITY)),
        },
    )
