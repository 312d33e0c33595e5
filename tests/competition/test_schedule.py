"""Dates, deadlines and time limits (R12.7, R12.8, R14, R16.3, R16.4, I12, I15)."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.competition.regulations import (
    AppealRules,
    EditionInfo,
    EntryRules,
    MatchRules,
    RatingRules,
    Regulations,
    ScheduleRules,
    Stage,
)
from bridgeko.competition.schedule import (
    CalendarEvent,
    Deadline,
    RescheduleStatus,
    ScheduleError,
    Session,
    appeal_deadlines,
    dates_publication_deadline,
    default_finals_timetable,
    end_of_play,
    finals_dates,
    match_event,
    match_segment_boards,
    override_session,
    preliminary_dates,
    preliminary_round_count,
    record_in_time,
    reschedule_by_agreement,
    result_record_deadline,
    segment_time_limit,
    timetable_events,
    to_ics,
    uses_screens,
)

PRAGUE = ZoneInfo("Europe/Prague")
CET = timezone(timedelta(hours=1))
CEST = timezone(timedelta(hours=2))


def regulations_1999(**schedule: object) -> Regulations:
    return Regulations(
        edition=EditionInfo(
            name="Bridge Open K.O. 1999",
            year=1999,
            organiser="Klub pro podporu",
            venue="Nové Město nad Metují",
        ),
        entry=EntryRules(deadline=date(1999, 3, 5)),
        rating=RatingRules(reference_date=date(1998, 6, 30)),
        schedule=replace(
            ScheduleRules(finals_start=date(1999, 6, 4), finals_end=date(1999, 6, 6)),
            **schedule,
        ),
    )


REG = regulations_1999()


# R12.8 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("boards", "screens", "minutes"),
    [(16, False, 120), (16, True, 130), (4, False, 35), (4, True, 40)],
)
def test_R12_8_segment_time_limit_with_screens(boards: int, screens: bool, minutes: int) -> None:
    assert segment_time_limit(boards, screens, MatchRules()) == timedelta(minutes=minutes)


def test_R12_8_time_limits_come_from_the_regulations() -> None:
    rules = MatchRules(segment_boards=12, segment_minutes=90, extra_segment_minutes_screens=45)
    assert segment_time_limit(12, False, rules) == timedelta(minutes=90)
    assert segment_time_limit(4, True, rules) == timedelta(minutes=45)


def test_R12_8_unknown_segment_size_is_an_error() -> None:
    with pytest.raises(ScheduleError, match="8 boards"):
        segment_time_limit(8, False, MatchRules())


def test_R12_1_segments_of_a_match() -> None:
    assert match_segment_boards(Stage.PRELIMINARY, MatchRules()) == (16, 16)
    assert match_segment_boards(Stage.FINAL, MatchRules()) == (16, 16, 16)


def test_R12_7_screens_from_the_quarterfinals() -> None:
    rules = MatchRules()
    assert uses_screens(Stage.QUARTERFINAL, rules)
    assert uses_screens(Stage.SEMIFINAL, rules)
    assert uses_screens(Stage.THIRD_PLACE, rules)
    assert uses_screens(Stage.FINAL, rules)
    assert not uses_screens(Stage.PRELIMINARY, rules)


def test_R12_7_screens_in_other_matches_by_captains_agreement() -> None:
    rules = MatchRules()
    assert uses_screens(Stage.PRELIMINARY, rules, captains_agree=True)
    assert not uses_screens(
        Stage.PRELIMINARY, rules, captains_agree=True, technically_possible=False
    )


# R14.1 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "rounds"), [(8, 0), (16, 1), (32, 2), (64, 3)])
def test_R11_6_preliminary_round_count(size: int, rounds: int) -> None:
    assert preliminary_round_count(size) == rounds


@pytest.mark.parametrize("size", [4, 12, 24, 0])
def test_R11_6_preliminary_round_count_needs_a_scheme_size(size: int) -> None:
    with pytest.raises(ScheduleError, match=str(size)):
        preliminary_round_count(size)


def test_R14_1_fridays_19h() -> None:
    # Draw on Saturday 13 March 1999; the organiser starts from Saturday 20 March.
    dates = preliminary_dates(32, date(1999, 3, 20), date(1999, 3, 13), REG)
    # 1999-03-26 is a Friday (CET); clocks went forward on 28 March, so 2 April is CEST.
    assert dates == [
        datetime(1999, 3, 26, 19, 0, tzinfo=CET),
        datetime(1999, 4, 2, 19, 0, tzinfo=CEST),
    ]
    assert [d.utcoffset() for d in dates] == [timedelta(hours=1), timedelta(hours=2)]
    assert all(d.tzinfo == PRAGUE for d in dates)


def test_R14_1_first_date_on_a_friday_is_kept() -> None:
    assert preliminary_dates(16, date(1999, 3, 19), date(1999, 3, 13), REG) == [
        datetime(1999, 3, 19, 19, 0, tzinfo=CET)
    ]


def test_R14_1_no_preliminary_rounds_for_8_teams() -> None:
    assert preliminary_dates(8, date(1999, 3, 19), date(1999, 3, 13), REG) == []


def test_R14_1_first_round_not_before_the_draw() -> None:
    with pytest.raises(ScheduleError, match="before the draw"):
        preliminary_dates(16, date(1999, 3, 12), date(1999, 3, 13), REG)


def test_R14_1_preliminary_rounds_before_the_finals() -> None:
    with pytest.raises(ScheduleError, match="preliminary round 2 on 1999-06-04"):
        preliminary_dates(32, date(1999, 5, 28), date(1999, 3, 13), REG)


def test_R14_1_weekday_and_hour_are_editable() -> None:
    reg = regulations_1999(preliminary_weekday=1, preliminary_start=time(18, 30))
    assert preliminary_dates(16, date(1999, 3, 13), date(1999, 3, 13), reg) == [
        datetime(1999, 3, 16, 18, 30, tzinfo=CET)
    ]


def test_R14_1_dates_published_within_two_weeks_end_of_day() -> None:
    deadline = dates_publication_deadline(date(1999, 3, 13), REG)
    assert deadline.clause == "R14.1"
    assert deadline.met_by(datetime(1999, 3, 27, 23, 59, 59, tzinfo=CET))
    assert not deadline.met_by(datetime(1999, 3, 28, 0, 0, tzinfo=CET))


# R14.3 --------------------------------------------------------------------------------------


def test_R14_3_finals_weekend_dates() -> None:
    assert finals_dates(REG) == [date(1999, 6, 4), date(1999, 6, 5), date(1999, 6, 6)]


def test_R14_3_default_timetable() -> None:
    table = default_finals_timetable(REG)
    starts = {(s.stage, s.segment): s.start for s in table}
    # 130 minutes with screens + 30 minutes break: slots at 10:00, 12:40, 15:20, 18:00, 20:40.
    assert starts == {
        (Stage.QUARTERFINAL, 1): datetime(1999, 6, 4, 10, 0, tzinfo=CEST),
        (Stage.QUARTERFINAL, 2): datetime(1999, 6, 4, 12, 40, tzinfo=CEST),
        (Stage.SEMIFINAL, 1): datetime(1999, 6, 4, 15, 20, tzinfo=CEST),
        (Stage.SEMIFINAL, 2): datetime(1999, 6, 4, 18, 0, tzinfo=CEST),
        (Stage.FINAL, 1): datetime(1999, 6, 4, 20, 40, tzinfo=CEST),
        (Stage.THIRD_PLACE, 1): datetime(1999, 6, 4, 20, 40, tzinfo=CEST),
        (Stage.FINAL, 2): datetime(1999, 6, 5, 10, 0, tzinfo=CEST),
        (Stage.THIRD_PLACE, 2): datetime(1999, 6, 5, 10, 0, tzinfo=CEST),
        (Stage.FINAL, 3): datetime(1999, 6, 5, 12, 40, tzinfo=CEST),
    }
    assert len(table) == 9


def test_R14_3_timetable_with_shorter_days() -> None:
    table = default_finals_timetable(
        REG, day_start=time(9, 0), latest_end=time(19, 0), break_between=timedelta(hours=1)
    )
    # 9:00, 12:10, 15:20 fit (15:20 + 2:10 = 17:30); 18:30 would end 20:40.
    days = [s.start.date().day for s in table if s.stage is not Stage.THIRD_PLACE]
    assert days == [4, 4, 4, 5, 5, 5, 6]


def test_R14_3_timetable_first_day_starts_later() -> None:
    table = default_finals_timetable(REG, first_day_start=time(17, 0))
    first_day = [(s.stage, s.segment, s.start) for s in table if s.start.day == 4]
    # 17:00 + 2:10 = 19:10, then 19:40 + 2:10 = 21:50; a third slot at 22:20 would end too late.
    assert first_day == [
        (Stage.QUARTERFINAL, 1, datetime(1999, 6, 4, 17, 0, tzinfo=CEST)),
        (Stage.QUARTERFINAL, 2, datetime(1999, 6, 4, 19, 40, tzinfo=CEST)),
    ]
    assert [(s.stage, s.segment, s.start.day) for s in table[2:]] == [
        (Stage.SEMIFINAL, 1, 5),
        (Stage.SEMIFINAL, 2, 5),
        (Stage.FINAL, 1, 5),
        (Stage.THIRD_PLACE, 1, 5),
        (Stage.FINAL, 2, 5),
        (Stage.THIRD_PLACE, 2, 5),
        (Stage.FINAL, 3, 5),
    ]


def test_R14_3_third_place_longer_than_the_final_gets_its_own_slots() -> None:
    reg = replace(REG, match=MatchRules(boards=48, final_boards=32))
    stages = [(s.stage, s.segment) for s in default_finals_timetable(reg)]
    assert stages[-3:] == [
        (Stage.FINAL, 2),
        (Stage.THIRD_PLACE, 2),
        (Stage.THIRD_PLACE, 3),
    ]


def test_R14_3_timetable_must_fit_the_weekend() -> None:
    reg = regulations_1999(finals_end=date(1999, 6, 4))
    with pytest.raises(ScheduleError, match="do not fit"):
        default_finals_timetable(reg)


def test_R14_3_td_overrides_a_session() -> None:
    table = default_finals_timetable(REG)
    new = datetime(1999, 6, 5, 9, 30, tzinfo=PRAGUE)
    changed = override_session(table, Stage.FINAL, 2, new)
    assert next(s for s in changed if s.stage is Stage.FINAL and s.segment == 2).start == new
    assert next(s for s in table if s.stage is Stage.FINAL and s.segment == 2).start != new
    with pytest.raises(ScheduleError, match="semifinal segment 3"):
        override_session(table, Stage.SEMIFINAL, 3, new)


def test_R14_3_session_round_trips_as_a_dict() -> None:
    session = Session(Stage.SEMIFINAL, 2, datetime(1999, 6, 5, 15, 20, tzinfo=CEST))
    data = session.to_dict()
    assert data == {"stage": "semifinal", "segment": 2, "start": "1999-06-05T15:20:00+02:00"}
    assert Session.from_dict(dict(data)) == session
    with pytest.raises(ScheduleError):
        Session.from_dict({"stage": "semifinal", "segment": 0, "start": data["start"]})
    with pytest.raises(ScheduleError, match="timezone-aware"):
        Session.from_dict({"stage": "final", "segment": 1, "start": "1999-06-05T15:20:00"})


# R14.2 --------------------------------------------------------------------------------------


def test_R14_2a_notice_a_day_before() -> None:
    normal = date(1999, 3, 26)
    on_time = reschedule_by_agreement(datetime(1999, 3, 25, 23, 59, tzinfo=CET), normal, REG)
    assert on_time.status is RescheduleStatus.ACCEPTED
    assert on_time.allowed is True
    assert "R14.2a" in on_time.reason
    late = reschedule_by_agreement(datetime(1999, 3, 26, 0, 0, 1, tzinfo=CET), normal, REG)
    assert late.status is RescheduleStatus.TD_DECIDES
    assert late.allowed is None
    assert "TD decides" in late.reason


def test_R14_2a_deadline_is_local_time() -> None:
    # 23:30 UTC on 25 March is already 00:30 on 26 March in Prague.
    decision = reschedule_by_agreement(
        datetime(1999, 3, 25, 23, 30, tzinfo=UTC), date(1999, 3, 26), REG
    )
    assert decision.status is RescheduleStatus.TD_DECIDES


def test_R14_2a_td_ruling_is_recorded() -> None:
    late = reschedule_by_agreement(datetime(1999, 3, 26, 10, 0, tzinfo=CET), date(1999, 3, 26), REG)
    ruled = late.with_td_ruling(True, " J. Novák ", "both captains phoned the TD")
    assert ruled.status is RescheduleStatus.TD_ALLOWED
    assert ruled.allowed is True
    assert ruled.td == "J. Novák"
    refused = late.with_td_ruling(False, "J. Novák", "")
    assert refused.allowed is False
    with pytest.raises(ScheduleError, match="name the TD"):
        late.with_td_ruling(True, "  ", "")
    with pytest.raises(ScheduleError, match="no TD ruling"):
        ruled.with_td_ruling(False, "J. Novák", "")


def test_R14_2a_notice_days_are_editable() -> None:
    reg = regulations_1999(reschedule_notice_days=3)
    decision = reschedule_by_agreement(
        datetime(1999, 3, 24, 12, 0, tzinfo=CET), date(1999, 3, 26), reg
    )
    assert decision.status is RescheduleStatus.TD_DECIDES
    assert decision.notice_deadline.at == datetime(1999, 3, 23, 23, 59, 59, 999999, tzinfo=PRAGUE)


def test_R14_2_match_after_the_record_deadline_goes_to_the_td() -> None:
    decision = reschedule_by_agreement(
        datetime(1999, 3, 20, 12, 0, tzinfo=CET),
        date(1999, 3, 26),
        REG,
        new_start=datetime(1999, 3, 26, 14, 0, tzinfo=CET),
        round_last_match_date=date(1999, 3, 26),
    )
    assert decision.status is RescheduleStatus.TD_DECIDES
    assert "R14.2b" in decision.reason
    early = reschedule_by_agreement(
        datetime(1999, 3, 20, 12, 0, tzinfo=CET),
        date(1999, 3, 26),
        REG,
        new_start=datetime(1999, 3, 23, 18, 0, tzinfo=CET),
        round_last_match_date=date(1999, 3, 26),
    )
    assert early.status is RescheduleStatus.ACCEPTED


def test_R14_2b_record_by_13h() -> None:
    day = date(1999, 3, 26)
    assert record_in_time(datetime(1999, 3, 26, 13, 0, tzinfo=CET), day, REG)
    assert record_in_time(datetime(1999, 3, 25, 22, 0, tzinfo=CET), day, REG)
    assert not record_in_time(datetime(1999, 3, 26, 13, 0, 1, tzinfo=CET), day, REG)
    assert not record_in_time(datetime(1999, 3, 26, 12, 30, tzinfo=UTC), day, REG)
    assert result_record_deadline(day, REG).clause == "R14.2b"


def test_I12_naive_datetimes_are_refused() -> None:
    with pytest.raises(ScheduleError, match="timezone-aware"):
        record_in_time(datetime(1999, 3, 26, 12, 0), date(1999, 3, 26), REG)  # noqa: DTZ001


# R16.3, R16.4, I15 --------------------------------------------------------------------------


def test_I15_end_is_the_last_board_in_both_rooms() -> None:
    open_room = datetime(1999, 3, 26, 23, 10, tzinfo=CET)
    closed_room = datetime(1999, 3, 26, 23, 25, tzinfo=CET)
    assert end_of_play(open_room, closed_room) == closed_room
    assert end_of_play(closed_room, open_room) == closed_room


def test_R16_3_appeal_30_minutes() -> None:
    end = datetime(1999, 3, 26, 23, 25, tzinfo=CET)
    (deadline,) = appeal_deadlines(REG, match_ended_at=end)
    assert deadline.clause == "R16.3"
    assert deadline.at == datetime(1999, 3, 26, 23, 55, tzinfo=CET)
    assert deadline.met_by(datetime(1999, 3, 26, 23, 55, tzinfo=CET))
    assert not deadline.met_by(datetime(1999, 3, 26, 23, 56, tzinfo=CET))


def test_R16_3_segment_deadline_when_announced() -> None:
    segment_end = datetime(1999, 6, 4, 12, 10, tzinfo=CEST)
    match_end = datetime(1999, 6, 4, 15, 0, tzinfo=CEST)
    (deadline,) = appeal_deadlines(
        REG,
        match_ended_at=match_end,
        segment_ended_at=segment_end,
        segment_deadlines_announced=True,
    )
    assert deadline.at == datetime(1999, 6, 4, 12, 40, tzinfo=CEST)
    # Not announced: the match's end counts even for an appeal about a segment.
    (deadline,) = appeal_deadlines(REG, match_ended_at=match_end, segment_ended_at=segment_end)
    assert deadline.at == datetime(1999, 6, 4, 15, 30, tzinfo=CEST)


def test_R16_3_minutes_are_editable() -> None:
    reg = Regulations(
        edition=REG.edition,
        entry=REG.entry,
        rating=REG.rating,
        schedule=REG.schedule,
        appeals=AppealRules(deadline_minutes=45),
    )
    (deadline,) = appeal_deadlines(reg, match_ended_at=datetime(1999, 3, 26, 23, 0, tzinfo=CET))
    assert deadline.at == datetime(1999, 3, 26, 23, 45, tzinfo=CET)


def test_R16_3_end_must_be_recorded() -> None:
    with pytest.raises(ScheduleError, match="I15"):
        appeal_deadlines(REG, match_ended_at=None)


def test_R16_4_early_match_form_by_13h_on_the_round_day() -> None:
    deadlines = appeal_deadlines(
        REG,
        match_ended_at=datetime(1999, 3, 23, 22, 30, tzinfo=CET),
        played_early_round_date=date(1999, 3, 26),
    )
    assert [(d.clause, d.at) for d in deadlines] == [
        ("R16.3", datetime(1999, 3, 23, 23, 0, tzinfo=CET)),
        ("R16.4", datetime(1999, 3, 26, 13, 0, tzinfo=CET)),
    ]


def test_deadline_str_names_the_clause() -> None:
    deadline = Deadline(datetime(1999, 3, 26, 13, 0, tzinfo=PRAGUE), "R14.2b", "deliver")
    assert str(deadline) == "deliver by 1999-03-26 13:00 CET (R14.2b)"


# iCalendar ----------------------------------------------------------------------------------


def test_to_ics_exports_matches() -> None:
    start = datetime(1999, 3, 26, 19, 0, tzinfo=PRAGUE)
    event = match_event(
        "1999-M1@bridgeko",
        "Team A – Team B",
        start,
        (16, 16),
        False,
        MatchRules(),
        location="Bridge Club Nové Město nad Metují",
        break_between=timedelta(minutes=15),
    )
    # 2 x 120 minutes + 15 minutes break.
    assert event.end == datetime(1999, 3, 26, 23, 15, tzinfo=PRAGUE)
    data = to_ics([event], stamp=datetime(1999, 3, 14, 10, 0, tzinfo=UTC))
    assert isinstance(data, bytes)
    calendar = icalendar.Calendar.from_ical(data)
    (vevent,) = calendar.walk("VEVENT")
    assert str(vevent["UID"]) == "1999-M1@bridgeko"
    assert str(vevent["SUMMARY"]) == "Team A – Team B"
    assert str(vevent["LOCATION"]) == "Bridge Club Nové Město nad Metují"
    assert vevent.decoded("DTSTART") == datetime(1999, 3, 26, 18, 0, tzinfo=UTC)
    assert vevent.decoded("DTEND") == datetime(1999, 3, 26, 22, 15, tzinfo=UTC)
    assert b"BEGIN:VTIMEZONE" in data
    assert b"DTSTAMP:19990314T100000Z" in data


def test_to_ics_empty_and_invalid_events() -> None:
    stamp = datetime(1999, 3, 14, 10, 0, tzinfo=UTC)
    assert b"BEGIN:VCALENDAR" in to_ics([], stamp=stamp)
    start = datetime(1999, 3, 26, 19, 0, tzinfo=PRAGUE)
    with pytest.raises(ScheduleError, match="ends before"):
        CalendarEvent("x", "T", start, start - timedelta(minutes=1))
    with pytest.raises(ScheduleError, match="uid"):
        CalendarEvent(" ", "T", start, start)


# Properties ---------------------------------------------------------------------------------


@given(
    first=st.dates(min_value=date(1999, 1, 1), max_value=date(1999, 3, 31)),
    size=st.sampled_from([8, 16, 32]),
)
def test_R14_1_every_round_is_a_friday_at_19h_a_week_apart(first: date, size: int) -> None:
    dates = preliminary_dates(size, first, first, REG)
    assert len(dates) == {8: 0, 16: 1, 32: 2}[size]
    for start in dates:
        assert start.weekday() == 4
        assert (start.hour, start.minute) == (19, 0)
        assert start.tzinfo == PRAGUE
    assert all(b.date() - a.date() == timedelta(days=7) for a, b in itertools.pairwise(dates))
    if dates:
        assert first <= dates[0].date() < first + timedelta(days=7)


@given(minutes=st.integers(min_value=-600, max_value=600))
def test_R14_2b_in_time_exactly_up_to_13h(minutes: int) -> None:
    received = datetime(1999, 3, 26, 13, 0, tzinfo=PRAGUE) + timedelta(minutes=minutes)
    assert record_in_time(received, date(1999, 3, 26), REG) is (minutes <= 0)


def test_R14_3_timetable_as_calendar_events() -> None:
    table = default_finals_timetable(REG)[:2]
    events = timetable_events(table, REG)
    assert events == [
        CalendarEvent(
            "1999-quarterfinal-1@bridgeko",
            "Bridge Open K.O. 1999: Quarterfinals, segment 1",
            datetime(1999, 6, 4, 10, 0, tzinfo=CEST),
            datetime(1999, 6, 4, 12, 10, tzinfo=CEST),
            "Nové Město nad Metují",
        ),
        CalendarEvent(
            "1999-quarterfinal-2@bridgeko",
            "Bridge Open K.O. 1999: Quarterfinals, segment 2",
            datetime(1999, 6, 4, 12, 40, tzinfo=CEST),
            datetime(1999, 6, 4, 14, 50, tzinfo=CEST),
            "Nové Město nad Metují",
        ),
    ]
    data = to_ics(events, stamp=datetime(1999, 5, 1, tzinfo=UTC))
    assert len(icalendar.Calendar.from_ical(data).walk("VEVENT")) == 2


def test_reasons_and_deadlines_are_translatable_templates() -> None:
    late = reschedule_by_agreement(datetime(1999, 3, 26, 10, 0, tzinfo=CET), date(1999, 3, 26), REG)
    assert late.reason_detail.template.startswith("the notice arrived %(received)s")
    assert dict(late.reason_detail.params) == {"received": "1999-03-26 10:00", "day": "1999-03-25"}
    assert late.reason == str(late.reason_detail)
    deadline = result_record_deadline(date(1999, 3, 26), REG)
    czech = {
        "%(what)s by %(at)s (%(clause)s)": "%(what)s do %(at)s (%(clause)s)",
        "deliver the match record to the organiser": "doručit zápis pořadateli",
    }
    assert (
        deadline.detail.format(czech.get)
        == "doručit zápis pořadateli do 1999-03-26 13:00 CET (R14.2b)"
    )
    assert (
        str(deadline)
        == "deliver the match record to the organiser by 1999-03-26 13:00 CET (R14.2b)"
    )


# Review R2: daylight saving time in Europe/Prague (I12, R14.2a, R16.3) -----------------------
# 1999: summer time began on Sunday 28 March at 02:00 CET (-> 03:00 CEST) and ended on Sunday
# 31 October at 03:00 CEST (-> 02:00 CET), so 02:00-03:00 local happened twice that night.


def test_R16_3_I12_appeal_deadline_is_30_real_minutes_when_the_clocks_go_back() -> None:
    # The match ends at 02:50 CEST (00:50 UTC); 30 minutes later it is 01:20 UTC = 02:20 CET.
    end = datetime(1999, 10, 31, 0, 50, tzinfo=UTC)
    (deadline,) = appeal_deadlines(REG, match_ended_at=end)
    assert deadline.at.astimezone(UTC) == datetime(1999, 10, 31, 1, 20, tzinfo=UTC)
    # 02:40 CET (fold=1, the second 02:40 of the night) is 01:40 UTC: 50 minutes after the end.
    assert not deadline.met_by(datetime(1999, 10, 31, 2, 40, fold=1, tzinfo=PRAGUE))
    assert deadline.met_by(datetime(1999, 10, 31, 2, 20, fold=1, tzinfo=PRAGUE))
    assert not deadline.met_by(datetime(1999, 10, 31, 1, 21, tzinfo=UTC))


def test_R16_3_I12_segment_appeal_deadline_when_the_clocks_go_forward() -> None:
    # The segment ends at 01:50 CET (00:50 UTC); 30 minutes later it is 01:20 UTC = 03:20 CEST.
    end = datetime(1999, 3, 28, 1, 50, tzinfo=PRAGUE)
    (deadline,) = appeal_deadlines(
        REG, match_ended_at=None, segment_ended_at=end, segment_deadlines_announced=True
    )
    assert deadline.at.astimezone(UTC) == datetime(1999, 3, 28, 1, 20, tzinfo=UTC)
    assert deadline.at.utcoffset() == timedelta(hours=2)  # shown in CEST
    assert deadline.met_by(datetime(1999, 3, 28, 3, 20, tzinfo=PRAGUE))
    assert not deadline.met_by(datetime(1999, 3, 28, 3, 21, tzinfo=PRAGUE))


@pytest.mark.parametrize(
    ("received_utc", "in_time"),
    [
        # Normal date Monday 29 March 1999: notice by the end of Sunday 28 March, in CEST.
        (datetime(1999, 3, 28, 21, 59, tzinfo=UTC), True),  # 23:59 CEST
        (datetime(1999, 3, 28, 22, 0, tzinfo=UTC), False),  # 00:00 CEST on the normal date
        (datetime(1999, 3, 28, 22, 30, tzinfo=UTC), False),  # would be 23:30 in CET
    ],
)
def test_R14_2a_I12_notice_23_59_vs_00_00_on_the_day_summer_time_begins(
    received_utc: datetime, in_time: bool
) -> None:
    decision = reschedule_by_agreement(received_utc, date(1999, 3, 29), REG)
    assert decision.allowed is (True if in_time else None)


@pytest.mark.parametrize(
    ("received", "in_time"),
    [
        # Normal date Monday 1 November 1999: notice by the end of Sunday 31 October, in CET.
        (datetime(1999, 10, 31, 22, 59, tzinfo=UTC), True),  # 23:59 CET
        (datetime(1999, 10, 31, 23, 0, tzinfo=UTC), False),  # 00:00 CET on the normal date
        (datetime(1999, 10, 31, 23, 59, tzinfo=PRAGUE), True),
        (datetime(1999, 11, 1, 0, 0, tzinfo=PRAGUE), False),
        (datetime(1999, 10, 31, 2, 30, fold=1, tzinfo=PRAGUE), True),  # the repeated hour
    ],
)
def test_R14_2a_I12_notice_23_59_vs_00_00_on_the_day_summer_time_ends(
    received: datetime, in_time: bool
) -> None:
    decision = reschedule_by_agreement(received, date(1999, 11, 1), REG)
    assert decision.allowed is (True if in_time else None)


def test_I12_a_deadline_compares_real_instants_in_the_repeated_hour() -> None:
    # 02:30 CEST (fold=0) is 00:30 UTC; 02:10 CET (fold=1) is 01:10 UTC, 40 minutes later.
    deadline = Deadline(datetime(1999, 10, 31, 2, 30, tzinfo=PRAGUE), "R16.3", "lodge")
    assert not deadline.met_by(datetime(1999, 10, 31, 2, 10, fold=1, tzinfo=PRAGUE))
    assert deadline.met_by(datetime(1999, 10, 31, 2, 10, tzinfo=PRAGUE))


def test_R12_8_calendar_event_lasts_real_time_across_the_change_of_time() -> None:
    # A rescheduled match (R14.2) from 23:30 CEST on 30 October (21:30 UTC), 2 x 120 minutes:
    # it ends at 01:30 UTC = 02:30 CET, the second 02:30 of the night (wall clock: 3 hours).
    start = datetime(1999, 10, 30, 23, 30, tzinfo=PRAGUE)
    event = match_event("m", "M", start, [16, 16], False, MatchRules())
    assert event.end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=4)
    assert event.end.astimezone(UTC) == datetime(1999, 10, 31, 1, 30, tzinfo=UTC)


# Review R2: one place for boards, segments and rounds -----------------------------------------


@pytest.mark.parametrize(
    ("rules", "stage", "expected"),
    [
        (MatchRules(), Stage.PRELIMINARY, (16, 16)),
        (MatchRules(), Stage.THIRD_PLACE, (16, 16)),
        (MatchRules(), Stage.FINAL, (16, 16, 16)),
        (MatchRules(boards=24, final_boards=36, segment_boards=12), Stage.SEMIFINAL, (12, 12)),
        (MatchRules(boards=24, final_boards=36, segment_boards=12), Stage.FINAL, (12, 12, 12)),
    ],
)
def test_R1_3_R12_1_schedule_segments_are_the_match_plan(
    rules: MatchRules, stage: Stage, expected: tuple[int, ...]
) -> None:
    from bridgeko.competition.match import segments_for_stage

    assert match_segment_boards(stage, rules) == expected
    assert match_segment_boards(stage, rules) == tuple(
        s.boards for s in segments_for_stage(stage, rules)
    )


def test_R12_1_a_remainder_segment_has_no_time_limit() -> None:
    # match.segments_for_stage plans 16 + 4; R12.8 gives no time for a 4-board regular segment.
    with pytest.raises(ScheduleError, match="segments of 16 boards"):
        match_segment_boards(Stage.PRELIMINARY, MatchRules(boards=20))


@pytest.mark.parametrize(("size", "rounds"), [(8, 0), (16, 1), (32, 2), (64, 3), (1024, 7)])
def test_R11_6_preliminary_rounds_are_those_of_the_scheme(size: int, rounds: int) -> None:
    from bridgeko.competition.bracket import standard_scheme

    scheme = standard_scheme(size)
    in_scheme = {m.round for m in scheme if m.stage is Stage.PRELIMINARY}
    assert preliminary_round_count(size) == rounds == len(in_scheme)


@pytest.mark.parametrize("size", [0, 4, 12, 24, 100])
def test_R11_6_preliminary_round_count_refuses_a_size_that_is_no_scheme(size: int) -> None:
    with pytest.raises(ScheduleError, match="power of two"):
        preliminary_round_count(size)


def test_R12_8_extra_segment_time_when_both_sizes_are_equal() -> None:
    # An edition whose extra segments are as long as the regular ones (R12.5 edited to 16):
    # the size alone cannot tell them apart, the kind of segment can.
    rules = MatchRules(extra_segment_boards=16)
    assert segment_time_limit(16, False, rules) == timedelta(minutes=120)
    assert segment_time_limit(16, False, rules, extra=False) == timedelta(minutes=120)
    assert segment_time_limit(16, False, rules, extra=True) == timedelta(minutes=35)
    assert segment_time_limit(16, True, rules, extra=True) == timedelta(minutes=40)
    # 1999: the kind must fit the size.
    assert segment_time_limit(4, True, MatchRules(), extra=True) == timedelta(minutes=40)
    with pytest.raises(ScheduleError, match="4 boards"):
        segment_time_limit(4, True, MatchRules(), extra=False)
    with pytest.raises(ScheduleError, match="16 boards"):
        segment_time_limit(16, True, MatchRules(), extra=True)


def test_I15_end_of_play_is_the_later_instant_in_the_repeated_hour() -> None:
    # Open room done at 02:50 CEST (00:50 UTC), closed room at 02:10 CET (01:10 UTC, fold=1):
    # the closed room finished later although its wall clock shows an earlier time.
    open_room = datetime(1999, 10, 31, 2, 50, tzinfo=PRAGUE)
    closed_room = datetime(1999, 10, 31, 2, 10, fold=1, tzinfo=PRAGUE)
    assert end_of_play(open_room, closed_room) is closed_room
    assert end_of_play(closed_room, open_room) is closed_room


# Translatable errors (ScheduleError.detail) ---------------------------------------------------


def _error(call: Callable[[], object]) -> ScheduleError:
    with pytest.raises(ScheduleError) as info:
        call()
    return info.value


def test_R14_1_schedule_errors_carry_a_template_and_params() -> None:
    from bridgeko.competition import schedule

    error = _error(lambda: preliminary_dates(16, date(1999, 3, 1), date(1999, 3, 12), REG))
    assert str(error) == (
        "the first preliminary round (1999-03-01) cannot be before the draw (1999-03-12)"
    )
    assert error.detail.template == schedule.FIRST_ROUND_BEFORE_DRAW
    assert error.detail.params == {"first": "1999-03-01", "draw": "1999-03-12"}
    czech = {schedule.FIRST_ROUND_BEFORE_DRAW: "první předkolo (%(first)s) před losováním"}
    assert error.detail.format(czech.get) == "první předkolo (1999-03-01) před losováním"

    error = _error(lambda: preliminary_dates(16, date(1999, 6, 1), date(1999, 3, 12), REG))
    assert error.detail.template == schedule.ROUND_NOT_BEFORE_FINALS
    assert error.detail.params == {"number": 1, "day": "1999-06-04", "finals": "1999-06-04"}
    assert str(error).startswith("preliminary round 1 on 1999-06-04 is not before the finals")

    error = _error(lambda: preliminary_round_count(12))
    assert (error.detail.template, dict(error.detail.params)) == (
        schedule.NOT_A_SCHEME,
        {"size": "12"},
    )


def test_schedule_error_names_the_datetime_with_a_nested_template() -> None:
    from bridgeko.competition import schedule

    naive = datetime(1999, 3, 12, 19, 0)  # noqa: DTZ001  (naive on purpose)
    error = _error(lambda: override_session([], Stage.FINAL, 1, naive))
    assert str(error) == "the new start must be a timezone-aware datetime, got 1999-03-12T19:00:00"
    czech = {
        schedule.NOT_AWARE: "%(name)s musí mít časové pásmo, ne %(value)s",
        schedule.THE_NEW_START: "nový začátek",
    }
    assert error.detail.format(czech.get) == "nový začátek musí mít časové pásmo, ne " + (
        "1999-03-12T19:00:00"
    )


def test_a_plain_schedule_error_still_works() -> None:
    error = ScheduleError("plain text")
    assert str(error) == "plain text" and error.detail.template == "plain text"
    assert isinstance(error, ValueError)


def _catalogue(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file written with --no-wrap (one line each)."""
    pairs = re.findall(r'^msgid "(.*)"\nmsgstr "(.*)"$', path.read_text("utf-8"), re.MULTILINE)
    return {mid.replace('\\"', '"'): text.replace('\\"', '"') for mid, text in pairs}


def test_every_schedule_template_has_a_czech_translation() -> None:
    root = Path(__file__).resolve().parents[2]
    source = root / "src" / "bridgeko" / "competition" / "schedule.py"
    templates = [
        str(node.args[0].value)
        for node in ast.walk(ast.parse(source.read_text("utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "N_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert len(templates) > 30
    czech = _catalogue(root / "src" / "bridgeko" / "locale" / "cs" / "LC_MESSAGES" / "django.po")
    missing = [t for t in templates if not czech.get(t)]
    assert missing == []
    for template in templates:  # named placeholders only, the same in the translation
        assert "%" not in re.sub(r"%\([a-z_]+\)s", "", template), template
        assert sorted(re.findall(r"%\([a-z_]+\)s", czech[template])) == sorted(
            re.findall(r"%\([a-z_]+\)s", template)
        ), template
