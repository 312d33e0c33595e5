"""The BoardResult value: what happened at one table; printing and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.bridge.cards import Card, Seat, Strain
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.errors import BridgeInputError, ScoringError
from bridgeko.bridge.result import BoardResult
from bridgeko.bridge.scoring import parse_result


@pytest.mark.parametrize(
    ("contract", "declarer", "tricks", "printed", "over_under"),
    [
        ("4S", Seat.NORTH, 10, "4S N =", 0),
        ("4SX", Seat.SOUTH, 8, "4SX S -2", -2),
        ("3NT", Seat.EAST, 10, "3NT E +1", 1),
        ("6HXX", Seat.WEST, 12, "6HXX W =", 0),
        ("7NT", Seat.NORTH, 0, "7NT N -13", -13),
        ("1C", Seat.EAST, 13, "1C E +6", 6),
    ],
)
def test_result_str_and_over_under(
    contract: str, declarer: Seat, tricks: int, printed: str, over_under: int
) -> None:
    result = BoardResult(Contract.parse(contract), declarer, tricks)
    assert str(result) == printed
    assert result.over_under == over_under
    assert not result.is_passed_out


def test_passed_out_result() -> None:
    result = BoardResult.passed_out()
    assert result == BoardResult(PASSED_OUT)
    assert result.is_passed_out
    assert str(result) == "Pass"
    assert result.over_under == 0


def test_opening_lead_is_kept() -> None:
    result = BoardResult(Contract.parse("3NT"), Seat.SOUTH, 9, lead=Card.parse("HQ"))
    assert result.lead == Card.parse("HQ")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"contract": Contract.parse("4S"), "declarer": Seat.NORTH, "tricks": 14},
         "0 to 13, not 14"),
        ({"contract": Contract.parse("4S"), "declarer": Seat.NORTH, "tricks": -1},
         "0 to 13, not -1"),
        ({"contract": Contract.parse("4S"), "declarer": Seat.NORTH, "tricks": True},
         "0 to 13, not True"),
        ({"contract": Contract.parse("4S"), "tricks": 10}, "4S needs a declarer"),
        ({"contract": Contract.parse("4S"), "declarer": Seat.NORTH},
         "4S needs the number of tricks"),
        ({"contract": PASSED_OUT, "declarer": Seat.NORTH}, "passed-out board has no declarer"),
        ({"contract": PASSED_OUT, "tricks": 0}, "passed-out board has no declarer and no tricks"),
    ],
)  # fmt: skip
def test_result_errors_name_the_problem(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ScoringError, match=words) as info:
        BoardResult(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, BridgeInputError)
    assert isinstance(info.value, ValueError)


results = st.builds(
    BoardResult,
    st.builds(
        Contract,
        st.integers(min_value=1, max_value=7),
        st.sampled_from(Strain),
        st.sampled_from(Doubling),
    ),
    st.sampled_from(Seat),
    st.integers(min_value=0, max_value=13),
)


@given(results)
def test_result_print_parse_round_trip(result: BoardResult) -> None:
    assert parse_result(str(result)) == result
    explicit = f"{result.contract} {result.declarer} {result.tricks}"
    assert parse_result(explicit) == result
    assert result.over_under == (result.tricks or 0) - result.contract.tricks_needed
