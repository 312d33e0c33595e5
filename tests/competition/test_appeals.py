"""Appeals (R16)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from bridgeko.competition.appeals import (
    FINALITY,
    AppealError,
    Committee,
    CommitteeError,
    DepositFate,
    Outcome,
    appeal_in_time,
    check_committee,
    committee_candidates,
    committee_problems,
    decide,
    lodge_appeal,
    name_committee,
)
from bridgeko.competition.regulations import (
    AppealRules,
    EditionInfo,
    EntryRules,
    RatingRules,
    Regulations,
    ScheduleRules,
)

CET = timezone(timedelta(hours=1))
CEST = timezone(timedelta(hours=2))
RULES = AppealRules()
REG = Regulations(
    edition=EditionInfo("Bridge Open K.O. 1999", 1999, "Klub", "Nové Město nad Metují"),
    entry=EntryRules(deadline=date(1999, 3, 5)),
    rating=RatingRules(reference_date=date(1998, 6, 30)),
    schedule=ScheduleRules(finals_start=date(1999, 6, 4), finals_end=date(1999, 6, 6)),
)
CANDIDATES = ["Adam", "Bára", "Cyril", "Dana", "Emil"]
MATCH_PLAYERS = {"Bára", "Filip", "Gustav", "Hana", "Cyril", "Ivo", "Jan", "Karel"}
END = datetime(1999, 3, 26, 23, 25, tzinfo=CET)


# R16.1 --------------------------------------------------------------------------------------


def test_R16_1_committee_excludes_match_players() -> None:
    committee = name_committee(CANDIDATES, MATCH_PLAYERS, RULES)
    assert committee == Committee(("Adam", "Dana", "Emil"))


def test_R16_1_committee_follows_the_list_order_and_skips_unavailable() -> None:
    committee = name_committee(CANDIDATES, {"Filip"}, RULES, unavailable={"adam"})
    assert committee.members == ("Bára", "Cyril", "Dana")


def test_R16_1_players_match_regardless_of_case_and_spacing() -> None:
    committee = name_committee(["  adam  novák", "Dana", "Emil", "Olga"], {"Adam Novák"}, RULES)
    assert committee.members == ("Dana", "Emil", "Olga")


def test_R16_1_not_enough_candidates_names_how_many_are_missing() -> None:
    with pytest.raises(CommitteeError, match="2 missing") as error:
        name_committee(["Adam", "Bára", "Bára", "Cyril"], {"Bára", "Cyril"}, RULES)
    assert error.value.missing == 2
    assert isinstance(error.value, ValueError)


def test_R16_1_committee_size_from_the_rules() -> None:
    committee = name_committee(CANDIDATES, set(), AppealRules(committee_size=5))
    assert committee.members == tuple(CANDIDATES)
    assert name_committee(CANDIDATES, set(), AppealRules(committee_size=1)).members == ("Adam",)


def test_R16_1_committee_size_is_one_rule_for_naming_and_checking() -> None:
    # name_committee takes the size from the rules only (no separate size argument), so a
    # committee it names always passes check_committee with the same rules.
    for size in (1, 3, 4):
        rules = AppealRules(committee_size=size)
        committee = name_committee(CANDIDATES, {"Bára"}, rules)
        assert len(committee.members) == size
        assert check_committee(committee.members, CANDIDATES, {"Bára"}, rules) == []
    with pytest.raises(TypeError):
        name_committee(CANDIDATES, set(), RULES, size=1)  # type: ignore[call-arg]


def test_R16_1_check_a_committee_chosen_by_hand() -> None:
    assert check_committee(["Adam", "Dana", "Emil"], CANDIDATES, MATCH_PLAYERS, RULES) == []
    assert check_committee(["Adam", "Cyril", "Zoe"], CANDIDATES, MATCH_PLAYERS, RULES) == [
        "Cyril plays in the match and cannot sit on the committee",
        "Zoe is not on the organiser's list of candidates (R16.1)",
    ]
    assert check_committee(["Adam", "adam"], CANDIDATES, MATCH_PLAYERS, RULES) == [
        "the committee has 2 member(s), not 3 (R16.1)",
        "Adam is named more than once",
        "adam is named more than once",
    ]


def test_R16_1_candidate_list_from_text() -> None:
    text = ["Adam  Novák", "", "# reserves", "Dana # phone", "adam novák"]
    assert committee_candidates(text) == ["Adam Novák", "Dana"]


# R16.2 --------------------------------------------------------------------------------------


def test_R16_2_appeal_through_the_td_with_a_deposit() -> None:
    lodged = lodge_appeal("M3", "Team A", END, "J. Novák", RULES, match_td="j. novák")
    assert lodged.deposit == 200
    assert lodged.through_td == "J. Novák"
    assert lodge_appeal("M3", "A", END, "TD", AppealRules(deposit=300)).deposit == 300


def test_R16_2_appeal_errors() -> None:
    with pytest.raises(AppealError, match="through the TD"):
        lodge_appeal("M3", "Team A", END, " ", RULES)
    with pytest.raises(AppealError, match=r"must go through P\. Malý"):
        lodge_appeal("M3", "Team A", END, "J. Novák", RULES, match_td="P. Malý")
    with pytest.raises(AppealError, match="deposit is 200; 100"):
        lodge_appeal("M3", "Team A", END, "J. Novák", RULES, deposit_paid=100)
    with pytest.raises(AppealError, match="timezone-aware"):
        lodge_appeal("M3", "Team A", END.replace(tzinfo=None), "J. Novák", RULES)
    with pytest.raises(AppealError, match="from 1"):
        lodge_appeal("M3", "Team A", END, "J. Novák", RULES, segment=0)


# R16.3, R16.4 -------------------------------------------------------------------------------


def test_R16_3_appeal_30_minutes() -> None:
    on_time = lodge_appeal("M3", "A", END + timedelta(minutes=30), "TD", RULES)
    check = appeal_in_time(on_time, REG, match_ended_at=END)
    assert check.in_time
    assert check.reasons == ()
    late = lodge_appeal("M3", "A", END + timedelta(minutes=31), "TD", RULES)
    check = appeal_in_time(late, REG, match_ended_at=END)
    assert not check.in_time
    assert "R16.3" in check.reasons[0]


def test_R16_3_segment_appeal_cannot_be_lodged_later() -> None:
    segment_end = datetime(1999, 6, 4, 12, 10, tzinfo=CEST)
    match_end = datetime(1999, 6, 4, 15, 0, tzinfo=CEST)
    about_segment = lodge_appeal(
        "F", "A", datetime(1999, 6, 4, 14, 0, tzinfo=CEST), "TD", RULES, segment=1
    )
    announced = appeal_in_time(
        about_segment,
        REG,
        match_ended_at=match_end,
        segment_ended_at=segment_end,
        segment_deadlines_announced=True,
    )
    assert not announced.in_time
    not_announced = appeal_in_time(
        about_segment, REG, match_ended_at=match_end, segment_ended_at=segment_end
    )
    assert not_announced.in_time


def test_R16_3_segment_end_must_be_recorded() -> None:
    about_segment = lodge_appeal("F", "A", END, "TD", RULES, segment=2)
    with pytest.raises(AppealError, match="segment 2"):
        appeal_in_time(about_segment, REG, match_ended_at=END, segment_deadlines_announced=True)


def test_R16_4_early_match_form_by_13h() -> None:
    played = datetime(1999, 3, 23, 22, 0, tzinfo=CET)
    round_day = date(1999, 3, 26)
    received_on_time = lodge_appeal(
        "M3",
        "A",
        played + timedelta(minutes=10),
        "TD",
        RULES,
        form_received_at=datetime(1999, 3, 26, 13, 0, tzinfo=CET),
    )
    assert appeal_in_time(
        received_on_time, REG, match_ended_at=played, played_early_round_date=round_day
    ).in_time
    too_late = lodge_appeal(
        "M3",
        "A",
        played + timedelta(minutes=10),
        "TD",
        RULES,
        form_received_at=datetime(1999, 3, 26, 13, 5, tzinfo=CET),
    )
    check = appeal_in_time(too_late, REG, match_ended_at=played, played_early_round_date=round_day)
    assert not check.in_time
    assert "R16.4" in check.reasons[0]
    not_received = lodge_appeal("M3", "A", played + timedelta(minutes=10), "TD", RULES)
    check = appeal_in_time(
        not_received, REG, match_ended_at=played, played_early_round_date=round_day
    )
    assert not check.in_time
    assert "not received" in check.reasons[0]


# R16.2, R16.5 decision ----------------------------------------------------------------------

COMMITTEE = Committee(("Adam", "Dana", "Emil"))
LATER = END + timedelta(hours=1)


def test_R16_2_deposit_returned_unless_frivolous() -> None:
    lodged = lodge_appeal("M3", "A", END, "TD", RULES)
    for outcome in Outcome:
        assert decide(lodged, COMMITTEE, outcome, LATER).deposit is DepositFate.RETURNED
    frivolous = decide(lodged, COMMITTEE, Outcome.DISMISSED, LATER, frivolous=True)
    assert frivolous.deposit is DepositFate.FORFEITED
    kept = decide(
        lodged, COMMITTEE, Outcome.DISMISSED, LATER, frivolous=True, forfeit_deposit=False
    )
    assert kept.deposit is DepositFate.RETURNED


def test_R16_2_deposit_forfeited_only_if_frivolous() -> None:
    lodged = lodge_appeal("M3", "A", END, "TD", RULES)
    with pytest.raises(AppealError, match="only if the appeal is frivolous"):
        decide(lodged, COMMITTEE, Outcome.DISMISSED, LATER, forfeit_deposit=True)
    with pytest.raises(AppealError, match="upheld cannot be frivolous"):
        decide(lodged, COMMITTEE, Outcome.UPHELD, LATER, frivolous=True)
    with pytest.raises(AppealError, match="precede"):
        decide(lodged, COMMITTEE, Outcome.UPHELD, END - timedelta(minutes=1))


def test_R16_5_decision_is_final() -> None:
    lodged = lodge_appeal("M3", "A", END, "TD", RULES)
    decision = decide(lodged, COMMITTEE, Outcome.ADJUSTED, LATER, reasons=" score adjusted ")
    assert decision.final is True
    assert decision.further_appeal == FINALITY
    assert "93C" in decision.further_appeal and "R16.5" in decision.further_appeal
    assert decision.reasons == "score adjusted"
    with pytest.raises(FrozenInstanceError):
        decision.final = False  # type: ignore[misc]


def test_problems_and_reasons_are_translatable_templates() -> None:
    problems = committee_problems(["Adam", "Cyril"], CANDIDATES, MATCH_PLAYERS, RULES)
    assert [p.template for p in problems] == [
        "the committee has %(count)s member(s), not %(size)s (R16.1)",
        "%(member)s plays in the match and cannot sit on the committee",
    ]
    late = lodge_appeal("M3", "A", END + timedelta(minutes=31), "TD", RULES)
    check = appeal_in_time(late, REG, match_ended_at=END)
    (detail,) = check.details
    assert detail.template == "missed: %(deadline)s"
    assert (
        str(detail)
        == check.reasons[0]
        == ("missed: lodge the appeal by 1999-03-26 23:55 CET (R16.3)")
    )


def test_R16_3_I12_appeal_in_time_counts_real_minutes_when_the_clocks_go_back() -> None:
    # A match played by agreement (R14.2) ends at 02:50 CEST on 31 October 1999 (00:50 UTC).
    # The appeal is lodged at 02:40 CET, the second 02:40 of that night (01:40 UTC): 50 minutes
    # after the end, so too late, although the wall clock shows an earlier time.
    from zoneinfo import ZoneInfo

    prague = ZoneInfo("Europe/Prague")
    end = datetime(1999, 10, 31, 2, 50, tzinfo=prague)
    late = lodge_appeal(
        "M7", "Lvi", datetime(1999, 10, 31, 2, 40, fold=1, tzinfo=prague), "TD", RULES
    )
    assert not appeal_in_time(late, REG, match_ended_at=end).in_time
    early = lodge_appeal(
        "M7", "Lvi", datetime(1999, 10, 31, 2, 15, fold=1, tzinfo=prague), "TD", RULES
    )
    assert appeal_in_time(early, REG, match_ended_at=end).in_time


def test_R16_5_decision_after_the_appeal_in_the_repeated_hour() -> None:
    # Lodged at 02:50 CEST (00:50 UTC), decided at 02:20 CET (01:20 UTC, fold=1): 30 minutes
    # later in real time, though the wall clock shows an earlier time.
    from zoneinfo import ZoneInfo

    prague = ZoneInfo("Europe/Prague")
    appeal = lodge_appeal("M7", "Lvi", datetime(1999, 10, 31, 2, 50, tzinfo=prague), "TD", RULES)
    committee = Committee(("Adam", "Dana", "Emil"))
    decided = datetime(1999, 10, 31, 2, 20, fold=1, tzinfo=prague)
    assert decide(appeal, committee, Outcome.DISMISSED, decided).outcome is Outcome.DISMISSED
    with pytest.raises(AppealError, match="precede"):
        decide(appeal, committee, Outcome.DISMISSED, datetime(1999, 10, 31, 0, 49, tzinfo=UTC))
