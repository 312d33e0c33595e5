"""The dashboard's entries items (R3, R4.1, R8.1): the entry deadline, the conditions of entry
not met per team, the late entries awaiting a decision, the unpaid fees per team and their sum,
the closing of entries. Every rule is the engine's (through :mod:`bridgeko.entries.queries`);
this module only picks what the reader's role sees:

- organisers (and the chief TD): everything;
- TDs: the deadline, the late entries and the conditions (to read); the fees are the
  organiser's business (no amounts);
- a captain: their own team's items only (fee due, conditions missing, the late entry's state),
  without the organiser's internal notes.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bridgeko.competition import entries as rules
from bridgeko.core import dashboard, l10n
from bridgeko.core.i18n import tr
from bridgeko.editions.models import Edition
from bridgeko.entries import queries


def captain_team_url(edition: Edition, team_id: int) -> str:
    """Where a captain sees and completes their team: the "My team" page
    (``entries:my_team``) when the project has it, else the team's page."""
    try:
        return reverse("entries:my_team", kwargs={"edition": edition.slug})
    except NoReverseMatch:
        return reverse("entries:detail", kwargs={"edition": edition.slug, "team": team_id})


def team_url(edition: Edition, viewer: dashboard.Viewer, team_id: int, *, page: str) -> str:
    """The page that resolves a team's item for this reader: the organiser's ``page``
    (``entries:conditions``, ...), the team's page for a TD, "My team" for its captain."""
    if viewer.organiser:
        return reverse(page, kwargs={"edition": edition.slug, "team": team_id})
    if viewer.td:
        return reverse("entries:detail", kwargs={"edition": edition.slug, "team": team_id})
    return captain_team_url(edition, team_id)


def open_problems(info: queries.TeamInfo) -> list[rules.ConditionProblem]:
    """The conditions of entry a team has still to meet: for a late entry (after the closing)
    "received after the deadline" is no news, what is still missing is."""
    problems = info.conditions.problems
    if info.team.late_entry:
        return [p for p in problems if p.kind != "late"]
    return list(problems)


@dashboard.register
def entry_items(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    reg = edition.regulations
    deadline = reg.entry.deadline
    slug = edition.slug
    closing = queries.closing_of(edition)
    if closing is not None and closing.cancelled:
        if viewer.organiser:
            yield dashboard.Item(
                _("The competition is cancelled: return the entry fees (R8.1)"),
                detail=queries.closing_reason_text(closing),
                url=reverse("entries:closing", kwargs={"edition": slug}),
                level=dashboard.Level.WARNING,
                source="entries",
            )
        return
    open_entries = closing is None
    past = today > deadline
    if open_entries:
        yield dashboard.Item(
            _("Entry deadline"),
            detail=_(
                "The entry form, a convention card of every declared pair and the entry fee "
                "must reach the organiser by the end of this day (R3.1, R3.2)."
            ),
            due=deadline,
            level=dashboard.Level.WARNING if past else dashboard.Level.INFO,
            overdue=past,
            group=dashboard.Group.DEADLINES,
            source="entries",
        )
        if viewer.organiser:
            yield dashboard.Item(
                _("Close the entries (entry deadline %(date)s)")
                % {"date": l10n.show_date(deadline)},
                detail=ngettext(
                    "After the end of the deadline day (R3.2, I12); fewer than %(n)d team "
                    "cancels the competition (R8.1).",
                    "After the end of the deadline day (R3.2, I12); fewer than %(n)d teams "
                    "cancel the competition (R8.1).",
                    reg.entry.min_teams,
                )
                % {"n": reg.entry.min_teams},
                url=reverse("entries:closing", kwargs={"edition": slug}),
                due=deadline,
                level=dashboard.Level.WARNING if past else dashboard.Level.TODO,
                overdue=past,
                source="entries",
            )
    teams = [
        info
        for info in queries.edition_teams(edition)
        if info.team.accepted is not False and viewer.sees_team(info.id)
    ]
    unpaid: list[tuple[queries.TeamInfo, int]] = []
    for info in teams:
        waiting = info.team.accepted is None  # entries open, or a late entry not decided
        late = info.team.late_entry
        problems = open_problems(info) if waiting else []
        if late and waiting:
            if viewer.staff:
                detail = info.team.late_reason
                if problems:
                    detail += " — " + "; ".join(tr(p) for p in problems)
                yield dashboard.Item(
                    _("%(team)s: late entry awaiting a decision") % {"team": info.name},
                    detail=detail,
                    url=reverse("entries:detail", kwargs={"edition": slug, "team": info.id}),
                    group=dashboard.Group.LATE_ENTRIES,
                    source="entries",
                )
            else:
                yield dashboard.Item(
                    _("%(team)s: the late entry awaits the organiser's decision")
                    % {"team": info.name},
                    url=captain_team_url(edition, info.id),
                    level=dashboard.Level.INFO,
                    group=dashboard.Group.LATE_ENTRIES,
                    source="entries",
                )
        if problems:
            overdue = past and not late
            yield dashboard.Item(
                _("%(team)s: conditions of entry not met") % {"team": info.name},
                detail="; ".join(tr(p) for p in problems),
                url=team_url(edition, viewer, info.id, page="entries:conditions"),
                due=None if late else deadline,
                level=dashboard.Level.WARNING if overdue else dashboard.Level.TODO,
                overdue=overdue,
                group=dashboard.Group.CONDITIONS,
                source="entries",
            )
        outstanding = rules.fee_outstanding(info.fee, info.team.fee_paid)
        if outstanding and info.fee is not None and (viewer.organiser or not viewer.td):
            unpaid.append((info, outstanding))
    for info, outstanding in unpaid:
        assert info.fee is not None
        overdue = past and not info.team.late_entry and info.team.accepted is None
        paid = info.team.fee_paid
        detail = tr(info.fee)
        if paid:
            detail += " — " + _("paid so far: %(paid)s") % {
                "paid": l10n.money(paid, info.fee.currency)
            }
        yield dashboard.Item(
            _("%(team)s: %(amount)s of the entry fee to pay")
            % {"team": info.name, "amount": l10n.money(outstanding, info.fee.currency)},
            detail=detail,
            url=team_url(edition, viewer, info.id, page="entries:conditions"),
            due=deadline if open_entries else None,
            level=dashboard.Level.WARNING if overdue else dashboard.Level.TODO,
            overdue=overdue,
            group=dashboard.Group.FEES,
            source="entries",
        )
    if viewer.organiser and unpaid:
        currency = reg.edition.currency
        total = sum(outstanding for _info, outstanding in unpaid)
        yield dashboard.Item(
            ngettext(
                "In all: %(amount)s from %(count)d team",
                "In all: %(amount)s from %(count)d teams",
                len(unpaid),
            )
            % {"amount": l10n.money(total, currency), "count": len(unpaid)},
            level=dashboard.Level.INFO,
            group=dashboard.Group.FEES,
            total=True,
            count=0,
            source="entries",
        )
