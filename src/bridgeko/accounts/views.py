"""Role management (organiser) and the friendly 403 page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from bridgeko.accounts import services
from bridgeko.accounts.forms import RoleAssignmentForm
from bridgeko.accounts.models import RoleAssignment
from bridgeko.accounts.permissions import ORGANISERS, edition_role_required
from bridgeko.core.collation import czech_sorted
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error


@edition_role_required(*ORGANISERS)
def roles(request: HttpRequest, edition: Any) -> HttpResponse:
    form = RoleAssignmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.assign_role(
                edition=edition,
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
                team_id=form.cleaned_data["team_id"],
                new_password=form.cleaned_data["new_password"] or None,
                user=request.user,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Role assigned."))
            return redirect("accounts:roles", edition=edition.slug)
    assignments = czech_sorted(  # by the user in Czech order, then by role
        RoleAssignment.objects.filter(edition=edition).select_related("user"),
        key=lambda a: a.user.get_username(),
    )
    return render(
        request,
        "accounts/roles.html",
        {"edition": edition, "form": form, "assignments": assignments},
    )


@require_POST
@edition_role_required(*ORGANISERS)
def revoke(request: HttpRequest, edition: Any, pk: int) -> HttpResponse:
    assignment = get_object_or_404(RoleAssignment, pk=pk, edition=edition)
    try:
        services.revoke_role(assignment=assignment, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Role removed."))
    return redirect("accounts:roles", edition=edition.slug)
