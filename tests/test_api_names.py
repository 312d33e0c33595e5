"""The API names that the issues fix exactly as written (other parts and checks rely on them)."""

from __future__ import annotations

import inspect
from enum import StrEnum

import pytest

from bridgeko.bridge import board, scoring
from bridgeko.bridge.cards import Deal, Seat, Vulnerability
from bridgeko.bridge.contract import Contract
from bridgeko.competition import bracket, draw, entries, match, rating


def _params(fn: object) -> list[str]:
    return [
        p.name
        for p in inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]


def test_seat_and_vulnerability_are_str_enums_with_pbn_values() -> None:
    assert issubclass(Seat, StrEnum)
    assert [s.value for s in Seat] == ["N", "E", "S", "W"]
    assert issubclass(Vulnerability, StrEnum)
    assert [v.value for v in Vulnerability] == ["None", "NS", "EW", "All"]


def test_deal_pbn_conversions() -> None:
    text = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    deal = Deal.from_pbn(text)
    assert deal.to_pbn(first=Seat.WEST).startswith("W:432.AKQJ.T98.765 AKQJ")
    assert Deal.from_pbn(deal.to_pbn(first=Seat.SOUTH)) == deal


def test_board_functions() -> None:
    assert board.dealer(4) is Seat.WEST
    assert board.vulnerability(4) is Vulnerability.ALL


@pytest.mark.parametrize("text", ["4SX", "3NTXX", "Pass"])
def test_contract_parse_and_str(text: str) -> None:
    assert str(Contract.parse(text)) == text


def test_scoring_signatures() -> None:
    assert _params(scoring.score) == ["contract", "tricks", "vulnerable"]
    assert scoring.score("4SX", 8, vulnerable=True) == -500
    assert _params(scoring.imps)[0] == "difference"
    assert scoring.imps(620) == 12
    with pytest.raises(ValueError, match="8S"):
        scoring.score("8S", 9, False)


def test_competition_signatures() -> None:
    assert _params(entries.is_returning_team) == [
        "name",
        "roster",
        "previous_name",
        "previous_roster",
    ]
    assert _params(rating.team_elo) == ["elos"]
    assert rating.team_elo([600, 601]) == 601
    assert rating.team_elo([None, None]) == 500
    assert _params(draw.scheme_size) == ["n_teams"]
    assert draw.scheme_size(9) == 16
    assert _params(bracket.first_round) == ["size"]
    assert bracket.first_round(8) == [(1, 8), (4, 5), (3, 6), (2, 7)]
    assert _params(match.boards_removed_for_lateness) == ["minutes"]
    assert match.boards_removed_for_lateness(8) == 2
