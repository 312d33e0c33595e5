"""The engine's messages as templates + params (for translation by the web layer).

Every value object keeps its English ``.message`` / ``.reason``; its template filled in with its
params gives exactly that text, and a translation (here a dict standing in for gettext) changes
the words but keeps the values.
"""

from __future__ import annotations

import ast
import gettext
import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from bridgeko.competition import (
    appeals,
    draw,
    entries,
    match,
    prizes,
    sanctions,
    schedule,
    seating,
    systems,
)
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


@pytest.mark.parametrize(
    "module",
    [
        "entries.py",
        "sanctions.py",
        "draw.py",
        "match.py",
        "seating.py",
        "prizes.py",
        "appeals.py",
        "schedule.py",
        "systems.py",
    ],
)
def test_templates_use_named_placeholders_only(module: str) -> None:
    templates = _marked_templates(ROOT / "src" / "bridgeko" / "competition" / module)
    assert templates
    for template in templates:
        without_named = re.sub(r"%\([a-z_]+\)s", "", template)
        assert "%" not in without_named, template


# ---------------------------------------------------------------- errors of the matches screens
#
# Each error carries its template and params in ``.detail``; ``str(error)`` is still the English
# text, and the project's compiled Czech catalogue (what the web layer's gettext reads) renders
# it in Czech. The Czech below is written out by hand.

_CS_MO = ROOT / "src" / "bridgeko" / "locale" / "cs" / "LC_MESSAGES" / "django.mo"
_USER_ERRORS = ["match.py", "seating.py", "prizes.py", "appeals.py", "schedule.py", "systems.py"]


@pytest.fixture(scope="module")
def czech() -> Callable[[str], str]:
    with _CS_MO.open("rb") as catalogue:
        return gettext.GNUTranslations(catalogue).gettext


def _raised(call: Callable[[], object], error: type[Exception] = ValueError) -> Any:
    with pytest.raises(error) as info:
        call()
    return info.value


def test_R12_5_match_decided_error_carries_template_and_reads_in_czech(
    czech: Callable[[str], str],
) -> None:
    error = _raised(
        lambda: match.match_state(
            regs.Stage.PRELIMINARY,
            REG,
            segments=[
                match.SegmentResult(1, 20, 30),
                match.SegmentResult(2, 20, 22),
                match.SegmentResult(3, 1, 0),
            ],
        ),
        match.MatchError,
    )
    assert error.detail.template is match.AFTER_DECIDED
    assert dict(error.detail.params) == {
        "number": 3,
        "what": Message(match.A_RESULT),
        "previous": 2,
        "home": 40,
        "visitors": 52,
    }
    assert str(error) == (
        "segment 3 has a result, but the match was decided after segment 2 (40:52)"
    )
    assert error.detail.format(czech) == (
        "sestava 3 má záznam (výsledek), ale utkání bylo rozhodnuto už po sestavě 2 (40:52)"
    )


def test_R12_9_I6_match_errors_name_the_team_and_the_fact_in_czech(
    czech: Callable[[str], str],
) -> None:
    twice = _raised(
        lambda: match.match_state(
            regs.Stage.PRELIMINARY,
            REG,
            penalties=[
                match.Lateness(1, match.Side.VISITORS, 8),
                match.Lateness(1, match.Side.VISITORS, 9),
            ],
        ),
        match.MatchError,
    )
    assert twice.detail.template is match.LATENESS_TWICE
    assert str(twice) == "lateness of the visitors team in segment 1 is recorded twice"
    assert twice.detail.format(czech) == "zpoždění družstva (hosté) v sestavě 1 je zapsáno dvakrát"
    scored = _raised(
        lambda: match.match_state(
            regs.Stage.PRELIMINARY,
            REG,
            segments=[match.SegmentResult(1, 10, 0, boards_played=15)],
            penalties=[match.Lateness(1, match.Side.HOME, 14)],
        ),
        match.MatchError,
    )
    assert scored.detail.template is match.TOO_MANY_SCORED_REMOVED
    assert str(scored) == (
        "segment 1 has 16 boards of which 2 were removed for lateness; 15 boards were scored"
    )
    assert scored.detail.format(czech) == (
        "sestava 1 má 16 rozdání, z toho odebraných za zpoždění: 2; počet zapsaných rozdání: 15"
    )
    slow = _raised(lambda: match.SlowPlay(0, match.Side.HOME, 1), match.MatchError)
    assert slow.detail.template is match.FACT_SEGMENT_FROM_ONE
    assert str(slow) == "SlowPlay: a segment number starts at 1, not 0"
    assert slow.detail.format(czech) == "Pomalá hra: číslo sestavy musí být nejméně 1, ne 0"
    imps = _raised(lambda: match.SegmentResult(2, "x", 0), match.MatchError)  # type: ignore[arg-type]
    assert imps.detail.template is match.NOT_WHOLE
    assert str(imps) == "segment 2: the home IMPs must be a whole number, not 'x'"
    assert imps.detail.format(czech) == "sestava 2: počet IMP (domácí) musí být celé číslo, ne 'x'"


