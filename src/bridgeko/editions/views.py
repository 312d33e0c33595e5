"""Edition pages: the list, an edition's overview, creating one, editing its numbers, the
organiser's dashboard."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import (
    ORGANISERS,
    edition_role_required,
    is_registrar,
    registrar_required,
    roles_of,
)
from bridgeko.core import dashboard
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.editions import services
from bridgeko.editions.dashboard_items import due_by_edition, viewer_for
from bridgeko.editions.forms import (
    EditionCreateForm,
    EditionEditForm,
    problem_field,
    problem_text,
)
from bridgeko.editions.models import Edition


@require_safe
def edition_list(request: HttpRequest) -> HttpResponse:
    """The editions; for a logged-in reader, how many items each dashboard of theirs lists."""
    today, now = clock()
    due = due_by_edition(request.user, today, now)
    editions = [(e, due.get(e.pk)) for e in Edition.objects.all()]
    return render(
        request,
        "editions/list.html",
        {
            "editions": editions,
            "any_due": bool(due),
            "can_create": is_registrar(request.user),
        },
    )


@require_safe
def detail(request: HttpRequest, edition: str) -> HttpResponse:
    obj = getattr(request, "edition", None)  # set by EditionMiddleware
    if not isinstance(obj, Edition) or obj.slug != edition:
        obj = get_object_or_404(Edition, slug=edition)
        request.edition = obj  # type: ignore[attr-defined]
    request.edition_roles = roles_of(request.user, obj)  # type: ignore[attr-defined]
    return render(request, "editions/detail.html", {"edition": obj, "reg": obj.regulations})


@registrar_required
def create(request: HttpRequest) -> HttpResponse:
    """A new edition (a registrar's or a superuser's: an edition's organiser would otherwise
    make one to act on what other editions share); its creator becomes its organiser."""
    form = EditionCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            edition = services.create_edition(
                slug=form.cleaned_data["slug"],
                toml_text=form.cleaned_data["toml_text"],
                previous=form.cleaned_data["previous"],
                user=request.user,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Edition created."))
            return redirect("editions:detail", edition=edition.slug)
    return render(request, "editions/create.html", {"form": form})


@edition_role_required(*ORGANISERS)
def edit(request: HttpRequest, edition: Edition) -> HttpResponse:
    form = EditionEditForm(request.POST or None, edition=edition)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_edition(
                edition=edition,
                data=form.to_data(),
                previous=form.cleaned_data["previous"],
                user=request.user,
            )
        except services.RegulationsServiceError as exc:
            form.add_error(None, exc.message)
            for problem in exc.problems:
                name = problem_field(problem.key)
                on_field = name in form.fields
                form.add_error(name if on_field else None, problem_text(problem, on_field=on_field))
        except services.ChangedAfterDrawError as exc:
            apply_service_error(form, exc)  # the reason of each section, above the form
            for key in exc.keys:
                name = problem_field(key)
                if name in form.fields:
                    form.add_error(name, _("Fixed since the draw was held."))
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("The edition's numbers were saved."))
            return redirect("editions:detail", edition=edition.slug)
    context = {"edition": edition, "form": form, "draw_held": services.draw_held(edition)}
    return render(request, "editions/edit.html", context)


def clock() -> tuple[date, datetime]:
    """Today (the site's local day) and now, read once per request and passed to the
    dashboard's providers (tests replace this function)."""
    return timezone.localdate(), timezone.now()


@require_safe
@edition_role_required(Role.TD, Role.CAPTAIN)
def dashboard_view(request: HttpRequest, edition: Edition) -> HttpResponse:
    """What is due next, for the reader's role (organisers: everything; TDs: deadlines,
    matches, late entries, conditions; a captain: their own team's items)."""
    today, now = clock()
    viewer = viewer_for(request.user, edition)
    items: list[Any] = dashboard.items(edition, viewer, today, now)
    return render(
        request,
        "editions/dashboard.html",
        {
            "edition": edition,
            "items": items,
            "groups": dashboard.groups(items),
            "viewer": viewer,
            "today": today,
        },
    )
