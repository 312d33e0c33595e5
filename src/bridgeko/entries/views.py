"""Team entry pages: organisers see every team; a captain sees and edits only their own team,
and only before the freeze (R7.2). Every write calls a service."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import ORGANISER_ROLES, Role, RoleAssignment
from bridgeko.accounts.permissions import (
    ORGANISERS,
    edition_role_required,
    has_role,
    is_organiser,
)
from bridgeko.competition import entries as rules
from bridgeko.core import team_matches
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.core.i18n import tr
from bridgeko.core.search import SEARCH_MAX_LENGTH, cut_search
from bridgeko.editions.models import Edition
from bridgeko.entries import queries, services
from bridgeko.entries.forms import (
    CardForm,
    ConditionsForm,
    FeeForm,
    PairsForm,
    ReasonForm,
    TeamForm,
    player_label,
)
from bridgeko.entries.models import ConventionCard, Pair, Team
from bridgeko.players import queries as player_queries
from bridgeko.players.models import Player

CAPTAIN = str(Role.CAPTAIN)
TD = str(Role.TD)
"""A TD reads the teams, rosters, pairs and conditions of entry; only the chief TD (an
organiser role) changes a frozen roster (R7.2) and records the conditions."""


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
@edition_role_required(TD)
def team_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    return render(
        request,
        "entries/list.html",
        {
            "edition": edition,
            "can_edit": is_organiser(request.user, edition),
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
@edition_role_required(CAPTAIN, TD, team_kwarg="team")
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
            # the team's captain (or an organiser); a TD only reads the team
            "can_edit": has_role(request.user, edition, [CAPTAIN], team_id=info.team.pk),
            "staff": has_role(request.user, edition, [TD]),  # a TD or an organiser
            # the organiser's and TDs' notes (late entry, fee decision): never a captain's
            "internal": has_role(request.user, edition, [TD]),
            "pair_cards": queries.pair_cards(info.team, info.pairs),
            "reg": edition.regulations,
        },
    )


def _closed_for_captain(
    request: HttpRequest, edition: Edition, team: Team, *, frozen_by_entry: bool = True
) -> str:
    """Why the captain may no longer declare pairs (or upload cards), in the reader's
    language; empty while they may (and always for an organiser). The rule is the engine's."""
    if is_organiser(request.user, edition):
        return ""
    reason = rules.captain_changes_closed(
        entered=team.frozen,
        now=timezone.now(),
        reg=edition.regulations,
        frozen_by_entry=frozen_by_entry,
    )
    return tr(reason) if reason is not None else ""


def _my_team_context(request: HttpRequest, edition: Edition, team: Team) -> dict[str, object]:
    info = queries.team_info(team)
    fee_due = info.fee.amount if info.fee is not None else None
    return {
        "edition": edition,
        "team": team,
        "info": info,
        "reg": edition.regulations,
        "pairs": queries.pair_cards(team, info.pairs),
        "former_cards": queries.former_pairs_cards(team),
        "pairs_closed": _closed_for_captain(request, edition, team),
        "cards_closed": _closed_for_captain(request, edition, team, frozen_by_entry=False),
        "fee_due": fee_due,
        "fee_outstanding": max(fee_due - team.fee_paid, 0) if fee_due is not None else None,
        "matches": team_matches.matches(edition, team),
        "draw_held": edition.draw_held,
        "card_max": services.card_max_bytes(),
    }


@require_safe
@edition_role_required(CAPTAIN)
def my_team(request: HttpRequest, edition: Edition) -> HttpResponse:
    """The captain's own team: with one team its page, with several a list to pick from."""
    teams = queries.captained_teams(request.user, edition)
    if len(teams) == 1:
        return render(request, "entries/my_team.html", _my_team_context(request, edition, teams[0]))
    return render(request, "entries/my_teams.html", {"edition": edition, "teams": teams})


