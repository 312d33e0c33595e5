"""Printable lists for the organiser and the TDs (issue 9): the teams with their rosters and
Elo, the fees paid and outstanding, the conditions of entry, the draw and the schedule. Each is a
plain page (read-only, GET/HEAD) laid out for A4 by the print stylesheet, with a Print button.
They read the same queries as the other pages (``entries.queries``, ``draw.display``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.draw import display, schedule_services, services
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.queries import TeamInfo


def _teams(edition: Edition) -> list[TeamInfo]:
    """The entered teams once the entries are closed, else every team; by name."""
    closing = entry_queries.closing_of(edition)
    return entry_queries.edition_teams(edition, accepted_only=closing is not None)


def _page(request: HttpRequest, template: str, edition: Edition, **context: Any) -> HttpResponse:
    return render(request, template, {"edition": edition, "reg": edition.regulations, **context})


@require_safe
@edition_role_required(str(Role.TD))
def print_index(request: HttpRequest, edition: Edition) -> HttpResponse:
    return _page(request, "draw/print/index.html", edition)


@require_safe
@edition_role_required(str(Role.TD))
def print_teams(request: HttpRequest, edition: Edition) -> HttpResponse:
    teams = sorted(_teams(edition), key=lambda t: (-t.elo, t.name))
    return _page(request, "draw/print/teams.html", edition, teams=teams)


@require_safe
@edition_role_required(str(Role.TD))
def print_fees(request: HttpRequest, edition: Edition) -> HttpResponse:
    rows = []
    due_total = paid_total = outstanding_total = 0
    currency = ""
    for info in _teams(edition):
        due = info.fee.amount if info.fee is not None else 0
        currency = currency or (info.fee.currency if info.fee is not None else "")
        paid = int(info.team.fee_paid)
        outstanding = max(due - paid, 0)
        rows.append({"info": info, "due": due, "paid": paid, "outstanding": outstanding})
        due_total += due
        paid_total += paid
        outstanding_total += outstanding
    return _page(
        request,
        "draw/print/fees.html",
        edition,
        rows=rows,
        currency=currency,
        due_total=due_total,
        paid_total=paid_total,
        outstanding_total=outstanding_total,
    )


@require_safe
@edition_role_required(str(Role.TD))
def print_conditions(request: HttpRequest, edition: Edition) -> HttpResponse:
    teams = entry_queries.edition_teams(edition)  # every team: also those not entered
    return _page(request, "draw/print/conditions.html", edition, teams=teams)


@require_safe
@edition_role_required(str(Role.TD))
def print_draw(request: HttpRequest, edition: Edition) -> HttpResponse:
    draw = services.draw_of(edition)
    numbers = display.numbers_of(draw) if draw is not None and draw.held else {}
    rounds = (
        display.bracket_rounds(draw, numbers, live=True) if draw is not None and numbers else []
    )
    return _page(
        request,
        "draw/print/draw.html",
        edition,
        draw=draw,
        numbers=sorted(numbers.items()),
        rounds=rounds,
        sections=display.sections(rounds),
        live_now=display.has_live(rounds),
    )


@require_safe
@edition_role_required(str(Role.TD))
def print_schedule(request: HttpRequest, edition: Edition) -> HttpResponse:
    draw = services.draw_of(edition)
    rounds = []
    if draw is not None and draw.held:
        rounds = display.bracket_rounds(draw, display.numbers_of(draw), display.match_dates(draw))
    return _page(
        request,
        "draw/print/schedule.html",
        edition,
        draw=draw,
        rounds=rounds,
        no_preliminary=draw is not None
        and draw.held
        and not schedule_services.has_preliminary_rounds(draw),
    )
