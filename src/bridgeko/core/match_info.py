"""What the matches app knows of each match, for the pages of the draw app below it: the score
next to a match of the bracket and a start rescheduled by agreement (R14.2) instead of the
draw's published date (R14.1).

The draw app shows the bracket and the dates but may not import the matches app (above it); the
matches app registers one provider in its ``AppConfig.ready()``::

    match_info.register(provider)   # provider(edition) -> Mapping[str, MatchInfo]

and :func:`bridgeko.draw.display.bracket_rounds` asks :func:`infos` (one query per page).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class MatchInfo:
    code: str
    """The scheme's match id (``R1-M3``, ``QF2``, ``F``)."""
    home_team: int | None
    """The id of the home team as the match is played (after a swap, I2)."""
    visitors_team: int | None
    home_score: int
    """IMPs of the completed segments with penalties (R12.2-R12.3, I13)."""
    visitors_score: int
    status: str
    """The match's status code (``to_play``, ``in_progress``, ``decided``, ``walkover`` ...)."""
    status_label: str
    """The status in the reader's language."""
    started: bool
    """Play has begun (a score to show) or the match is over."""
    winner_team: int | None = None
    start: datetime | None = None
    """The start agreed by the teams (R14.2); None: the draw's date stands."""
    location: str = ""
    swapped: bool = False
    """The chief TD swapped home and visitors (I2): the scheme's second slot is at home."""


Provider = Callable[[Any], Mapping[str, MatchInfo]]
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def infos(edition: Any) -> dict[str, MatchInfo]:
    """Match id -> what the providers know of it (empty without a provider)."""
    out: dict[str, MatchInfo] = {}
    for provider in _providers:
        out.update(provider(edition))
    return out
