"""The engine's messages as templates + params (for translation by the web layer).

Every value object keeps its English ``.message`` / ``.reason``; its template filled in with its
params gives exactly that text, and a translation (here a dict standing in for gettext) changes
the words but keeps the values.
"""

from __future__ import annotations

import ast
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from bridgeko.competition import draw, entries, sanctions
from bridgeko.competition import regulations as regs
from bridgeko.competition.entries import (
    EntryConditions,
    FeeOverride,
    RosterError,
    RosterFrozenError,
    RosterProblem,
    captain_of,
    change_roster,
    check_roster,
    close_entries,
    closing_reason,
    conditions_met,
    entry_fee,
)
from bridgeko.competition.messages import N_, Message

ROOT = Path(__file__).resolve().parents[2]
REG = regs.load(ROOT / "editions" / "bridge-open-ko-1999.toml")

CS = {
    "%(name)s (%(player)s)": "%(name)s (%(player)s)",
    "player %(player)s": "hráč %(player)s",
    "%(message)s (%(clause)s)": "%(message)s (%(clause)s)",
    "%(player)s is listed twice": "%(player)s je na soupisce dvakrát",
    "%(player)s is already on the roster of team %(team)s": (
        "%(player)s už je na soupisce družstva %(team)s"
    ),
    "with %(count)s of the same players": "se %(count)s stejnými hráči",
    "entry fee": "vklad",
    "not received": "nedošlo",
    "%(item)s: %(message)s (%(clause)s)": "%(item)s: %(message)s (%(clause)s)",
}


def cs(template: str) -> str:
    return CS.get(template, template)


# ---------------------------------------------------------------- Message


def test_message_without_translation_is_the_english_text() -> None:
    msg = Message(
        N_("%(a)s and %(b)s"), {"a": 1, "b": Message(N_("player %(player)s"), {"player": 7})}
    )
    assert str(msg) == "1 and player 7"
    assert msg.format() == "1 and player 7"


def test_message_translates_nested_templates() -> None:
    msg = Message(
        "%(player)s is listed twice", {"player": Message("player %(player)s", {"player": 7})}
    )
    assert msg.format(cs) == "hráč 7 je na soupisce dvakrát"


def test_message_plain_text_is_not_formatted() -> None:
    """A template without params is used as it is: a % sign in it is no placeholder."""
    assert str(Message("100% of the fee")) == "100% of the fee"


def test_message_missing_translation_falls_back_to_english() -> None:
    assert Message("not received").format(lambda s: "") == "not received"
    assert Message("not received").format(lambda s: None) == "not received"


def test_message_broken_translation_falls_back_to_english() -> None:
    """A translation with a wrong placeholder never breaks a page: the English is shown."""
    msg = Message("player %(player)s", {"player": 7})
    assert msg.format(lambda s: "hráč %(hrac)s") == "player 7"
    assert msg.format(lambda s: "hráč %(player)d %") == "player 7"


def test_message_is_a_value() -> None:
    a = Message("x %(n)s", {"n": 1})
    assert a == Message("x %(n)s", {"n": 1})
    assert a != Message("x %(n)s", {"n": 2})
    assert len({a, Message("x %(n)s", {"n": 1})}) == 1


# ---------------------------------------------------------------- value objects


def test_R7_1_roster_problems_carry_template_and_params() -> None:
    problems = check_roster([1, 2, 3, 2], REG, names={2: "Jan Novák"})
    twice = problems[0]
    assert twice.message == "Jan Novák (2) is listed twice"
    assert twice.template == "%(player)s is listed twice"
    assert twice.template is entries.LISTED_TWICE
    assert str(twice.params["player"]) == "Jan Novák (2)"
    assert twice.text.format(cs) == "Jan Novák (2) je na soupisce dvakrát (R7.1)"
    size = problems[1]
    assert size.template == entries.ROSTER_SIZE
    assert dict(size.params) == {"min": 4, "max": 6, "count": 3}
    assert size.message == "a team has 4 to 6 players; this roster has 3"


def test_R7_3_problem_translated_with_unnamed_player() -> None:
    problems = check_roster([1, 2, 3, 4], REG, {"Lvi": [3, 20, 21, 22]})
    assert problems[0].text.format(cs) == "hráč 3 už je na soupisce družstva Lvi (R7.3)"
    assert str(problems[0].text) == str(problems[0])