def test_R12_8_schedule_keeps_the_match_errors_template(czech: Callable[[str], str]) -> None:
    rules = regs.MatchRules(segment_boards=0)
    error = _raised(
        lambda: schedule.match_segment_boards(regs.Stage.FINAL, rules), schedule.ScheduleError
    )
    assert error.detail.template is match.NOT_POSITIVE
    assert str(error) == "match.segment_boards must be a positive whole number, not 0"
    assert error.detail.format(czech) == "match.segment_boards musí být kladné celé číslo, ne 0"


def test_R12_6_seating_errors_carry_templates_and_read_in_czech(
    czech: Callable[[str], str],
) -> None:
    home = seating.LineUp(seating.Pair.of("Ann", "Bob"), seating.Pair.of("Cid", "Dan"))
    visitors = seating.LineUp(seating.Pair.of("Eva", "Fay"), seating.Pair.of("Gus", "Hal"))
    home_roster, visitors_roster = home.players, visitors.players
    first = seating.check_segment(
        1, home, visitors, home_roster=home_roster, visitors_roster=visitors_roster
    )
    repeated = _raised(
        lambda: seating.check_segment(
            2,
            home,
            visitors,
            home_roster=home_roster,
            visitors_roster=visitors_roster,
            previous=first,
        ),
        seating.SeatingError,
    )
    assert repeated.side is match.Side.VISITORS
    assert repeated.detail.template is seating.REPEATED_MATCHUP
    assert repeated.detail.params["side"] == Message(match.SIDE_VISITORS)
    assert str(repeated) == (
        "segment 2: the visitors team sits second and must not seat the same pairs against each "
        "other as in segment 1: Ann-Bob v Eva-Fay; Cid-Dan v Gus-Hal (R12.6)"
    )
    assert repeated.detail.format(czech) == (
        "v sestavě 2 přisedají hosté a nesmějí proti sobě posadit stejné dvojice jako v sestavě "
        "1: Ann-Bob v Eva-Fay; Cid-Dan v Gus-Hal (R12.6)"
    )
    few = _raised(
        lambda: seating.valid_seatings(visitors, [], ["Ann", "Bob", "Cid"], segment_number=1),
        seating.NoValidSeatingError,
    )
    assert few.detail.template is seating.TOO_FEW_PLAYERS
    assert str(few) == (
        "the home team needs at least 4 players to fill both rooms, its roster has 3"
    )
    assert few.detail.format(czech) == (
        "domácí potřebují k obsazení obou místností nejméně 4 hráče; počet hráčů na jejich "
        "soupisce: 3"
    )


def test_R5_1_prize_errors_carry_templates_and_read_in_czech(czech: Callable[[str], str]) -> None:
    standings: dict[int, str | list[str]] = {1: "A", 2: "B", 3: ["C", "D"]}
    shared = _raised(lambda: prizes.prize_list(standings, REG))
    assert isinstance(shared, prizes.PrizeError)
    assert shared.detail.template is prizes.PLACES_NOT_SHARED
    assert dict(shared.detail.params) == {"decided": 4, "count": 2, "place": 3}
    assert str(shared) == (
        "places 1 to 4 are decided by play (R1.2) and cannot be shared: 2 teams at place 3"
    )
    assert shared.detail.format(czech) == (
        "o 1. až 4. místě rozhoduje hra (R1.2), tato místa nelze dělit: počet družstev na 3. "
        "místě: 2"
    )
    missing = _raised(lambda: prizes.prize_list(["A", "B"], REG), prizes.PrizeError)
    assert str(missing) == "place 3 is missing: the prizes go to places 1 to 4 (R5.1)"
    assert missing.detail.format(czech) == "chybí 3. místo: ceny obdrží 1. až 4. místo (R5.1)"


