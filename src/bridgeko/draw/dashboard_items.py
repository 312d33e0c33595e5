"""The organiser's dashboard: draw announced or not, commitment published or not, the draw,
and the deadline to publish the preliminary-round dates (R14.1)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.competition import schedule
from bridgeko.core import dashboard
from bridgeko.core.i18n import tr
from bridgeko.draw.models import Draw
from bridgeko.draw.schedule_services import has_preliminary_rounds
from bridgeko.editions.models import Edition
from bridgeko.entries.models import EntriesClosing


@dashboard.register
def draw_items(edition: Edition, user: Any, today: date) -> Iterator[dashboard.Item]:
    closing = EntriesClosing.objects.filter(edition=edition).first()
    if closing is not None and closing.cancelled:
        return
    draw = Draw.objects.filter(edition=edition).first()
    url = reverse("draw:manage", kwargs={"edition": edition.slug})
    if draw is None or draw.announced_at is None:
        yield dashboard.Item(
            _("Announce the place and time of the draw (R11.5)"), url=url, source="draw"
        )
    if draw is None or not draw.commitment:
        yield dashboard.Item(
            _("Publish the commitment to the draw's seed (I8)"), url=url, source="draw"
        )
    if draw is None or draw.held_at is None:
        yield dashboard.Item(
            _("Hold the draw"),
            url=url,
            due=draw.scheduled_at.date() if draw and draw.scheduled_at else None,
            source="draw",
        )
        return
    if draw.schedule_published_at is None and has_preliminary_rounds(draw):  # R11.6
        reg = edition.regulations
        day = timezone.localtime(draw.held_at, schedule.zone(reg)).date()
        deadline = schedule.dates_publication_deadline(day, reg)
        yield dashboard.Item(
            _("Publish the dates of the preliminary matches (R14.1)"),
            detail=tr(deadline.detail),
            url=reverse("draw:schedule", kwargs={"edition": edition.slug}),
            due=deadline.at.date(),
            level=dashboard.Level.WARNING if today > deadline.at.date() else dashboard.Level.TODO,
            source="draw",
        )
