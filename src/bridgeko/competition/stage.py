"""The kind of a round in the knockout: :class:`Stage`, on its own.

Re-exported by :mod:`bridgeko.competition.regulations` (import it from there); kept apart so
that the schemes and the bracket (``bridgeko bracket``) use it without loading the regulations'
loader (TOML, time zones and a dozen dataclasses): start-up time.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Stage"]


class Stage(StrEnum):
    """The kind of a round in the knockout."""

    PRELIMINARY = "preliminary"
    """Any round before the quarterfinals (R11.6)."""
    QUARTERFINAL = "quarterfinal"
    SEMIFINAL = "semifinal"
    THIRD_PLACE = "third_place"
    """The match for 3rd/4th place between the semifinal losers (R1.2)."""
    FINAL = "final"
