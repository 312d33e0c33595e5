"""The captains' page for agreeing a match's date and place (R14.2a, issue 21), one per side
(``/e/<edition>/matches/<code>/date/<side>/``): the match's date now, the proposal waiting (to
accept or decline when it is the opponents', to withdraw when it is the team's own), a form to
propose (or answer with another proposal), the history. The TD rules on a late agreement (I12)
on the same match's ruling page. Every write goes through :mod:`bridgeko.matches.agreements`."""

from __future__ import annotations

from datetime import datetime

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required, has_role
from bridgeko.competition import schedule
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.editions.models import Edition
from bridgeko.matches import agreements, match_admin
from bridgeko.matches.models import DateProposal, Match, ProposalStatus

CAPTAIN, TD = str(Role.CAPTAIN), str(Role.TD)


class ProposalForm(forms.Form):
    start = forms.DateTimeField(
        label=gettext_lazy("Start"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    place = forms.CharField(
        label=gettext_lazy("Place"),
        required=False,
        max_length=agreements.MAX_PLACE,
        help_text=gettext_lazy("The club or the address; empty when you play online."),
    )
    online = forms.CharField(
        label=gettext_lazy("Or play online: the link"),
        required=False,
        max_length=500,
        help_text=gettext_lazy("BBO, RealBridge …: an address starting with https://"),
    )
    note = forms.CharField(
        label=gettext_lazy("Note for the other captain"),
        required=False,
        max_length=agreements.MAX_NOTE,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class AnswerForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("Why (for the other captain)"),
        required=False,
        max_length=agreements.MAX_NOTE,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RulingForm(forms.Form):
    allowed = forms.TypedChoiceField(
        label=gettext_lazy("Ruling"),
        choices=(("1", gettext_lazy("Allow: the match moves")), ("0", gettext_lazy("Refuse"))),
        coerce=lambda v: v == "1",
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason (recorded, I12)"), widget=forms.Textarea(attrs={"rows": 2})
    )


def _match(edition: Edition, code: str) -> Match:
    return get_object_or_404(
        Match.objects.select_related("home", "visitors", "edition"), edition=edition, code=code
    )


def _current(match: Match) -> tuple[datetime | None, str]:
    """The match's start and place now: a start agreed (R14.2) wins over the draw's date."""
    if match.start is not None:
        return match.start, match.location
    from bridgeko.draw.models import MatchDate
    from bridgeko.matches import bracket_sync

    draw = bracket_sync.held_draw(match.edition)
    row = MatchDate.objects.filter(draw=draw, match=match.code).first() if draw else None
    if row is None:
        return None, ""
    return row.start, row.location


@edition_role_required(CAPTAIN, TD)
def date_page(request: HttpRequest, edition: Edition, code: str, side: str) -> HttpResponse:
    match = _match(edition, code)
    if side not in agreements.SIDES:
        raise Http404
    team = match.home if side == "home" else match.visitors
    if team is None:
        raise Http404
    as_staff = has_role(request.user, edition, [TD])
    if not as_staff and not has_role(request.user, edition, [CAPTAIN], team_id=team.pk):
        raise PermissionDenied
    waiting = agreements.pending(match)
    form = ProposalForm()
    answer = AnswerForm()
    if request.method == "POST":
        action = request.POST.get("action", "")
        now = timezone.now()
        try:
            if action == "propose":
                form = ProposalForm(request.POST)
                if form.is_valid():
                    data = form.cleaned_data
                    agreements.propose(
                        match=match,
                        side=side,
                        start=data["start"],
                        place=data["place"],
                        online=data["online"],
                        note=data["note"],
                        user=request.user,
                        now=now,
                    )
                    messages.success(request, _("Your proposal is sent to the other captain."))
                    return redirect(request.path)
            elif action in ("accept", "decline", "revoke"):
                proposal = get_object_or_404(
                    DateProposal, pk=request.POST.get("proposal"), match=match
                )
                answer = AnswerForm(request.POST)
                if answer.is_valid():
                    if action == "accept":
                        done = agreements.accept(
                            proposal=proposal, side=side, user=request.user, now=now
                        )
                        messages.success(
                            request,
                            _("Agreed: the match is moved.")
                            if done.status == ProposalStatus.ACCEPTED
                            else _(
                                "Agreed, but the organiser was told too late (R14.2a): the TD "
                                "decides (I12)."
                            ),
                        )
                    elif action == "decline":
                        agreements.decline(
                            proposal=proposal,
                            side=side,
                            user=request.user,
                            now=now,
                            note=answer.cleaned_data["note"],
                        )
                        messages.success(request, _("The proposal is declined."))
                    else:
                        agreements.revoke(proposal=proposal, side=side, user=request.user, now=now)
                        messages.success(request, _("Your proposal is withdrawn."))
                    return redirect(request.path)
            else:
                messages.error(request, _("Choose what to do."))
        except ServiceError as exc:
            apply_service_error(form if action == "propose" else answer, exc)
        waiting = agreements.pending(match)
    start, place = _current(match)
    normal, last = match_admin.normal_dates(match)
    reg = edition.regulations
    notice = schedule.reschedule_notice_deadline(normal, reg) if normal else None
    record = schedule.result_record_deadline(last, reg) if last else None
    return render(
        request,
        "matches/date.html",
        {
            "edition": edition,
            "match": match,
            "side": side,
            "team": team,
            "opponent": match.visitors if side == "home" else match.home,
            "start": start,
            "place": place,
            "notice": notice,
            "record": record,
            "waiting": waiting,
            "mine": waiting is not None and waiting.side == side,
            "form": form,
            "answer": answer,
            "history": DateProposal.objects.filter(match=match).select_related(
                "proposed_by", "answered_by", "decided_by"
            ),
            "can_move": not match_admin.started(match),
        },
    )


@edition_role_required(TD)
def ruling(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    """The TD's ruling on an agreement the notice of R14.2a did not cover (I12)."""
    match = _match(edition, code)
    waiting = agreements.pending(match)
    if waiting is None or waiting.status != ProposalStatus.AWAITING_TD:
        messages.info(request, _("No agreement of this match waits for a ruling."))
        return redirect("matches:detail", edition=edition.slug, code=match.code)
    form = RulingForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            agreements.decide(
                proposal=waiting,
                allowed=form.cleaned_data["allowed"],
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The ruling is recorded."))
            return redirect("matches:detail", edition=edition.slug, code=match.code)
    return render(
        request,
        "matches/date_ruling.html",
        {"edition": edition, "match": match, "waiting": waiting, "form": form},
    )
