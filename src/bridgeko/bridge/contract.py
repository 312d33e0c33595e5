"""A contract as a value: level, strain and doubling, or passed out.

>>> str(Contract.parse("4sx"))
'4SX'
>>> str(Contract.parse("3NTXX")), str(Contract.parse("Pass"))
('3NTXX', 'Pass')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from bridgeko.bridge.cards import Strain
from bridgeko.bridge.errors import ContractError


class Doubling(IntEnum):
    """Undoubled, doubled or redoubled; the value is the power of two of the score factor."""

    UNDOUBLED = 0
    DOUBLED = 1
    REDOUBLED = 2

    @property
    def suffix(self) -> str:
        """``""``, ``"X"`` or ``"XX"`` as written in PBN."""
        return "X" * self.value


_PASS_WORDS = frozenset({"PASS", "P", "AP", "PASSED", "PASSED OUT", "ALL PASS", "-"})
_CONTRACT_RE = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C)\s*(XX|X|R|\*\*|\*)?$")


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract. A passed-out board is ``Contract.PASSED_OUT`` (level 0, no strain)."""

    level: int
    """1 to 7; 0 for a passed-out board."""
    strain: Strain | None
    """The strain; None for a passed-out board."""
    doubling: Doubling = Doubling.UNDOUBLED
    """Undoubled, doubled or redoubled."""

    def __post_init__(self) -> None:
        if self.level == 0:
            if self.strain is not None or self.doubling is not Doubling.UNDOUBLED:
                raise ContractError("a passed-out board has no strain and no double")
            return
        if not 1 <= self.level <= 7:
            raise ContractError(f"a contract level is 1 to 7, not {self.level}")
        if self.strain is None:
            raise ContractError("a contract needs a strain (C, D, H, S or NT)")

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Reads ``"4S"``, ``"4SX"``, ``"3NTXX"``, ``"3N"``, ``"Pass"`` (case does not matter).

        Raises :class:`~bridgeko.bridge.errors.ContractError` (and nothing else) for any other
        text (``tests/fuzz`` checks it)."""
        t = " ".join(text.strip().upper().split())
        if t in _PASS_WORDS:
            return PASSED_OUT
        m = _CONTRACT_RE.match(t)
        if not m:
            if t[:1].isdigit() and t[:1] not in "1234567":
                raise ContractError(f"not a contract: {text!r} (the level must be 1 to 7)")
            if t[:1] in "1234567" and t[:1]:
                raise ContractError(
                    f"not a contract: {text!r} (the strain must be C, D, H, S or NT, "
                    "optionally followed by X or XX)"
                )
            raise ContractError(f"not a contract: {text!r} (expected e.g. 4S, 3NTX, 6HXX or Pass)")
        level = int(m.group(1))
        strain = Strain("NT" if m.group(2) in ("N", "NT") else m.group(2))
        dbl = {None: Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "*": Doubling.DOUBLED}.get(
            m.group(3), Doubling.REDOUBLED
        )
        return cls(level, strain, dbl)

    @property
    def is_passed_out(self) -> bool:
        return self.level == 0

    @property
    def tricks_needed(self) -> int:
        """Tricks the declarer must take (level + 6); 0 for a passed-out board."""
        return 0 if self.is_passed_out else self.level + 6

    def __str__(self) -> str:
        if self.is_passed_out or self.strain is None:
            return "Pass"
        return f"{self.level}{self.strain.value}{self.doubling.suffix}"

    def __repr__(self) -> str:
        return f"Contract.parse({str(self)!r})"


PASSED_OUT = Contract(0, None)
"""The contract of a board passed out in all four seats."""
