"""The preliminary-round dates (R14.1) of a drawn edition: the defaults, moving one match, the
publication, the iCalendar file. Each write is one audited transaction; the dates and the
deadline are the engine's (:func:`~bridgeko.competition.schedule.preliminary_dates`,
``dates_publication_deadline``, ``match_event`` and ``to_ics``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import bracket, schedule
from bridgeko.competition.regulations import Stage
from bridgeko.core import l10n
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.core.i18n import tr
from bridgeko.draw import display, services
from bridgeko.draw.models import Draw, DrawNumber, MatchDate
from bridgeko.editions.models import Edition


def _preliminary_matches(draw: Draw) -> list[bracket.MatchState]:
    numbers = set(DrawNumber.objects.filter(draw=draw).values_list("number", flat=True))
    scheme = display.scheme_of(draw)
    assert scheme is not None
    state = bracket.resolve(scheme, teams=numbers)
    return [
        m
        for m in state.matches
        if m.spec.stage is Stage.PRELIMINARY
        and m.status not in (bracket.MatchStatus.BYE, bracket.MatchStatus.NO_WINNER)
        # a slot nobody will fill (the loser of a bye, R11.4): a bye to come, not a match
        and bracket.SlotStatus.EMPTY not in (m.home.status, m.away.status)
    ]


def has_preliminary_rounds(draw: Draw | None) -> bool:
    """Whether the drawn scheme has rounds before the quarterfinals (R11.6: only with more
    teams than the quarterfinals hold); False before the draw."""
    if draw is None or draw.held_at is None or draw.scheme_size is None:
        return False
    scheme = display.scheme_of(draw)
    return scheme is not None and any(m.stage is Stage.PRELIMINARY for m in scheme.matches)


def no_preliminary_rounds_text(draw: Draw) -> str:
    """Why there are no preliminary dates to set or publish (R11.6, R14.1)."""
    return _(
        "There are no preliminary rounds: the scheme for %(size)s starts with the "
        "quarterfinals (R11.6), so there are no dates to fill in or publish here."
    ) % {"size": draw.scheme_size}


def _schedule_editable(edition: Edition) -> Draw:
    draw = services.draw_of(edition)
    if draw is None or draw.held_at is None or draw.scheme_size is None:
        raise ServiceError(_("Hold the draw first."))
    if not has_preliminary_rounds(draw):  # R11.6
        raise ServiceError(no_preliminary_rounds_text(draw))
    if draw.schedule_published_at is not None:
        raise ServiceError(_("The dates are published; they can no longer be edited here."))
    return draw


def _still_editable(edition: Edition) -> Draw:
    """Inside the write's transaction, under the draw's lock: the dates were not published
    meanwhile (a concurrent request)."""
    draw = services.draw_for_update(edition)
    if draw.schedule_published_at is not None:
        raise ServiceError(_("The dates are published; they can no longer be edited here."))
    return draw


def default_schedule(
    *, edition: Edition, first_date: date, user: Any, now: datetime
) -> list[MatchDate]:
    """Fills the preliminary-round dates with the defaults of R14.1 (the engine's
    :func:`preliminary_dates`: Fridays 19:00 from ``first_date``, one round a week) at the
    edition's venue."""
    draw = _schedule_editable(edition)
    reg = edition.regulations
    assert draw.held_at is not None and draw.scheme_size is not None
    draw_day = timezone.localtime(draw.held_at, schedule.zone(reg)).date()
    matches = _preliminary_matches(draw)
    try:
        starts = schedule.preliminary_dates(
            draw.scheme_size,
            first_date,
            draw_day,
            reg,
            rounds=max((m.spec.round for m in matches), default=0) or None,
        )
    except schedule.ScheduleError as exc:  # the engine's wording, in the user's language
        raise ServiceError(tr(exc.detail), field="first_date") from None
    with transaction.atomic():
        _still_editable(edition)
        MatchDate.objects.filter(draw=draw).delete()
        rows = MatchDate.objects.bulk_create(
            MatchDate(
                draw=draw,
                match=m.id,
                round=m.spec.round,
                start=starts[m.spec.round - 1],
                location=reg.edition.venue,
            )
            for m in matches
            if m.spec.round <= len(starts)
        )
        record(
            "bridgeko.schedule.defaults",
            user=user,
            edition=edition,
            obj=draw,
            after={"first_date": first_date, "rounds": [s.isoformat() for s in starts]},
            summary=", ".join(s.isoformat() for s in starts),
            at=now,
        )
    return rows


