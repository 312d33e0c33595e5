"""The chief TD's and the TD's changes to a match before it is played: swapping home and visitors
(I2: a logged correction by the chief TD, with a reason, before the start) and rescheduling by
agreement of the teams (R14.2, I12: the engine's
:func:`~bridgeko.competition.schedule.reschedule_by_agreement` decides; when R14.2 is not met
the TD rules, and the ruling is recorded). Each is one audited transaction with the match
locked first (:func:`bridgeko.matches.services.locked`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import schedule
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.regulations import Stage
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.core.i18n import tr
from bridgeko.draw.models import MatchDate
from bridgeko.entries.models import Team
from bridgeko.matches import bracket_sync
from bridgeko.matches.models import Match, MatchStatus, Segment
from bridgeko.matches.services import locked

__all__ = [
    "Rescheduled",
    "RulingNeeded",
    "normal_dates",
    "record_deadline",
    "reschedule",
    "started",
    "swap_home",
]


def started(match: Match) -> bool:
    """Play has begun or the match is over: a segment has started, results, totals, line-ups
    or penalties are recorded, or it was decided without play (R15.2)."""
    if match.status not in (MatchStatus.TO_PLAY, MatchStatus.PENDING):
        return True
    if Segment.objects.filter(match=match, started_at__isnull=False).exists():
        return True
    return bracket_sync.has_facts(match)


def _name(team_id: int | None) -> str:
    if team_id is None:
        return ""
    team = Team.objects.filter(pk=team_id).only("name").first()
    return team.name if team is not None else str(team_id)


def _user_name(user: Any) -> str:
    if not getattr(user, "is_authenticated", False):
        return ""
    return str(user.get_full_name() or user.get_username())


# ---------------------------------------------------------------------------------------------
# Home and visitors (I2)


def swap_home(*, match: Match, reason: str, user: Any, now: datetime) -> Match:
    """Swaps the home and the visiting team of ``match`` (I2: the chief TD's logged correction,
    with a reason). Refused once the match has started (a result, a line-up, a penalty, a
    walkover) and while its teams are not known. Swapping again swaps back."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    with transaction.atomic():
        match = locked(match)
        if match.home_id is None or match.visitors_id is None:
            raise ServiceError(
                _("The teams of match %(code)s are not known yet.") % {"code": match.code}
            )
        if started(match):
            raise ServiceError(
                _(
                    "Match %(code)s has started (results, line-ups or a failure to appear are "
                    "recorded): home and visitors can no longer be swapped (I2)."
                )
                % {"code": match.code}
            )
        home, visitors = _name(match.home_id), _name(match.visitors_id)
        before = {
            "home": home,
            "visitors": visitors,
            "swapped": match.swapped,
            "swap_reason": match.swap_reason,
        }
        match.home_id, match.visitors_id = match.visitors_id, match.home_id
        match.swapped = not match.swapped
        match.swap_reason = reason
        match.version += 1
        match.updated_at = now
        match.save(
            update_fields=["home", "visitors", "swapped", "swap_reason", "version", "updated_at"]
        )
        record(
            "bridgeko.match.swapped",
            user=user,
            edition=match.edition,
            obj=match,
            before=before,
            after={
                "home": visitors,
                "visitors": home,
                "swapped": match.swapped,
                "swap_reason": reason,
            },
            summary=Message(
                N_("%(match)s: home %(home)s, visitors %(visitors)s — %(reason)s"),
                {"match": match.code, "home": visitors, "visitors": home, "reason": reason},
            ),
            at=now,
        )
    return match


# ---------------------------------------------------------------------------------------------
# Rescheduling by agreement (R14.2, I12)


def _local_day(moment: datetime, reg: Any) -> date:
    return moment.astimezone(schedule.zone(reg)).date()


def normal_dates(match: Match) -> tuple[date | None, date | None]:
    """The match's normal date and the scheduled day of its round's last match (R14.2, I12):
    from the draw's dates of the preliminary matches (R14.1), or for the finals weekend from
    the engine's default timetable (R14.3; the weekend's first and last day if it does not
    fit). ``(None, None)`` for a preliminary match whose date is not published yet (until then
    the organiser moves it on the draw's schedule page, R14.1)."""
    edition = match.edition
    reg = edition.regulations
    draw = bracket_sync.held_draw(edition)
    rows = list(MatchDate.objects.filter(draw=draw, round=match.round)) if draw else []
    own = next((r for r in rows if r.match == match.code), None)
    if own is not None and draw is not None and draw.schedule_published_at is not None:
        return _local_day(own.start, reg), max(_local_day(r.start, reg) for r in rows)
    if match.stage == Stage.PRELIMINARY:
        return None, None
    stages = set(
        Match.objects.filter(edition=edition, round=match.round).values_list("stage", flat=True)
    )
    try:
        sessions = schedule.default_finals_timetable(reg)
    except schedule.ScheduleError:
        return reg.schedule.finals_start, reg.schedule.finals_end
    own_days = [_local_day(s.start, reg) for s in sessions if s.stage.value == match.stage]
    round_days = [_local_day(s.start, reg) for s in sessions if s.stage.value in stages]
    if not own_days:
        return reg.schedule.finals_start, reg.schedule.finals_end
    return min(own_days), max(round_days or own_days)


