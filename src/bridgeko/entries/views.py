"""Team entry pages: organisers see every team; a captain sees and edits only their own team,
and only before the freeze (R7.2). Every write calls a service."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import ORGANISERS, edition_role_required, is_organiser
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.core.search import SEARCH_MAX_LENGTH, cut_search
from bridgeko.editions.models import Edition
from bridgeko.entries import queries, services
from bridgeko.entries.forms import (
    ConditionsForm,
    FeeForm,
    PairsForm,
    ReasonForm,
    TeamForm,
    player_label,
)
from bridgeko.entries.models import Pair, Team
from bridgeko.players import queries as player_queries
from bridgeko.players.models import Player

CAPTAIN = str(Role.CAPTAIN)


def _team(edition: Edition, team: int) -> Team:
    return get_object_or_404(Team, pk=team, edition=edition)


REGISTER_LIMIT = 5000
"""Up to this many players are offered for completion in the roster boxes."""


def _search(request: HttpRequest) -> dict[str, object]:
    query, search_cut = cut_search(request.GET.get("q", ""))
    register = Player.objects.only("pk", "name", "federation_id").order_by(
        "name_key", "federation_id"
    )
    return {
        "q": query,
        "search_cut": search_cut,
        "search_max": SEARCH_MAX_LENGTH,
        "found": player_queries.find_players(query),
        "register": [player_label(p) for p in register[:REGISTER_LIMIT]],
    }


def _roster(form: TeamForm) -> list[Player] | None:
    players: list[Player] = []
    try:
        for line in form.roster_lines():
            players.append(player_queries.resolve_player(line))
    except ServiceError as exc:
        apply_service_error(form, exc)
        return None
    return players


@require_safe
@edition_role_required(*ORGANISERS)
def team_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    return render(
        request,
        "entries/list.html",
        {
            "edition": edition,
            "teams": queries.edition_teams(edition),
            "closing": queries.closing_of(edition),
            "reg": edition.regulations,
        },
    )


@edition_role_required(*ORGANISERS)
def team_create(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = TeamForm(request.POST or None, slots=edition.regulations.entry.max_players)
    closing = queries.closing_of(edition)
    if request.method == "POST" and form.is_valid():
        roster = _roster(form)
        if roster is not None:
            try:
                team = services.create_team(
                    edition=edition,
                    name=form.cleaned_data["name"],
                    roster=roster,
                    late_reason=form.cleaned_data["late_reason"],
                    user=request.user,
                    now=timezone.now(),
                )
            except ServiceError as exc:
                apply_service_error(form, exc)
            else:
                messages.success(request, _("Team %(name)s entered.") % {"name": team.name})
                return redirect("entries:detail", edition=edition.slug, team=team.pk)
    return render(
        request,
        "entries/form.html",
        {"edition": edition, "form": form, "closing": closing, **_search(request)},
    )


@require_safe
@edition_role_required(CAPTAIN, team_kwarg="team")
def team_detail(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    info = queries.team_info(_team(edition, team))
    return render(
        request,
        "entries/detail.html",
        {
            "edition": edition,
            "info": info,
            "team": info.team,
            "organiser": is_organiser(request.user, edition),
            "reg": edition.regulations,
        },
    )


@edition_role_required(CAPTAIN, team_kwarg="team")
def team_edit(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    obj = _team(edition, team)
    organiser = is_organiser(request.user, edition)
    if obj.frozen and not organiser:
        raise PermissionDenied  # R7.2: a captain edits the team only before entry
    info = queries.team_info(obj)
    initial = {"name": obj.name} | {
        f"player_{k}": player_label(line.player) for k, line in enumerate(info.roster, start=1)
    }
    form = TeamForm(
        request.POST or None, initial=initial, slots=edition.regulations.entry.max_players
    )
    if request.method == "POST" and form.is_valid():
        roster = _roster(form)
        if roster is not None:
            try:
                services.update_team(
                    team=obj,
                    name=form.cleaned_data["name"],
                    roster=roster,
                    exception_reason=form.cleaned_data["exception_reason"],
                    user=request.user,
                    now=timezone.now(),
                )
            except ServiceError as exc:
                apply_service_error(form, exc)
            else:
                messages.success(request, _("Team saved."))
                return redirect("entries:detail", edition=edition.slug, team=obj.pk)
    return render(
        request,
        "entries/form.html",
        {"edition": edition, "form": form, "team": obj, **_search(request)},
    )


@edition_role_required(CAPTAIN, team_kwarg="team")
def team_pairs(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    obj = _team(edition, team)
    if obj.frozen and not is_organiser(request.user, edition):
        raise PermissionDenied
    info = queries.team_info(obj)
    form = PairsForm(
        request.POST or None,
        roster=[line.player for line in info.roster],
        pairs=list(info.pairs),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.set_pairs(team=obj, pairs=form.pairs(), user=request.user, now=timezone.now())
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Pairs saved."))
            return redirect("entries:detail", edition=edition.slug, team=obj.pk)
    return render(request, "entries/pairs.html", {"edition": edition, "form": form, "team": obj})


@edition_role_required(*ORGANISERS)
def team_conditions(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    obj = _team(edition, team)
    pairs = list(Pair.objects.filter(team=obj).select_related("player_a", "player_b"))
    form = ConditionsForm(request.POST or None, team=obj, pairs=pairs)
    if request.method == "POST" and form.is_valid():
        try:
            services.record_conditions(
                team=obj,
                form_received=form.cleaned_data["form_received"],
                fee_received=form.cleaned_data["fee_received"],
                fee_paid=form.cleaned_data["fee_paid"],
                cards=form.cards(),
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Conditions of entry recorded."))
            return redirect("entries:detail", edition=edition.slug, team=obj.pk)
    return render(
        request,
        "entries/conditions.html",
        {"edition": edition, "form": form, "team": obj, "info": queries.team_info(obj)},
    )


@edition_role_required(*ORGANISERS)
def team_fee(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    obj = _team(edition, team)
    form = FeeForm(
        request.POST or None,
        initial={"amount": obj.fee_override_amount, "reason": obj.fee_override_reason},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.override_fee(
                team=obj,
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Fee saved."))
            return redirect("entries:detail", edition=edition.slug, team=obj.pk)
    return render(
        request,
        "entries/fee.html",
        {"edition": edition, "form": form, "team": obj, "info": queries.team_info(obj)},
    )


@edition_role_required(*ORGANISERS)
def closing(request: HttpRequest, edition: Edition) -> HttpResponse:
    closed = queries.closing_of(edition)
    if request.method == "POST":
        if closed is not None:
            messages.error(request, _("The entries are already closed."))
        else:
            try:
                closed = services.close_entries(
                    edition=edition, user=request.user, now=timezone.now()
                )
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, queries.closing_reason_text(closed))
        return redirect("entries:closing", edition=edition.slug)
    teams = queries.edition_teams(edition)
    return render(
        request,
        "entries/closing.html",
        {
            "edition": edition,
            "closing": closed,
            "teams": teams,
            "reg": edition.regulations,
            "met": sum(1 for t in teams if t.conditions.met and not t.team.late_entry),
            "reopen_form": ReasonForm(),
        },
    )


@require_POST
@edition_role_required(*ORGANISERS)
def reopen(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = ReasonForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(_("Reopening the entries needs a reason."))
        services.reopen_entries(
            edition=edition,
            reason=form.cleaned_data["reason"],
            user=request.user,
            now=timezone.now(),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The entries are open again."))
    return redirect("entries:closing", edition=edition.slug)
