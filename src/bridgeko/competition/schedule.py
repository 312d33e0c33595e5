"""Dates, deadlines and time limits of one edition (R12.7, R12.8, R14, R16.3, R16.4).

Everything here takes plain values and the edition's
:class:`~bridgeko.competition.regulations.Regulations` and returns plain values; "now" is always
an argument. Dates and deadlines are in the organiser's time zone (``reg.edition.timezone``, I12)
and every ``datetime`` passed in must be timezone-aware.

A :class:`Deadline` holds the *last instant* that is still in time: "by the end of 19 March" is
19 March 23:59:59.999999 local time (I12), "by 13:00" is 13:00:00 exactly.

>>> from datetime import date
>>> from bridgeko.competition.regulations import MatchRules
>>> segment_time_limit(16, screens=True, rules=MatchRules())
datetime.timedelta(seconds=7800)
>>> preliminary_round_count(32)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

import icalendar

from bridgeko.competition.bracket import BracketError, preliminary_rounds
from bridgeko.competition.match import MatchError, segments_for_stage
from bridgeko.competition.messages import N_, Message, Param, Worded
from bridgeko.competition.regulations import MatchRules, Regulations, Stage

# Message templates (English; the web layer translates them, see competition/messages.py)
DEADLINE_TEXT = N_("%(what)s by %(at)s (%(clause)s)")
WHAT_PUBLISH_DATES = N_("publish the dates of the preliminary matches")
WHAT_NOTIFY_RESCHEDULING = N_("notify the organiser of the rescheduling")
WHAT_DELIVER_RECORD = N_("deliver the match record to the organiser")
WHAT_ANSWER_RECORD = N_("confirm or dispute the opponents' match record")
WHAT_LODGE_SEGMENT_APPEAL = N_("lodge the appeal about the segment")
WHAT_LODGE_APPEAL = N_("lodge the appeal")
WHAT_FORM_REACHES_ORGANISER = N_("the appeal form reaches the organiser")
NOTICE_LATE = N_(
    "the notice arrived %(received)s, after the end of %(day)s, the day before the normal date "
    "(R14.2a): the TD decides"
)
AFTER_RECORD_DEADLINE = N_(
    "the match would start after the record deadline, %(deadline)s (R14.2b): the TD decides"
)
NOTICE_IN_TIME = N_("notice received by the end of %(day)s (R14.2a)")
# The errors (ScheduleError.detail)
UNKNOWN_ZONE = N_("unknown time zone of the edition: %(name)s")
NOT_AWARE = N_("%(name)s must be a timezone-aware datetime, got %(value)s")
NO_TIME_LIMIT = N_(
    "no time limit for a segment of %(boards)s boards: segments have %(segment)s boards, extra "
    "segments %(extra)s (R12.8)"
)
NOT_WHOLE_SEGMENTS = N_(
    "a match of %(boards)s boards cannot be divided into segments of %(segment)s boards (R12.1)"
)
NOT_A_SCHEME = N_("a scheme has 8, 16, 32 ... (a power of two, at least 8) places, not %(size)s")
FIRST_ROUND_BEFORE_DRAW = N_(
    "the first preliminary round (%(first)s) cannot be before the draw (%(draw)s)"
)
ROUND_NOT_BEFORE_FINALS = N_(
    "preliminary round %(number)s on %(day)s is not before the finals (%(finals)s); choose an "
    "earlier first date (R14.1)"
)
FINALS_END_BEFORE_START = N_("the finals end (%(end)s) before they start (%(start)s)")
NOT_A_SESSION = N_("not a timetable session: %(data)s (%(error)s)")
BAD_SESSION_SEGMENT = N_("segment must be a whole number from 1, got %(value)s")
FINALS_DO_NOT_FIT = N_(
    "the finals do not fit into %(first)s..%(last)s between %(start)s and %(end)s (R14.3)"
)
NO_SUCH_SESSION = N_("no session %(stage)s segment %(segment)s in the timetable")
NO_RULING_NEEDED = N_("no TD ruling is needed: the request is %(status)s")
RULING_WITHOUT_TD = N_("a TD ruling must name the TD")
NO_END_OF_PLAY = N_(
    "the end of the match (or of the segment, where segment deadlines were announced) must be "
    "recorded by the TD to compute the appeal deadline (R16.3, I15)"
)
EVENT_WITHOUT_UID = N_("the event %(title)s has no uid")
EVENT_ENDS_BEFORE_START = N_("the event %(title)s ends before it starts")
# What a datetime is, in the NOT_AWARE error
THE_TIME_RECEIVED = N_("the time received")
THE_START = N_("the start")
THE_TIME_CHECKED = N_("the time checked")
A_SESSIONS_START = N_("a session's start")
THE_NEW_START = N_("the new start")
THE_OPEN_ROOMS_END = N_("the open room's end")
THE_CLOSED_ROOMS_END = N_("the closed room's end")
THE_END_OF_THE_SEGMENT = N_("the end of the segment")
THE_END_OF_THE_MATCH = N_("the end of the match")
AN_EVENTS_START = N_("an event's start")
AN_EVENTS_END = N_("an event's end")
THE_START_OF_THE_MATCH = N_("the start of the match")
THE_EXPORT_TIME = N_("the export time")


class ScheduleError(ValueError):
    """A date, time or schedule that cannot be used; the message names the problem.

    :attr:`detail` is the message as a translatable :class:`Message` (``str(error)`` is its
    English text); the web layer shows it with ``bridgeko.core.i18n.tr(error.detail)``."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


