"""How fresh an edition's public data is: one number that changes whenever anything a public
page, the API, a feed or the static export shows may have changed.

Every write of the application goes through a service that records one audit entry (the
architecture's rule), so the newest audit entry of the edition — or of no edition: the player
register and the Elo lists, which show on the team pages — marks the last change. The one write
that is not audited board by board is the double-dummy analysis running in the background
(:mod:`bridgeko.boards.services`), so the number of the edition's analysed boards is counted in,
and so is that of the chances to win the event (:mod:`bridgeko.public.event_odds`).

:func:`edition_version` costs one query. Public responses use it for their ``ETag`` (with the
path, the language and :data:`BUILD`, so a new release of the templates is a new tag), the live
pages poll it (``live.json``), and ``bridgeko export-site`` re-renders only when it moved.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version

from django.db.models import Count, Q, Subquery
from django.db.models.functions import Coalesce

from bridgeko.audit.models import AuditEntry
from bridgeko.boards.models import BoardDeal
from bridgeko.editions.models import Edition
from bridgeko.public.models import EventOdds

__all__ = ["BUILD", "Version", "edition_version", "etag"]


def _release() -> str:
    try:
        return version("bridgeko")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without install
        return "source"


BUILD = hashlib.sha256(f"bridgeko {_release()}".encode()).hexdigest()[:8]
"""Part of every public ``ETag``: a new release may render the same data differently."""


@dataclass(frozen=True)
class Version:
    """The newest audit entry touching the edition (0: none), the number of its analysed boards
    and when the newest audit entry was written (``None``: never)."""

    change: int
    analysed: int
    at: datetime | None
    odds: int = 0
    """How many times the chances to win the event were computed (:mod:`.event_odds`)."""

    @property
    def token(self) -> str:
        """The version as a short string (``"1234.96"``, ``"1234.96.7"`` once the chances to
        win the event were computed), the same in every language."""
        return f"{self.change}.{self.analysed}" + (f".{self.odds}" if self.odds else "")


def edition_version(edition: Edition) -> Version:
    """The edition's :class:`Version`, in one query."""
    newest = AuditEntry.objects.filter(Q(edition=edition) | Q(edition__isnull=True)).order_by("-pk")
    analysed = (
        BoardDeal.objects.filter(deal_set__segment__match__edition=edition, dd__isnull=False)
        .order_by()
        .values("deal_set__segment__match__edition")
        .annotate(n=Count("pk"))
        .values("n")
    )
    row = (
        Edition.objects.filter(pk=edition.pk)
        .annotate(
            change=Subquery(newest.values("pk")[:1]),
            at=Subquery(newest.values("at")[:1]),
            analysed=Coalesce(Subquery(analysed[:1]), 0),
            odds=Coalesce(
                Subquery(EventOdds.objects.filter(edition=edition).values("serial")[:1]), 0
            ),
        )
        .values("change", "at", "analysed", "odds")
        .first()
    )
    if row is None:
        return Version(0, 0, None)
    return Version(
        int(row["change"] or 0), int(row["analysed"] or 0), row["at"], int(row["odds"] or 0)
    )


def etag(version: Version, *parts: object) -> str:
    """A strong ``ETag`` value (quoted) for a public response of ``version``: the build, the
    version and the response's own ``parts`` (its path, its language)."""
    text = "|".join([BUILD, version.token, *map(str, parts)])
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"'
