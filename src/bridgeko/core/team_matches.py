"""A team's matches for its captain's "My team" page, contributed by the app that knows the
bracket (the draw app: the entries app lies below it and may not ask it).

The draw app registers one provider in its ``AppConfig.ready()``::

    team_matches.register(my_provider)   # my_provider(edition, team) -> list[TeamMatch]

``matches(edition, team)`` returns what the providers give, in their order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Contact:
    """The opposing team's captain as the captain may reach them (R15.1: a team that cannot
    play tells the opponents at once)."""

    name: str
    email: str = ""


@dataclass(frozen=True, slots=True)
class TeamMatch:
    id: str
    """The match of the bracket, e.g. ``R1-M4`` or ``QF2``."""
    round_name: str
    """The round, in the reader's language."""
    start: datetime | None
    """None while the date is not published (R14.1) or not set."""
    location: str
    opponent: Any
    """The opposing ``entries.Team``; None while it is not known (the winner of a match not
    yet played)."""
    opponent_ref: str
    """Who the opponent will be while unknown ("winner of R1-M2")."""
    contacts: Sequence[Contact] = ()
    result: str = ""
    """The score so far from the team's view ("40:12 IMP · decided"), once play has begun."""


Provider = Callable[[Any, Any], Sequence[TeamMatch]]
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def matches(edition: Any, team: Any) -> list[TeamMatch]:
    return [m for provider in _providers for m in provider(edition, team)]
