"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    """The current edition (set by the edition views) and the user's roles in it."""
    edition = getattr(request, "edition", None)
    roles: frozenset[str] = getattr(request, "edition_roles", frozenset())
    return {"current_edition": edition, "current_roles": roles}
