"""The organiser's draw pages: announce, commit, hold (or enter a draw made by hand), and the
preliminary-round dates. Every write calls :mod:`bridgeko.draw.services`."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import ORGANISERS, edition_role_required, is_organiser
from bridgeko.competition import schedule
from bridgeko.core.collation import sort_key
from bridgeko.core.errors import ServiceError
from bridgeko.draw import display, schedule_services, services
from bridgeko.draw.forms import (
    AnnounceForm,
    DefaultsForm,
    ManualDrawForm,
    MatchDateForm,
    SchemeForm,
)
from bridgeko.editions.forms import TEMPLATE_LABELS
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import Team

TD = str(Role.TD)
"""A TD reads the draw and the dates; announcing, committing, holding the draw and setting the
dates stay the organiser's."""


def _manage_context(edition: Edition, **forms: object) -> dict[str, object]:
    draw = services.draw_of(edition)
    closing = entry_queries.closing_of(edition)
    teams = entry_queries.edition_teams(edition, accepted_only=True) if closing else []
    numbers = display.numbers_of(draw) if draw and draw.held else {}
    entered = 0 if closing else Team.objects.filter(edition=edition).count()
    context: dict[str, object] = {
        "edition": edition,
        "draw": draw,
        "closing": closing,
        "teams": sorted(teams, key=lambda t: (-t.elo, sort_key(t.name))),
        "numbers": sorted(numbers.items()),
        "announce_form": AnnounceForm(
            initial={"place": draw.place, "at": draw.scheduled_at} if draw else None
        ),
        "manual_form": ManualDrawForm(),
        "scheme_form": SchemeForm(initial={"scheme": draw.scheme if draw else ""}),
        "own_scheme": display.scheme_of(draw) if draw and draw.scheme else None,
        "preview": (
            display.preview(draw, edition, len(teams) if closing else entered)
            if not (draw and draw.held)
            else None
        ),
        "can_edit": True,  # the organiser's forms; False for a TD, who reads the page
    }
    preview = context["preview"]
    template = edition.regulations.format.template
    context["format_label"] = TEMPLATE_LABELS.get(template, template)
    context["preview_sections"] = (
        display.sections(preview.rounds) if isinstance(preview, display.Preview) else []
    )
    context.update(forms)
    return context


@require_safe
@edition_role_required(TD)
def manage(request: HttpRequest, edition: Edition) -> HttpResponse:
    return render(
        request,
        "draw/manage.html",
        _manage_context(edition, can_edit=is_organiser(request.user, edition)),
    )


