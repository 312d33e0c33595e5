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

from bridgeko.competition import bracket, formats
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
    live: LiveView | None = None
    """A match in progress: boards, segment being played, chances (``home``/``away`` are then
    its running score, the segment in progress included)."""
    decided_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class LiveView:
    """A match in progress in the bracket's order of slots (:class:`match_info.Live`)."""

    boards_played: int
    boards_total: int
    segment: int | None
    """The first segment not completed yet: the one being played."""
    chance_home: float | None
    """The chance to win of the slot listed first, between 0 and 1."""
    chance_away: float | None

    @property
    def percent_home(self) -> int | None:
        return _percent(self.chance_home)

    @property
    def percent_away(self) -> int | None:
        return _percent(self.chance_away)


def _percent(chance: float | None) -> int | None:
    """A chance as a whole percentage; never 0 or 100 while the outcome is open (a rounded
    99.7 % shows as 99 %, not as a certainty the match has not reached)."""
    if chance is None:
        return None
    if chance in (0.0, 1.0):
        return round(chance * 100)
    return min(99, max(1, round(chance * 100)))


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
    """The drawn playing scheme: the organiser's own (``Draw.scheme``) or the one of the
    edition's format (``format.template``: the standard scheme of I1 in 1999, double
    elimination in 2001, issue 22) of the drawn size; None before the draw."""
    if draw.scheme:
        return bracket.scheme_from_dict(json.loads(draw.scheme))
    if draw.scheme_size is None:
        return None
    return formats.build(draw.edition.regulations.format.template, draw.scheme_size)


def numbers_of(draw: Draw) -> dict[int, Team]:
    return {n.number: n.team for n in DrawNumber.objects.filter(draw=draw).select_related("team")}


def bracket_rounds(
    draw: Draw,
    numbers: dict[int, Team],
    dates: dict[str, MatchDate] | None = None,
    *,
    live: bool = False,
) -> list[RoundView]:
    """The scheme (I1) resolved with the byes of R11.4, round by round (for the HTML bracket).
    ``live``: the matches in progress with their running score, boards, segment being played
    and chances (:class:`LiveView`; a few more queries, the same for any number of matches)."""
    scheme = scheme_of(draw)
    if scheme is None or draw.scheme_size is None:
        return []
    try:  # the results so far (the matches app, above this one, provides them)
        state = bracket.resolve(scheme, bracket_hooks.results(draw.edition), teams=set(numbers))
    except bracket.BracketError:
        state = bracket.resolve(scheme, teams=set(numbers))
    dates = dates or {}
    infos = match_info.infos(draw.edition, live=live)

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
    live = info.live
    first, second = (live.home, live.visitors) if live else (info.home_score, info.visitors_score)
    first_team = info.home_team
    flipped = home.team is not None and info.visitors_team == home.team.pk
    if flipped:
        first, second = second, first
        first_team = info.visitors_team
    winner = ""
    if info.winner_team is not None:
        winner = "home" if info.winner_team == first_team else "away"
    live_view = None
    if live is not None:
        chances = (live.chance_home, None if live.chance_home is None else 1 - live.chance_home)
        if flipped:
            chances = (chances[1], chances[0])
        live_view = LiveView(
            live.boards_played, live.boards_total, live.segment, chances[0], chances[1]
        )
    return ScoreView(
        first,
        second,
        info.status,
        info.status_label,
        winner,
        info.status not in _NO_IMPS,
        live_view,
        info.decided_at,
    )


def has_live(rounds: list[RoundView]) -> bool:
    """A match of the bracket is in progress (its running score and chances are shown)."""
    return any(m.score is not None and m.score.live is not None for r in rounds for m in r.matches)


def match_dates(draw: Draw) -> dict[str, MatchDate]:
    return {m.match: m for m in MatchDate.objects.filter(draw=draw)}


def slot_text(slot: SlotView) -> str:
    if slot.team is not None:
        return f"{slot.number}. {slot.team.name}"
    return slot.ref


def protocol_data(draw: Draw) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(draw.protocol) if draw.protocol else {}
    return data
