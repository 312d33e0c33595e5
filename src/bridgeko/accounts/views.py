"""Role management (organiser) and the friendly 403 page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language as django_set_language

from bridgeko.accounts import services
from bridgeko.accounts.forms import ACCOUNT_LIST, AccountForm, RoleAssignmentForm
from bridgeko.accounts.models import RoleAssignment
from bridgeko.accounts.permissions import ORGANISERS, edition_role_required
from bridgeko.core.collation import czech_sorted
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error

ACCOUNTS_OFFERED = 2000
"""Up to this many existing accounts are offered by the user-name box."""


def account_choices() -> list[tuple[str, str]]:
    """The existing accounts the user-name box offers: (user name, full name)."""
    users = get_user_model().objects.filter(is_active=True).order_by("username")
    return [
        (u.get_username(), u.get_full_name())
        for u in users.only("username", "first_name", "last_name")[:ACCOUNTS_OFFERED]
    ]


def account_created_message(request: HttpRequest, assignment: RoleAssignment) -> None:
    """After a new account without a password: the one-time link the person sets it through
    (shown to the organiser, who hands it over; no e-mail is sent)."""
    account = assignment.user
    if account.has_usable_password():
        messages.success(request, _("Account %(name)s created.") % {"name": account.get_username()})
        return
    until = timezone.localtime(timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT))
    link = _set_password_link(request, account)
    messages.success(
        request,
        _(
            "Account %(name)s created without a password. Give the person this one-time link "
            "to set it (valid until %(until)s): %(link)s"
        )
        % {
            "name": account.get_username(),
            "until": date_format(until, "DATETIME_FORMAT"),
            "link": link,
        },
    )


def _set_password_link(request: HttpRequest, account: Any) -> str | None:
    """The one-time link of an account that has no password yet (None once it has one)."""
    if account.has_usable_password() or not account.is_active:
        return None
    return request.build_absolute_uri(services.set_password_link_path(account))


def give_role(
    request: HttpRequest, form: AccountForm, *, edition: Any, role: str, team_id: int | None
) -> RoleAssignment | None:
    """Calls the service with the form's account; a refusal is shown next to its field."""
    new_account = form.new_account()
    try:
        assignment = services.assign_role(
            edition=edition,
            username=form.cleaned_data["username"],
            role=role,
            team_id=team_id,
            new_account=new_account,
            user=request.user,
        )
    except ServiceError as exc:
        apply_service_error(form, exc)
        return None
    if new_account is not None:
        account_created_message(request, assignment)
    messages.success(request, _("Role assigned."))
    return assignment


@edition_role_required(*ORGANISERS)
def roles(request: HttpRequest, edition: Any) -> HttpResponse:
    form = RoleAssignmentForm(request.POST or None, teams=services.teams_of(edition))
    if request.method == "POST" and form.is_valid():
        done = give_role(
            request,
            form,
            edition=edition,
            role=form.cleaned_data["role"],
            team_id=form.cleaned_data["team"],
        )
        if done is not None:
            return redirect("accounts:roles", edition=edition.slug)
    assignments = czech_sorted(  # by the user in Czech order, then by role
        RoleAssignment.objects.filter(edition=edition).select_related("user", "team"),
        key=lambda a: a.user.get_username(),
    )
    return render(
        request,
        "accounts/roles.html",
        {
            "edition": edition,
            "form": form,
            "assignments": [(a, _set_password_link(request, a.user)) for a in assignments],
            "accounts": account_choices(),
            "account_list": ACCOUNT_LIST,
        },
    )


def confirm_revoke(request: HttpRequest, assignment: RoleAssignment, back: str) -> HttpResponse:
    """A GET of a revoke URL: what the removal takes away, asked before it happens (the POST
    removes; the account itself stays)."""
    return render(request, "accounts/revoke.html", {"assignment": assignment, "back": back})


@require_http_methods(["GET", "HEAD", "POST"])
@edition_role_required(*ORGANISERS)
def revoke(request: HttpRequest, edition: Any, pk: int) -> HttpResponse:
    assignment = get_object_or_404(
        RoleAssignment.objects.select_related("user", "team"), pk=pk, edition=edition
    )
    back = reverse("accounts:roles", kwargs={"edition": edition.slug})
    if request.method != "POST":
        return confirm_revoke(request, assignment, back)
    try:
        services.revoke_role(assignment=assignment, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Role removed."))
    return redirect(back)


def set_language(request: HttpRequest) -> HttpResponse:
    """The language switcher (Django's ``set_language``); a logged-in user's choice is also
    remembered for the mail they get (:func:`services.remember_language`)."""
    response = django_set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        language = str(request.POST.get("language", ""))
        services.remember_language(user=request.user, language=language, now=timezone.now())
    return response
