"""Errors of the bridge domain.

Every error caused by bad input is a :class:`BridgeInputError`, a :class:`ValueError` whose
message names the problem, so that a user interface can show it as it is.
"""


class BridgeInputError(ValueError):
    """Bad input: a card, hand, deal, contract, result or file that is not valid."""


class CardError(BridgeInputError):
    """A card, hand or deal that cannot be read or is impossible."""


class ContractError(BridgeInputError):
    """A contract that cannot be read (``"8S"``, ``"4Z"``)."""


class ScoringError(BridgeInputError):
    """A result that cannot be scored (14 tricks, a negative board number)."""
