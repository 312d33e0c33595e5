"""Who may see a set's deals, their analysis and its seed (I15, R12.7) — decided here only.

Until the segment has ended in both rooms (``Segment.ended_at``, recorded by the TD) only the
organiser and the chief TD of the edition see them; afterwards everyone does. The commitment is
public from the moment it is made."""

from __future__ import annotations

from typing import Any

from bridgeko.accounts.models import ORGANISER_ROLES
from bridgeko.accounts.permissions import roles_of


def revealed(segment: Any) -> bool:
    """The segment has ended in both rooms: its deals and seed are public."""
    return segment.ended_at is not None


def may_see(user: Any, segment: Any) -> bool:
    """``user`` may see the deals of ``segment`` (and the seed of its set) now."""
    if revealed(segment):
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(roles_of(user, segment.match.edition) & ORGANISER_ROLES)
