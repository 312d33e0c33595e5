"""Bans for failing to appear (R15.3).

R15.3: a team that failed to appear for a match without timely notice of absence (R15.1)
commits a serious disciplinary offence, and all the team's players — everyone on its roster —
are barred from the next edition. Whether the notice was timely is the TD's recorded decision.

>>> no_show = NoShow(team="Lvi", roster=(1, 2, 3, 4), timely_notice=False)
>>> excused = NoShow(team="Orli", roster=(5, 6, 7, 8), timely_notice=True)
>>> sorted(barred_players([no_show, excused]))
[1, 2, 3, 4]
>>> [str(p) for p in check_not_barred([9, 3, 10, 11], {1, 2, 3, 4})]
['player 3 is barred from this edition for failing to appear without timely notice (R15.3)']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bridgeko.competition.entries import PlayerId, RosterProblem, TeamKey, who
from bridgeko.competition.messages import N_, Message

__all__ = ["BARRED", "NoShow", "barred_players", "check_not_barred"]

BARRED = N_("%(player)s is barred from this edition for failing to appear without timely notice")
"""The message of :func:`check_not_barred` (R15.3), translated by the web layer."""


@dataclass(frozen=True, slots=True)
class NoShow:
    """A team that did not appear for a match (R15.2), as recorded by the TD."""

    team: TeamKey
    roster: Sequence[PlayerId]
    """The team's whole roster in the edition of the no-show."""
    timely_notice: bool
    """Whether the team told the organiser and the opponents in time (R15.1, R15.3)."""
    match: str = ""
    """Which match, for the record (e.g. ``"QF2"``)."""


def barred_players(no_shows: Iterable[NoShow]) -> set[PlayerId]:
    """Every player barred from the next edition (R15.3): the whole roster of each team that
    failed to appear without timely notice."""
    barred: set[PlayerId] = set()
    for no_show in no_shows:
        if not no_show.timely_notice:  # R15.3
            barred.update(no_show.roster)
    return barred


def check_not_barred(
    roster: Sequence[PlayerId],
    barred: Collection[PlayerId],
    *,
    names: Mapping[PlayerId, str] | None = None,
) -> list[RosterProblem]:
    """One problem for each player of ``roster`` barred by R15.3 (check at entry)."""
    problems: list[RosterProblem] = []
    for player in dict.fromkeys(roster):
        if player in barred:  # R15.3
            problems.append(
                RosterProblem.of(
                    "R15.3", Message(BARRED, {"player": who(player, names)}), player=player
                )
            )
    return problems
