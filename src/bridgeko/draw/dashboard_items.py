"""The dashboard's draw and schedule items: announcing the draw, the commitment to its seed
(I8), the draw itself (its time and place, R11.5), the publication of the preliminary-round
dates (R14.1), the match records' deadlines (R14.2b) and the next matches of the published
schedule. The deadlines are the engine's (:mod:`bridgeko.competition.schedule`).

Organisers see everything; TDs the deadlines and the matches; a captain the draw, and the
deadlines and matches of their own team.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.competition import schedule
from bridgeko.core import dashboard
from bridgeko.core.i18n import tr
from bridgeko.draw import display
from bridgeko.draw.models import Draw
from bridgeko.draw.schedule_services import has_preliminary_rounds
from bridgeko.editions.models import Edition
from bridgeko.entries.dashboard_items import captain_team_url
from bridgeko.entries.models import EntriesClosing

STAFF_MATCHES = 8
"""How many of the next matches an organiser or a TD sees (a captain sees all of their team's)."""


def _draw_items(
    edition: Edition, draw: Draw | None, viewer: dashboard.Viewer, now: datetime
) -> Iterator[dashboard.Item]:
    slug = edition.slug
    manage = reverse("draw:manage", kwargs={"edition": slug})
    announced = draw is not None and draw.announced_at is not None
    if viewer.organiser and not announced:
        yield dashboard.Item(
            _("Announce the place and time of the draw (R11.5)"), url=manage, source="draw"
        )
    if viewer.organiser and (draw is None or not draw.commitment):
        yield dashboard.Item(
            _("Publish the commitment to the draw's seed (I8)"), url=manage, source="draw"
        )
    if draw is not None and draw.held_at is not None:
        return
    if draw is None or not announced or draw.scheduled_at is None:
        if viewer.organiser:
            yield dashboard.Item(_("Hold the draw"), url=manage, source="draw")
        return
    at = draw.scheduled_at
    overdue = now > at
    yield dashboard.Item(
        _("Hold the draw") if viewer.organiser else _("The draw"),
        detail=_("Place: %(place)s (R11.5)") % {"place": draw.place} if draw.place else "",
        url=manage if viewer.organiser else reverse("public:draw", kwargs={"edition": slug}),
        due=timezone.localtime(at, schedule.zone(edition.regulations)).date(),
        at=at,
        level=dashboard.Level.WARNING if overdue else dashboard.Level.TODO,
        overdue=overdue,
        group=dashboard.Group.DEADLINES,
        source="draw",
    )


def _publication_item(
    edition: Edition, draw: Draw, viewer: dashboard.Viewer, now: datetime
) -> Iterator[dashboard.Item]:
    """R14.1: the dates within two weeks of the draw (the organiser's; TDs are told)."""
    if not viewer.staff or draw.schedule_published_at is not None:
        return
    if not has_preliminary_rounds(draw):  # R11.6
        return
    reg = edition.regulations
    assert draw.held_at is not None
    day = timezone.localtime(draw.held_at, schedule.zone(reg)).date()
    deadline = schedule.dates_publication_deadline(day, reg)
    overdue = not deadline.met_by(now)
    yield dashboard.Item(
        _("Publish the dates of the preliminary matches (R14.1)"),
        detail=tr(deadline.detail),
        url=reverse("draw:schedule", kwargs={"edition": edition.slug}) if viewer.organiser else "",
        due=deadline.at.date(),
        at=deadline.at,
        level=dashboard.Level.WARNING if overdue else dashboard.Level.TODO,
        overdue=overdue,
        group=dashboard.Group.DEADLINES,
        source="draw",
    )


def _plays(match: display.MatchView, team_ids: frozenset[int]) -> bool:
    return any(s.team is not None and s.team.pk in team_ids for s in (match.home, match.away))


def _schedule_items(
    edition: Edition, draw: Draw, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    """From the published dates: the record deadlines of the rounds to come (R14.2b) and the
    next matches."""
    if draw.schedule_published_at is None:
        return
    reg = edition.regulations
    zone = schedule.zone(reg)
    slug = edition.slug
    dates = display.match_dates(draw)
    rounds = display.bracket_rounds(draw, display.numbers_of(draw), dates)
    mine = not viewer.staff
    for rnd in rounds:
        # R14.2b: the *scheduled* day of the round's last match, not a date agreed by captains
        starts = [dates[m.id].start for m in rnd.matches if m.id in dates]
        if not starts:
            continue
        if mine and not any(_plays(m, viewer.team_ids) for m in rnd.matches):
            continue
        last_day = max(timezone.localtime(s, zone).date() for s in starts)
        deadline = schedule.result_record_deadline(last_day, reg)  # R14.2b
        if not deadline.met_by(now):
            continue  # past: which matches were played at another time, the results will say
        yield dashboard.Item(
            _("Round %(round)d: records of the matches played at another time by agreement")
            % {"round": rnd.number},
            detail=tr(deadline.detail),
            due=deadline.at.date(),
            at=deadline.at,
            level=dashboard.Level.INFO,
            group=dashboard.Group.DEADLINES,
            source="draw",
        )
    upcoming = sorted(
        (
            m
            for rnd in rounds
            for m in rnd.matches
            if m.start is not None
            and timezone.localtime(m.start, zone).date() >= today
            and (not mine or _plays(m, viewer.team_ids))
        ),
        key=lambda m: (m.start, m.id),
    )
    if not mine:
        upcoming = upcoming[:STAFF_MATCHES]
    for m in upcoming:
        assert m.start is not None
        if viewer.organiser:
            url = reverse("draw:schedule", kwargs={"edition": slug})
        elif viewer.td:
            url = reverse("public:schedule", kwargs={"edition": slug})
        else:
            own = next(
                s.team.pk
                for s in (m.home, m.away)
                if s.team is not None and s.team.pk in viewer.team_ids
            )
            url = captain_team_url(edition, own)
        yield dashboard.Item(
            _("%(match)s: %(home)s – %(away)s")
            % {
                "match": m.id,
                "home": display.slot_text(m.home),
                "away": display.slot_text(m.away),
            },
            detail=m.location,
            url=url,
            due=timezone.localtime(m.start, zone).date(),
            at=m.start,
            level=dashboard.Level.INFO,
            group=dashboard.Group.MATCHES,
            source="draw",
        )


@dashboard.register
def draw_items(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    closing = EntriesClosing.objects.filter(edition=edition).first()
    if closing is not None and closing.cancelled:
        return
    draw = Draw.objects.filter(edition=edition).first()
    yield from _draw_items(edition, draw, viewer, now)
    if draw is None or draw.held_at is None:
        return
    yield from _publication_item(edition, draw, viewer, now)
    yield from _schedule_items(edition, draw, viewer, today, now)