# --------------------------------------------------------------------------------------------
# Helpers


def zone(reg: Regulations | str) -> ZoneInfo:
    """The organiser's time zone (I12): ``reg.edition.timezone``, or a zone's name."""
    name = reg if isinstance(reg, str) else reg.edition.timezone
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError) as exc:  # ZoneInfoNotFoundError is a KeyError
        raise ScheduleError(Message(UNKNOWN_ZONE, {"name": repr(name)})) from exc


def _tz(reg: Regulations | str | tzinfo) -> tzinfo:
    return reg if isinstance(reg, tzinfo) else zone(reg)


def _aware(moment: datetime, name: str) -> datetime:
    """``moment``, refused when naive; ``name`` is one of the ``THE_*``/``A_*`` templates."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ScheduleError(
            Message(NOT_AWARE, {"name": Message(name), "value": moment.isoformat()})
        )
    return moment


def local(day: date, at: time, reg: Regulations | str | tzinfo) -> datetime:
    """``day`` at ``at`` in the organiser's time zone."""
    return datetime.combine(day, at, tzinfo=_tz(reg))


def end_of_day(day: date, reg: Regulations | str | tzinfo) -> datetime:
    """The last instant of ``day`` in the organiser's time zone (I12: a date means its end).

    The one place that says what "by <date>" means: entries (R3.2), rescheduling (R14.2a) and
    the publication of dates (R14.1) all use it. ``reg`` is the edition's
    :class:`Regulations` or just its time zone (a name or a tzinfo).
    """
    return datetime.combine(day, time.max, tzinfo=_tz(reg))


def by_end_of_day(received: date | datetime, day: date, reg: Regulations | str | tzinfo) -> bool:
    """Whether something received at ``received`` is in time for a deadline "by ``day``" (I12):
    by the end of that day in the organiser's time zone. ``received`` is an aware datetime, or
    a date already in the organiser's time zone."""
    if isinstance(received, datetime):
        moment = _aware(received, THE_TIME_RECEIVED).astimezone(UTC)
        return moment <= end_of_day(day, reg).astimezone(UTC)
    return received <= day


