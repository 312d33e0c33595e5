"""Team Elo (R10, I17): the exact mean of the players' known Elo, rounded once, half up.

>>> team_elo([600, 601])
601
>>> team_elo([600, 600, 601, None])
600
>>> team_elo([None, None])
500
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from fractions import Fraction
from math import floor

from bridgeko.competition.regulations import RatingRules, Regulations

_DEFAULT_TEAM_ELO: int = RatingRules(reference_date=date.min).default_team_elo
"""R10.2's value in the data model; pass ``reg.rating.default_team_elo`` for an edition."""


def round_half_up(value: Fraction) -> int:
    """Rounds ``value`` to the nearest whole number, halves upwards (600.5 -> 601), exactly.

    >>> round_half_up(Fraction(120101, 200)), round_half_up(Fraction(60049, 100))
    (601, 600)
    """
    return floor(value + Fraction(1, 2))


def team_elo(elos: Iterable[int | None], *, default: int = _DEFAULT_TEAM_ELO) -> int:
    """The Elo of a team from its players' Elo, ``None`` where a player's Elo is not known.

    R10.1: the arithmetic mean of the known values, in per mille, computed exactly with
    :class:`~fractions.Fraction` (I17) and rounded half up (600.50 -> 601, 600.49 -> 600).
    R10.2: ``default`` (500 in 1999) when no player's Elo is known.
    """
    known: list[int] = []
    for elo in elos:
        if elo is None:
            continue
        if isinstance(elo, bool) or not isinstance(elo, int) or elo < 0:
            # R10.1: per mille, 0 or more (the register stores it as a positive integer); a
            # negative value is a typing error, and half up is ambiguous below zero.
            raise ValueError(
                f"a player's Elo is a whole number in per mille, 0 or more, not {elo!r}"
            )
        known.append(elo)
    if not known:
        return default  # R10.2
    return round_half_up(Fraction(sum(known), len(known)))  # R10.1, I17


def team_elo_for(elos: Iterable[int | None], reg: Regulations) -> int:
    """:func:`team_elo` with the default of the edition's regulations (R10.2)."""
    return team_elo(elos, default=reg.rating.default_team_elo)