def test_R7_1_empty_roster_and_R7_2_frozen_carry_templates() -> None:
    with pytest.raises(RosterError) as info:
        captain_of([])
    assert info.value.problems[0].template == entries.ROSTER_EMPTY
    with pytest.raises(RosterFrozenError) as frozen:
        change_roster([1, 2, 3, 4], [1, 2, 3, 5], REG, exception_reason="")
    assert frozen.value.detail.template == entries.ROSTER_FROZEN
    assert str(frozen.value) == entries.ROSTER_FROZEN


def test_plain_roster_problem_still_works() -> None:
    """A problem built the old way (a plain text) translates to itself."""
    problem = RosterProblem("R7.1", "some text")
    assert problem.template == "some text"
    assert dict(problem.params) == {}
    assert problem.text.format(cs) == "some text (R7.1)"


def test_R15_3_barred_problem_carries_template() -> None:
    (problem,) = sanctions.check_not_barred([1, 2], {2})
    assert problem.template == sanctions.BARRED
    assert problem.text.format(cs) == str(problem).replace("player 2", "hráč 2")


def test_R3_condition_problems_carry_templates() -> None:
    result = conditions_met(
        EntryConditions(
            form_received=date(1999, 3, 6),
            convention_cards={"A–B": None, "C–D": date(1999, 3, 1)},
            fee_received=None,
        ),
        date(1999, 3, 5),
        "Europe/Prague",
    )
    by_item = {(p.item, p.kind): p for p in result.problems}
    assert set(by_item) == {
        ("entry form", "late"),
        ("convention card of pair 'A–B'", "missing"),
        ("entry fee", "missing"),
    }
    late = by_item["entry form", "late"]
    assert late.template == entries.RECEIVED_LATE
    assert dict(late.params) == {"received": "1999-03-06", "deadline": "1999-03-05"}
    assert late.message == "received 1999-03-06, after the deadline 1999-03-05"
    card = by_item["convention card of pair 'A–B'", "missing"]
    assert card.item_detail.template == entries.ITEM_CONVENTION_CARD
    assert dict(card.item_detail.params) == {"pair": "'A–B'"}
    fee = by_item["entry fee", "missing"]
    assert fee.text.format(cs) == "vklad: nedošlo (R3.1c)"
    for problem in result.problems:
        assert str(problem.text) == str(problem)


def _fee(
    name: str, roster: list[int], members: set[int], override: FeeOverride | None = None
) -> entries.FeeDecision:
    return entry_fee(
        name,
        roster,
        {p: p in members for p in roster},
        {"Sokol": [1, 2, 3, 4, 5], "Lvi": [30, 31, 32, 33]},
        REG,
        override=override,
    )


def test_R4_1_fee_reasons_carry_templates() -> None:
    returning = _fee("Sokol", [1, 2, 3, 4, 9], set())
    assert returning.template == entries.FEE_RETURNING
    assert returning.reason == (
        "R4.1: 300 CZK for a team that took part in the previous edition: same name 'Sokol' "
        "with 4 of the same players (I4)"
    )
    assert returning.reason_detail.format(cs).endswith("se 4 stejnými hráči (I4)")
    members = _fee("Noví", [10, 11, 12, 13], {10, 11, 12, 13})
    assert members.template == entries.FEE_MEMBERS_ONLY
    other = _fee("Lvi", [30, 40, 41, 42], {30})
    assert other.template == entries.FEE_OTHER_NAMED
    assert other.params["players"] == "40, 41, 42"
    assert str(other.params["note"]).startswith(" (a team named 'Lvi' took part")
    overridden = _fee("Noví", [10, 11, 12, 13], set(), FeeOverride(0, "sponsor"))
    assert overridden.template == entries.FEE_OVERRIDDEN
    assert overridden.params["why"] == "sponsor"
    assert str(overridden.params["rule"]) in overridden.reason
    for decision in (returning, members, other, overridden):
        assert str(decision.reason_detail) == decision.reason


def test_I4_override_errors_carry_templates() -> None:
    with pytest.raises(entries.EntryError, match=r"needs a reason \(I4\)") as info:
        FeeOverride(100, "  ")
    assert info.value.detail.template == entries.OVERRIDE_NEEDS_REASON
    with pytest.raises(ValueError, match="whole amount") as bad:
        FeeOverride(-1, "x")
    assert isinstance(bad.value, entries.EntryError)
    assert dict(bad.value.detail.params) == {"amount": "-1"}


