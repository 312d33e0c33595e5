"""The Contract value: parsing, printing, round trips and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.bridge.cards import Strain
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.errors import BridgeInputError, ContractError

ALL_CONTRACTS = [
    Contract(level, strain, dbl) for level in range(1, 8) for strain in Strain for dbl in Doubling
]


def test_there_are_105_contracts_plus_pass() -> None:
    assert len({str(c) for c in ALL_CONTRACTS}) == 7 * 5 * 3


@pytest.mark.parametrize("contract", ALL_CONTRACTS, ids=str)
def test_parse_str_round_trip_every_contract(contract: Contract) -> None:
    assert Contract.parse(str(contract)) == contract
    assert eval(repr(contract), {"Contract": Contract}) == contract


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("4S", "4S"),
        ("4s", "4S"),
        ("4sx", "4SX"),
        ("3NTXX", "3NTXX"),
        ("3N", "3NT"),
        ("3nt", "3NT"),
        ("6HR", "6HXX"),
        ("2D*", "2DX"),
        ("2D**", "2DXX"),
        (" 1 C ", "1C"),
        ("7NT x", "7NTX"),
        ("Pass", "Pass"),
        ("PASS", "Pass"),
        ("p", "Pass"),
        ("AP", "Pass"),
        ("passed out", "Pass"),
        ("All Pass", "Pass"),
    ],
)
def test_parse_spellings(text: str, printed: str) -> None:
    assert str(Contract.parse(text)) == printed


def test_fields_of_a_parsed_contract() -> None:
    c = Contract.parse("6HXX")
    assert (c.level, c.strain, c.doubling) == (6, Strain.HEARTS, Doubling.REDOUBLED)
    assert c.tricks_needed == 12
    assert not c.is_passed_out


def test_passed_out() -> None:
    assert Contract.parse("Pass") == PASSED_OUT
    assert PASSED_OUT.is_passed_out
    assert PASSED_OUT.tricks_needed == 0
    assert str(PASSED_OUT) == "Pass"


def test_doubling_suffix() -> None:
    assert [d.suffix for d in Doubling] == ["", "X", "XX"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("8S", "level must be 1 to 7"),
        ("0NT", "level must be 1 to 7"),
        ("4Z", "strain must be C, D, H, S or NT"),
        ("4SXXX", "strain must be C, D, H, S or NT"),
        ("", "expected e.g. 4S"),
        ("S4", "expected e.g. 4S"),
        ("four spades", "expected e.g. 4S"),
    ],
)
def test_parse_errors_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(ContractError, match=words) as info:
        Contract.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, BridgeInputError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((8, Strain.SPADES), "level is 1 to 7, not 8"),
        ((-1, Strain.SPADES), "level is 1 to 7, not -1"),
        ((4, None), "needs a strain"),
        ((0, Strain.SPADES), "passed-out board has no strain"),
    ],
)
def test_construction_errors(args: tuple[int, Strain | None], words: str) -> None:
    with pytest.raises(ContractError, match=words):
        Contract(*args)


def test_passed_out_cannot_be_doubled() -> None:
    with pytest.raises(ContractError, match="no double"):
        Contract(0, None, Doubling.DOUBLED)


@given(
    st.integers(min_value=1, max_value=7),
    st.sampled_from(["C", "D", "H", "S", "NT", "N"]),
    st.sampled_from(["", "X", "XX", "R", "*", "**"]),
    st.booleans(),
)
def test_parse_any_spelling_round_trips(level: int, strain: str, dbl: str, lower: bool) -> None:
    text = f"{level}{strain}{dbl}"
    c = Contract.parse(text.lower() if lower else text)
    assert c.level == level
    assert c.strain is Strain("NT" if strain == "N" else strain)
    assert c.doubling.value == {"": 0, "X": 1, "*": 1}.get(dbl, 2)
    assert Contract.parse(str(c)) == c