def after(moment: datetime, elapsed: timedelta, reg: Regulations | str | tzinfo) -> datetime:
    """``elapsed`` of real time after ``moment``, shown in the organiser's time zone.

    Computed in UTC: adding a timedelta to a zoned datetime adds *wall-clock* time, which is
    wrong across a change of daylight saving time (30 minutes after 02:50 CEST on the night the
    clocks go back is 02:20 CET, not 03:20 CET).
    """
    return (_aware(moment, THE_START).astimezone(UTC) + elapsed).astimezone(_tz(reg))


@dataclass(frozen=True, slots=True)
class Deadline:
    """A deadline: the last instant that is still in time."""

    at: datetime
    """The last instant still in time (timezone-aware)."""
    clause: str
    """The clause that sets it, e.g. ``"R16.3"``."""
    what: str
    """What must happen by then, in words (one of the ``WHAT_*`` templates when made here)."""

    def met_by(self, moment: datetime) -> bool:
        """Whether something that happened at ``moment`` is in time (``moment <= at``).

        Compared in UTC: Python compares two datetimes of the *same* tzinfo by wall-clock time,
        which ignores ``fold`` in the repeated hour when daylight saving time ends (I12)."""
        moment = _aware(moment, THE_TIME_CHECKED)
        return moment.astimezone(UTC) <= self.at.astimezone(UTC)

    @property
    def detail(self) -> Message:
        """:meth:`__str__` as a translatable :class:`Message`."""
        return Message(
            DEADLINE_TEXT,
            {
                "what": Message(self.what),
                "at": self.at.strftime("%Y-%m-%d %H:%M %Z"),
                "clause": self.clause,
            },
        )

    def __str__(self) -> str:
        return str(self.detail)


# --------------------------------------------------------------------------------------------
# Time limits and screens (R12.7, R12.8)


