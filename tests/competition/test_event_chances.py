"""Each team's chance to win the event (issue 22): the remaining scheme simulated with the match
model; deterministic for a seed, probabilities summing to 1 per place, the exact answer where it
is known, results so far respected, any format (double elimination, byes R11.4)."""

from __future__ import annotations

import pytest

from bridgeko.competition import formats
from bridgeko.competition.chances import elo_expectation
from bridgeko.competition.event_chances import event_chances, exact_chances, simulated_chances
from bridgeko.competition.scheme import standard_scheme

ELO = {n: 700 - 20 * n for n in range(1, 17)}


def by_elo(_match: str, home: int, away: int) -> float:
    return elo_expectation(ELO[home], ELO[away])


@pytest.mark.parametrize(
    "scheme",
    [
        standard_scheme(16),
        formats.double_elimination(16),
        formats.with_placement(standard_scheme(16)),
    ],
    ids=["single", "double", "placement"],
)
def test_the_chances_of_each_place_sum_to_1_and_repeat_for_a_seed(scheme) -> None:  # type: ignore[no-untyped-def]
    odds = event_chances(scheme, {}, teams=13, chance=by_elo, runs=600, seed=3)
    for place, chances in odds.places.items():
        assert sum(chances.values()) == pytest.approx(1.0), place
    assert odds.win == odds.places[1]
    assert set(odds.win) <= set(range(1, 14))  # numbers 14-16 are missing (R11.4)
    assert event_chances(scheme, {}, teams=13, chance=by_elo, runs=600, seed=3) == odds
    assert odds.reach[1] == {n: 1.0 for n in range(1, 14)}  # everybody is in round 1


def test_the_exact_chance_of_a_four_team_knockout() -> None:
    # 1 v 4 and 2 v 3, then the final: P(1 wins) = p14 * (p12 p23 + p13 p32)
    p = {(a, b): elo_expectation(ELO[a], ELO[b]) for a in ELO for b in ELO}
    exact = p[1, 4] * (p[1, 2] * p[2, 3] + p[1, 3] * p[3, 2])
    odds = event_chances(standard_scheme(4), {}, teams=4, chance=by_elo)
    assert odds.runs == 0 and odds.win[1] == pytest.approx(exact, abs=1e-12)  # computed exactly
    simulated = simulated_chances(standard_scheme(4), {}, teams=4, chance=by_elo, runs=10000)
    assert simulated.win[1] == pytest.approx(exact, abs=0.015)  # 3 standard errors


@pytest.mark.parametrize(
    "scheme",
    [
        standard_scheme(16),
        formats.with_placement(standard_scheme(16)),
        formats.with_plate(standard_scheme(16)),
    ],
    ids=["single", "placement", "plate"],
)
def test_the_exact_chances_agree_with_the_simulation(scheme) -> None:  # type: ignore[no-untyped-def]
    exact = exact_chances(scheme, {"R1-M1": 1}, teams=13, chance=by_elo)
    assert exact is not None and exact.runs == 0
    runs = 6000
    simulated = simulated_chances(scheme, {"R1-M1": 1}, teams=13, chance=by_elo, runs=runs)
    for place, chances in exact.places.items():
        assert sum(chances.values()) == pytest.approx(1.0), place
        for number, p in chances.items():
            se = (max(p * (1 - p), 1e-4) / runs) ** 0.5
            assert simulated.places[place].get(number, 0.0) == pytest.approx(p, abs=4.5 * se)
    for rnd, chances in exact.reach.items():
        for number, p in chances.items():
            se = (max(p * (1 - p), 1e-4) / runs) ** 0.5
            assert simulated.reach[rnd].get(number, 0.0) == pytest.approx(p, abs=4.5 * se)
    assert set(exact.matches) == set(simulated.matches)
    for match, chances in exact.matches.items():
        assert sum(chances.values()) <= 2 + 1e-9, match  # two slots
        for number, p in chances.items():
            se = (max(p * (1 - p), 1e-4) / runs) ** 0.5
            assert simulated.matches[match].get(number, 0.0) == pytest.approx(p, abs=4.5 * se)