def test_R8_1_closing_reason_carries_template() -> None:
    teams: dict[entries.TeamKey, EntryConditions] = {
        t: EntryConditions(
            form_received=date(1999, 3, 1),
            convention_cards={"A": date(1999, 3, 1), "B": date(1999, 3, 1)},
            fee_received=datetime(1999, 3, 1, tzinfo=UTC),
            fee_paid=600,
        )
        for t in range(3)
    }
    outcome = close_entries(teams, REG)
    assert outcome.cancelled
    assert outcome.template == entries.CLOSING_CANCELLED
    assert dict(outcome.params) == {
        "count": 3,
        "deadline": REG.entry.deadline.isoformat(),
        "min": REG.entry.min_teams,
    }
    assert str(closing_reason(3, REG)) == outcome.reason
    assert closing_reason(REG.entry.min_teams, REG).template == entries.CLOSING_GOES_AHEAD


def test_R8_1_too_few_teams_for_a_draw_carries_template() -> None:
    with pytest.raises(draw.DrawError) as info:
        draw.scheme_size(5, min_teams=8)
    assert info.value.detail.template == draw.TOO_FEW_TEAMS
    assert dict(info.value.detail.params) == {"count": 5, "min": 8}
    assert str(info.value) == (
        "5 teams entered, fewer than the minimum of 8: the competition is cancelled (R8.1)"
    )


def test_plain_draw_error_still_works() -> None:
    error = draw.DrawError("the seed must be bytes")
    assert str(error) == "the seed must be bytes"
    assert error.detail == Message("the seed must be bytes")


def _protocol() -> dict[str, Any]:
    teams = [draw.DrawEntry(f"T{k:02d}", f"Team {k}", 500 + 10 * k) for k in range(1, 13)]
    seed = bytes(range(32))
    result = draw.hold_draw(
        teams,
        seed,
        commitment=draw.commitment(seed),
        drawn_at=datetime(1999, 3, 12, 17, 0, tzinfo=UTC),
        place="Klub",
    )
    return dict(result.protocol)


def test_I8_verify_report_problems_carry_templates() -> None:
    doc = _protocol()
    ok = draw.verify_protocol(doc)
    assert ok.ok and ok.summary_detail is not None
    assert ok.summary_detail.template == draw.V_SUMMARY_OK_NO_EDITION
    assert str(ok.summary_detail) == ok.summary
    assert ok.summary.startswith("draw: 12 teams, scheme for 16, 4 seeded; seed matches")
    doc["edition"] = "KO 1999"
    named = draw.verify_protocol(doc)
    assert named.summary_detail is not None
    assert named.summary_detail.template == draw.V_SUMMARY_OK
    assert named.summary.startswith("KO 1999: 12 teams, scheme for 16, 4 seeded; seed matches")
    doc["teams"] = [dict(t) for t in doc["teams"]]
    number_1 = doc["numbering"]["1"]
    for team in doc["teams"]:
        if team["id"] == number_1:
            team["elo"] = 100  # number 1 now has the lowest Elo
    doc["scheme_size"] = 32
    report = draw.verify_protocol(doc)
    assert not report.ok
    assert len(report.details) == len(report.problems) >= 3
    assert [str(m) for m in report.details] == list(report.problems)
    templates = {m.template for m in report.details}
    assert {draw.V_SIZE_WRONG, draw.V_SEEDED_ORDER, draw.V_NUMBER_DIFFERS} <= templates
    assert report.summary_detail is not None
    assert report.summary_detail.template == draw.V_SUMMARY_PROBLEMS
    czech = {
        draw.V_SIZE_WRONG: "velikost schématu je zapsána jako %(recorded)s; %(n)s družstev "
        "dává %(size)s (R9.2)",
    }
    (size,) = [m for m in report.details if m.template == draw.V_SIZE_WRONG]
    assert (
        size.format(czech.get) == "velikost schématu je zapsána jako 32; 12 družstev dává 16 (R9.2)"
    )


# ---------------------------------------------------------------- the templates themselves


def _marked_templates(path: Path) -> list[str]:
    """Every string literal passed to N_() in a module (what makemessages extracts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        str(node.args[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "N_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]


@pytest.mark.parametrize("module", ["entries.py", "sanctions.py", "draw.py"])
def test_templates_use_named_placeholders_only(module: str) -> None:
    templates = _marked_templates(ROOT / "src" / "bridgeko" / "competition" / module)
    assert templates
    for template in templates:
        without_named = re.sub(r"%\([a-z_]+\)s", "", template)
        assert "%" not in without_named, template
