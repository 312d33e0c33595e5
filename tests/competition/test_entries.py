"""Entries: rosters (R7), conditions of entry (R3, I12), fees (R4.1, I4), closing (R8.1, I11)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bridgeko.competition import regulations as regs
from bridgeko.competition.entries import (
    EntryConditions,
    FeeOverride,
    FeeTier,
    Refund,
    RosterError,
    RosterFrozenError,
    captain_of,
    change_roster,
    check_roster,
    close_entries,
    conditions_met,
    entry_fee,
    is_returning_team,
    normalise_team_name,
)

REG = regs.load(Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml")
DEADLINE = date(1999, 3, 5)
PRAGUE = "Europe/Prague"


# ---------------------------------------------------------------- R7 rosters


@pytest.mark.parametrize(
    ("size", "ok"), [(0, False), (3, False), (4, True), (5, True), (6, True), (7, False)]
)
def test_R7_1_team_has_4_to_6_players(size: int, ok: bool) -> None:
    problems = check_roster(list(range(1, size + 1)), REG)
    assert (problems == []) is ok
    if not ok:
        assert [p.clause for p in problems] == ["R7.1"]
        assert f"this roster has {size}" in problems[0].message


def test_R7_1_limits_come_from_the_regulations() -> None:
    reg = dataclasses.replace(REG, entry=dataclasses.replace(REG.entry, max_players=8))
    assert check_roster(list(range(8)), reg) == []


def test_R7_1_duplicate_player() -> None:
    problems = check_roster([1, 2, 3, 2], REG, names={2: "Jan Novák"})
    messages = [str(p) for p in problems]
    assert "Jan Novák (2) is listed twice (R7.1)" in messages
    assert any("this roster has 3" in m for m in messages)  # only 3 different players


def test_R7_1_captain_is_first() -> None:
    assert captain_of([17, 2, 3, 4]) == 17
    assert check_roster([17, 2, 3, 4], REG, captain=17) == []
    problems = check_roster([2, 17, 3, 4], REG, captain=17)
    assert [(p.clause, p.player) for p in problems] == [("R7.1", 17)]
    assert "must be listed first" in problems[0].message
    problems = check_roster([2, 3, 4, 5], REG, captain=17)
    assert "is not on the roster" in problems[0].message
    with pytest.raises(RosterError, match="no captain"):
        captain_of([])


def test_R7_3_player_on_two_rosters() -> None:
    others = {"Sokol": [10, 11, 12, 13], "Lvi": [20, 21, 3, 22], "Orli": [1, 2, 3, 4]}
    problems = check_roster([1, 2, 3, 4], REG, others, team="Orli", names={3: "Eva Malá"})
    assert [(p.clause, p.player, p.other_team) for p in problems] == [("R7.3", 3, "Lvi")]
    assert str(problems[0]) == "Eva Malá (3) is already on the roster of team Lvi (R7.3)"


def test_R7_3_every_shared_player_named() -> None:
    others = {7: ["a", "b", "c", "d"], 8: ["x", "e", "y", "z"]}
    problems = check_roster(["e", "b", "a", "f"], REG, others)
    assert [(p.player, p.other_team) for p in problems] == [("b", 7), ("a", 7), ("e", 8)]


def test_R7_2_roster_frozen_without_reason() -> None:
    for reason in (None, "", "   "):
        with pytest.raises(RosterFrozenError, match=r"R7\.2"):
            change_roster([1, 2, 3, 4], [1, 2, 3, 5], REG, exception_reason=reason)


def test_R7_2_chief_td_exception_with_reason() -> None:
    change = change_roster(
        [1, 2, 3, 4], [1, 2, 3, 5, 6], REG, exception_reason=" player 4 in hospital "
    )
    assert change.changed
    assert change.added == (5, 6)
    assert change.removed == (4,)
    assert change.reason == "player 4 in hospital"


def test_R7_2_new_captain_is_a_change() -> None:
    with pytest.raises(RosterFrozenError):
        change_roster([1, 2, 3, 4], [2, 1, 3, 4], REG, exception_reason=None)


def test_R7_2_unchanged_roster_needs_no_reason() -> None:
    change = change_roster([1, 2, 3, 4], (1, 2, 3, 4), REG, exception_reason=None)
    assert not change.changed


def test_R7_2_changed_roster_must_still_be_valid() -> None:
    with pytest.raises(RosterError) as info:
        change_roster(
            [1, 2, 3, 4],
            [1, 2, 3, 9, 10, 11, 12],
            REG,
            exception_reason="approved",
            other_rosters={"Lvi": [9, 20, 21, 22], "Us": [1, 2, 3, 4]},
            team="Us",
        )
    assert {p.clause for p in info.value.problems} == {"R7.1", "R7.3"}
    assert "player 9 is already on the roster of team Lvi" in str(info.value)


# ---------------------------------------------------------------- R3 conditions of entry


def _on(day: int, hour: int = 12) -> datetime:
    """A receipt on ``day`` March 1999 at ``hour`` UTC."""
    return datetime(1999, 3, day, hour, tzinfo=UTC)


def _complete(**changes: object) -> EntryConditions:
    base = EntryConditions(
        form_received=_on(1),
        convention_cards={"Novák–Malý": _on(2), "Dvořák–Suchý": date(1999, 3, 5)},
        fee_received=_on(3),
        fee_paid=600,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_R3_1_all_conditions_met() -> None:
    result = conditions_met(_complete(), DEADLINE, PRAGUE)
    assert result.met
    assert result.problems == ()


def test_R3_1_each_missing_condition_is_listed() -> None:
    cond = _complete(
        form_received=None,
        convention_cards={"A–B": _on(2), "C–D": None},
        fee_received=None,
    )
    result = conditions_met(cond, DEADLINE, PRAGUE)
    assert not result.met
    assert result.missing == ("entry form", "convention card of pair 'C–D'", "entry fee")
    assert [p.clause for p in result.problems] == ["R3.1a", "R3.1b", "R3.1c"]


def test_R3_1_convention_card_of_each_declared_pair() -> None:
    # a team of 6 declaring 3 pairs needs 3 cards
    cond = _complete(convention_cards={"A–B": _on(1), "C–D": _on(1), "E–F": None})
    assert conditions_met(cond, DEADLINE, PRAGUE).missing == ("convention card of pair 'E–F'",)
    cond = _complete(convention_cards={"A–B": _on(1), "C–D": _on(1), "E–F": _on(4)})
    assert conditions_met(cond, DEADLINE, PRAGUE).met


def test_R3_1_at_least_two_pairs() -> None:
    result = conditions_met(_complete(convention_cards={"A–B": _on(1)}), DEADLINE, PRAGUE)
    assert not result.met
    assert [p.kind for p in result.problems] == ["too few pairs"]
    assert "at least 2 pairs" in str(result.problems[0])


@pytest.mark.parametrize(
    ("received", "late"),
    [
        # Prague is UTC+1 in March 1999.
        (datetime(1999, 3, 5, 22, 59, tzinfo=UTC), False),  # 23:59 on 5 March in Prague
        (datetime(1999, 3, 5, 23, 0, tzinfo=UTC), True),  # 00:00 on 6 March in Prague
        (datetime(1999, 3, 6, 0, 30, tzinfo=timezone(timedelta(hours=2))), False),  # 23:30 CET
        (datetime(1999, 3, 4, 23, 30, tzinfo=UTC), False),
        (date(1999, 3, 5), False),
        (date(1999, 3, 6), True),
    ],
)
def test_R3_2_I12_deadline_is_end_of_day_local_time(received: datetime | date, late: bool) -> None:
    result = conditions_met(_complete(fee_received=received), DEADLINE, PRAGUE)
    assert result.late == (("entry fee",) if late else ())


def test_R3_2_late_message_names_the_day() -> None:
    result = conditions_met(_complete(form_received=_on(8)), DEADLINE, PRAGUE)
    assert [str(p) for p in result.problems] == [
        "entry form: received 1999-03-08, after the deadline 1999-03-05 (R3.2)"
    ]


def test_I12_receipt_time_needs_a_time_zone() -> None:
    naive = datetime(1999, 3, 1, 12)  # noqa: DTZ001 - the mistake under test
    with pytest.raises(ValueError, match="time zone"):
        conditions_met(_complete(form_received=naive), DEADLINE, PRAGUE)


def test_R4_1_fee_short_of_the_amount_due() -> None:
    result = conditions_met(_complete(fee_paid=300), DEADLINE, PRAGUE, fee_due=600)
    assert [(p.kind, p.message) for p in result.problems] == [("short", "300 received, 600 due")]
    assert conditions_met(_complete(fee_paid=600), DEADLINE, PRAGUE, fee_due=600).met


# ---------------------------------------------------------------- I4 returning team, R4.1 fees

PREVIOUS = {"Sokol Praha": ["cap", "b", "c", "d", "e"]}


@pytest.mark.parametrize(
    ("name", "roster", "returning"),
    [
        ("Sokol Praha", ["b", "c", "d", "e"], True),  # 4 in common, without the captain
        ("Sokol Praha", ["x", "b", "c", "d"], False),  # 3 in common, no captain
        ("Sokol Praha", ["x", "cap", "c", "d"], True),  # 3 incl. previous captain
        ("Sokol Praha", ["x", "y", "cap", "d"], False),  # 2 incl. captain
        ("Sokol Praha", ["cap", "b", "c", "d", "e", "f"], True),
        ("Sokol Brno", ["cap", "b", "c", "d", "e"], False),  # another name
        ("  sokol   PRAHA ", ["cap", "b", "c", "x"], True),  # case and blanks ignored
        ("SOKOLPRAHA", ["cap", "b", "c", "x"], True),
        ("Sokol Práha", ["cap", "b", "c", "d"], False),  # diacritics count
    ],
)
def test_I4_returning_team(name: str, roster: list[str], returning: bool) -> None:
    assert is_returning_team(name, roster, "Sokol Praha", PREVIOUS["Sokol Praha"]) is returning


def test_I4_numbers_are_parameters() -> None:
    prev = ["cap", "b", "c", "d", "e"]
    assert not is_returning_team("T", ["b", "c", "d", "e"], "T", prev, same_players=5)
    assert is_returning_team("T", ["x", "y", "cap", "b"], "T", prev, same_players_with_captain=2)


def test_I4_names_compare_normalised() -> None:
    assert normalise_team_name("  Sokol \t PRAHA\n") == "sokolpraha"
    assert normalise_team_name("SokolPraha") == normalise_team_name("sokol praha")
    assert normalise_team_name("Sokol Práha") != normalise_team_name("Sokol Praha")
    assert normalise_team_name("Žižkov") == normalise_team_name("ŽIŽKOV")


MEMBERS = {"a": True, "b": True, "c": True, "d": True, "x": False}


def test_R4_1_returning_team_pays_300() -> None:
    decision = entry_fee("Sokol Praha", ["cap", "b", "c", "x"], {}, PREVIOUS, REG)
    assert (decision.amount, decision.tier) == (300, FeeTier.RETURNING)
    assert decision.currency == "CZK"
    assert decision.reason.startswith("R4.1: 300 CZK for a team that took part")
    assert "including the previous captain cap" in decision.reason
    assert not decision.overridden


def test_R4_1_new_team_of_members_pays_600() -> None:
    decision = entry_fee("Nováčci", ["a", "b", "c", "d"], MEMBERS, PREVIOUS, REG)
    assert (decision.amount, decision.tier) == (600, FeeTier.MEMBERS_ONLY)
    assert decision.reason == "R4.1: 600 CZK for a new team made up only of ČBS members"


def test_R4_1_other_team_pays_1200() -> None:
    decision = entry_fee("Hosté", ["a", "b", "x", "z"], MEMBERS, PREVIOUS, REG)
    assert (decision.amount, decision.tier) == (1200, FeeTier.OTHER)
    # x is not a member, z's membership is unknown: both count as non-members
    assert decision.reason == (
        "R4.1: 1200 CZK for a team with players who are not ČBS members (x, z)"
    )


def test_R4_1_same_name_too_few_same_players_is_a_new_team() -> None:
    decision = entry_fee("Sokol Praha", ["a", "b", "c", "d"], MEMBERS, PREVIOUS, REG)
    assert (decision.amount, decision.tier) == (600, FeeTier.MEMBERS_ONLY)
    assert "too few of the same players" in decision.reason


def test_R4_1_fees_come_from_the_regulations() -> None:
    reg = dataclasses.replace(REG, fees=dataclasses.replace(REG.fees, members_only=700))
    assert entry_fee("N", ["a", "b", "c", "d"], MEMBERS, {}, reg).amount == 700


def test_I4_organiser_override_with_reason() -> None:
    decision = entry_fee(
        "Hosté",
        ["a", "b", "x", "z"],
        MEMBERS,
        PREVIOUS,
        REG,
        override=FeeOverride(0, "juniors invited by the organiser"),
    )
    assert decision.amount == 0
    assert decision.rule_amount == 1200
    assert decision.tier is FeeTier.OTHER
    assert decision.overridden
    assert decision.override_reason == "juniors invited by the organiser"
    assert "instead of 1200 CZK" in decision.reason


def test_I4_override_needs_a_reason_and_an_amount() -> None:
    with pytest.raises(ValueError, match="reason"):
        FeeOverride(0, "  ")
    with pytest.raises(ValueError, match="0 or more"):
        FeeOverride(-5, "refund")


# ---------------------------------------------------------------- R8.1 closing of entries


def _teams(complete: int, incomplete: dict[str, EntryConditions]) -> dict[str, EntryConditions]:
    teams = {f"T{i}": _complete(fee_paid=300 + i) for i in range(1, complete + 1)}
    teams.update(incomplete)
    return teams


def test_R8_1_cancelled_below_8_with_refunds() -> None:
    late_payer = _complete(fee_received=_on(9), fee_paid=1200)
    no_fee = _complete(fee_received=None, fee_paid=0)
    outcome = close_entries(_teams(7, {"Late": late_payer, "Broke": no_fee}), REG)
    assert outcome.accepted == ("T1", "T2", "T3", "T4", "T5", "T6", "T7")
    assert outcome.not_accepted == ("Late", "Broke")
    assert outcome.cancelled
    assert outcome.refunds == (
        Refund("T1", 301, "CZK"),
        Refund("T2", 302, "CZK"),
        Refund("T3", 303, "CZK"),
        Refund("T4", 304, "CZK"),
        Refund("T5", 305, "CZK"),
        Refund("T6", 306, "CZK"),
        Refund("T7", 307, "CZK"),
        Refund("Late", 1200, "CZK"),
    )
    assert outcome.reason.startswith("R8.1: 7 team(s) met the conditions")
    assert outcome.results["Late"].late == ("entry fee",)


def test_R8_1_I11_eight_teams_go_ahead() -> None:
    late_form = _complete(form_received=_on(6))
    outcome = close_entries(_teams(8, {"Late": late_form}), REG)
    assert len(outcome.accepted) == 8
    assert "Late" not in outcome.accepted
    assert not outcome.cancelled
    assert outcome.refunds == ()


def test_R8_1_minimum_comes_from_the_regulations() -> None:
    reg = dataclasses.replace(REG, entry=dataclasses.replace(REG.entry, min_teams=4))
    assert not close_entries(_teams(4, {}), reg).cancelled
    assert close_entries(_teams(3, {}), reg).cancelled


def test_R3_close_entries_checks_fees_due() -> None:
    teams = _teams(8, {})
    outcome = close_entries(teams, REG, fees_due={"T1": 600})
    assert outcome.not_accepted == ("T1",)
    assert outcome.cancelled  # only 7 left


@pytest.mark.parametrize(
    ("received", "late"),
    [
        # A deadline on the day summer time ends (31 October 1999, CET from 03:00 CEST).
        (datetime(1999, 10, 31, 22, 59, 59, tzinfo=UTC), False),  # 23:59:59 CET
        (datetime(1999, 10, 31, 23, 0, tzinfo=UTC), True),  # 00:00 CET on 1 November
        (datetime(1999, 10, 31, 2, 30, fold=1, tzinfo=ZoneInfo(PRAGUE)), False),  # repeated hour
    ],
)
def test_R3_2_I12_deadline_on_the_day_summer_time_ends(received: datetime, late: bool) -> None:
    result = conditions_met(_complete(fee_received=received), date(1999, 10, 31), PRAGUE)
    assert result.late == (("entry fee",) if late else ())


def test_R3_1_R7_1_default_pairs_come_from_the_data_model() -> None:
    # No literal 2 in code: a team of min_players (4) players declares min_players // 2 pairs.
    import inspect

    from bridgeko.competition.entries import conditions_met as check
    from bridgeko.competition.regulations import EntryRules

    default = inspect.signature(check).parameters["min_pairs"].default
    assert default == EntryRules(deadline=DEADLINE).min_players // 2 == 2


@pytest.mark.parametrize("name", ["SOKOL PRAHA", "sokol praha", "Sokol  Praha ", "SoKoL pRaHa"])
def test_R4_1_I4_name_changed_in_case_only_is_still_returning(name: str) -> None:
    # Same name (letter case and spacing ignored) and 3 players including the captain "cap".
    decision = entry_fee(name, ["cap", "b", "c", "x"], {}, PREVIOUS, REG)
    assert (decision.amount, decision.tier) == (300, FeeTier.RETURNING)
    assert is_returning_team(name, ["cap", "b", "c", "x"], "Sokol Praha", PREVIOUS["Sokol Praha"])


def test_R4_1_I4_a_different_name_is_a_new_team_even_with_the_same_players() -> None:
    decision = entry_fee("Sokol Brno", ["cap", "b", "c", "d"], {}, PREVIOUS, REG)
    assert decision.tier is FeeTier.OTHER


def test_R3_1b_R7_1_pairs_needed_from_the_regulations() -> None:
    from bridgeko.competition.entries import pairs_needed

    assert pairs_needed(REG) == 2
    assert (
        pairs_needed(dataclasses.replace(REG, entry=dataclasses.replace(REG.entry, min_players=6)))
        == 3
    )


def test_R4_1_fee_outstanding_is_the_fee_less_what_was_paid() -> None:
    from bridgeko.competition.entries import fee_outstanding

    fee = entry_fee("N", ["a", "b", "c", "d"], MEMBERS, {}, REG)  # 600 CZK: members only
    assert fee.amount == 600
    assert fee_outstanding(fee, 0) == 600
    assert fee_outstanding(fee, 200) == 400
    assert fee_outstanding(fee, 600) == 0
    assert fee_outstanding(fee, 700) == 0  # an overpayment owes nothing
    assert fee_outstanding(None, 0) == 0  # no roster, no fee yet


# ------------------------------------------------- issue 22: the 2001 edition's fee per player

REG_2001 = regs.load(Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-2001.toml")


@pytest.mark.parametrize(
    ("roster", "amount", "tier"),
    [
        (["a", "b", "c", "d"], 4 * 350, FeeTier.MEMBERS_ONLY),  # 350 Kč a member
        (["a", "b", "c", "d", "x", "z"], 6 * 400, FeeTier.OTHER),  # 400 Kč, six players
    ],
)
def test_R4_1_2001_the_fee_is_per_player_of_the_roster(
    roster: list[str], amount: int, tier: FeeTier
) -> None:
    decision = entry_fee("Nováčci", roster, MEMBERS, {}, REG_2001)
    assert (decision.amount, decision.tier) == (amount, tier)
    assert decision.reason.endswith(f", a player: {len(roster)} players, {amount} CZK")
    assert entry_fee("Nováčci", roster, MEMBERS, {}, REG).amount in (600, 1200)  # 1999: a team
