"""The playing scheme as data (R9, R11.4, R13, I1, I2, I7, I16, R1.2)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.competition.bracket import (
    BracketError,
    Loser,
    MatchStatus,
    Number,
    SchemeError,
    SlotStatus,
    Winner,
    first_round,
    load_scheme,
    numbered_results,
    parse_ref,
    resolve,
    scheme_from_dict,
    scheme_to_dict,
    standard_scheme,
)
from bridgeko.competition.regulations import Stage
from tests.sizes import examples

SCHEMES = Path(__file__).resolve().parents[2] / "editions" / "schemes"


# --- I1: first-round layout ------------------------------------------------------------------


def test_I1_first_round_for_8_teams() -> None:
    assert first_round(8) == [(1, 8), (4, 5), (3, 6), (2, 7)]


def test_I1_first_round_for_4_and_16_teams() -> None:
    assert first_round(4) == [(1, 4), (2, 3)]
    assert first_round(16) == [
        (1, 16),
        (8, 9),
        (5, 12),
        (4, 13),
        (3, 14),
        (6, 11),
        (7, 10),
        (2, 15),
    ]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 6, 12, 24, 100])
def test_R9_1_scheme_size_must_be_power_of_two(size: int) -> None:
    with pytest.raises(BracketError, match="power of two"):
        first_round(size)


@pytest.mark.parametrize("k", range(2, 11))
def test_I1_number_i_meets_size_plus_1_minus_i(k: int) -> None:
    size = 2**k
    pairs = first_round(size)
    assert len(pairs) == size // 2
    assert sorted(n for pair in pairs for n in pair) == list(range(1, size + 1))
    for home, away in pairs:
        assert home + away == size + 1
        assert home < away  # the better number is listed first (home, R12.2)


def _sections(size: int, width: int) -> list[set[int]]:
    """Numbers of each block of ``width`` consecutive first-round slots."""
    flat = [n for pair in first_round(size) for n in pair]
    return [set(flat[i : i + width]) for i in range(0, size, width)]


@pytest.mark.parametrize("k", range(2, 11))
def test_I1_top_seeds_in_different_sections(k: int) -> None:
    # The top 2^j numbers lie in different sections of size/2^j: 1 and 2 in different halves
    # (meet only in the final), 1-4 in different quarters (from the semifinals), 1-8 in
    # different eighths (from the quarterfinals), 1..N/4 in different sections of four (R11.1).
    size = 2**k
    for j in range(1, k):
        top = 2**j
        for section in _sections(size, size // top):
            assert len(section & set(range(1, top + 1))) == 1


# --- the scheme as data: rounds, names, home team (R9, R13, I2, R1.2) ---------------------------


def test_R13_standard_scheme_for_8() -> None:
    scheme = standard_scheme(8)
    rows = [(m.id, m.round, m.stage, str(m.home), str(m.away)) for m in scheme.matches]
    assert rows == [
        ("QF1", 1, Stage.QUARTERFINAL, "number 1", "number 8"),
        ("QF2", 1, Stage.QUARTERFINAL, "number 4", "number 5"),
        ("QF3", 1, Stage.QUARTERFINAL, "number 3", "number 6"),
        ("QF4", 1, Stage.QUARTERFINAL, "number 2", "number 7"),
        ("SF1", 2, Stage.SEMIFINAL, "winner of QF1", "winner of QF2"),
        ("SF2", 2, Stage.SEMIFINAL, "winner of QF3", "winner of QF4"),
        ("F", 3, Stage.FINAL, "winner of SF1", "winner of SF2"),
        ("3RD", 3, Stage.THIRD_PLACE, "loser of SF1", "loser of SF2"),
    ]


def test_R11_6_round_names_for_32() -> None:
    scheme = standard_scheme(32)
    names = {m.round: m.round_name for m in scheme.matches if m.stage is not Stage.THIRD_PLACE}
    assert names == {
        1: "preliminary round 1",
        2: "preliminary round 2",
        3: "quarterfinal",
        4: "semifinal",
        5: "final",
    }
    assert scheme.match("3RD").round_name == "match for 3rd place"
    assert [m.id for m in scheme.round(2)][:2] == ["R2-M1", "R2-M2"]
    assert scheme.match("R2-M1").home == Winner("R1-M1")


@pytest.mark.parametrize("k", range(2, 11))
def test_R9_number_of_rounds_is_log2_size(k: int) -> None:
    scheme = standard_scheme(2**k)
    assert scheme.round_count == k
    assert len(scheme) == 2**k  # size-1 knockout matches + the 3rd-place match
    assert [m.id for m in scheme.round(k)] == ["F", "3RD"]


def test_I2_home_team_in_later_rounds() -> None:
    scheme = standard_scheme(8)
    results = {"QF1": 8, "QF2": 4, "QF3": 6, "QF4": 2, "SF1": 4, "SF2": 2}
    state = resolve(scheme, results, teams=8)
    # The winner of the match listed earlier is the home team.
    assert (state.match("SF1").home.number, state.match("SF1").away.number) == (8, 4)
    assert (state.match("SF2").home.number, state.match("SF2").away.number) == (6, 2)
    assert (state.match("F").home.number, state.match("F").away.number) == (4, 2)
    # 3rd place: the loser of the semifinal listed earlier is at home.
    assert (state.match("3RD").home.number, state.match("3RD").away.number) == (8, 6)


def test_I1_favourites_meet_as_seeded() -> None:
    scheme = standard_scheme(16)
    results: dict[str, int | None] = {}
    state = resolve(scheme, results, teams=16)
    while state.to_play():
        for m in state.to_play():
            assert m.home.number is not None and m.away.number is not None
            results[m.id] = min(m.home.number, m.away.number)
        state = resolve(scheme, results, teams=16)
    pairs = {m.id: {m.home.number, m.away.number} for m in state.matches if m.spec.round >= 2}
    assert pairs["QF1"] == {1, 8}
    assert pairs["QF2"] == {4, 5}
    assert pairs["QF3"] == {3, 6}
    assert pairs["QF4"] == {2, 7}
    assert pairs["SF1"] == {1, 4}
    assert pairs["SF2"] == {2, 3}
    assert pairs["F"] == {1, 2}
    assert pairs["3RD"] == {3, 4}


# --- byes (R11.4), projected slots, walkovers, I16 -------------------------------------------


def test_R11_4_teams_without_opponent_go_to_round_two() -> None:
    state = resolve(standard_scheme(16), teams=12)
    byes = {m.id: m.winner.number for m in state.matches if m.status is MatchStatus.BYE}
    assert byes == {"R1-M1": 1, "R1-M4": 4, "R1-M5": 3, "R1-M8": 2}
    to_play = [(m.id, m.home.number, m.away.number) for m in state.to_play()]
    assert to_play == [("R1-M2", 8, 9), ("R1-M3", 5, 12), ("R1-M6", 6, 11), ("R1-M7", 7, 10)]
    qf1 = state.match("QF1")
    assert qf1.home.status is SlotStatus.TEAM and qf1.home.number == 1
    assert qf1.away.status is SlotStatus.PENDING
    assert qf1.away.candidates == frozenset({8, 9})


def test_R11_4_bye_result_is_accepted_only_for_the_team_going_on() -> None:
    scheme = standard_scheme(16)
    assert resolve(scheme, {"R1-M1": 1}, teams=12).match("R1-M1").status is MatchStatus.BYE
    with pytest.raises(BracketError, match="without a match"):
        resolve(scheme, {"R1-M1": 16}, teams=12)


def test_projected_slots_while_undecided() -> None:
    state = resolve(standard_scheme(8), {"QF1": 8}, teams=8)
    sf1 = state.match("SF1")
    assert sf1.status is MatchStatus.PENDING
    assert sf1.home.number == 8
    assert sf1.away.label == "winner of QF2 (4 or 5)"
    final = state.match("F")
    assert final.home.candidates == frozenset({8, 4, 5})
    assert final.away.candidates == frozenset({2, 3, 6, 7})
    assert state.match("3RD").home.candidates == frozenset({8, 4, 5})


def test_walkover_winner_advances_like_any_winner() -> None:
    # A walkover is recorded as a result with its winner (R15).
    state = resolve(standard_scheme(8), {"QF2": 5}, teams=8)
    assert state.match("QF2").status is MatchStatus.PLAYED
    assert state.match("SF1").away.number == 5


def test_I16_both_fail_to_appear_next_opponent_wins_by_walkover() -> None:
    scheme = standard_scheme(8)
    state = resolve(scheme, {"QF1": None, "QF2": 4}, teams=8)
    qf1 = state.match("QF1")
    assert qf1.status is MatchStatus.NO_WINNER
    assert qf1.winner.status is SlotStatus.EMPTY
    sf1 = state.match("SF1")
    assert sf1.status is MatchStatus.BYE and sf1.winner.number == 4
    # Nobody loses SF1, so the loser of SF2 has no opponent for 3rd place.
    state = resolve(scheme, {"QF1": None, "QF2": 4, "QF3": 3, "QF4": 2, "SF2": 2}, teams=8)
    third = state.match("3RD")
    assert third.status is MatchStatus.BYE and third.winner.number == 3


def test_results_that_do_not_fit_are_refused() -> None:
    scheme = standard_scheme(8)
    with pytest.raises(BracketError, match="cannot be its winner"):
        resolve(scheme, {"QF1": 4}, teams=8)
    with pytest.raises(BracketError, match="not known yet"):
        resolve(scheme, {"SF1": 1}, teams=8)
    with pytest.raises(BracketError, match="no match 'QF9'"):
        resolve(scheme, {"QF9": 1}, teams=8)
    with pytest.raises(BracketError, match="do not fit"):
        resolve(scheme, teams=9)


# --- standings (I7) ----------------------------------------------------------------------------


def test_I7_standings_for_8() -> None:
    results = {"QF1": 1, "QF2": 5, "QF3": 6, "QF4": 2, "SF1": 5, "SF2": 2, "F": 2, "3RD": 1}
    state = resolve(standard_scheme(8), results, teams=8)
    assert state.finished
    table = [(p.place, p.numbers) for p in state.standings()]
    assert table == [
        ("1", (2,)),
        ("2", (5,)),
        ("3", (1,)),
        ("4", (6,)),
        ("5-8", (3, 4, 7, 8)),
    ]


def test_I7_standings_for_12_teams_in_scheme_16() -> None:
    results: dict[str, int | None] = {"R1-M2": 9, "R1-M3": 5, "R1-M6": 11, "R1-M7": 7}
    state = resolve(standard_scheme(16), results, teams=12)
    # After the first round only the first-round losers' places are known.
    assert [(p.place, p.numbers) for p in state.standings()] == [("9-12", (6, 8, 10, 12))]
    results |= {"QF1": 1, "QF2": 4, "QF3": 3, "QF4": 2, "SF1": 4, "SF2": 3, "F": 3, "3RD": 1}
    state = resolve(standard_scheme(16), results, teams=12)
    assert [(p.place, p.numbers) for p in state.standings()] == [
        ("1", (3,)),
        ("2", (4,)),
        ("3", (1,)),
        ("4", (2,)),
        ("5-8", (5, 7, 9, 11)),
        ("9-12", (6, 8, 10, 12)),
    ]


def test_I16_both_absent_share_the_place_of_their_round() -> None:
    results: dict[str, int | None] = {"QF1": None, "QF2": 4, "QF3": 3, "QF4": 2, "SF2": 2}
    results |= {"F": 2}
    state = resolve(standard_scheme(8), results, teams=8)
    assert state.finished
    table = [(p.place, p.numbers) for p in state.standings()]
    assert table == [("1", (2,)), ("2", (4,)), ("3", (3,)), ("4-8", (1, 5, 6, 7, 8))]


# --- property tests over sizes 8..1024 ---------------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(k=st.integers(3, 10), data=st.data())
def test_R13_random_results_keep_every_round_consistent(k: int, data: st.DataObject) -> None:
    size = 2**k
    teams = data.draw(st.integers(size // 2 + 1, size), label="teams")
    scheme = standard_scheme(size)
    results: dict[str, int | None] = {}
    state = resolve(scheme, results, teams=teams)
    while state.to_play():
        for m in state.to_play():
            home_wins = data.draw(st.booleans())
            results[m.id] = m.home.number if home_wins else m.away.number
        state = resolve(scheme, results, teams=teams)
    assert state.finished
    for r in range(1, k + 1):
        seen: list[int] = []
        for m in state.matches:
            if m.spec.round == r:
                seen += [s.number for s in (m.home, m.away) if s.number is not None]
        assert len(seen) == len(set(seen)), f"a team plays twice in round {r}"
    for m in state.matches:
        if m.status is MatchStatus.BYE:
            # Byes only against missing numbers, and only in round 1 (more than half present).
            assert m.spec.round == 1
            missing = m.away if m.home.status is SlotStatus.TEAM else m.home
            assert isinstance(missing.ref, Number) and missing.ref.number > teams
        else:
            assert m.status is MatchStatus.PLAYED
        if {m.home.number, m.away.number} == {1, 2}:
            # Not before the last round (the final, or both losing their semifinals).
            assert m.spec.stage in (Stage.FINAL, Stage.THIRD_PLACE)
    places = state.standings()
    assert sorted(n for p in places for n in p.numbers) == list(range(1, teams + 1))
    assert [p.first for p in places][:4] == [1, 2, 3, 4]
    assert places[-1].last == teams
    for a, b in itertools.pairwise(places):
        assert b.first == a.last + 1


# --- schemes as files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "size"),
    [("standard-8.toml", 8), ("standard-16.toml", 16), ("standard-32.json", 32)],
)
def test_I1_example_files_equal_the_standard_scheme(name: str, size: int) -> None:
    assert load_scheme(SCHEMES / name) == standard_scheme(size)


def test_I1_organiser_scheme_for_12_plays_like_16_with_byes() -> None:
    own = load_scheme(SCHEMES / "example-12-seeds-enter-quarterfinal.toml")
    assert own.size == 12
    results = {"R1-M1": 9, "R1-M2": 5, "R1-M3": 11, "R1-M4": 7, "QF1": 1, "QF2": 4}
    state = resolve(own, results, teams=12)
    assert {state.match("SF1").home.number, state.match("SF1").away.number} == {1, 4}
    assert state.match("QF4").home.candidates == frozenset({7})


def test_scheme_round_trips_through_plain_data() -> None:
    for size in (4, 8, 64):
        scheme = standard_scheme(size)
        doc = json.loads(json.dumps(scheme_to_dict(scheme)))
        assert scheme_from_dict(doc) == scheme


def test_parse_ref() -> None:
    assert parse_ref(3) == Number(3)
    assert parse_ref("12") == Number(12)
    assert parse_ref("winner of QF1") == Winner("QF1")
    assert parse_ref("Loser SF2") == Loser("SF2")
    with pytest.raises(SchemeError):
        parse_ref("best of QF1")
    with pytest.raises(SchemeError):
        parse_ref(True)


def _doc(*matches: dict[str, object], size: int = 4) -> dict[str, object]:
    return {"size": size, "matches": list(matches)}


def _m(mid: str, rnd: int, stage: str, home: object, away: object) -> dict[str, object]:
    return {"id": mid, "round": rnd, "stage": stage, "home": home, "away": away}


SF = [_m("SF1", 1, "semifinal", 1, 4), _m("SF2", 1, "semifinal", 2, 3)]


@pytest.mark.parametrize(
    ("matches", "message"),
    [
        (
            [*SF, _m("F", 2, "final", "winner of SF1", "winner of SF9")],
            "match F: 'winner of SF9' refers to an unknown match",
        ),
        (
            [_m("SF1", 1, "semifinal", 1, 4), _m("SF2", 1, "semifinal", 2, 4)],
            "match SF2: 'number 4' is already placed in match SF1 (a team would play twice in "
            "round 1)",
        ),
        (
            [
                _m("A", 1, "semifinal", 1, "winner of B"),
                _m("B", 1, "semifinal", 2, "winner of A"),
                _m("C", 1, "semifinal", 3, 4),
            ],
            "refer back to itself",
        ),
        (
            [*SF, _m("F", 1, "final", "winner of SF1", "winner of SF2")],
            "match F (round 1): 'winner of SF1' is from round 1, not an earlier round",
        ),
        ([_m("SF1", 1, "semifinal", 1, 4)], "number 2 has no place in the scheme"),
        (
            [*SF, _m("F", 2, "final", "winner of SF1", 5)],
            "match F: number 5 is outside 1..4",
        ),
        ([*SF, _m("F", 2, "finale", "winner of SF1", "winner of SF2")], "unknown stage"),
        ([*SF, _m("SF1", 2, "final", "winner of SF1", "winner of SF2")], "used twice"),
        (
            [*SF, _m("F", 2, "final", "winner of SF1", "winner of SF1")],
            "both slots are 'winner of SF1'",
        ),
        (
            [*SF, {"id": "F", "round": 2, "stage": "final", "home": "winner of SF1"}],
            "match F: 'away' is missing",
        ),
    ],
)
def test_I1_invalid_scheme_names_match_and_problem(
    matches: list[dict[str, object]], message: str
) -> None:
    with pytest.raises(SchemeError) as info:
        scheme_from_dict(_doc(*matches))
    assert message in str(info.value)


def test_invalid_places_are_refused() -> None:
    matches = [*SF, _m("F", 2, "final", "winner of SF1", "winner of SF2")]
    doc = _doc(*matches) | {"places": {"1": "winner of F", "2": "winner of SF1"}}
    with pytest.raises(SchemeError, match="place 2: 'winner of SF1' also plays on in match F"):
        scheme_from_dict(doc)
    doc = _doc(*matches) | {"places": {"1": "winner of F", "01": "loser of F"}}
    with pytest.raises(SchemeError, match="place 1 is given twice"):
        scheme_from_dict(doc)


def test_load_scheme_reports_file_problems(tmp_path: Path) -> None:
    bad = tmp_path / "annex.toml"
    bad.write_text("size = 4\n[[match]\n", encoding="utf-8")
    with pytest.raises(SchemeError, match=r"annex\.toml: not a valid toml file"):
        load_scheme(bad)
    unknown = tmp_path / "annex.json"
    unknown.write_text(json.dumps(_doc(*SF, _m("F", 2, "final", "winner of X", 1))), "utf-8")
    with pytest.raises(SchemeError, match=r"annex\.json: match F: 'winner of X'"):
        load_scheme(unknown)
    with pytest.raises(SchemeError, match="cannot read"):
        load_scheme(tmp_path / "missing.json")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 20) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_I1_a_mutated_scheme_file_is_refused_with_a_message(data: st.DataObject) -> None:
    doc: Any = scheme_to_dict(standard_scheme(8))
    node = doc
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            node = child
            continue
        if isinstance(node, dict) and data.draw(st.booleans()):
            del node[key]
        else:
            node[key] = data.draw(JSON_VALUES)
        break
    try:
        scheme = scheme_from_dict(doc)
    except SchemeError as exc:
        assert str(exc)
        return
    resolve(scheme, teams=scheme.size)


@settings(max_examples=examples(100), deadline=None)
@given(
    results=st.dictionaries(
        st.sampled_from([m.id for m in standard_scheme(8).matches] + ["X"]),
        st.none() | st.integers(0, 9),
    ),
    teams=st.integers(5, 8),
)
def test_any_results_resolve_or_raise_a_bracket_error(
    results: dict[str, int | None], teams: int
) -> None:
    try:
        state = resolve(standard_scheme(8), results, teams=teams)
    except BracketError as exc:
        assert str(exc)
        return
    state.standings()


def test_results_given_by_team_are_mapped_to_numbers() -> None:
    numbers = {1: "Alfa", 2: "Beta", 3: "Gama", 4: "Delta"}
    results = numbered_results({"SF1": "Delta", "SF2": None}, numbers)
    assert results == {"SF1": 4, "SF2": None}
    state = resolve(standard_scheme(4), results, teams=4)
    assert state.match("F").home.number == 4
    assert state.match("F").status is MatchStatus.BYE
    with pytest.raises(BracketError, match="has no draw number"):
        numbered_results({"SF1": "Omega"}, numbers)


# --- Review R2: 9 teams in the scheme for 16 (R9.2, R11.4, I7) ---------------------------------


def test_R11_4_nine_teams_in_16_give_7_byes_and_one_match() -> None:
    state = resolve(standard_scheme(16), {}, teams=9)
    first = state.matches[:8]
    assert [m.status for m in first].count(MatchStatus.BYE) == 7
    assert sorted(m.winner.number for m in first if m.status is MatchStatus.BYE) == [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
    ]
    # Only 8 v 9 is played in round 1; three quarterfinals between bye teams are known already.
    assert [(m.id, m.home.number, m.away.number) for m in state.to_play()] == [
        ("R1-M2", 8, 9),
        ("QF2", 5, 4),
        ("QF3", 3, 6),
        ("QF4", 7, 2),
    ]


def test_I7_team_with_a_bye_that_lost_in_the_quarterfinal_shares_5th_to_8th() -> None:
    # 9 teams: only 8 v 9 is played in round 1; number 1 had a bye and lost QF1 to 8.
    results: dict[str, int | None] = {"R1-M2": 8, "QF1": 8, "QF2": 5, "QF3": 3, "QF4": 2}
    state = resolve(standard_scheme(16), results, teams=9)
    assert [(p.place, p.numbers) for p in state.standings()] == [
        ("5-8", (1, 4, 6, 7)),
        ("9", (9,)),
    ]
    results |= {"SF1": 8, "SF2": 3, "F": 8, "3RD": 2}
    state = resolve(standard_scheme(16), results, teams=9)
    assert state.finished
    assert [(p.place, p.numbers) for p in state.standings()] == [
        ("1", (8,)),
        ("2", (3,)),
        ("3", (2,)),
        ("4", (5,)),
        ("5-8", (1, 4, 6, 7)),
        ("9", (9,)),
    ]


def test_I2_home_team_with_byes_and_in_the_3rd_place_match() -> None:
    # 9 teams in 16: QF4 is winner of R1-M7 (7, a bye) v winner of R1-M8 (2, a bye): the
    # winner of the match listed earlier is at home (I2) even though 2 is the better seed.
    results: dict[str, int | None] = {"R1-M2": 9, "QF1": 9, "QF2": 4, "QF3": 6, "QF4": 2}
    results |= {"SF1": 4, "SF2": 2}
    state = resolve(standard_scheme(16), results, teams=9)
    assert (state.match("QF1").home.number, state.match("QF1").away.number) == (1, 9)
    assert (state.match("QF4").home.number, state.match("QF4").away.number) == (7, 2)
    assert (state.match("SF1").home.number, state.match("SF1").away.number) == (9, 4)
    assert (state.match("F").home.number, state.match("F").away.number) == (4, 2)
    # 3rd place: the loser of SF1 (listed earlier) at home, the loser of SF2 visiting.
    assert (state.match("3RD").home.number, state.match("3RD").away.number) == (9, 6)


def test_I7_I16_both_finalists_absent_share_1st_2nd_without_overlap() -> None:
    # Neither finalist appears (I16): nobody wins the final; the finalists went out in the last
    # round above the 3rd-place match, so they share 1st-2nd (before: "3" and "3-4" overlapped).
    results: dict[str, int | None] = {"QF1": 1, "QF2": 4, "QF3": 3, "QF4": 2}
    results |= {"SF1": 1, "SF2": 3, "F": None, "3RD": 4}
    state = resolve(standard_scheme(8), results, teams=8)
    assert [(p.place, p.numbers) for p in state.standings()] == [
        ("1-2", (1, 3)),
        ("3", (4,)),
        ("4", (2,)),
        ("5-8", (5, 6, 7, 8)),
    ]


def test_I7_I16_a_whole_semifinal_absent_closes_up_the_places() -> None:
    # 9 teams; neither team of SF1 (8 and 5) appears: 3 wins the final and 2 the 3rd-place match
    # without play; 2nd and 4th have nobody, so the places close up: 3 first, 2 second, the
    # absent semifinalists share 3rd-4th (before: "3" and "3-4" overlapped, 2nd was missing).
    results: dict[str, int | None] = {"R1-M2": 8, "QF1": 8, "QF2": 5, "QF3": 3, "QF4": 2}
    results |= {"SF1": None, "SF2": 3, "F": 3, "3RD": 2}
    state = resolve(standard_scheme(16), results, teams=9)
    assert state.finished
    assert [(p.place, p.numbers) for p in state.standings()] == [
        ("1", (3,)),
        ("2", (2,)),
        ("3-4", (5, 8)),
        ("5-8", (1, 4, 6, 7)),
        ("9", (9,)),
    ]


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_I7_standings_never_overlap_and_place_every_team_once(data: st.DataObject) -> None:
    size = data.draw(st.sampled_from([8, 16, 32]))
    teams = data.draw(st.integers(min_value=max(size // 2 + 1, 5), max_value=size))
    scheme = standard_scheme(size)
    results: dict[str, int | None] = {}
    state = resolve(scheme, results, teams=teams)
    while state.to_play():
        for m in state.to_play():
            assert m.home.number is not None and m.away.number is not None
            results[m.id] = data.draw(st.sampled_from([m.home.number, m.away.number, None]))
        state = resolve(scheme, results, teams=teams)
    places = state.standings()
    seats = [k for p in places for k in range(p.first, p.last + 1)]
    assert len(seats) == len(set(seats))
    assert all(p.last - p.first + 1 == len(p.numbers) for p in places)
    assert sorted(n for p in places for n in p.numbers) == list(range(1, teams + 1))


# --- fast at any size: the same results as the plain definitions --------------------------------


def _resolve_by_definition(
    scheme: Any, results: dict[str, int | None], present: frozenset[int]
) -> list[tuple[Any, ...]]:
    """The bracket resolved as first written (every slot a copy with its candidates worked out
    at once): per match (id, status, home, away, winner, loser), a slot as
    (ref, status, number, candidates). Raises ValueError where resolve raises BracketError."""
    out: dict[str, tuple[Any, ...]] = {}
    team, empty, pending = SlotStatus.TEAM, SlotStatus.EMPTY, SlotStatus.PENDING

    def slot_of(ref: Any) -> tuple[Any, ...]:
        if isinstance(ref, Number):
            if ref.number in present:
                return (ref, team, ref.number, frozenset({ref.number}))
            return (ref, empty, None, frozenset())
        src = out[ref.match]
        s = src[4] if isinstance(ref, Winner) else src[5]
        return (ref, s[1], s[2], s[3])

    for spec in sorted(scheme.matches, key=lambda m: m.round):
        home, away = slot_of(spec.home), slot_of(spec.away)
        w_ref, l_ref = Winner(spec.id), Loser(spec.id)
        empty_w, empty_l = (w_ref, empty, None, frozenset()), (l_ref, empty, None, frozenset())
        given = spec.id in results
        outcome = results.get(spec.id)
        cands = home[3] | away[3]
        if home[1] is team and away[1] is team:
            if not given:
                state = (
                    MatchStatus.TO_PLAY,
                    (w_ref, pending, None, cands),
                    (l_ref, pending, None, cands),
                )
            elif outcome is None:
                state = (MatchStatus.NO_WINNER, empty_w, empty_l)
            elif outcome in (home[2], away[2]):
                loser = away[2] if outcome == home[2] else home[2]
                state = (
                    MatchStatus.PLAYED,
                    (w_ref, team, outcome, frozenset({outcome})),
                    (l_ref, team, loser, frozenset({loser})),
                )
            else:
                raise ValueError(spec.id)
        elif pending in (home[1], away[1]):
            if given:
                raise ValueError(spec.id)
            no_loser = empty in (home[1], away[1])
            lo = empty_l if no_loser else (l_ref, pending, None, cands)
            state = (MatchStatus.PENDING, (w_ref, pending, None, cands), lo)
        elif team in (home[1], away[1]):
            t = home if home[1] is team else away
            if given and outcome != t[2]:
                raise ValueError(spec.id)
            state = (MatchStatus.BYE, (w_ref, team, t[2], t[3]), empty_l)
        else:
            if given and outcome is not None:
                raise ValueError(spec.id)
            state = (MatchStatus.NO_WINNER, empty_w, empty_l)
        out[spec.id] = (spec.id, state[0], home, away, state[1], state[2])
    return [out[m.id] for m in scheme.matches]


def _as_plain(state: Any) -> list[tuple[Any, ...]]:
    def slot(s: Any) -> tuple[Any, ...]:
        return (s.ref, s.status, s.number, s.candidates)

    return [
        (m.id, m.status, slot(m.home), slot(m.away), slot(m.winner), slot(m.loser))
        for m in state.matches
    ]


@settings(max_examples=examples(150), deadline=None)
@given(k=st.integers(2, 8), data=st.data())
def test_R13_I16_resolve_equals_its_definition(k: int, data: st.DataObject) -> None:
    """Random present numbers and random results (valid or not), on the standard scheme and on
    the same scheme read back from plain data (validated, refs not shared)."""
    size = 2**k
    present = frozenset(data.draw(st.sets(st.integers(1, size), max_size=size), label="present"))
    standard = standard_scheme(size)
    ids = [m.id for m in standard.matches]
    results = data.draw(
        st.dictionaries(st.sampled_from(ids), st.none() | st.integers(1, size), max_size=size),
        label="results",
    )
    for scheme in (standard, scheme_from_dict(scheme_to_dict(standard))):
        try:
            expected = _resolve_by_definition(scheme, results, present)
        except ValueError:
            with pytest.raises(BracketError):
                resolve(scheme, results, teams=present)
            continue
        state = resolve(scheme, results, teams=present)
        assert _as_plain(state) == expected


@pytest.mark.parametrize("k", range(2, 11))
def test_R9_1_standard_scheme_is_valid_when_validated_again(k: int) -> None:
    """standard_scheme skips re-validation; the same matches pass the full validation."""
    scheme = standard_scheme(2**k)
    again = scheme_from_dict(scheme_to_dict(scheme))
    assert again == scheme
    assert again._result_refs() == scheme._result_refs()
    state = resolve(scheme, teams=2**k - 3)
    assert _as_plain(state) == _resolve_by_definition(scheme, {}, frozenset(range(1, 2**k - 2)))


def test_slots_are_immutable_values() -> None:
    import copy
    import operator
    import pickle

    from bridgeko.competition.bracket import Slot

    state = resolve(standard_scheme(8), teams=8)
    final = state.match("F")
    assert final.home.candidates == frozenset({1, 4, 5, 8})
    made = Slot(Winner("SF1"), SlotStatus.PENDING, None, frozenset({1, 4, 5, 8}))
    assert final.home == made and hash(final.home) == hash(made)
    assert operator.ne(final.home, made) is False
    assert final.home != Slot(Winner("SF1"), SlotStatus.PENDING, None, frozenset({1}))
    assert repr(made) == (
        "Slot(ref=Winner(match='SF1'), status=<SlotStatus.PENDING: 'pending'>, number=None, "
        f"candidates={frozenset({1, 4, 5, 8})!r})"
    )
    assert pickle.loads(pickle.dumps(final)) == final
    assert copy.deepcopy(state.matches) == state.matches
    with pytest.raises(AttributeError):
        final.home.number = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        final.status = MatchStatus.PLAYED  # type: ignore[misc]
    assert state.match("QF1").decided is False


def test_bracket_errors_carry_translatable_messages() -> None:
    from bridgeko.competition import bracket, scheme

    czech = {
        scheme.IN_CONTEXT: "%(where)s: %(problem)s",
        scheme.MATCH_LABEL: "utkání %(match)s",
        scheme.REF_TO_UNKNOWN_MATCH: "utkání %(match)s: '%(ref)s' odkazuje na neznámé utkání",
        scheme.REF_WINNER: "vítěz utkání %(match)s",
        bracket.NOT_ITS_WINNER: "utkání %(match)s je %(home)s – %(away)s; "
        "%(outcome)s nemůže být jeho vítězem",
    }
    with pytest.raises(SchemeError) as info:
        scheme_from_dict(_doc(*SF, _m("F", 2, "final", "winner of SF1", "winner of X")))
    assert str(info.value) == "match F: 'winner of X' refers to an unknown match"
    assert info.value.detail.template == scheme.REF_TO_UNKNOWN_MATCH
    assert info.value.detail.format(czech.get) == (
        "utkání F: 'vítěz utkání X' odkazuje na neznámé utkání"
    )
    with pytest.raises(SchemeError) as info:
        scheme_from_dict(_doc(*SF, _m("F", 2, "final", "winner of SF1", "winner or X")))
    assert info.value.detail.template == scheme.IN_CONTEXT
    with pytest.raises(BracketError) as err:
        resolve(standard_scheme(4), {"SF1": 2}, teams=4)
    assert str(err.value) == "match SF1 is 1 v 4; 2 cannot be its winner"
    assert err.value.detail.format(czech.get) == "utkání SF1 je 1 – 4; 2 nemůže být jeho vítězem"
