"""Errors of the bridge domain.

Every error caused by bad input is a :class:`BridgeInputError`, a :class:`ValueError` whose
message names the problem, so that a user interface can show it as it is.
"""

from dataclasses import dataclass


class BridgeInputError(ValueError):
    """Bad input: a card, hand, deal, contract, result or file that is not valid."""


class CardError(BridgeInputError):
    """A card, hand or deal that cannot be read or is impossible."""


class ContractError(BridgeInputError):
    """A contract that cannot be read (``"8S"``, ``"4Z"``)."""


class ScoringError(BridgeInputError):
    """A result that cannot be scored (14 tricks, a negative board number)."""


class LineError(BridgeInputError):
    """A file of lines (PBN, LIN) that cannot be read; :attr:`line` is the 1-based line of the
    problem (0: none), :attr:`reason` the problem without it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        """The line (1-based) where the problem is; 0 when it has no line."""
        self.reason = message
        """The problem without the line number."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Something a reader of a file of lines could not read (and skipped), or read with a
    repair, or that does not agree."""

    line: int
    """The line (1-based) where the problem is."""
    message: str
    """What is wrong and what the reader did about it."""

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"
