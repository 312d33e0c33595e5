"""Law 77 duplicate scores, the Law 78B IMP scale and board IMPs from the home team's view (R12.2).

The expected values are built from the Law 77 tables typed below as data (and a literal list of
well-known scores), never by calling the code under test.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.bridge.cards import Seat, Strain, Vulnerability
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.errors import BridgeInputError, ScoringError
from bridgeko.bridge.result import BoardResult
from bridgeko.bridge.scoring import (
    WBF_IMP_SCALE,
    BoardScore,
    board_imps,
    imps,
    parse_result,
    result_score,
    score,
    score_board,
)

# --- Law 77 as data ------------------------------------------------------------------------------
# Trick points for a contract of level 1..7, undoubled (Law 77, "contract points").
CONTRACT_POINTS = {
    "C": (20, 40, 60, 80, 100, 120, 140),
    "D": (20, 40, 60, 80, 100, 120, 140),
    "H": (30, 60, 90, 120, 150, 180, 210),
    "S": (30, 60, 90, 120, 150, 180, 210),
    "NT": (40, 70, 100, 130, 160, 190, 220),
}
TRICK_MULTIPLIER = {"": 1, "X": 2, "XX": 4}
GAME_BONUS = {False: 300, True: 500}
PART_SCORE_BONUS = 50
SLAM_BONUS = {(6, False): 500, (6, True): 750, (7, False): 1000, (7, True): 1500}
INSULT = {"": 0, "X": 50, "XX": 100}
# Value of each overtrick: undoubled = trick value; doubled/redoubled by vulnerability.
OVERTRICK = {
    ("C", ""): 20, ("D", ""): 20, ("H", ""): 30, ("S", ""): 30, ("NT", ""): 30,
}  # fmt: skip
DOUBLED_OVERTRICK = {("X", False): 100, ("X", True): 200, ("XX", False): 200, ("XX", True): 400}
# Total penalty for 1..13 undertricks (index 0 = down 1).
UNDERTRICKS = {
    ("", False): (50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650),
    ("", True): (100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300),
    ("X", False): (100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500),
    ("X", True): (200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800),
    ("XX", False): (200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000),
    ("XX", True): (400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600),
}


def expected_score(level: int, strain: str, dbl: str, tricks: int, vul: bool) -> int:
    needed = level + 6
    if tricks < needed:
        return -UNDERTRICKS[(dbl, vul)][needed - tricks - 1]
    points = CONTRACT_POINTS[strain][level - 1] * TRICK_MULTIPLIER[dbl]
    total = points + (GAME_BONUS[vul] if points >= 100 else PART_SCORE_BONUS)
    total += SLAM_BONUS.get((level, vul), 0) + INSULT[dbl]
    each = OVERTRICK[(strain, dbl)] if dbl == "" else DOUBLED_OVERTRICK[(dbl, vul)]
    return total + (tricks - needed) * each


ALL_CASES = [
    (level, strain, dbl, tricks, vul)
    for level in range(1, 8)
    for strain in CONTRACT_POINTS
    for dbl in ("", "X", "XX")
    for tricks in range(14)
    for vul in (False, True)
]


def test_law77_every_contract_tricks_and_vulnerability_against_the_table() -> None:
    assert len(ALL_CASES) == 7 * 5 * 3 * 14 * 2
    wrong = [
        (f"{level}{strain}{dbl}", tricks, vul, score(f"{level}{strain}{dbl}", tricks, vul), exp)
        for level, strain, dbl, tricks, vul in ALL_CASES
        if score(f"{level}{strain}{dbl}", tricks, vul)
        != (exp := expected_score(level, strain, dbl, tricks, vul))
    ]
    assert wrong == []


def test_law77_contract_value_and_string_give_the_same_score() -> None:
    for level in range(1, 8):
        for strain in Strain:
            for dbl in Doubling:
                c = Contract(level, strain, dbl)
                for tricks in (0, level + 5, level + 6, 13):
                    assert score(c, tricks, True) == score(str(c), tricks, True)


# Literal spot checks: (contract, tricks, vulnerable, score), as printed on any score card.
WELL_KNOWN = [
    ("4S", 10, False, 420),
    ("4S", 10, True, 620),
    ("4H", 11, False, 450),
    ("3NT", 9, True, 600),
    ("3NT", 9, False, 400),
    ("3NT", 10, False, 430),
    ("3NT", 11, True, 660),
    ("1NT", 7, False, 90),
    ("1NT", 8, False, 120),
    ("2NT", 8, True, 120),
    ("1C", 7, False, 70),
    ("1C", 8, True, 90),
    ("3C", 9, False, 110),
    ("2S", 9, False, 140),
    ("3S", 10, False, 170),
    ("5C", 11, False, 400),
    ("5D", 11, True, 600),
    ("5D", 12, False, 420),
    ("6S", 12, False, 980),
    ("6S", 12, True, 1430),
    ("6NT", 12, False, 990),
    ("6NT", 12, True, 1440),
    ("7C", 13, False, 1440),
    ("7S", 13, True, 2210),
    ("7NT", 13, False, 1520),
    ("7NT", 13, True, 2220),
    ("1NTX", 7, False, 180),
    ("1HX", 7, False, 160),
    ("1HX", 8, True, 360),
    ("2CX", 8, False, 180),
    ("2CX", 9, False, 280),
    ("2CX", 9, True, 380),
    ("2HX", 8, False, 470),
    ("2HX", 8, True, 670),
    ("3DX", 9, False, 470),
    ("4SX", 10, False, 590),
    ("4SX", 10, True, 790),
    ("4SX", 11, True, 990),
    ("6NTX", 12, False, 1230),
    ("6NTX", 12, True, 1680),
    ("7NTX", 13, False, 1790),
    ("1CXX", 7, False, 230),
    ("1CXX", 8, False, 430),
    ("1NTXX", 7, True, 760),
    ("1NTXX", 8, True, 1160),
    ("4SXX", 10, True, 1080),
    ("7NTXX", 13, True, 2980),
    ("4S", 9, False, -50),
    ("4S", 9, True, -100),
    ("4S", 7, True, -300),
    ("4SX", 9, False, -100),
    ("4SX", 8, True, -500),
    ("3NTX", 8, False, -100),
    ("3NTX", 7, False, -300),
    ("3NTX", 6, False, -500),
    ("3NTX", 5, False, -800),
    ("3NTX", 4, False, -1100),
    ("3NTX", 8, True, -200),
    ("3NTX", 7, True, -500),
    ("3NTX", 6, True, -800),
    ("3NTX", 5, True, -1100),
    ("4SXX", 9, False, -200),
    ("4SXX", 9, True, -400),
    ("4SXX", 8, True, -1000),
    ("3NTXX", 5, False, -1600),
    ("6HXX", 0, False, -6400),
    ("6HXX", 0, True, -7000),
    ("7NTXX", 0, False, -7000),
    ("7NTXX", 0, True, -7600),
]


@pytest.mark.parametrize(("contract", "tricks", "vul", "expected"), WELL_KNOWN)
def test_law77_well_known_scores(contract: str, tricks: int, vul: bool, expected: int) -> None:
    assert score(contract, tricks, vul) == expected


@pytest.mark.parametrize("tricks", range(14))
@pytest.mark.parametrize("vul", [False, True])
def test_law77_passed_out_scores_zero(tricks: int, vul: bool) -> None:
    assert score("Pass", tricks, vul) == 0
    assert score(PASSED_OUT, tricks, vul) == 0


@pytest.mark.parametrize(
    ("contract", "tricks", "error", "words"),
    [
        ("8S", 10, BridgeInputError, "level must be 1 to 7"),
        ("4Z", 10, BridgeInputError, "strain"),
        ("", 10, BridgeInputError, "not a contract"),
        ("4S", 14, ScoringError, "0 to 13, not 14"),
        ("4S", -1, ScoringError, "0 to 13, not -1"),
        ("Pass", 14, ScoringError, "0 to 13"),
        ("4S", True, ScoringError, "whole number"),
    ],
)
def test_law77_invalid_input_names_the_problem(
    contract: str, tricks: int, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words) as info:
        score(contract, tricks, False)
    assert isinstance(info.value, ValueError)


def test_law77_vulnerable_must_be_a_bool() -> None:
    with pytest.raises(ScoringError, match="vulnerable"):
        score("4S", 10, "yes")  # type: ignore[arg-type]


# --- Law 78B: the IMP scale ----------------------------------------------------------------------
# (lowest difference, highest difference as printed in the law, IMPs)
IMP_TABLE = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20),
    (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, 7600 * 2, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "expected"), IMP_TABLE)
def test_law78b_every_band_edge_both_sides(low: int, high: int, expected: int) -> None:
    assert imps(low) == expected
    assert imps(high) == expected
    # Bands are contiguous: everything up to the next band's lower edge is in this band.
    assert imps(high + 9) == expected
    if low > 0:
        assert imps(low - 1) == expected - 1
        assert imps(low - 10) == expected - 1
    assert imps(high + 10) == min(expected + 1, 24)


def test_law78b_default_scale_matches_the_printed_table() -> None:
    assert tuple(low for low, _, _ in IMP_TABLE[1:]) == WBF_IMP_SCALE


@pytest.mark.parametrize(
    ("difference", "expected"),
    [(0, 0), (10, 0), (15, 0), (19, 0), (45, 1), (470, 10), (620, 12), (-620, -12), (1220, 15)],
)
def test_law78b_spot_checks(difference: int, expected: int) -> None:
    assert imps(difference) == expected


@given(st.integers(min_value=-20_000, max_value=20_000))
def test_law78b_sign_symmetry(difference: int) -> None:
    assert imps(-difference) == -imps(difference)


@given(st.integers(min_value=0, max_value=20_000), st.integers(min_value=0, max_value=20_000))
def test_law78b_monotone_and_bounded(a: int, b: int) -> None:
    lo, hi = sorted((a, b))
    assert 0 <= imps(lo) <= imps(hi) <= 24


@given(st.integers(min_value=0, max_value=20_000))
def test_law78b_agrees_with_the_printed_table(difference: int) -> None:
    bands = [imp for low, _, imp in IMP_TABLE if low <= difference]
    assert imps(difference) == bands[-1]


def test_law78b_custom_scale_is_a_parameter() -> None:
    assert imps(150, scale=(100, 200)) == 1
    assert imps(-250, scale=(100, 200)) == -2


def test_law78b_difference_must_be_a_whole_number() -> None:
    with pytest.raises(ScoringError, match="whole number"):
        imps(1.5)  # type: ignore[arg-type]


# --- Table results and boards in two rooms -------------------------------------------------------


def r(text: str) -> BoardResult:
    return parse_result(text)


@pytest.mark.parametrize(
    ("result", "vul", "ns_score"),
    [
        ("4S N =", Vulnerability.NONE, 420),
        ("4S S =", Vulnerability.NS, 620),
        ("4S E =", Vulnerability.NS, -420),
        ("4S W =", Vulnerability.EW, -620),
        ("4S W -1", Vulnerability.EW, 100),
        ("4S N -1", Vulnerability.EW, -50),
        ("3NTX E -4", Vulnerability.ALL, 1100),
        ("Pass", Vulnerability.ALL, 0),
    ],
)
def test_result_score_is_from_north_south_view(
    result: str, vul: Vulnerability, ns_score: int
) -> None:
    assert result_score(r(result), vul) == ns_score


def test_R12_2_home_team_is_ns_in_open_room() -> None:
    # Open room: home NS make 4S (+420); closed room: visitors NS go one down (-50).
    assert board_imps(r("4S N ="), r("4S N -1"), Vulnerability.NONE) == 10
    # The same swing the other way round costs the home team.
    assert board_imps(r("4S N -1"), r("4S N ="), Vulnerability.NONE) == -10


def test_R12_2_home_team_is_ew_in_closed_room() -> None:
    # Home EW in the closed room defend 4S doubled three down vulnerable: NS -800 there.
    # Open room: home NS score 3NT= vulnerable (+600). Home gains 600 + 800 = 1400 -> 16.
    assert board_imps(r("3NT N ="), r("4SX S -3"), Vulnerability.ALL) == 16
    # Home EW make 4H in the closed room (NS -620); the open room was passed out: home +620.
    assert board_imps(r("Pass"), r("4H E ="), Vulnerability.EW) == 12
    # Visitors EW make 4H in the open room (NS -620); the closed room was passed out.
    assert board_imps(r("4H E ="), r("Pass"), Vulnerability.EW) == -12


def test_R12_2_flat_board_is_zero() -> None:
    assert board_imps(r("3NT S +1"), r("3NT N +1"), Vulnerability.NS) == 0
    assert board_imps(r("Pass"), r("Pass"), Vulnerability.ALL) == 0


def test_R12_3_board_score_for_result_sheets() -> None:
    bs = score_board(r("4S N ="), r("4S N -1"), Vulnerability.NONE)
    assert isinstance(bs, BoardScore)
    assert (bs.open_ns, bs.closed_ns, bs.difference, bs.imps) == (420, -50, 470, 10)
    assert (bs.home_points, bs.away_points, bs.home_imps, bs.away_imps) == (470, 0, 10, 0)
    bs = score_board(r("2H E +1"), r("4H W ="), Vulnerability.EW)
    assert (bs.open_ns, bs.closed_ns, bs.difference, bs.imps) == (-140, -620, 480, 10)
    bs = score_board(r("4H W ="), r("2H E +1"), Vulnerability.EW)
    assert (bs.open_ns, bs.closed_ns, bs.difference, bs.imps) == (-620, -140, -480, -10)
    assert (bs.home_points, bs.away_points, bs.home_imps, bs.away_imps) == (0, 480, 0, 10)


# --- parse_result --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "contract", "declarer", "tricks"),
    [
        ("4S N =", "4S", Seat.NORTH, 10),
        ("4SX S -2", "4SX", Seat.SOUTH, 8),
        ("3NT E +1", "3NT", Seat.EAST, 10),
        ("6HXX W 12", "6HXX", Seat.WEST, 12),
        ("6hxx w 12", "6HXX", Seat.WEST, 12),
        ("  1C   North  +6 ", "1C", Seat.NORTH, 13),
        ("7NT S -7", "7NT", Seat.SOUTH, 6),
        ("2D E 0", "2D", Seat.EAST, 0),
        ("4S N=", "4S", Seat.NORTH, 10),
        ("4S N-1", "4S", Seat.NORTH, 9),
        ("4S N - 1", "4S", Seat.NORTH, 9),
        ("4S N \u22121", "4S", Seat.NORTH, 9),
        ("3N W +0", "3NT", Seat.WEST, 9),
    ],
)
def test_parse_result_shorthand(text: str, contract: str, declarer: Seat, tricks: int) -> None:
    assert parse_result(text) == BoardResult(Contract.parse(contract), declarer, tricks)


@pytest.mark.parametrize("text", ["Pass", "pass", "P", "All pass", "Passed out"])
def test_parse_result_passed_out(text: str) -> None:
    assert parse_result(text) == BoardResult.passed_out()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no result"),
        ("   ", "no result"),
        ("4S", "contract, the declarer and the tricks"),
        ("4S N", "contract, the declarer and the tricks"),
        ("4S N = extra", "contract, the declarer and the tricks"),
        ("8S N =", "level must be 1 to 7"),
        ("4Z N =", "strain"),
        ("4S Q =", "unknown declarer 'Q'"),
        ("4S N +4", "14 tricks"),
        ("1C N -8", "-1 tricks"),
        ("4S N 14", "0 to 13, not 14"),
        ("4S N made", "'MADE'"),
        ("Pass N =", "passed-out board has no declarer"),
    ],
)
def test_parse_result_errors_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(ScoringError, match=words) as info:
        parse_result(text)
    assert isinstance(info.value, ValueError)


results = st.one_of(
    st.just(BoardResult.passed_out()),
    st.builds(
        BoardResult,
        st.builds(
            Contract,
            st.integers(min_value=1, max_value=7),
            st.sampled_from(Strain),
            st.sampled_from(Doubling),
        ),
        st.sampled_from(Seat),
        st.integers(min_value=0, max_value=13),
    ),
)


@given(results)
def test_parse_result_round_trips_str(result: BoardResult) -> None:
    assert parse_result(str(result)) == result


@given(results, results, st.sampled_from(Vulnerability))
def test_R12_2_swapping_rooms_negates_the_imps(
    a: BoardResult, b: BoardResult, vul: Vulnerability
) -> None:
    assert board_imps(a, b, vul) == -board_imps(b, a, vul)
