"""The dashboard's standings item (registered in ``MatchesConfig.ready``): the organiser is told
when a place of the standings needs their decision (both teams of the final or of the
3rd-place match failed to appear: the regulations do not decide those places, I16), which
holds up the prize list (R5.1)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import dashboard
from bridgeko.editions.models import Edition
from bridgeko.matches import standings


@dashboard.register
def standings_items(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    if not viewer.organiser or not edition.draw_held:
        return
    url = reverse("matches:standings", kwargs={"edition": edition.slug})
    for placing in standings.summary(edition).needed:
        yield dashboard.Item(
            _("Decide places %(place)s: the regulations do not decide them (I16)")
            % {"place": placing.place},
            detail=", ".join(t.name for t in placing.teams),
            url=url,
            source="matches",
        )
