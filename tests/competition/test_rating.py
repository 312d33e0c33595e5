"""Team Elo (R10, I17)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.competition import regulations as regs
from bridgeko.competition.rating import team_elo, team_elo_for

REG1999 = regs.load(Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml")


# (players' Elo, team Elo) worked out by hand.
CASES = [
    ([600, 601], 601),  # 600.5 -> 601
    ([600, 600, 601], 600),  # 600.33 -> 600
    ([600, 601, 601], 601),  # 600.67 -> 601
    ([501, 502, 502, 502], 502),  # 501.75
    ([500, 501, 500, 501], 501),  # 500.5 exactly
    ([1, 2], 2),  # 1.5
    ([2, 3], 3),  # 2.5 (banker's rounding would give 2)
    ([4, 5], 5),  # 4.5 (banker's rounding would give 4)
    ([612, None, 588, None, 701, 700], 650),  # 650.25
    ([555, None], 555),
    ([0], 0),
]


@pytest.mark.parametrize(("elos", "expected"), CASES)
def test_R10_1_team_elo_mean_of_known(elos: list[int | None], expected: int) -> None:
    assert team_elo(elos) == expected


def test_R10_1_team_elo_rounds_half_up() -> None:
    # 600.50 -> 601: four players, sum 2402
    assert team_elo([600, 601, 600, 601]) == 601
    # 600.49...: 100 players, sum 60049 -> 600.49 -> 600
    assert team_elo([600] * 51 + [601] * 49) == 600
    # 600.50 exactly over 100 players: sum 60050 -> 601
    assert team_elo([600] * 50 + [601] * 50) == 601


def test_R10_2_no_known_elo_is_500() -> None:
    assert team_elo([None, None, None, None]) == 500
    assert team_elo([]) == 500


def test_R10_2_default_from_the_regulations() -> None:
    assert team_elo_for([None] * 4, REG1999) == REG1999.rating.default_team_elo == 500
    assert team_elo([None], default=480) == 480
    assert team_elo([600, 601], default=480) == 601


def test_R10_1_rejects_non_numbers() -> None:
    with pytest.raises(ValueError, match="Elo"):
        team_elo([600.5])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Elo"):
        team_elo([True])


def test_I17_exact_no_float_drift() -> None:
    # A half-way mean of numbers too large for a float to hold exactly.
    elos = [10**17 + 1, 10**17 + 2]
    assert team_elo(elos) == 10**17 + 2


@given(st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=3000)), max_size=8))
def test_I17_team_elo_matches_integer_formula(elos: list[int | None]) -> None:
    known = [e for e in elos if e is not None]
    if not known:
        expected = 500
    else:
        total, n = sum(known), len(known)
        # half up with integers only: floor((2*sum + n) / (2*n))
        expected = (2 * total + n) // (2 * n)
    assert team_elo(elos) == expected


def test_R10_1_negative_elo_is_refused_with_a_message() -> None:
    # Elo is in per mille, 0 or more; -600.5 could round to -600 or -601 ("half up" is
    # ambiguous below zero), so a negative value is a user error naming the value.
    with pytest.raises(ValueError, match=r"0 or more, not -1"):
        team_elo([600, -1])
    with pytest.raises(ValueError, match="Elo"):
        team_elo([-600, -601])


def test_R10_1_huge_elo_rounds_half_up_exactly() -> None:
    # Sum 2 * 10**30 + 1 over 2 players: mean 10**30 + 0.5 -> 10**30 + 1 (a float gives 10**30).
    assert team_elo([10**30, 10**30 + 1]) == 10**30 + 1
    # Three players, mean 10**30 + 1/3 -> 10**30; mean 10**30 + 2/3 -> 10**30 + 1.
    assert team_elo([10**30, 10**30, 10**30 + 1]) == 10**30
    assert team_elo([10**30, 10**30 + 1, 10**30 + 1]) == 10**30 + 1
    assert team_elo([0, 0, 1]) == 0
    assert team_elo([0, 1]) == 1
