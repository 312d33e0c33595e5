"""The read side of the draw for its pages: the numbers drawn, the bracket resolved round by round
(the scheme, I1, with the byes of R11.4) as display objects, the match dates, the protocol.
The score of each match and a start rescheduled by agreement (R14.2) come from the matches app
through :mod:`bridgeko.core.match_info` (it lies above this app). A few queries per page;
nothing here writes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bridgeko.competition import bracket
from bridgeko.competition.regulations import Stage
from bridgeko.core import bracket_hooks, match_info
from bridgeko.draw.models import Draw, DrawNumber, MatchDate
from bridgeko.entries.models import Team


@dataclass(frozen=True, slots=True)
class SlotView:
    number: int | None
    team: Team | None
    ref: str
    """"winner of R1-M2" and the like when the team is not known."""
    kind: str
    """"team", "empty" (a bye's missing opponent) or "pending"."""


@dataclass(frozen=True, slots=True)
class ScoreView:
    """The score of a match as the bracket shows it, in the order of the bracket's slots
    (``home``: the slot listed first, even when the chief TD swapped home and visitors, I2)."""

    home: int
    away: int
    status: str
    label: str
    """The status in the reader's language ("in progress", "decided", "walkover" ...)."""
    winner: str
    """"home", "away" or "" (undecided, no winner)."""
    shown: bool
    """IMPs to show (False for a walkover or a match without a winner: the label says it)."""


@dataclass(frozen=True, slots=True)
class MatchView:
    id: str
    round: int
    stage: Stage
    home: SlotView
    away: SlotView
    status: str
    start: datetime | None = None
    location: str = ""
    score: ScoreView | None = None
    """The score so far, once play has begun (from the matches app, :mod:`core.match_info`)."""
    rescheduled: bool = False
    """``start``/``location`` were agreed by the teams (R14.2), not the draw's dates."""
    swapped: bool = False
    """The chief TD swapped home and visitors (I2): ``away`` plays at home (the bracket keeps
    the scheme's order; a list of home and visitors shows ``away`` first)."""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    stage: Stage
    matches: tuple[MatchView, ...]


def scheme_of(draw: Draw) -> bracket.Scheme | None:
    """The drawn playing scheme: the organiser's own (``Draw.scheme``) or the standard one of
    the drawn size (I1); None before the draw."""
    if draw.scheme:
        return bracket.scheme_from_dict(json.loads(draw.scheme))
    if draw.scheme_size is None:
        return None
    return bracket.standard_scheme(draw.scheme_size)


def numbers_of(draw: Draw) -> dict[int, Team]:
    return {n.number: n.team for n in DrawNumber.objects.filter(draw=draw).select_related("team")}


def bracket_rounds(
    draw: Draw, numbers: dict[int, Team], dates: dict[str, MatchDate] | None = None
) -> list[RoundView]:
    """The scheme (I1) resolved with the byes of R11.4, round by round (for the HTML bracket)."""
    scheme = scheme_of(draw)
    if scheme is None or draw.scheme_size is None:
        return []
    try:  # the results so far (the matches app, above this one, provides them)
        state = bracket.resolve(scheme, bracket_hooks.results(draw.edition), teams=set(numbers))
    except bracket.BracketError:
        state = bracket.resolve(scheme, teams=set(numbers))
    dates = dates or {}
    infos = match_info.infos(draw.edition)

    def slot(s: bracket.Slot) -> SlotView:
        team = numbers.get(s.number) if s.number is not None else None
        return SlotView(s.number, team, str(s.ref), str(s.status))

    rounds: dict[int, list[MatchView]] = {}
    stages: dict[int, Stage] = {}
    for m in state.matches:
        when = dates.get(m.id)
        home, away = slot(m.home), slot(m.away)
        info = infos.get(m.id)
        start, location = (when.start, when.location) if when else (None, "")
        rescheduled = info is not None and info.start is not None
        if info is not None and info.start is not None:
            start, location = info.start, info.location or location
        rounds.setdefault(m.spec.round, []).append(
            MatchView(
                m.id,
                m.spec.round,
                m.spec.stage,
                home,
                away,
                str(m.status),
                start,
                location,
                _score(info, home) if info is not None else None,
                rescheduled,
                info is not None and info.swapped,
            )
        )
        stages.setdefault(m.spec.round, m.spec.stage)
    return [RoundView(r, stages[r], tuple(ms)) for r, ms in sorted(rounds.items())]


_NO_IMPS = ("walkover", "no_winner")


def _score(info: match_info.MatchInfo, home: SlotView) -> ScoreView | None:
    """The match's score in the bracket's order of slots (swapped back when the chief TD
    swapped home and visitors)."""
    if not info.started:
        return None
    first, second = info.home_score, info.visitors_score
    first_team = info.home_team
    if home.team is not None and info.visitors_team == home.team.pk:
        first, second = second, first
        first_team = info.visitors_team
    winner = ""
    if info.winner_team is not None:
        winner = "home" if info.winner_team == first_team else "away"
    return ScoreView(
        first, second, info.status, info.status_label, winner, info.status not in _NO_IMPS
    )


def match_dates(draw: Draw) -> dict[str, MatchDate]:
    return {m.match: m for m in MatchDate.objects.filter(draw=draw)}


def slot_text(slot: SlotView) -> str:
    if slot.team is not None:
        return f"{slot.number}. {slot.team.name}"
    return slot.ref


def protocol_data(draw: Draw) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(draw.protocol) if draw.protocol else {}
    return data