def test_R16_appeal_errors_carry_templates_and_read_in_czech(czech: Callable[[str], str]) -> None:
    lodged = datetime(1999, 3, 26, 23, 40, tzinfo=UTC)
    deposit = _raised(
        lambda: appeals.lodge_appeal("QF2", "Lvi", lodged, "Novák", REG.appeals, deposit_paid=100),
        appeals.AppealError,
    )
    assert deposit.detail.template is appeals.DEPOSIT_SHORT
    assert dict(deposit.detail.params) == {"deposit": REG.appeals.deposit, "paid": 100}
    assert str(deposit) == "the deposit is 200; 100 was lodged with the TD (R16.2)"
    assert deposit.detail.format(czech) == ("kauce činí 200; u rozhodčího bylo složeno 100 (R16.2)")
    committee = _raised(
        lambda: appeals.name_committee(["Adam", "Bára"], {"bára"}, REG.appeals),
        appeals.CommitteeError,
    )
    assert committee.missing == 2
    assert committee.detail.template is appeals.TOO_FEW_CANDIDATES
    assert committee.detail.format(czech) == (
        "nelze jmenovat odvolací výbor (počet členů: 3): počet způsobilých kandidátů na seznamu "
        "je jen 1, chybí 2 (hráči utkání v něm nemohou zasedat, R16.1)"
    )
    appeal = appeals.lodge_appeal("QF2", "Lvi", lodged, "Novák", REG.appeals)
    frivolous = _raised(
        lambda: appeals.decide(
            appeal,
            appeals.Committee(("Adam", "Dana", "Emil")),
            appeals.Outcome.UPHELD,
            lodged,
            frivolous=True,
        ),
        appeals.AppealError,
    )
    assert frivolous.detail.params == {"outcome": Message(appeals.UPHELD)}
    assert str(frivolous) == "an appeal that is upheld cannot be frivolous"
    assert frivolous.detail.format(czech) == (
        "odvolání s výsledkem „vyhověno“ nemůže být lehkovážné"
    )
    assert czech(appeals.FINALITY).startswith("Rozhodnutí odvolacího výboru je konečné")


def test_R6_system_description_errors_name_the_field_and_read_in_czech(
    czech: Callable[[str], str],
) -> None:
    data = {"pair": "A", "calls": [{"call": "P", "min_hcp": 0, "max_hcp": 40}]}
    error = _raised(lambda: systems.SystemDescription.from_dict(data))
    assert isinstance(error, systems.SystemDescriptionError)
    assert error.detail.template is systems.IN_FIELD
    inner = error.detail.params["error"]
    assert isinstance(inner, Message) and inner.template is systems.HCP_NOT_A_RANGE
    assert str(error) == "calls[0]: Pass (seats 1-4): 0-40 HCP is not a range within 0..37"
    assert error.detail.format(czech) == (
        "calls[0]: Pass (pozice 1-4): 0-40 bodů není rozmezí v mezích 0..37"
    )
    twice = _raised(lambda: systems.Ruling.from_dict({"pair": "A", "clause": "R6.1"}))
    assert str(twice) == "ruling.allowed: missing"
    assert twice.detail.format(czech) == "ruling.allowed: chybí"


def _plain_raises(path: Path) -> list[str]:
    """The ``raise SomethingError("...")`` / ``raise SomethingError(f"...")`` of a module: an
    error worded as a plain text (TypeError, a programming error, is allowed)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        func, args = node.exc.func, node.exc.args
        name = func.id if isinstance(func, ast.Name) else ""
        if name == "TypeError" or not args:
            continue
        if isinstance(args[0], ast.JoinedStr | ast.Constant):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node.exc)[:60]}")
    return found


@pytest.mark.parametrize("module", _USER_ERRORS)
def test_user_errors_are_worded_from_templates(module: str) -> None:
    """No error of the matches screens' modules is a plain English text (issue 7, item 5)."""
    assert _plain_raises(ROOT / "src" / "bridgeko" / "competition" / module) == []


class _Missing(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return "MISSING"


def test_every_user_error_template_is_in_the_compiled_czech_catalogue() -> None:
    """The .mo the site reads is compiled from the .po that has every template (an entry left
    out of the compiled file would show in English)."""
    with _CS_MO.open("rb") as catalogue:
        translations = gettext.GNUTranslations(catalogue)
    translations.add_fallback(_Missing())
    for module in _USER_ERRORS:
        for template in _marked_templates(ROOT / "src" / "bridgeko" / "competition" / module):
            assert translations.gettext(template) != "MISSING", template