def segment_time_limit(
    boards: int, screens: bool, rules: MatchRules, *, extra: bool | None = None
) -> timedelta:
    """Time allowed for a segment of ``boards`` boards, scoring excluded (R12.8).

    ``boards`` is the segment's size, ``rules.segment_boards`` (16) or
    ``rules.extra_segment_boards`` (4, an extra segment after a tie, R12.5); boards the TD
    removed for lateness (R12.9) do not change the time allowed. ``extra`` says which kind of
    segment it is (``Segment.is_extra``); without it the kind is told by the size, which an
    edition whose two sizes are equal cannot do (then a segment counts as a regular one).
    """
    sizes = {rules.segment_boards, *(n for _stage, n in rules.stage_segment_boards)}
    regular = boards in sizes and extra is not True
    is_extra = boards == rules.extra_segment_boards and extra is not False and not regular
    if regular:
        minutes = rules.segment_minutes_screens if screens else rules.segment_minutes
        if boards != rules.segment_boards:
            # a stage's own segment length (the 2001 final's sets of 8): the time of a
            # regular segment in proportion, whole minutes rounded up (an assumption: the
            # regulations give minutes for their own segment only)
            minutes = -(-minutes * boards // rules.segment_boards)
    elif is_extra:
        minutes = rules.extra_segment_minutes_screens if screens else rules.extra_segment_minutes
    else:
        params = {
            "boards": boards,
            "segment": rules.segment_boards,
            "extra": rules.extra_segment_boards,
        }
        raise ScheduleError(Message(NO_TIME_LIMIT, params))
    return timedelta(minutes=minutes)


def uses_screens(
    stage: Stage,
    rules: MatchRules,
    *,
    captains_agree: bool = False,
    technically_possible: bool = True,
) -> bool:
    """Whether a match of ``stage`` is played with screens (R12.7).

    Always from the quarterfinals on (``rules.screens_stages``); in other matches only when both
    captains agree and the venue allows it.
    """
    if stage in rules.screens_stages:
        return True
    return captains_agree and technically_possible


def match_segment_boards(stage: Stage, rules: MatchRules) -> tuple[int, ...]:
    """The sizes of the regular segments of a match of ``stage`` (R1.3, R12.1).

    The segment plan itself is :func:`bridgeko.competition.match.segments_for_stage` (one place
    for boards and segments); here a plan whose last segment is a shorter remainder is refused,
    as R12.8 gives a time limit only for whole segments.
    """
    try:
        plan = segments_for_stage(stage, rules)
    except MatchError as exc:
        raise ScheduleError(getattr(exc, "detail", None) or str(exc)) from exc
    sizes = tuple(segment.boards for segment in plan)
    own = rules.segment_boards_of(stage)
    if any(size != own for size in sizes):
        raise ScheduleError(Message(NOT_WHOLE_SEGMENTS, {"boards": sum(sizes), "segment": own}))
    return sizes


def playing_time(
    segments: Sequence[int],
    screens: bool,
    rules: MatchRules,
    *,
    break_between: timedelta = timedelta(0),
) -> timedelta:
    """Total time allowed for segments of the given sizes, plus breaks between them (R12.8)."""
    total = sum((segment_time_limit(b, screens, rules) for b in segments), timedelta(0))
    return total + break_between * max(len(segments) - 1, 0)


# --------------------------------------------------------------------------------------------
# Preliminary rounds (R11.6, R14.1)


def preliminary_round_count(scheme_size: int) -> int:
    """Preliminary rounds before the quarterfinals in a scheme for ``scheme_size`` teams.

    ``log2(N) - 3``: none for 8 teams, one for 16, two for 32 (R11.6, R9.2). The rounds are
    those of :func:`bridgeko.competition.bracket.standard_scheme` (one place for the scheme).
    """
    if isinstance(scheme_size, bool) or not isinstance(scheme_size, int) or scheme_size < 8:
        raise ScheduleError(Message(NOT_A_SCHEME, {"size": str(scheme_size)}))
    try:
        return preliminary_rounds(scheme_size)
    except BracketError as exc:
        raise ScheduleError(Message(NOT_A_SCHEME, {"size": str(scheme_size)})) from exc


def next_weekday(day: date, weekday: int) -> date:
    """``day`` itself if it falls on ``weekday`` (0 = Monday), otherwise the next such day."""
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def preliminary_dates(
    scheme_size: int,
    first_date: date,
    draw_date: date,
    reg: Regulations,
    *,
    rounds: int | None = None,
) -> list[datetime]:
    """Default start of each preliminary round (R14.1): one round a week on the edition's
    preliminary weekday (Friday) at its start time (19:00), local time.

    The first round is on the first such weekday on or after ``first_date``, which the organiser
    chooses on or after the draw. Every round must be before the finals weekend (R14.3).
    ``rounds``: the rounds with preliminary matches when the scheme is not the standard one
    (double elimination plays the first losers' round in the week after the first round).
    """
    rules = reg.schedule
    if first_date < draw_date:
        raise ScheduleError(
            Message(
                FIRST_ROUND_BEFORE_DRAW,
                {"first": first_date.isoformat(), "draw": draw_date.isoformat()},
            )
        )
    first = next_weekday(first_date, rules.preliminary_weekday)
    starts = [
        local(first + timedelta(weeks=i), rules.preliminary_start, reg)
        for i in range(preliminary_round_count(scheme_size) if rounds is None else rounds)
    ]
    for number, start in enumerate(starts, 1):
        if start.date() >= rules.finals_start:
            params: dict[str, Param] = {
                "number": number,
                "day": start.date().isoformat(),
                "finals": rules.finals_start.isoformat(),
            }
            raise ScheduleError(Message(ROUND_NOT_BEFORE_FINALS, params))
    return starts


def dates_publication_deadline(draw_date: date, reg: Regulations) -> Deadline:
    """Match dates are published within two weeks after the draw (R14.1), by the end of the
    day (I12)."""
    day = draw_date + timedelta(days=reg.schedule.dates_published_within_days)
    return Deadline(end_of_day(day, reg), "R14.1", WHAT_PUBLISH_DATES)


# --------------------------------------------------------------------------------------------
# Finals weekend (R14.3)


def finals_dates(reg: Regulations) -> list[date]:
    """The days of the finals weekend, ``finals_start`` .. ``finals_end`` inclusive (R14.3)."""
    start, end = reg.schedule.finals_start, reg.schedule.finals_end
    if end < start:
        raise ScheduleError(
            Message(FINALS_END_BEFORE_START, {"end": end.isoformat(), "start": start.isoformat()})
        )
    return [start + timedelta(days=i) for i in range((end - start).days + 1)]


@dataclass(frozen=True, slots=True)
class Session:
    """One segment of a finals-weekend match in the timetable (R14.3)."""

    stage: Stage
    segment: int
    """1, 2, ... within the match."""
    start: datetime

    def to_dict(self) -> dict[str, str | int]:
        return {"stage": self.stage.value, "segment": self.segment, "start": self.start.isoformat()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Session:
        try:
            stage = Stage(str(data["stage"]))
            segment = data["segment"]
            start = datetime.fromisoformat(str(data["start"]))
        except (KeyError, ValueError) as exc:
            raise ScheduleError(
                Message(NOT_A_SESSION, {"data": repr(data), "error": str(exc)})
            ) from exc
        if not isinstance(segment, int) or isinstance(segment, bool) or segment < 1:
            raise ScheduleError(Message(BAD_SESSION_SEGMENT, {"value": repr(segment)}))
        return cls(stage, segment, _aware(start, A_SESSIONS_START))


_FINALS_ORDER: tuple[Stage, ...] = (Stage.QUARTERFINAL, Stage.SEMIFINAL, Stage.FINAL)


def default_finals_timetable(
    reg: Regulations,
    *,
    day_start: time = time(10, 0),
    latest_end: time = time(23, 0),
    break_between: timedelta = timedelta(minutes=30),
    first_day_start: time | None = None,
) -> list[Session]:
    """A default timetable of the finals weekend for the TD to edit (R14.3).

    Segments are placed one after another: the quarterfinals, then the semifinals, then the
    final, with the 3rd-place match played alongside the first segments of the final. Each slot
    lasts the time allowed with screens (R12.7, R12.8) plus ``break_between``; a slot that would
    end after ``latest_end`` moves to ``day_start`` of the next day. Play on the first day starts
    at ``first_day_start`` (default ``day_start``), e.g. a Friday afternoon. The result is plain
    data: the TD overrides a session with :func:`override_session`.
    """
    days = finals_dates(reg)
    rules = reg.match
    slot_sessions: list[list[tuple[Stage, int]]] = []
    for stage in _FINALS_ORDER:
        for number in range(1, len(match_segment_boards(stage, rules)) + 1):
            slot_sessions.append([(stage, number)])
    third = len(match_segment_boards(Stage.THIRD_PLACE, rules))
    final_slots = [i for i, s in enumerate(slot_sessions) if s[0][0] is Stage.FINAL]
    for number in range(1, third + 1):
        if number <= len(final_slots):
            slot_sessions[final_slots[number - 1]].append((Stage.THIRD_PLACE, number))
        else:
            slot_sessions.append([(Stage.THIRD_PLACE, number)])

    length = segment_time_limit(rules.segment_boards, True, rules)
    sessions: list[Session] = []
    day_index = 0
    start = local(days[0], day_start if first_day_start is None else first_day_start, reg)
    for slot in slot_sessions:
        if start + length > local(days[day_index], latest_end, reg):
            day_index += 1
            if day_index >= len(days):
                params = {
                    "first": days[0].isoformat(),
                    "last": days[-1].isoformat(),
                    "start": f"{day_start:%H:%M}",
                    "end": f"{latest_end:%H:%M}",
                }
                raise ScheduleError(Message(FINALS_DO_NOT_FIT, params))
            start = local(days[day_index], day_start, reg)
        sessions.extend(Session(stage, number, start) for stage, number in slot)
        start = start + length + break_between
    return sessions


def override_session(
    timetable: Sequence[Session], stage: Stage, segment: int, start: datetime
) -> list[Session]:
    """A copy of ``timetable`` with the start of one session changed by the TD."""
    _aware(start, THE_NEW_START)
    found = False
    result: list[Session] = []
    for session in timetable:
        if session.stage is stage and session.segment == segment:
            session = replace(session, start=start)
            found = True
        result.append(session)
    if not found:
        raise ScheduleError(Message(NO_SUCH_SESSION, {"stage": stage.value, "segment": segment}))
    return result


# --------------------------------------------------------------------------------------------
# Rescheduling by agreement and the match record (R14.2)


class RescheduleStatus(StrEnum):
    ACCEPTED = "accepted"
    """R14.2 is met: the teams play at the agreed time."""
    TD_DECIDES = "td_decides"
    """R14.2 is not met: the TD decides (I12) and the ruling is recorded."""
    TD_ALLOWED = "td_allowed"
    TD_REFUSED = "td_refused"


@dataclass(frozen=True, slots=True)
class RescheduleDecision(Worded):
    """The outcome of a request to play a match at another time or place (R14.2, I12)."""

    _english = "reason"

    status: RescheduleStatus
    reason: str
    notice_deadline: Deadline
    td: str = ""
    """The TD who ruled, when the TD decided."""
    td_note: str = ""
    i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`reason` as a template and its params (None: a plain text)."""

    @classmethod
    def of(
        cls, status: RescheduleStatus, reason: Message, notice_deadline: Deadline
    ) -> RescheduleDecision:
        """A decision whose reason is worded by a message template."""
        return cls(status, str(reason), notice_deadline, i18n=reason)

    @property
    def reason_detail(self) -> Message:
        """:attr:`reason` as a translatable :class:`Message`."""
        return self.detail

    @property
    def allowed(self) -> bool | None:
        """True or False once decided; None while the TD has still to decide."""
        if self.status is RescheduleStatus.TD_DECIDES:
            return None
        return self.status in (RescheduleStatus.ACCEPTED, RescheduleStatus.TD_ALLOWED)

    def with_td_ruling(self, allowed: bool, td: str, note: str) -> RescheduleDecision:
        """The TD's recorded ruling on a request that did not meet R14.2 (I12)."""
        if self.status is not RescheduleStatus.TD_DECIDES:
            raise ScheduleError(Message(NO_RULING_NEEDED, {"status": self.status.value}))
        if not td.strip():
            raise ScheduleError(Message(RULING_WITHOUT_TD))
        status = RescheduleStatus.TD_ALLOWED if allowed else RescheduleStatus.TD_REFUSED
        return replace(self, status=status, td=td.strip(), td_note=note.strip())


def reschedule_notice_deadline(normal_date: date, reg: Regulations) -> Deadline:
    """The notice of a rescheduling must reach the organiser by the end of the day before the
    match's normal date (R14.2a, I12)."""
    day = normal_date - timedelta(days=reg.schedule.reschedule_notice_days)
    return Deadline(end_of_day(day, reg), "R14.2a", WHAT_NOTIFY_RESCHEDULING)


def result_record_deadline(round_last_match_date: date, reg: Regulations) -> Deadline:
    """The match record must reach the organiser by 13:00 on the scheduled day of the round's
    last match (R14.2b)."""
    return Deadline(
        local(round_last_match_date, reg.schedule.result_record_deadline, reg),
        "R14.2b",
        WHAT_DELIVER_RECORD,
    )


def record_in_time(received_at: datetime, round_last_match_date: date, reg: Regulations) -> bool:
    """Whether a match record received at ``received_at`` is in time (R14.2b)."""
    return result_record_deadline(round_last_match_date, reg).met_by(received_at)


def record_answer_deadline(submitted_at: datetime, reg: Regulations) -> Deadline:
    """The opponents confirm or dispute a captain's match record within the edition's hours
    (``schedule.record_confirm_hours``, real time: a night the clocks change counts as it is);
    the regulations fix no such time, so the clause is R14.2b, the record's own."""
    return Deadline(
        after(submitted_at, timedelta(hours=reg.schedule.record_confirm_hours), reg),
        "R14.2b",
        WHAT_ANSWER_RECORD,
    )


def reschedule_by_agreement(
    notice_received_at: datetime,
    normal_date: date,
    reg: Regulations,
    *,
    new_start: datetime | None = None,
    round_last_match_date: date | None = None,
) -> RescheduleDecision:
    """Decide a rescheduling agreed by both teams (R14.2, I12).

    Accepted when the notice (from either team) reached the organiser by the end of the day
    before the normal date; if ``new_start`` and ``round_last_match_date`` are given, the match
    must also start before the record deadline of R14.2b. Otherwise the TD decides.
    """
    deadline = reschedule_notice_deadline(normal_date, reg)
    day = deadline.at.date().isoformat()
    if not deadline.met_by(notice_received_at):
        received = f"{notice_received_at.astimezone(zone(reg)):%Y-%m-%d %H:%M}"
        return RescheduleDecision.of(
            RescheduleStatus.TD_DECIDES,
            Message(NOTICE_LATE, {"received": received, "day": day}),
            deadline,
        )
    if new_start is not None and round_last_match_date is not None:
        record = result_record_deadline(round_last_match_date, reg)
        if not record.met_by(_aware(new_start, THE_NEW_START)):
            return RescheduleDecision.of(
                RescheduleStatus.TD_DECIDES,
                Message(AFTER_RECORD_DEADLINE, {"deadline": f"{record.at:%Y-%m-%d %H:%M}"}),
                deadline,
            )
    return RescheduleDecision.of(
        RescheduleStatus.ACCEPTED, Message(NOTICE_IN_TIME, {"day": day}), deadline
    )


# --------------------------------------------------------------------------------------------
# Appeal deadlines (R16.3, R16.4, I15)


def end_of_play(open_room_finished: datetime, closed_room_finished: datetime) -> datetime:
    """The end of a match or segment: the last board completed in both rooms, as recorded by
    the TD (I15)."""
    return max(
        _aware(open_room_finished, THE_OPEN_ROOMS_END),
        _aware(closed_room_finished, THE_CLOSED_ROOMS_END),
        key=lambda moment: moment.astimezone(UTC),  # real time, also in the repeated hour
    )


def appeal_deadlines(
    reg: Regulations,
    *,
    match_ended_at: datetime | None,
    segment_ended_at: datetime | None = None,
    segment_deadlines_announced: bool = False,
    played_early_round_date: date | None = None,
) -> tuple[Deadline, ...]:
    """The deadlines an appeal must meet (R16.3, R16.4, I12, I15).

    - 30 minutes after the end of the match; or, when the organiser announced segment deadlines
      and the appeal is about a segment, 30 minutes after the end of that segment (it cannot be
      lodged later, R16.3);
    - for a match played early by agreement (``played_early_round_date`` is the scheduled day of
      the round's last match, I12), the form must also reach the organiser by 13:00 that day
      (R16.4).
    """
    minutes = timedelta(minutes=reg.appeals.deadline_minutes)
    deadlines: list[Deadline] = []
    if segment_deadlines_announced and segment_ended_at is not None:
        end = _aware(segment_ended_at, THE_END_OF_THE_SEGMENT)
        deadlines.append(Deadline(after(end, minutes, reg), "R16.3", WHAT_LODGE_SEGMENT_APPEAL))
    elif match_ended_at is not None:
        end = _aware(match_ended_at, THE_END_OF_THE_MATCH)
        deadlines.append(Deadline(after(end, minutes, reg), "R16.3", WHAT_LODGE_APPEAL))
    else:
        raise ScheduleError(Message(NO_END_OF_PLAY))
    if played_early_round_date is not None:
        deadlines.append(
            Deadline(
                local(played_early_round_date, reg.appeals.early_match_form_deadline, reg),
                "R16.4",
                WHAT_FORM_REACHES_ORGANISER,
            )
        )
    return tuple(deadlines)


# --------------------------------------------------------------------------------------------
# iCalendar export


@dataclass(frozen=True, slots=True)
class CalendarEvent:
    """A scheduled match (or session) for a calendar."""

    uid: str
    """Stable and unique, e.g. ``"1999-M3@bridgeko"``; a calendar updates an event by it."""
    title: str
    start: datetime
    end: datetime
    location: str = ""

    def __post_init__(self) -> None:
        _aware(self.start, AN_EVENTS_START)
        _aware(self.end, AN_EVENTS_END)
        if not self.uid.strip():
            raise ScheduleError(Message(EVENT_WITHOUT_UID, {"title": repr(self.title)}))
        if self.end < self.start:
            raise ScheduleError(Message(EVENT_ENDS_BEFORE_START, {"title": repr(self.title)}))


def match_event(
    uid: str,
    title: str,
    start: datetime,
    segments: Sequence[int],
    screens: bool,
    rules: MatchRules,
    *,
    location: str = "",
    break_between: timedelta = timedelta(0),
) -> CalendarEvent:
    """An event for a match whose end is its start plus the time allowed (R12.8)."""
    _aware(start, THE_START_OF_THE_MATCH)
    assert start.tzinfo is not None
    end = after(
        start, playing_time(segments, screens, rules, break_between=break_between), start.tzinfo
    )
    return CalendarEvent(uid, title, start, end, location)


_STAGE_TITLES: dict[Stage, str] = {
    Stage.PRELIMINARY: "Preliminary round",
    Stage.QUARTERFINAL: "Quarterfinals",
    Stage.SEMIFINAL: "Semifinals",
    Stage.THIRD_PLACE: "Match for 3rd place",
    Stage.FINAL: "Final",
}


def timetable_events(
    timetable: Iterable[Session],
    reg: Regulations,
    *,
    uid_suffix: str = "bridgeko",
    location: str | None = None,
) -> list[CalendarEvent]:
    """Calendar events of a finals timetable: each session lasts the time allowed for a
    segment with screens (R12.7, R12.8); the location defaults to the edition's venue."""
    length = segment_time_limit(reg.match.segment_boards, True, reg.match)
    return [
        CalendarEvent(
            uid=f"{reg.edition.year}-{s.stage.value}-{s.segment}@{uid_suffix}",
            title=f"{reg.edition.name}: {_STAGE_TITLES[s.stage]}, segment {s.segment}",
            start=s.start,
            end=after(s.start, length, reg),
            location=reg.edition.venue if location is None else location,
        )
        for s in timetable
    ]


def to_ics(
    events: Iterable[CalendarEvent],
    *,
    stamp: datetime,
    name: str = "bridgeko",
) -> bytes:
    """An iCalendar (RFC 5545) file of ``events``; ``stamp`` (the time of the export, passed in)
    is every event's DTSTAMP."""
    stamp = _aware(stamp, THE_EXPORT_TIME)
    calendar = icalendar.Calendar()
    calendar.add("prodid", f"-//{name}//bridgeko//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    for event in events:
        item = icalendar.Event()
        item.add("uid", event.uid)
        item.add("dtstamp", stamp)
        item.add("summary", event.title)
        item.add("dtstart", event.start)
        item.add("dtend", event.end)
        if event.location:
            item.add("location", event.location)
        calendar.add_component(item)
    calendar.add_missing_timezones()
    data: bytes = calendar.to_ical()
    return data