def _done(request: HttpRequest, edition: Edition, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("draw:manage", edition=edition.slug)


@require_POST
@edition_role_required(*ORGANISERS)
def announce(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = AnnounceForm(request.POST)
    if form.is_valid():
        try:
            services.announce_draw(
                edition=edition,
                place=form.cleaned_data["place"],
                at=form.cleaned_data["at"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            return _done(request, edition, _("The draw is announced."))
    return render(request, "draw/manage.html", _manage_context(edition, announce_form=form))


def _simple(request: HttpRequest, edition: Edition, action: str) -> HttpResponse:
    now = timezone.now()
    try:
        if action == "commit":
            services.publish_commitment(edition=edition, user=request.user, now=now)
            message = _("The commitment is published.")
        else:
            services.hold_draw(edition=edition, user=request.user, now=now)
            message = _("The draw is made; the seed and the protocol are published.")
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("draw:manage", edition=edition.slug)
    return _done(request, edition, message)


@require_POST
@edition_role_required(*ORGANISERS)
def commit(request: HttpRequest, edition: Edition) -> HttpResponse:
    return _simple(request, edition, "commit")


@require_POST
@edition_role_required(*ORGANISERS)
def hold(request: HttpRequest, edition: Edition) -> HttpResponse:
    return _simple(request, edition, "hold")


@require_POST
@edition_role_required(*ORGANISERS)
def manual(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = ManualDrawForm(request.POST)
    if form.is_valid():
        names = {
            " ".join(t.name.split()).casefold(): t.pk
            for t in Team.objects.filter(edition=edition, accepted=True)
        }
        order: list[int] = []
        unknown: list[str] = []
        for line in form.cleaned_data["drawn_order"].splitlines():
            key = " ".join(line.split()).casefold()
            if key:
                if key in names:
                    order.append(names[key])
                else:
                    unknown.append(line.strip())
        if unknown:
            form.add_error(
                "drawn_order",
                _("Not an entered team: %(names)s") % {"names": ", ".join(unknown)},
            )
        else:
            try:
                services.enter_manual_draw(
                    edition=edition,
                    drawn_order=order,
                    drawn_at=form.cleaned_data["drawn_at"],
                    user=request.user,
                    now=timezone.now(),
                )
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                return _done(request, edition, _("The draw made by hand is entered."))
    return render(request, "draw/manage.html", _manage_context(edition, manual_form=form))


@require_POST
@edition_role_required(*ORGANISERS)
def scheme(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = SchemeForm(request.POST)
    if form.is_valid():
        try:
            services.set_scheme(
                edition=edition,
                text=form.cleaned_data["scheme"],
                user=request.user,
                now=timezone.now(),
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            return _done(request, edition, _("The playing scheme is saved."))
    return render(request, "draw/manage.html", _manage_context(edition, scheme_form=form))


@require_safe
@edition_role_required(TD)
def schedule_page(request: HttpRequest, edition: Edition) -> HttpResponse:
    draw = services.draw_of(edition)
    rounds = []
    deadline = None
    preliminary = schedule_services.has_preliminary_rounds(draw)
    if draw is not None and preliminary:
        reg = edition.regulations
        day = timezone.localtime(draw.held_at, schedule.zone(reg)).date()
        deadline = schedule.dates_publication_deadline(day, reg)
        rounds = display.dated_rounds(
            display.bracket_rounds(draw, display.numbers_of(draw), display.match_dates(draw))
        )
    initial = None
    if draw is not None and draw.held_at is not None:
        initial = {"first_date": timezone.localdate(draw.held_at) + timedelta(days=1)}
    return render(
        request,
        "draw/schedule.html",
        {
            "edition": edition,
            "draw": draw,
            "rounds": rounds,
            "deadline": deadline,
            "defaults_form": DefaultsForm(initial=initial),
            "can_edit": is_organiser(request.user, edition),
            "preliminary": preliminary,
            "no_preliminary": (
                schedule_services.no_preliminary_rounds_text(draw)
                if draw is not None and draw.held and not preliminary
                else ""
            ),
        },
    )


@require_POST
@edition_role_required(*ORGANISERS)
def schedule_defaults(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = DefaultsForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(_("Give the first date."))
        schedule_services.default_schedule(
            edition=edition,
            first_date=form.cleaned_data["first_date"],
            user=request.user,
            now=timezone.now(),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Default dates filled in (R14.1)."))
    return redirect("draw:schedule", edition=edition.slug)


@require_POST
@edition_role_required(*ORGANISERS)
def schedule_match(request: HttpRequest, edition: Edition, match: str) -> HttpResponse:
    form = MatchDateForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(_("Give the start as a date and time."))
        schedule_services.set_match_date(
            edition=edition,
            match=match,
            start=form.cleaned_data["start"],
            location=form.cleaned_data["location"],
            user=request.user,
            now=timezone.now(),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Match %(match)s moved.") % {"match": match})
    return redirect("draw:schedule", edition=edition.slug)


@require_POST
@edition_role_required(*ORGANISERS)
def schedule_publish(request: HttpRequest, edition: Edition) -> HttpResponse:
    try:
        schedule_services.publish_schedule(edition=edition, user=request.user, now=timezone.now())
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The dates are published."))
    return redirect("draw:schedule", edition=edition.slug)
