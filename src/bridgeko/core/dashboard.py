"""The organiser's dashboard: what is due next, contributed by every app.

An app registers a provider in its ``AppConfig.ready()``::

    from bridgeko.core import dashboard

    def my_items(edition, user, today):
        if something_missing(edition):
            yield dashboard.Item(_("Fee not paid: Team X"), url=..., due=date(...))

    dashboard.register(my_items)

The dashboard view calls every provider and sorts the items by due date (undated items last).
``today`` is passed in (never read inside a provider).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any


class Level(StrEnum):
    INFO = "info"
    TODO = "todo"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Item:
    """One line of the dashboard."""

    title: str
    detail: str = ""
    url: str = ""
    due: date | None = None
    level: Level = Level.TODO
    source: str = ""
    """The app that produced it (for grouping and tests)."""


Provider = Callable[[Any, Any, date], Iterable[Item]]
"""``provider(edition, user, today)``; the edition is an ``editions.Edition`` (core imports no
app, so it is typed ``Any`` here)."""
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def providers() -> tuple[Provider, ...]:
    return tuple(_providers)


def items(edition: Any, user: Any, today: date) -> list[Item]:
    """Every provider's items, the most urgent first."""
    collected = [item for provider in _providers for item in provider(edition, user, today)]
    return sorted(collected, key=lambda i: (i.due is None, i.due or date.max, i.title))
