"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from bridgeko.accounts.permissions import is_registrar, organises_any_edition, roles_of
from bridgeko.entries.queries import captained_teams


def site(request: HttpRequest) -> dict[str, Any]:
    """The current edition (set by the edition views), the user's roles in it and whether the
    user is a registrar (asked only when a template reads it)."""
    edition = getattr(request, "edition", None)
    roles: frozenset[str] | None = getattr(request, "edition_roles", None)
    if roles is None:  # a page without the permission helper (public pages): the same menu
        roles = roles_of(getattr(request, "user", None), edition) if edition else frozenset()
    user = getattr(request, "user", None)
    teams: list[Any] = []
    asked = False

    def my_teams() -> list[Any]:
        """The teams the user captains, every edition (the user menu's "My team")."""
        nonlocal teams, asked
        if not asked:
            teams, asked = captained_teams(user), True
        return teams

    def my_team_here() -> bool:
        """Whether the user captains a team in the current edition (the edition menu)."""
        return edition is not None and any(t.edition_id == edition.pk for t in my_teams())

    registrar: list[bool] = []

    def site_registrar() -> bool:
        """Whether the user is a registrar (asked once: the menu reads it twice)."""
        if not registrar:
            registrar.append(is_registrar(user))
        return registrar[0]

    return {
        "my_teams": my_teams,
        "my_team_here": my_team_here,
        "current_edition": edition,
        "current_roles": roles,
        "site_registrar": site_registrar,
        # who may open the audit log (the user menu shows the link only to them)
        "audit_reader": lambda: organises_any_edition(user) or site_registrar(),
    }
