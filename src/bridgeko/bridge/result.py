"""The result of one board at one table: contract, declarer, tricks, opening lead.

Scoring of a result lives in :mod:`bridgeko.bridge.scoring`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgeko.bridge.cards import Card, Seat
from bridgeko.bridge.contract import PASSED_OUT, Contract
from bridgeko.bridge.errors import ScoringError


@dataclass(frozen=True, slots=True)
class BoardResult:
    """What happened at one table. A passed-out board has no declarer and no tricks."""

    contract: Contract
    """The final contract (``PASSED_OUT`` when all four passed)."""
    declarer: Seat | None = None
    """The declarer; None for a passed-out board."""
    tricks: int | None = None
    """Tricks taken by the declarer (0-13); None for a passed-out board."""
    lead: Card | None = None
    """The opening lead, when recorded."""

    def __post_init__(self) -> None:
        if self.contract.is_passed_out:
            if self.declarer is not None or self.tricks is not None:
                raise ScoringError("a passed-out board has no declarer and no tricks")
            return
        if self.declarer is None:
            raise ScoringError(f"the contract {self.contract} needs a declarer")
        if self.tricks is None:
            raise ScoringError(f"the contract {self.contract} needs the number of tricks taken")
        if isinstance(self.tricks, bool) or not 0 <= self.tricks <= 13:
            raise ScoringError(f"tricks taken must be 0 to 13, not {self.tricks!r}")

    @classmethod
    def passed_out(cls) -> BoardResult:
        return cls(PASSED_OUT)

    @property
    def is_passed_out(self) -> bool:
        return self.contract.is_passed_out

    @property
    def over_under(self) -> int:
        """Overtricks (positive) or undertricks (negative); 0 when made exactly or passed out."""
        if self.tricks is None:
            return 0
        return self.tricks - self.contract.tricks_needed

    def __str__(self) -> str:
        if self.is_passed_out or self.declarer is None:
            return "Pass"
        diff = self.over_under
        made = "=" if diff == 0 else f"{diff:+d}"
        return f"{self.contract} {self.declarer.value} {made}"
