"""A team's matches for its captain's "My team" page, contributed by the app that knows the
bracket (the draw app: the entries app lies below it and may not ask it).

The draw app registers one provider in its ``AppConfig.ready()``::

    team_matches.register(my_provider)   # my_provider(edition, team) -> list[TeamMatch]

``matches(edition, team)`` returns what the providers give, in their order, each with the
actions the **action providers** add to it: an app above the draw app (the matches app: the
line-up of the team's next segment) registers ``team_matches.register_actions(provider)`` with
``provider(edition, team, ids) -> {match id: [Action, ...]}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Contact:
    """The opposing team's captain as the captain may reach them (R15.1: a team that cannot
    play tells the opponents at once)."""

    name: str
    email: str = ""


@dataclass(frozen=True, slots=True)
class Action:
    """A link the captain follows for a match (e.g. "Give the line-up for segment 2")."""

    label: str
    """In the reader's language."""
    url: str


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
    actions: Sequence[Action] = ()
    """What the captain may do for this match now (added by the action providers)."""
    result: str = ""
    """The score so far from the team's view ("40:12 IMP · decided"), once play has begun."""


Provider = Callable[[Any, Any], Sequence[TeamMatch]]
ActionProvider = Callable[[Any, Any, Sequence[str]], Mapping[str, Sequence[Action]]]
_providers: list[Provider] = []
_action_providers: list[ActionProvider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def register_actions(provider: ActionProvider) -> ActionProvider:
    """Adds an action provider (idempotent; usable as a decorator)."""
    if provider not in _action_providers:
        _action_providers.append(provider)
    return provider


def matches(edition: Any, team: Any) -> list[TeamMatch]:
    found = [m for provider in _providers for m in provider(edition, team)]
    if not found or not _action_providers:
        return found
    ids = [m.id for m in found]
    extra: dict[str, list[Action]] = {}
    for provider in _action_providers:
        for match_id, actions in provider(edition, team, ids).items():
            extra.setdefault(match_id, []).extend(actions)
    return [replace(m, actions=(*m.actions, *extra[m.id])) if m.id in extra else m for m in found]
