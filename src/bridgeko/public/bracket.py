"""The public pages' reading of the resolved bracket (:func:`bridgeko.draw.display.bracket_rounds`):
what is being played now, the latest results and the next matches for the edition's home page,
and a team's path through the bracket for its page.

Data-driven, never clock-driven: "now" is the matches' status (in progress), "latest" their
decision's order, "next" the matches whose teams are known and that have not begun — so a page
is the same bytes until the data changes (its ``ETag`` is the data's version)."""

from __future__ import annotations

from dataclasses import dataclass

from bridgeko.competition.regulations import Stage
from bridgeko.draw.display import MatchView, RoundView, ScoreView, SlotView

__all__ = ["Overview", "PathStep", "overview", "team_path", "with_teams"]

IN_PROGRESS = frozenset({"in_progress", "extra_segment_required"})
OVER = frozenset({"decided", "walkover", "no_winner"})
LATEST = 8
"""How many of the latest results and of the next matches the home page lists."""


@dataclass(frozen=True, slots=True)
class Overview:
    now: tuple[MatchView, ...]
    """The matches in progress, in the order of the scheme."""
    latest: tuple[MatchView, ...]
    """Decided matches, the most recently decided first (at most :data:`LATEST`)."""
    next: tuple[MatchView, ...]
    """Matches not begun whose teams are known or whose date is, the earliest first (at most
    :data:`LATEST`; without a date: in the order of the scheme, after the dated ones)."""


def _matches(rounds: list[RoundView]) -> list[MatchView]:
    return [m for r in rounds for m in r.matches]


def overview(rounds: list[RoundView]) -> Overview:
    matches = _matches(rounds)
    order = {m.id: k for k, m in enumerate(matches)}
    now = tuple(m for m in matches if m.score is not None and m.score.status in IN_PROGRESS)
    decided = [m for m in matches if m.score is not None and m.score.status in OVER]

    def decided_key(m: MatchView) -> tuple[bool, float, int]:
        at = m.score.decided_at if m.score is not None else None
        # the newest first; a result without a time (older data) after those with one
        return (at is None, -at.timestamp() if at is not None else 0.0, -order[m.id])

    decided.sort(key=decided_key)
    coming = [
        m
        for m in matches
        if m.score is None
        and m.status != "bye"
        and m.status != "no_winner"
        and (m.status == "to_play" or m.start is not None)
    ]
    coming.sort(
        key=lambda m: (m.start is None, m.start.timestamp() if m.start else 0.0, order[m.id])
    )
    return Overview(now, tuple(decided[:LATEST]), tuple(coming[:LATEST]))


@dataclass(frozen=True, slots=True)
class PathStep:
    """One match of a team's path, from the team's side."""

    match: MatchView
    opponent: SlotView
    ours: int | None
    """The team's IMPs (None: no score to show)."""
    theirs: int | None
    result: str
    """"won", "lost", "in_progress", "to_play", "bye", "no_winner", "not_needed" (a second
    final the unbeaten team made unnecessary by winning the first) or "pending"."""
    chance: int | None
    """The team's chance to win in percent (a match in progress)."""

    @property
    def stage(self) -> Stage:
        return self.match.stage

    @property
    def segment(self) -> int | None:
        live = self.match.score.live if self.match.score is not None else None
        return live.segment if live is not None else None


def _result(m: MatchView, score: ScoreView | None, first: bool) -> str:
    if m.status == "bye":
        return "bye"
    if m.status == "not_needed":
        return "not_needed"
    if score is None:
        return "to_play" if m.status == "to_play" else "pending"
    if score.status in IN_PROGRESS:
        return "in_progress"
    if score.winner:
        return "won" if (score.winner == "home") == first else "lost"
    return "no_winner" if score.status == "no_winner" else "pending"


def team_path(rounds: list[RoundView], team_id: int) -> list[PathStep]:
    """The matches of the bracket in which team ``team_id`` has a slot, round by round (a bye
    included: the team goes straight on, R11.4)."""
    out: list[PathStep] = []
    for m in _matches(rounds):
        if m.home.team is not None and m.home.team.pk == team_id:
            first = True
        elif m.away.team is not None and m.away.team.pk == team_id:
            first = False
        else:
            continue
        score = m.score
        ours = theirs = chance = None
        if score is not None and score.shown:
            ours, theirs = (score.home, score.away) if first else (score.away, score.home)
        if score is not None and score.live is not None:
            chance = score.live.percent_home if first else score.live.percent_away
        out.append(
            PathStep(
                m,
                m.away if first else m.home,
                ours,
                theirs,
                _result(m, score, first),
                chance,
            )
        )
    return out


def with_teams(rounds: list[RoundView]) -> set[int]:
    """The ids of the teams that have a slot in the bracket."""
    return {s.team.pk for m in _matches(rounds) for s in (m.home, m.away) if s.team is not None}
