"""Dealer and vulnerability of boards 1-64: the standard 16-board cycle, typed in as data."""

from __future__ import annotations

import pytest

from bridgeko.bridge.board import dealer, vulnerability
from bridgeko.bridge.cards import Seat, Vulnerability
from bridgeko.bridge.errors import BridgeInputError

# Board: (dealer, vulnerability) for the first cycle, as printed on duplicate boards.
CYCLE = {
    1: ("N", "None"),
    2: ("E", "NS"),
    3: ("S", "EW"),
    4: ("W", "All"),
    5: ("N", "NS"),
    6: ("E", "EW"),
    7: ("S", "All"),
    8: ("W", "None"),
    9: ("N", "EW"),
    10: ("E", "All"),
    11: ("S", "None"),
    12: ("W", "NS"),
    13: ("N", "All"),
    14: ("E", "None"),
    15: ("S", "NS"),
    16: ("W", "EW"),
}
# Boards 17-64 repeat the cycle: board b is like board ((b - 1) mod 16) + 1.
BOARDS_1_TO_64 = [(b, *CYCLE[(b - 1) % 16 + 1]) for b in range(1, 65)]


@pytest.mark.parametrize(("board", "seat", "vul"), BOARDS_1_TO_64)
def test_boards_1_to_64_dealer_and_vulnerability(board: int, seat: str, vul: str) -> None:
    assert dealer(board) is Seat(seat)
    assert vulnerability(board) is Vulnerability(vul)


@pytest.mark.parametrize(
    ("board", "seat", "vul"),
    [(17, "N", "None"), (20, "W", "All"), (32, "W", "EW"), (33, "N", "None"), (48, "W", "EW"),
     (50, "E", "NS"), (64, "W", "EW"), (65, "N", "None")],
)  # fmt: skip
def test_later_boards_literal(board: int, seat: str, vul: str) -> None:
    assert (dealer(board).value, vulnerability(board).value) == (seat, vul)


def test_each_vulnerability_four_times_per_cycle() -> None:
    counts = {v: 0 for v in Vulnerability}
    for b in range(1, 17):
        counts[vulnerability(b)] += 1
    assert set(counts.values()) == {4}


@pytest.mark.parametrize("bad", [0, -1, True, 1.0, "3"])
def test_board_number_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(BridgeInputError, match="board number"):
        dealer(bad)  # type: ignore[arg-type]
    with pytest.raises(BridgeInputError, match="board number"):
        vulnerability(bad)  # type: ignore[arg-type]
