"""Double-dummy results as plain values (filled by :mod:`bridgeko.bridge.analysis`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bridgeko.bridge.cards import Seat, Strain
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.errors import BridgeInputError


@dataclass(frozen=True, slots=True)
class DDTable:
    """Tricks each seat takes as declarer in each strain, double dummy (20 numbers)."""

    tricks: Mapping[tuple[Seat, Strain], int]
    """(declarer, strain) -> tricks, 0-13, for all 4 x 5 combinations."""

    def __post_init__(self) -> None:
        missing = [(s, t) for s in Seat for t in Strain if (s, t) not in self.tricks]
        if missing:
            raise BridgeInputError(f"a double-dummy table needs 20 entries, {len(missing)} missing")
        for key, value in self.tricks.items():
            if not 0 <= value <= 13:
                raise BridgeInputError(f"double-dummy tricks must be 0-13, not {value} for {key}")

    def __getitem__(self, key: tuple[Seat, Strain]) -> int:
        return self.tricks[key]


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: the contract, its declarer(s) and the over/undertricks."""

    contract: Contract
    declarers: tuple[Seat, ...]
    """Seats that can play it (e.g. N and S)."""
    over_under: int = 0
    """Overtricks (+) or undertricks (-, a sacrifice)."""


@dataclass(frozen=True, slots=True)
class Par:
    """The par result of a deal for a given dealer and vulnerability."""

    score: int
    """Par score from North-South's point of view."""
    contracts: tuple[ParContract, ...]
