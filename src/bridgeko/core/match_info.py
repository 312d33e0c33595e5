"""What the matches app knows of each match, for the pages of the draw app below it: the score
next to a match of the bracket and a start rescheduled by agreement (R14.2) instead of the
draw's published date (R14.1).

The draw app shows the bracket and the dates but may not import the matches app (above it); the
matches app registers one provider in its ``AppConfig.ready()``::

    match_info.register(provider)   # provider(edition, live=False) -> Mapping[str, MatchInfo]

and :func:`bridgeko.draw.display.bracket_rounds` asks :func:`infos` (a fixed number of queries
per page, whatever the number of matches: one; with ``live``, six more while matches are in
progress for their running score, boards and chances, :class:`Live`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Live:
    """A match in progress as a spectator follows it (the matches app's
    ``MatchView.running``), in the match's order of home and visitors."""

    home: int
    """IMPs so far: the completed segments with penalties plus the segment in progress."""
    visitors: int
    boards_played: int
    """Boards of the match scored so far (both rooms in, or a segment's totals)."""
    boards_total: int
    """Boards of the match: its segments, an extra segment (R12.5) included once created."""
    boards_left: int
    """Boards still to be played (not removed for lateness, R12.9)."""
    segment: int | None
    """The first segment not completed yet (the one being played)."""
    chance_home: float | None = None
    """The home team's chance to win (``bridgeko.competition.chances``), when computed."""


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
    decided_at: datetime | None = None
    """When the result was decided (the newest results first on the public home page)."""
    live: Live | None = None
    """For a match in progress: its running score, boards and chances (None otherwise)."""


Provider = Callable[..., Mapping[str, MatchInfo]]
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def infos(edition: Any, *, live: bool = False) -> dict[str, MatchInfo]:
    """Match id -> what the providers know of it (empty without a provider); ``live``: with
    :class:`Live` for the matches in progress (the public pages)."""
    out: dict[str, MatchInfo] = {}
    for provider in _providers:
        out.update(provider(edition, live=live))
    return out
