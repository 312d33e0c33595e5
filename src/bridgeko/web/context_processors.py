"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from bridgeko.accounts.permissions import is_registrar, roles_of


def site(request: HttpRequest) -> dict[str, Any]:
    """The current edition (set by the edition views), the user's roles in it and whether the
    user is a registrar (asked only when a template reads it)."""
    edition = getattr(request, "edition", None)
    roles: frozenset[str] | None = getattr(request, "edition_roles", None)
    if roles is None:  # a page without the permission helper (public pages): the same menu
        roles = roles_of(getattr(request, "user", None), edition) if edition else frozenset()
    return {
        "current_edition": edition,
        "current_roles": roles,
        "site_registrar": lambda: is_registrar(getattr(request, "user", None)),
    }
