"""The hand records' links on the TD's match page (``core.segment_links``): a segment with a
set of deals links its staff hand-record page when the reader may see the deals
(:func:`bridgeko.boards.secrecy.may_see`: organisers and chief TDs before the end, everyone
after it), and its public page once the segment has ended (I15). Two queries for the match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.boards import secrecy
from bridgeko.boards.models import BoardDeal
from bridgeko.core import segment_links
from bridgeko.core.segment_links import Link


@segment_links.register
def hand_record_links(request: Any, match: Any, segments: Sequence[Any]) -> dict[int, list[Link]]:
    counts = {
        row["deal_set__segment"]: (row["n"], row["done"])
        for row in BoardDeal.objects.filter(deal_set__segment__in=[s.pk for s in segments])
        .values("deal_set__segment")
        .annotate(n=Count("id"), done=Count("id", filter=Q(dd__isnull=False)))
    }
    out: dict[int, list[Link]] = {}
    staff: bool | None = None  # may_see before the end: the same for every segment of the match
    slug = match.edition.slug
    for seg in segments:
        if seg.pk not in counts:
            continue
        n, done = counts[seg.pk]
        note = "" if done >= n else _("analysis %(done)s of %(n)s") % {"done": done, "n": n}
        links: list[Link] = []
        if secrecy.revealed(seg):
            visible = True
        else:
            if staff is None:
                seg.match = match
                staff = secrecy.may_see(request.user, seg)
            visible = staff
        if visible:
            links.append(
                Link(
                    _("Hand records"),
                    reverse(
                        "boards:hand_records",
                        kwargs={"edition": slug, "code": match.code, "segment": seg.number},
                    ),
                    note,
                )
            )
        if secrecy.revealed(seg):
            links.append(
                Link(
                    _("Public hand records"),
                    reverse(
                        "public:hand_records",
                        kwargs={"edition": slug, "code": match.code, "segment": seg.number},
                    ),
                )
            )
        if links:
            out[seg.number] = links
    return out
