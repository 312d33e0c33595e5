"""The TDs' pages for failures to appear (R15): the list, recording one for a match of the
bracket the team plays, correcting or withdrawing one. Every write calls
:mod:`bridgeko.draw.no_shows`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.draw import no_shows
from bridgeko.draw.forms import NoShowCorrectForm, NoShowForm, NoShowWithdrawForm
from bridgeko.editions.models import Edition
from bridgeko.entries.models import NoShow, Team


def _choices(matches: list[no_shows.TeamMatch]) -> list[tuple[str, str]]:
    return [(m.id, m.label) for m in matches]


@require_safe
@edition_role_required(str(Role.TD))
def no_show_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    """Every failure to appear recorded in the edition (withdrawn ones struck through), and the
    teams of the bracket with the matches they play, to record one."""
    by_team = no_shows.matches_by_team(edition)
    teams = Team.objects.filter(edition=edition).order_by("name_key")
    recorded = NoShow.objects.filter(edition=edition).select_related("team").order_by("pk")
    return render(
        request,
        "draw/no_shows.html",
        {
            "edition": edition,
            "held": no_shows.held_draw(edition) is not None,
            "teams": [(team, by_team.get(team.pk, [])) for team in teams],
            "recorded": recorded,
        },
    )


@edition_role_required(str(Role.TD))
def no_show_record(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    obj = get_object_or_404(Team, pk=team, edition=edition)
    matches = no_shows.team_matches(obj)
    form = NoShowForm(request.POST or None, matches=_choices(matches))
    if request.method == "POST" and form.is_valid():
        try:
            no_shows.record_no_show(
                team=obj,
                match=form.cleaned_data["match"],
                timely_notice=form.cleaned_data["timely_notice"],
                note=form.cleaned_data["note"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Failure to appear recorded."))
            return redirect("draw:no_shows", edition=edition.slug)  # a TD may not see the team
    return render(
        request,
        "draw/no_show.html",
        {"edition": edition, "form": form, "team": obj, "matches": matches},
    )


@edition_role_required(str(Role.TD))
def no_show_change(request: HttpRequest, edition: Edition, no_show: int) -> HttpResponse:
    """Correct (another match, the notice, the note) or withdraw a record, with a reason."""
    show = get_object_or_404(NoShow.objects.select_related("team"), pk=no_show, edition=edition)
    choices = _choices(no_shows.team_matches(show.team))
    initial = {"match": show.match, "timely_notice": show.timely_notice, "note": show.note}
    correct = NoShowCorrectForm(matches=choices, initial=initial, prefix="correct")
    withdraw = NoShowWithdrawForm(prefix="withdraw")
    if request.method == "POST" and not show.withdrawn:
        now = timezone.now()
        if "withdraw" in request.POST:
            withdraw = NoShowWithdrawForm(request.POST, prefix="withdraw")
            if withdraw.is_valid():
                try:
                    no_shows.withdraw_no_show(
                        no_show=show,
                        reason=withdraw.cleaned_data["reason"],
                        user=request.user,
                        now=now,
                    )
                except ServiceError as exc:
                    apply_service_error(withdraw, exc)
                else:
                    messages.success(request, _("Failure to appear withdrawn."))
                    return redirect("draw:no_shows", edition=edition.slug)
        else:
            correct = NoShowCorrectForm(request.POST, matches=choices, prefix="correct")
            if correct.is_valid():
                try:
                    no_shows.correct_no_show(
                        no_show=show,
                        match=correct.cleaned_data["match"],
                        timely_notice=correct.cleaned_data["timely_notice"],
                        note=correct.cleaned_data["note"],
                        reason=correct.cleaned_data["reason"],
                        user=request.user,
                        now=now,
                    )
                except ServiceError as exc:
                    apply_service_error(correct, exc)
                else:
                    messages.success(request, _("Failure to appear corrected."))
                    return redirect("draw:no_shows", edition=edition.slug)
    return render(
        request,
        "draw/no_show_change.html",
        {"edition": edition, "show": show, "correct": correct, "withdraw": withdraw},
    )