@require_safe
@edition_role_required(CAPTAIN, team_kwarg="team")
def my_team_of(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    """One of the captain's teams (a captain of several teams in the edition picks it)."""
    return render(
        request, "entries/my_team.html", _my_team_context(request, edition, _team(edition, team))
    )


def _back_to_team(request: HttpRequest, edition: Edition, team: Team) -> HttpResponse:
    """After a captain's change: their "My team" page; an organiser's: the team page."""
    if is_organiser(request.user, edition):
        return redirect("entries:detail", edition=edition.slug, team=team.pk)
    return redirect("entries:my_team_of", edition=edition.slug, team=team.pk)


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
    closed = _closed_for_captain(request, edition, obj)
    if closed:  # R3.2, R7.2: the page says why (a POST would be refused by the service too)
        if request.method == "POST":
            messages.error(request, closed)
        return render(
            request,
            "entries/pairs.html",
            {"edition": edition, "team": obj, "closed": closed},
        )
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
            return _back_to_team(request, edition, obj)
    return render(request, "entries/pairs.html", {"edition": edition, "form": form, "team": obj})


@edition_role_required(CAPTAIN, team_kwarg="team")
def card_upload(request: HttpRequest, edition: Edition, team: int, pair: int) -> HttpResponse:
    """A pair's convention card (R3.1b): upload, or replace after confirming (the old card is
    kept)."""
    obj = _team(edition, team)
    pair_obj = get_object_or_404(
        Pair.objects.select_related("player_a", "player_b"), pk=pair, team=obj
    )
    current = ConventionCard.objects.filter(pair=pair_obj, replaced_at__isnull=True).first()
    closed = _closed_for_captain(request, edition, obj, frozen_by_entry=False)
    form = CardForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and closed:
        messages.error(request, closed)
    elif request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            services.upload_card(
                pair=pair_obj,
                data=upload.read(),
                file_name=upload.name or "",
                replace=form.cleaned_data["replace"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("The convention card of %(pair)s is saved.") % {"pair": pair_obj.label},
            )
            return _back_to_team(request, edition, obj)
    return render(
        request,
        "entries/card.html",
        {
            "edition": edition,
            "team": obj,
            "pair": pair_obj,
            "current": current,
            "form": form,
            "closed": closed,
            "card_max": services.card_max_bytes(),
        },
    )


@require_safe
@edition_role_required(CAPTAIN, TD, team_kwarg="team")
def card_download(request: HttpRequest, edition: Edition, team: int, card: int) -> HttpResponse:
    """A convention card's file, to the team's captain, the TDs and the organisers only: sent
    as an attachment under its uploaded name (never served as a static file)."""
    obj = _team(edition, team)
    found = get_object_or_404(ConventionCard, pk=card, team=obj)
    try:
        handle = found.file.open("rb")
    except (FileNotFoundError, ValueError):
        raise Http404(_("The file of this convention card is missing.")) from None
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=found.original_name,
        content_type=found.content_type,
    )
    return cast(HttpResponse, response)  # a streaming response; the helper types HttpResponse


def _newest_role_target(user: Any) -> str | None:
    """Where a user with an edition's role lands after logging in, newest edition first:
    an organiser (or a TD, if the dashboard admits TDs) → the dashboard; a captain → My team;
    another role → the edition's page."""
    assignments = (
        RoleAssignment.objects.filter(user=user, edition__isnull=False)
        .select_related("edition")
        .order_by("-edition__year", "edition__slug")
    )
    first = assignments.first()
    if first is None or first.edition is None:
        return None
    edition = first.edition
    held = {a.role for a in assignments if a.edition_id == edition.pk}
    slug = edition.slug
    dashboard = reverse("editions:dashboard", kwargs={"edition": slug})
    if held & ORGANISER_ROLES:
        return dashboard
    if TD in held:
        try:
            allowed: frozenset[str] = getattr(
                resolve(dashboard).func, "bridgeko_roles", frozenset()
            )
        except Resolver404:  # pragma: no cover - the URL was just reversed
            allowed = frozenset()
        if TD in allowed:
            return dashboard
    if CAPTAIN in held:
        return reverse("entries:my_team", kwargs={"edition": slug})
    return reverse("editions:detail", kwargs={"edition": slug})


@require_safe
def after_login(request: HttpRequest) -> HttpResponse:
    """``LOGIN_REDIRECT_URL``: the page a user lands on after logging in without a ``next``
    (the login page honours an explicit ``?next=`` itself)."""
    if not request.user.is_authenticated:
        return redirect("home")
    try:
        target = _newest_role_target(request.user)
    except NoReverseMatch:  # pragma: no cover - every name above exists
        target = None
    return redirect(target or "home")


@edition_role_required(TD)
def team_conditions(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    obj = _team(edition, team)
    can_edit = is_organiser(request.user, edition)
    if request.method == "POST" and not can_edit:
        raise PermissionDenied  # a TD reads the conditions; the organiser records them
    pairs = list(Pair.objects.filter(team=obj).select_related("player_a", "player_b"))
    form = ConditionsForm(request.POST or None, team=obj, pairs=pairs)
    if not can_edit:
        for field in form.fields.values():
            field.disabled = True
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
        {
            "edition": edition,
            "form": form,
            "team": obj,
            "info": queries.team_info(obj),
            "can_edit": can_edit,
        },
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


@require_POST
@edition_role_required(*ORGANISERS)
def late_decision(request: HttpRequest, edition: Edition, team: int) -> HttpResponse:
    """Accepts or refuses a late entry (the buttons of the team's page), with a reason."""
    obj = _team(edition, team)
    accept = request.POST.get("decision") == "accept"
    if request.POST.get("decision") not in {"accept", "refuse"}:
        messages.error(request, _("Choose to accept or to refuse the late entry."))
    else:
        try:
            services.decide_late_entry(
                team=obj,
                accept=accept,
                reason=request.POST.get("reason", ""),
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("The late entry is accepted.") if accept else _("The late entry is refused."),
            )
    return redirect("entries:detail", edition=edition.slug, team=obj.pk)


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
