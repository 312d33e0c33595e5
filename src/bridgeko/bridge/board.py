"""Dealer and vulnerability of a board number: the standard 16-board cycle, in one place.

>>> dealer(1), vulnerability(1)
(<Seat.NORTH: 'N'>, <Vulnerability.NONE: 'None'>)
>>> dealer(7), vulnerability(7)
(<Seat.SOUTH: 'S'>, <Vulnerability.ALL: 'All'>)
"""

from __future__ import annotations

from bridgeko.bridge.cards import Seat, Vulnerability
from bridgeko.bridge.errors import ScoringError

_V = Vulnerability
_CYCLE: tuple[Vulnerability, ...] = (
    _V.NONE, _V.NS, _V.EW, _V.ALL,
    _V.NS, _V.EW, _V.ALL, _V.NONE,
    _V.EW, _V.ALL, _V.NONE, _V.NS,
    _V.ALL, _V.NONE, _V.NS, _V.EW,
)  # fmt: skip


def _check(board: int) -> int:
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise ScoringError(f"a board number is a whole number from 1 up, not {board!r}")
    return board


def dealer(board: int) -> Seat:
    """The dealer of ``board``: N, E, S, W in turn from board 1."""
    return Seat.clockwise_from(Seat.NORTH)[(_check(board) - 1) % 4]


def vulnerability(board: int) -> Vulnerability:
    """The vulnerability of ``board`` in the standard 16-board cycle."""
    return _CYCLE[(_check(board) - 1) % 16]
