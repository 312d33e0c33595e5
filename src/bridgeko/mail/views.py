"""The outbox (organisers and the chief TD): what was mailed to the captains of an edition,
queued, sent or failed; each mail readable; a failed one sent again (POST, audited)."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.permissions import ORGANISERS, edition_role_required
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.mail import services
from bridgeko.mail.models import Event, Outbox, Status

PAGE_SIZE = 50


@require_safe
@edition_role_required(*ORGANISERS)
def outbox(request: HttpRequest, edition: Edition) -> HttpResponse:
    rows = Outbox.objects.filter(edition=edition).select_related("team", "match")
    status = request.GET.get("status", "")
    if status not in Status.values:
        status = ""
    event = request.GET.get("event", "")
    if event not in Event.values:
        event = ""
    counts = dict(
        Outbox.objects.filter(edition=edition)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    if status:
        rows = rows.filter(status=status)
    if event:
        rows = rows.filter(event=event)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "mail/outbox.html",
        {
            "edition": edition,
            "page": page,
            "status": status,
            "event": event,
            "statuses": [(s.value, s.label, counts.get(s.value, 0)) for s in Status],
            "total": sum(counts.values()),
            "events": Event.choices,
            "query": query.urlencode(),
        },
    )


@require_safe
@edition_role_required(*ORGANISERS)
def detail(request: HttpRequest, edition: Edition, mail: int) -> HttpResponse:
    row = get_object_or_404(
        Outbox.objects.select_related("team", "match", "recipient"), pk=mail, edition=edition
    )
    return render(request, "mail/detail.html", {"edition": edition, "mail": row})


@require_POST
@edition_role_required(*ORGANISERS)
def send_again(request: HttpRequest, edition: Edition, mail: int) -> HttpResponse:
    row = get_object_or_404(Outbox, pk=mail, edition=edition)
    try:
        row = services.send_again(row=row, user=request.user, now=timezone.now())
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        row.refresh_from_db()
        if row.status == Status.SENT:
            messages.success(request, _("The mail to %(to)s was sent.") % {"to": row.to})
        elif row.status == Status.FAILED:
            messages.error(
                request,
                _("The mail to %(to)s failed again: %(error)s")
                % {"to": row.to, "error": row.error},
            )
        else:
            messages.success(request, _("The mail to %(to)s is being sent again.") % {"to": row.to})
    return redirect("mail:detail", edition=edition.slug, mail=row.pk)