def set_match_date(
    *, edition: Edition, match: str, start: datetime, location: str, user: Any, now: datetime
) -> MatchDate:
    """Moves one preliminary match before the dates are published."""
    draw = _schedule_editable(edition)
    if timezone.is_naive(start):
        raise ServiceError(_("The start needs a time zone."), field="start")
    reg = edition.regulations
    if start.date() >= reg.schedule.finals_start:
        raise ServiceError(
            _("A preliminary match must be before the finals (%(date)s, R14.3).")
            % {"date": l10n.show_date(reg.schedule.finals_start)},
            field="start",
        )
    with transaction.atomic():
        _still_editable(edition)
        row = MatchDate.objects.select_for_update().filter(draw=draw, match=match).first()
        if row is None:
            raise ServiceError(_("No such match in the preliminary rounds."), field="match")
        before = {"start": row.start, "location": row.location}
        row.start, row.location = start, location.strip()
        row.save()
        record(
            "bridgeko.schedule.changed",
            user=user,
            edition=edition,
            obj=draw,
            before={"match": match} | before,
            after={"match": match, "start": start, "location": row.location},
            summary=f"{match}: {start.isoformat()}",
            at=now,
        )
    return row


def publish_schedule(*, edition: Edition, user: Any, now: datetime) -> Draw:
    """Publishes the preliminary-round dates (R14.1: within two weeks after the draw)."""
    draw = _schedule_editable(edition)
    if not MatchDate.objects.filter(draw=draw).exists() and _preliminary_matches(draw):
        raise ServiceError(_("Set the dates of the matches first."))
    with transaction.atomic():
        draw = _still_editable(edition)
        draw.schedule_published_at = now
        draw.save(update_fields=["schedule_published_at"])
        assert draw.held_at is not None
        deadline = schedule.dates_publication_deadline(
            timezone.localtime(draw.held_at, schedule.zone(edition.regulations)).date(),
            edition.regulations,
        )
        record(
            "bridgeko.schedule.published",
            user=user,
            edition=edition,
            obj=draw,
            after={"published_at": now, "in_time": deadline.met_by(now)},
            summary=deadline.detail,
            at=now,
        )
        emit("schedule.published", edition=edition, user=user)  # the captains' mail
    return draw


def schedule_ics(
    edition: Edition, draw: Draw, *, stamp: datetime, team: int | None = None
) -> bytes:
    """The matches with a date (the preliminary ones, R14.1, and those rescheduled, R14.2) as an
    iCalendar file, one event a match (the engine's ``match_event``/``to_ics``); ``team``: only
    the matches of the team with this id (its own feed)."""
    reg = edition.regulations
    numbers = display.numbers_of(draw)
    dates = display.match_dates(draw)
    events = []
    for rnd in display.bracket_rounds(draw, numbers, dates):
        for m in rnd.matches:
            if m.start is None:
                continue
            if team is not None and team not in {s.team.pk for s in (m.home, m.away) if s.team}:
                continue
            home, away = display.slot_text(m.home), display.slot_text(m.away)
            title = f"{edition.name}: {home} – {away} ({m.id})"
            events.append(
                schedule.match_event(
                    f"{edition.slug}-{m.id}@bridgeko",
                    title,
                    m.start,
                    schedule.match_segment_boards(m.stage, reg.match),
                    schedule.uses_screens(m.stage, reg.match),
                    reg.match,
                    location=m.location,
                )
            )
    return schedule.to_ics(events, stamp=stamp, name=edition.name)
