"""What the editions and accounts apps contribute to the organiser's dashboard (the Elo list:
:mod:`bridgeko.players.dashboard_items`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.core import dashboard
from bridgeko.editions.models import Edition


@dashboard.register
def edition_setup(edition: Edition, user: Any, today: date) -> Iterator[dashboard.Item]:
    reg = edition.regulations
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
