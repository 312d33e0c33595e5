"""The site-wide roles page: superusers and registrars give and take the registrar role (the
edition's roles are given on the edition's roles page, :mod:`bridgeko.accounts.views`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from bridgeko.accounts import services
from bridgeko.accounts.forms import ACCOUNT_LIST, RegistrarForm
from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.accounts.permissions import registrar_required
from bridgeko.accounts.views import account_choices, confirm_revoke, give_role
from bridgeko.core.collation import czech_sorted
from bridgeko.core.errors import ServiceError


@registrar_required
def site_roles(request: HttpRequest) -> HttpResponse:
    form = RegistrarForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done = give_role(request, form, edition=None, role=Role.REGISTRAR, team_id=None)
        if done is not None:
            return redirect("accounts:site_roles")
    assignments = czech_sorted(  # by the user in Czech order, then by role
        RoleAssignment.objects.filter(edition__isnull=True).select_related("user"),
        key=lambda a: a.user.get_username(),
    )
    return render(
        request,
        "accounts/site_roles.html",
        {
            "form": form,
            "assignments": assignments,
            "accounts": account_choices(),
            "account_list": ACCOUNT_LIST,
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@registrar_required
def site_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    assignment = get_object_or_404(
        RoleAssignment.objects.select_related("user"), pk=pk, edition__isnull=True
    )
    back = reverse("accounts:site_roles")
    if request.method != "POST":
        return confirm_revoke(request, assignment, back)
    try:
        services.revoke_role(assignment=assignment, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Role removed."))
    return redirect(back)
