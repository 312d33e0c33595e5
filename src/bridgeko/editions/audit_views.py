"""The audit log page for organisers: filter by action (code or readable name), user, date range
and edition; paginated; each entry with its action by name and its changes as a table.

It lives in the editions app, not the audit app: the audit app is the lowest app (every service
records into it), while this page needs the editions and the permission helper above it."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import ORGANISER_ROLES
from bridgeko.accounts.permissions import is_registrar, organiser_of_any_edition_required
from bridgeko.audit.labels import actions_matching
from bridgeko.audit.models import AuditEntry
from bridgeko.editions.audit_display import audit_row
from bridgeko.editions.forms import AuditFilterForm
from bridgeko.editions.models import Edition

PAGE_SIZE = 50


@require_safe
@organiser_of_any_edition_required
def audit_log(request: HttpRequest) -> HttpResponse:
    user = request.user
    if not user.is_authenticated:  # the decorator already sent them to the login page
        raise PermissionDenied
    if user.is_superuser:
        editions = Edition.objects.all()
        entries = AuditEntry.objects.all()
    else:
        editions = Edition.objects.filter(
            role_assignments__user=user, role_assignments__role__in=ORGANISER_ROLES
        ).distinct()
        entries = AuditEntry.objects.filter(edition__in=editions)
        if is_registrar(user):  # and the site-wide entries: the register, the registrars
            entries = AuditEntry.objects.filter(Q(edition__in=editions) | Q(edition__isnull=True))
    users = get_user_model().objects.all() if user.is_superuser else None
    form = AuditFilterForm(request.GET or None, editions=editions, users=users)
    if form.is_valid():
        data = form.cleaned_data
        if data["action"]:  # a code prefix or a part of an action's readable name
            text = data["action"].strip()
            entries = entries.filter(
                Q(action__startswith=text) | Q(action__in=actions_matching(text))
            )
        if data["user"]:
            entries = entries.filter(user=data["user"])
        if data["edition"]:
            entries = entries.filter(edition=data["edition"])
        tz = timezone.get_current_timezone()
        if data["date_from"]:
            entries = entries.filter(at__gte=datetime.combine(data["date_from"], time(), tz))
        if data["date_to"]:
            end = datetime.combine(data["date_to"] + timedelta(days=1), time(), tz)
            entries = entries.filter(at__lt=end)
    entries = entries.select_related("user", "edition")
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "audit/log.html",
        {
            "form": form,
            "page": page,
            "rows": [audit_row(entry) for entry in page],
            "query": query.urlencode(),
        },
    )
