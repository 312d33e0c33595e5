"""The edition's dashboard: what is due next, contributed by every app, for the reader's role.

An app registers a provider in its ``AppConfig.ready()``::

    from bridgeko.core import dashboard

    @dashboard.register
    def my_items(edition, viewer, today, now):
        if viewer.organiser and something_missing(edition):
            yield dashboard.Item(_("Fee not paid: Team X"), url=..., due=date(...),
                                 group=dashboard.Group.FEES)

``viewer`` says who reads the page (:class:`Viewer`: an organiser or chief TD, a TD, the
captain of some teams); a provider yields only what that reader may see and act on. ``today``
and ``now`` are passed in (never read inside a provider).

The view calls :func:`items` (every provider's items, the most urgent first: overdue ones, then
by due date and time, undated last) and :func:`groups` (the same items grouped, each group with
its count, the group holding the most urgent item first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext_lazy as _


class Level(StrEnum):
    INFO = "info"
    TODO = "todo"
    WARNING = "warning"


class Group(StrEnum):
    """The dashboard's sections."""

    TASKS = "tasks"
    """What the organiser has to do next (set-up, the draw, the closing)."""
    DEADLINES = "deadlines"
    LATE_ENTRIES = "late_entries"
    CONDITIONS = "conditions"
    FEES = "fees"
    MATCHES = "matches"


GROUP_TITLES: dict[Group, Any] = {
    Group.TASKS: _("To do"),
    Group.DEADLINES: _("Deadlines"),
    Group.LATE_ENTRIES: _("Late entries awaiting a decision"),
    Group.CONDITIONS: _("Conditions of entry not met"),
    Group.FEES: _("Entry fees not paid"),
    Group.MATCHES: _("Next matches"),
}


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads the dashboard: the items depend on the role (organisers see everything, TDs
    the deadlines, matches, late entries and conditions, a captain their own team's items)."""

    user: Any
    organiser: bool = False
    """An organiser or chief TD of the edition (or a superuser)."""
    td: bool = False
    team_ids: frozenset[int] = frozenset()
    """The teams the user captains in the edition."""

    @property
    def staff(self) -> bool:
        """An organiser or a TD: reads every team's items."""
        return self.organiser or self.td

    def sees_team(self, team_id: int) -> bool:
        return self.staff or team_id in self.team_ids


@dataclass(frozen=True, slots=True)
class Item:
    """One line of the dashboard."""

    title: str
    detail: str = ""
    url: str = ""
    due: date | None = None
    level: Level = Level.TODO
    source: str = ""
    """The app that produced it (for tests)."""
    group: Group = Group.TASKS
    at: datetime | None = None
    """The time, when the item has one (a match's start, the draw, a deadline's last minute)."""
    overdue: bool = False
    """Its date has passed and it is not done (shown as overdue, first)."""
    total: bool = False
    """A summary line of its group (e.g. the sum of the unpaid fees): shown first in it."""
    count: int = 1
    """How many things of its group the line stands for (0: a summary line)."""


@dataclass(frozen=True, slots=True)
class ItemGroup:
    group: Group
    items: tuple[Item, ...] = field(default_factory=tuple)

    @property
    def title(self) -> Any:
        return GROUP_TITLES[self.group]

    @property
    def count(self) -> int:
        return sum(i.count for i in self.items if not i.total)

    @property
    def overdue(self) -> int:
        return sum(1 for i in self.items if i.overdue)


Provider = Callable[[Any, Viewer, date, datetime], Iterable[Item]]
"""``provider(edition, viewer, today, now)``; the edition is an ``editions.Edition`` (core
imports no app, so it is typed ``Any`` here)."""
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def providers() -> tuple[Provider, ...]:
    return tuple(_providers)


_LAST = datetime.max.replace(tzinfo=UTC)


def urgency(item: Item) -> tuple[bool, bool, date, datetime, str]:
    """The sort key: overdue first, then by due date and time, undated last."""
    return (
        not item.overdue,
        item.due is None,
        item.due or date.max,
        item.at or _LAST,
        item.title,
    )


def items(edition: Any, viewer: Viewer, today: date, now: datetime) -> list[Item]:
    """Every provider's items, the most urgent first."""
    collected = [item for provider in _providers for item in provider(edition, viewer, today, now)]
    return sorted(collected, key=urgency)


def groups(found: Sequence[Item]) -> list[ItemGroup]:
    """``found`` grouped: the summary lines first in each group, then the items most urgent
    first; the groups with an overdue item first, then in the order of :class:`Group`."""
    by_group: dict[Group, list[Item]] = {}
    for item in sorted(found, key=urgency):
        by_group.setdefault(item.group, []).append(item)
    out = [
        ItemGroup(g, tuple([i for i in its if i.total] + [i for i in its if not i.total]))
        for g, its in by_group.items()
    ]
    order = list(Group)
    return sorted(out, key=lambda g: (g.overdue == 0, order.index(g.group)))
