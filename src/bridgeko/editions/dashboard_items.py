"""What the editions and accounts apps contribute to the organiser's dashboard (the Elo list:
:mod:`bridgeko.players.dashboard_items`; the entry deadline:
:mod:`bridgeko.entries.dashboard_items`, which knows whether the entries are closed); who reads
a dashboard (:func:`viewer_for`) and the count of due items per edition (the list of editions)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.accounts.models import ORGANISER_ROLES, Role, RoleAssignment
from bridgeko.core import dashboard
from bridgeko.editions.models import Edition


@dashboard.register
def edition_setup(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    if not viewer.organiser:
        return
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


def viewer_for(user: Any, edition: Edition) -> dashboard.Viewer:
    """Who reads ``edition``'s dashboard: an organiser (or chief TD, or a superuser), a TD,
    the captain of some teams, or none of these (no items)."""
    if not getattr(user, "is_authenticated", False):
        return dashboard.Viewer(user)
    if user.is_superuser:
        return dashboard.Viewer(user, organiser=True)
    rows = list(
        RoleAssignment.objects.filter(user=user, edition=edition).values_list("role", "team_id")
    )
    roles = {role for role, _team in rows}
    return dashboard.Viewer(
        user,
        organiser=bool(roles & ORGANISER_ROLES),
        td=Role.TD in roles,
        team_ids=frozenset(
            int(team) for role, team in rows if role == Role.CAPTAIN and team is not None
        ),
    )


@dataclass(frozen=True, slots=True)
class EditionDue:
    """The count of an edition's due items for one reader (the site's list of editions)."""

    edition: Edition
    count: int
    overdue: int


def due_by_edition(user: Any, today: date, now: datetime) -> dict[int, EditionDue]:
    """For each edition where ``user`` holds a role: how many items its dashboard lists for
    them (edition id -> counts); empty for an anonymous reader."""
    if not getattr(user, "is_authenticated", False):
        return {}
    ids = set(
        RoleAssignment.objects.filter(user=user, edition__isnull=False).values_list(
            "edition_id", flat=True
        )
    )
    out: dict[int, EditionDue] = {}
    for edition in Edition.objects.filter(pk__in=ids):
        found = dashboard.items(edition, viewer_for(user, edition), today, now)
        out[edition.pk] = EditionDue(
            edition,
            count=sum(i.count for i in found if not i.total),
            overdue=sum(1 for i in found if i.overdue),
        )
    return out
