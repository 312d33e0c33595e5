"""The public page of the computer-dealt sets (R12.7, I8, I15): each set's commitment from the
moment it is committed; after the segment has ended in both rooms the seed, the event, the
session, the boards and the ``bridgeko verify-deal`` command that checks them. GET and HEAD
only, no cookie: what is secret is decided by :func:`bridgeko.boards.secrecy.revealed` alone."""

from __future__ import annotations

import shlex
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.http import require_safe

from bridgeko.boards import secrecy
from bridgeko.boards.models import DealSet, SetSource
from bridgeko.public.render import page
from bridgeko.public.views import _edition


def verify_command(deal_set: DealSet) -> str:
    """The exact ``bridgeko verify-deal`` command checking a revealed set."""
    segment = deal_set.segment
    parts = [
        "bridgeko",
        "verify-deal",
        "--seed",
        deal_set.seed,
        "--event",
        deal_set.event,
        "--session",
        deal_set.session,
        "--boards",
        f"{segment.first_board}-{segment.last_board}",
        "--commitment",
        deal_set.commitment,
    ]
    return " ".join(shlex.quote(p) for p in parts)


@require_safe
def boards(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)

    def context() -> dict[str, Any]:
        sets = (
            DealSet.objects.filter(segment__match__edition=obj, source=SetSource.DEALT)
            .select_related("segment__match")
            .order_by("segment__match__position", "segment__number")
        )
        rows: list[dict[str, Any]] = []
        for deal_set in sets:
            segment = deal_set.segment
            shown = secrecy.revealed(segment)
            rows.append(
                {
                    "match": segment.match.code,
                    "segment": segment,
                    "commitment": deal_set.commitment,
                    "committed_at": deal_set.committed_at,
                    "event": deal_set.event,
                    "session": deal_set.session,
                    "revealed": shown,
                    "seed": deal_set.seed if shown else "",
                    "command": verify_command(deal_set) if shown else "",
                }
            )
        return {"rows": rows}

    return page(request, obj, "public/boards.html", context)
