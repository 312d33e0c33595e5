"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from bridgeko.accounts.permissions import is_registrar


def site(request: HttpRequest) -> dict[str, Any]:
    """The current edition (set by the edition views), the user's roles in it and whether the
    user is a registrar (asked only when a template reads it)."""
    edition = getattr(request, "edition", None)
    roles: frozenset[str] = getattr(request, "edition_roles", frozenset())
    return {
        "current_edition": edition,
        "current_roles": roles,
        "site_registrar": lambda: is_registrar(getattr(request, "user", None)),
    }