def test_double_elimination_is_exact_once_its_brackets_have_met() -> None:
    """Before the winners' final the loser of a winners' match also plays in the losers'
    bracket (the two slots of a later match depend on the same match): simulated. Once only
    the losers' final and the final are left, the slots depend on no common match: exact."""
    scheme = formats.double_elimination(4)
    even = lambda *_: 0.5  # noqa: E731
    assert exact_chances(scheme, {}, teams=4, chance=even) is None
    assert event_chances(scheme, {}, teams=4, chance=even, runs=300).runs == 300
    results = {"SF1": 1, "SF2": 2, "L1-M1": 4, "WF": 1}
    odds = event_chances(scheme, results, teams=4, chance=even)
    assert odds.runs == 0
    assert odds.win == {1: 0.5, 2: 0.25, 4: 0.25}  # F; or LF, then F: 1/2 * 1/2
    assert odds.places[3] == {2: 0.5, 4: 0.5}


def test_results_so_far_are_kept_and_a_beaten_team_cannot_win() -> None:
    scheme = standard_scheme(4)
    odds = event_chances(scheme, {"SF1": 4}, teams=4, chance=by_elo, runs=500)
    assert 1 not in odds.win and odds.reach[2][4] == 1.0
    over = event_chances(scheme, {"SF1": 4, "SF2": 3, "F": 3, "3RD": 1}, teams=4, chance=by_elo)
    assert over.win == {3: 1.0} and over.places[4] == {2: 1.0}


def test_double_elimination_a_once_beaten_team_can_still_win() -> None:
    scheme = formats.double_elimination(8)
    odds = event_chances(scheme, {"QF1": 8}, teams=8, chance=lambda *_: 0.5, runs=2000)
    assert 0 < odds.win.get(1, 0.0) < odds.win[8]  # 1 lost QF1 and is in the losers' bracket


def _engine_home_wins(scheme, results, teams):  # type: ignore[no-untyped-def]
    """The bracket engine itself, every match still to play won by its home team."""
    from bridgeko.competition.bracket import MatchStatus, resolve

    done = dict(results)
    while True:
        state = resolve(scheme, done, teams=teams)
        to_play = [
            m
            for m in state.matches
            if m.status is MatchStatus.TO_PLAY and not m.id.startswith("P-")
        ]
        if not to_play:
            return state
        for m in to_play:
            done[m.id] = m.home.number


@pytest.mark.parametrize(
    ("scheme", "results"),
    [
        (standard_scheme(16), {}),
        (standard_scheme(16), {"R1-M2": 9, "R1-M3": 12}),
        (formats.double_elimination(16), {}),
        (formats.double_elimination(16), {"R1-M2": 9, "R1-M4": 13}),
        (formats.double_elimination(16, reset=True), {}),
        (formats.with_placement(standard_scheme(16)), {}),
        (formats.with_plate(standard_scheme(16)), {}),
    ],
)
def test_the_walk_of_a_run_agrees_with_the_bracket_engine(scheme, results) -> None:  # type: ignore[no-untyped-def]
    # R11.4: 13 teams in a scheme of 16, byes included
    state = _engine_home_wins(scheme, results, 13)
    placed = {p: state.match(ref.match).winner.number if ref.__class__.__name__ == "Winner"
              else state.match(ref.match).loser.number for p, ref in scheme.places}  # fmt: skip
    odds = event_chances(scheme, results, teams=13, chance=lambda *_: 1.0, runs=3)
    assert {p: list(c) for p, c in odds.places.items()} == {p: [n] for p, n in placed.items()}
    reach = {}
    for m in state.matches:
        if not m.id.startswith("P-") and m.status != "not_needed":  # a second final not played
            for slot in (m.home, m.away):
                if slot.number is not None:
                    reach.setdefault(m.spec.round, set()).add(slot.number)
    assert {r: set(c) for r, c in odds.reach.items()} == reach


def test_issue22_a_second_final_counts_only_when_the_unbeaten_team_loses() -> None:
    """Before the final of a double elimination with a second final, the unbeaten team (1) wins
    the event if it wins either final: 1/2 + 1/2 * 1/2 between even teams; the other team
    plays the second final only if it wins the first."""
    scheme = formats.double_elimination(4, reset=True)
    results = {"SF1": 1, "SF2": 2, "L1-M1": 4, "WF": 1, "LF": 2}
    odds = event_chances(scheme, results, teams=4, chance=lambda *_: 0.5, runs=20000, seed=5)
    assert odds.runs == 20000  # both slots of F2 come from F: simulated
    assert odds.win[1] == pytest.approx(0.75, abs=0.015)
    assert sum(odds.win.values()) == pytest.approx(1.0)
    assert odds.matches["F2"][1] == pytest.approx(0.5, abs=0.015)  # played half the time
    exact = event_chances(scheme, {**results, "F": 2}, teams=4, chance=lambda *_: 0.5)
    assert exact.runs == 0 and exact.win == {1: 0.5, 2: 0.5}
