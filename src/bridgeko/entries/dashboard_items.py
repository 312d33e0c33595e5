"""The organiser's dashboard: missing conditions of entry per team, the entry deadline, the
closing of entries."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bridgeko.core import dashboard, l10n
from bridgeko.core.i18n import tr
from bridgeko.editions.models import Edition
from bridgeko.entries import queries


@dashboard.register
def entry_items(edition: Edition, user: Any, today: date) -> Iterator[dashboard.Item]:
    reg = edition.regulations
    closing = queries.closing_of(edition)
    if closing is not None:
        if closing.cancelled:
            yield dashboard.Item(
                _("The competition is cancelled: return the entry fees (R8.1)"),
                detail=queries.closing_reason_text(closing),
                url=reverse("entries:closing", kwargs={"edition": edition.slug}),
                level=dashboard.Level.WARNING,
                source="entries",
            )
        return
    for info in queries.edition_teams(edition):
        if info.team.late_entry or info.conditions.met:
            continue
        yield dashboard.Item(
            _("%(team)s: conditions of entry not met") % {"team": info.name},
            detail="; ".join(tr(p) for p in info.conditions.problems),
            url=reverse("entries:conditions", kwargs={"edition": edition.slug, "team": info.id}),
            due=reg.entry.deadline,
            level=dashboard.Level.WARNING if today > reg.entry.deadline else dashboard.Level.TODO,
            source="entries",
        )
    yield dashboard.Item(
        _("Close the entries (entry deadline %(date)s)")
        % {"date": l10n.show_date(reg.entry.deadline)},
        detail=ngettext(
            "After the end of the deadline day (R3.2, I12); fewer than %(n)d team cancels "
            "the competition (R8.1).",
            "After the end of the deadline day (R3.2, I12); fewer than %(n)d teams cancel "
            "the competition (R8.1).",
            reg.entry.min_teams,
        )
        % {"n": reg.entry.min_teams},
        url=reverse("entries:closing", kwargs={"edition": edition.slug}),
        due=reg.entry.deadline,
        source="entries",
    )
