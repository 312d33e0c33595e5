"""Chances to win a match in progress (issue 12, item 3): the model's properties, its parameters
against the real records they come from, and its calibration on held-out real matches.

The records are ``tests/data/imps/matches.csv`` (see its README): the events of 2005-2012 are
the training part (the parameters in ``bridgeko.competition.chances`` were estimated on them),
those of 2013-2018 are held out.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.competition import chances as ch
from bridgeko.competition import regulations as regs
from bridgeko.competition.chances import (
    DEFAULT,
    ChanceParams,
    chance_to_win,
    chances,
    elo_expectation,
    estimate,
    explain,
    params_for,
)
from tests.competition.calibration import assert_calibrated
from tests.sizes import examples

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "data" / "imps" / "matches.csv"
REG1999 = regs.load(ROOT / "editions" / "bridge-open-ko-1999.toml")
HELD_OUT_FROM = 2013


@dataclass(frozen=True)
class Record:
    event: str
    imps: tuple[int, ...]

    @property
    def year(self) -> int:
        return int(self.event[:4])


@cache
def records() -> tuple[Record, ...]:
    with RECORDS.open(encoding="utf-8", newline="") as f:
        return tuple(
            Record(row["event"], tuple(int(x) for x in row["imps"].split()))
            for row in csv.DictReader(f)
        )


def training() -> list[list[int]]:
    return [list(r.imps) for r in records() if r.year < HELD_OUT_FROM]


def held_out() -> list[tuple[int, ...]]:
    return [r.imps for r in records() if r.year >= HELD_OUT_FROM]


# --- properties of the model ------------------------------------------------------------------

elos = st.one_of(st.none(), st.integers(0, 1000))


@settings(max_examples=examples(150), deadline=None)
@given(
    lead=st.integers(-80, 80),
    played=st.integers(0, 48),
    left=st.integers(0, 48),
    elo_home=elos,
    elo_visitors=elos,
)
def test_chances_symmetric_between_home_and_visitors(
    lead: int, played: int, left: int, elo_home: int | None, elo_visitors: int | None
) -> None:
    home = chance_to_win(lead, played, left, elo_home, elo_visitors)
    visitors = chance_to_win(-lead, played, left, elo_visitors, elo_home)
    assert 0.0 <= home <= 1.0
    assert home == pytest.approx(1.0 - visitors, abs=1e-9)
    assert sum(chances(lead, played, left, elo_home, elo_visitors)) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("played", "left", "elo_home", "elo_visitors"),
    [
        (0, 32, None, None),
        (16, 16, 600, 550),
        (28, 4, None, None),
        (31, 1, 500, 700),
        (44, 4, 650, 600),
    ],
)
def test_chances_grow_with_the_lead(
    played: int, left: int, elo_home: int | None, elo_visitors: int | None
) -> None:
    values = [chance_to_win(lead, played, left, elo_home, elo_visitors) for lead in range(-60, 61)]
    assert all(b >= a - 1e-12 for a, b in pairwise(values))
    assert values[0] < 0.15 and values[-1] > 0.85


@pytest.mark.parametrize("lead", [1, 3, 12, 50])
def test_chances_finished_match_is_decided_by_the_sign_of_the_lead(lead: int) -> None:
    assert chance_to_win(lead, 32, 0, None, None) == 1.0
    assert chance_to_win(-lead, 32, 0, 900, 100) == 0.0


def test_R12_5_chances_tied_match_goes_to_extra_segments() -> None:
    assert chance_to_win(0, 32, 0, None, None) == pytest.approx(0.5)
    assert chance_to_win(0, 32, 0, 600, 600) == pytest.approx(0.5)
    favoured = chance_to_win(0, 32, 0, 700, 500)
    assert 0.5 < favoured < 0.75  # one 4-board segment at a time: an edge, no certainty
    # In an extra segment in progress the same function applies to its boards.
    assert 0.5 < chance_to_win(2, 34, 2, None, None) < 1.0


@pytest.mark.parametrize("left", [1, 4, 16, 32, 48])
def test_chances_even_match_at_even_score_is_a_half(left: int) -> None:
    assert chance_to_win(0, 0, left, None, None) == pytest.approx(0.5, abs=1e-9)
    assert chance_to_win(0, 16, left, 612, 612) == pytest.approx(0.5, abs=1e-9)
    assert chance_to_win(0, 8, left, None, 700) == pytest.approx(0.5, abs=1e-9)  # Elo unknown


def test_chances_elo_edge_raises_the_chance() -> None:
    at_start = [chance_to_win(0, 0, 32, 500 + d, 500) for d in (0, 25, 50, 100, 200)]
    assert at_start[0] == pytest.approx(0.5)
    assert all(b > a for a, b in pairwise(at_start))
    # The Elo expectation is the chance to win a standard (32-board) match from the start.
    for d in (25, 100, 200):
        e = elo_expectation(500 + d, 500)
        assert chance_to_win(0, 0, 32, 500 + d, 500) == pytest.approx(e, abs=0.01)
    # Behind by a little, the stronger team keeps a better chance than an unrated one.
    assert chance_to_win(-3, 16, 16, 650, 550) > chance_to_win(-3, 16, 16, None, None)


def test_chances_lead_counts_more_as_boards_run_out() -> None:
    leader = [chance_to_win(8, 32 - left, left, None, None) for left in (32, 16, 8, 4, 1)]
    assert all(b > a for a, b in pairwise(leader))


@pytest.mark.parametrize(
    ("lead", "played", "left"),
    [(0, -1, 16), (0, 16, -1), (math.nan, 16, 16), (math.inf, 0, 32)],
)
def test_chances_bad_input_is_refused(lead: float, played: int, left: int) -> None:
    with pytest.raises(ValueError):
        chance_to_win(lead, played, left, None, None)


def test_chances_params_come_from_the_edition() -> None:
    params = params_for(REG1999)
    assert (params.reference_boards, params.extra_segment_boards) == (32, 4)  # R12.1, R12.5
    assert (params.sigma, params.tau, params.elo_scale) == (ch.SIGMA, ch.TAU, ch.ELO_SCALE)
    with pytest.raises(ValueError):
        ChanceParams(sigma=0)
    names = [p.name for p in explain(params)]
    assert names[:3] == ["sigma", "tau", "elo_scale"]
    assert all(p.meaning for p in explain(params))


# --- the parameters against the training records ----------------------------------------------


def test_chances_parameters_are_those_of_the_training_records() -> None:
    train = training()
    assert len(train) == 6148
    e = estimate(train)
    assert e.boards == 112608
    # 95% intervals by a bootstrap over matches (docs/chances.md): sigma 6.17-6.22, tau 0.95-1.06.
    assert e.sigma == pytest.approx(ch.SIGMA, abs=0.03)
    assert e.tau == pytest.approx(ch.TAU, abs=0.06)
    counts = Counter(abs(x) for imps in train for x in imps)
    assert tuple(counts.get(k, 0) for k in range(25)) == ch.BOARD_COUNTS


def test_chances_boards_of_a_match_are_nearly_independent() -> None:
    """The model adds boards as independent draws: the correlation of consecutive boards of a
    match is small (about 0.02) and the standardised match totals are close to normal."""
    train = training()
    lag = sum(x[i] * x[i + 1] for x in train for i in range(len(x) - 1))
    pairs = sum(len(x) - 1 for x in train)
    square = sum(v * v for x in train for v in x) / sum(len(x) for x in train)
    assert abs(lag / pairs / square) < 0.05
    z = [sum(x) / math.sqrt(len(x)) for x in train]
    var = sum(t * t for t in z) / len(z)
    kurtosis = sum(t**4 for t in z) / len(z) / var**2
    assert 2.7 < kurtosis < 3.4


# --- calibration on held-out matches -----------------------------------------------------------

POINTS: dict[str, Callable[[int], int]] = {
    "quarter": lambda n: n // 4,
    "half": lambda n: n // 2,
    "three quarters": lambda n: (3 * n) // 4,
    "4 boards left": lambda n: n - 4,
    "2 boards left": lambda n: n - 2,
    "1 board left": lambda n: n - 1,
}


def outcome(total: int) -> float:
    """1 if the first team won, 0 if it lost; a tie (the round robins allow it) counts as the
    half it is worth under R12.5's extra segments between even teams."""
    return 1.0 if total > 0 else 0.0 if total < 0 else 0.5


@pytest.mark.parametrize("point", list(POINTS))
def test_chances_calibrated_on_held_out_matches(point: str, params: ChanceParams = DEFAULT) -> None:
    """Each held-out match gives one prediction at ``point`` (so the predictions of a bin are
    independent trials): the chance from the lead and the boards left, no Elo (the records have
    none). In every tenth of [0, 1] with 30 predictions or more, the observed share of wins is
    within 3.5 binomial standard errors of the mean prediction (3.5: about a 3% chance that any
    of the 60 bins of this test strays that far by chance), the size-weighted mean gap is under
    0.035, and the Brier score beats the 0.25 of always saying a half."""
    matches = held_out()
    assert len(matches) == 2802
    at = POINTS[point]
    predictions = []
    for imps in matches:
        k = at(len(imps))
        p = chance_to_win(sum(imps[:k]), k, len(imps) - k, None, None, params)
        predictions.append((p, outcome(sum(imps))))
    assert_calibrated(predictions, label=point, brier_below=0.25, gap_below=0.035)
