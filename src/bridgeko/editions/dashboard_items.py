"""What the editions/players/accounts apps contribute to the organiser's dashboard."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.editions.models import Edition
from bridgeko.web import dashboard


@dashboard.register
def edition_setup(edition: Edition, user: Any, today: date) -> Iterator[dashboard.Item]:
    from bridgeko.players.models import EloList

    reg = edition.regulations
    ref = reg.rating.reference_date
    if not EloList.objects.filter(reference_date=ref).exists():
        yield dashboard.Item(
            _("Import the Elo list of %(date)s") % {"date": ref.isoformat()},
            detail=_("Team Elo uses the federation's list of this date (R10.1)."),
            url=reverse("players:import", kwargs={"edition": edition.slug}),
            due=reg.entry.deadline,
            source="players",
        )
    roles = set(RoleAssignment.objects.filter(edition=edition).values_list("role", flat=True))
    if Role.TD not in roles and Role.CHIEF_TD not in roles:
        yield dashboard.Item(
            _("Appoint the tournament directors"),
            url=reverse("accounts:roles", kwargs={"edition": edition.slug}),
            source="accounts",
        )
    if edition.previous_id is None:
        yield dashboard.Item(
            _("Link the previous edition (returning-team fees, bans)"),
            url=reverse("editions:edit", kwargs={"edition": edition.slug}),
            level=dashboard.Level.INFO,
            source="editions",
        )
    if today <= reg.entry.deadline:
        yield dashboard.Item(
            _("Entry deadline"),
            detail=_("Conditions of entry must be met by the end of this day (R3.2)."),
            due=reg.entry.deadline,
            level=dashboard.Level.INFO,
            source="editions",
        )
