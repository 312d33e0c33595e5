"""Contracts and table results as a TD types them: any text is read or refused with the
documented error (:class:`ContractError` for :meth:`Contract.parse`, :class:`ScoringError` for
:func:`parse_result`), and what is read writes back to the same value."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bridgeko.bridge.cards import Vulnerability
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.errors import ContractError, ScoringError
from bridgeko.bridge.scoring import parse_result, result_score
from tests.fuzz import check_each, fuzz
from tests.fuzz.strategies import HUGE_NUMBERS, batches, piece, random_text

CONTRACT_TOKENS = (
    *"1234567890",
    "8",
    "٣",
    "𝟙",
    *"CDHSN",
    "NT",
    "nt",
    "X",
    "XX",
    "R",
    "*",
    "**",
    "Pass",
    "P",
    "AP",
    "All pass",
    "Passed out",
    "-",
    " ",
    "\t",
    "\u00a0",
    "\u2003",
)
RESULT_TOKENS = (
    *CONTRACT_TOKENS,
    *("N", "E", "S", "W", "North", "east", "SOUTH", "West"),
    *("=", "+", "-", "\u2212", "\u2013", "+1", "-2", "+13", "-13", "13", "14", "0", "00", "+-"),
    *(f"+{n}" for n in HUGE_NUMBERS),
)


def tokens_text(tokens: tuple[str, ...], most: int) -> st.SearchStrategy[list[str]]:
    """Batches of texts of up to ``most`` tokens; one in five is random text instead."""

    def build(rnd: random.Random) -> str:
        if rnd.random() < 0.2:
            return random_text(rnd, 16)
        return "".join(piece(rnd, tokens) for _ in range(rnd.randint(0, most)))

    return batches(build)


def read_contract(text: str) -> None:
    try:
        contract = Contract.parse(text)
    except ContractError as exc:
        assert str(exc)
        return
    assert Contract.parse(str(contract)) == contract


def read_result(text: str) -> None:
    try:
        result = parse_result(text)
    except ScoringError as exc:
        assert str(exc)
        return
    assert parse_result(str(result)) == result
    for vulnerability in Vulnerability:  # a result read is a result that can be scored
        result_score(result, vulnerability)


@given(tokens_text(CONTRACT_TOKENS, 6))
@fuzz()
def test_contract_parse_reads_or_raises_contract_error(texts: list[str]) -> None:
    check_each(texts, read_contract)


@given(tokens_text(RESULT_TOKENS, 8))
@fuzz()
def test_parse_result_reads_or_raises_scoring_error(texts: list[str]) -> None:
    check_each(texts, read_result)