def record_deadline(match: Match) -> schedule.Deadline | None:
    """By when the match record must reach the organiser (R14.2b); None without dates."""
    _normal, last = normal_dates(match)
    if last is None:
        return None
    return schedule.result_record_deadline(last, match.edition.regulations)


class RulingNeeded(ServiceError):
    """R14.2 is not met: the TD must allow or refuse the rescheduling (I12)."""

    def __init__(self, decision: schedule.RescheduleDecision) -> None:
        super().__init__(
            _("R14.2 is not met: %(reason)s. Record the TD's ruling: allow or refuse.")
            % {"reason": tr(decision.reason_detail)},
            field="ruling",
        )
        self.decision = decision


@dataclass(frozen=True, slots=True)
class Rescheduled:
    """What :func:`reschedule` did: the engine's decision (with the TD's ruling when R14.2 was
    not met), the match (its new start when allowed) and the record deadline (R14.2b)."""

    match: Match
    decision: schedule.RescheduleDecision
    record_deadline: schedule.Deadline | None

    @property
    def allowed(self) -> bool:
        return bool(self.decision.allowed)


def reschedule(
    *,
    match: Match,
    start: datetime,
    location: str,
    agreed_by: str,
    reason: str,
    user: Any,
    now: datetime,
    notice_received_at: datetime | None = None,
    td_allowed: bool | None = None,
) -> Rescheduled:
    """Moves ``match`` to ``start`` at ``location`` as both teams agreed (R14.2). ``agreed_by``
    says who agreed and how (the captains, by e-mail ...); ``notice_received_at`` when the
    notice reached the organiser (default ``now``). The engine accepts it when the notice came by
    the end of the day before the normal date and the match starts before the record deadline
    (R14.2a, b); otherwise the TD rules (``td_allowed``; :class:`RulingNeeded` without it) and
    the ruling is recorded (I12). A refusal changes nothing but is recorded too."""
    agreed_by = (agreed_by or "").strip()
    reason = (reason or "").strip()
    location = (location or "").strip()
    if not agreed_by:
        raise ServiceError(_("Say who agreed to the new time, and how."), field="agreed_by")
    if start is None or timezone.is_naive(start):
        raise ServiceError(_("Give the start as a date and time."), field="start")
    if len(location) > 200:
        raise ServiceError(_("The place is too long (at most 200 characters)."), field="location")
    notice = notice_received_at or now
    if timezone.is_naive(notice):
        raise ServiceError(_("The start needs a time zone."), field="notice_received_at")
    with transaction.atomic():
        match = locked(match)
        reg = match.edition.regulations
        if match.home_id is None or match.visitors_id is None:
            raise ServiceError(
                _("The teams of match %(code)s are not known yet.") % {"code": match.code}
            )
        if started(match):
            raise ServiceError(
                _("Match %(code)s has started or is over: it can no longer be rescheduled.")
                % {"code": match.code}
            )
        normal, last = normal_dates(match)
        if normal is None:
            raise ServiceError(
                _(
                    "Match %(code)s has no published date yet: set and publish the dates of the "
                    "preliminary matches first (R14.1)."
                )
                % {"code": match.code}
            )
        try:
            decision = schedule.reschedule_by_agreement(
                notice, normal, reg, new_start=start, round_last_match_date=last
            )
            if decision.status is schedule.RescheduleStatus.TD_DECIDES:
                if td_allowed is None:
                    raise RulingNeeded(decision)
                decision = decision.with_td_ruling(
                    td_allowed, _user_name(user) or "TD", reason or agreed_by
                )
        except schedule.ScheduleError as exc:
            raise ServiceError(tr(exc.detail)) from None
        before = {"start": match.start, "location": match.location}
        if decision.allowed:
            match.start, match.location = start, location
            match.version += 1
            match.updated_at = now
            match.save(update_fields=["start", "location", "version", "updated_at"])
        zone = schedule.zone(reg)
        when = f"{start.astimezone(zone):%Y-%m-%d %H:%M}"
        record(
            "bridgeko.match.rescheduled" if decision.allowed else "bridgeko.match.not_rescheduled",
            user=user,
            edition=match.edition,
            obj=match,
            before=before,
            after={
                "start": start,
                "location": location,
                "agreed_by": agreed_by,
                "reason": reason,
                "notice_received_at": notice,
                "decision": decision.status.value,
                "td": decision.td,
            },
            summary=Message(
                N_("%(match)s moved to %(start)s (%(decision)s)")
                if decision.allowed
                else N_("%(match)s not moved to %(start)s (%(decision)s)"),
                {"match": match.code, "start": when, "decision": decision.reason},
            ),
            at=now,
        )
        if decision.allowed:
            emit("match.rescheduled", match=match, before=before["start"], user=user)
    deadline = schedule.result_record_deadline(last, reg) if last is not None else None
    return Rescheduled(match, decision, deadline)
