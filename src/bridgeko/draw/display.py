"""The read side of the draw for its pages: the numbers drawn, the bracket resolved round by round
(the scheme, I1, with the byes of R11.4) as display objects, the match dates, the protocol.
Two queries per page; nothing here writes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bridgeko.competition import bracket
from bridgeko.competition.regulations import Stage
from bridgeko.core import bracket_hooks
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
class MatchView:
    id: str
    round: int
    stage: Stage
    home: SlotView
    away: SlotView
    status: str
    start: datetime | None = None
    location: str = ""


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

    def slot(s: bracket.Slot) -> SlotView:
        team = numbers.get(s.number) if s.number is not None else None
        return SlotView(s.number, team, str(s.ref), str(s.status))

    rounds: dict[int, list[MatchView]] = {}
    stages: dict[int, Stage] = {}
    for m in state.matches:
        when = dates.get(m.id)
        rounds.setdefault(m.spec.round, []).append(
            MatchView(
                m.id,
                m.spec.round,
                m.spec.stage,
                slot(m.home),
                slot(m.away),
                str(m.status),
                when.start if when else None,
                when.location if when else "",
            )
        )
        stages.setdefault(m.spec.round, m.spec.stage)
    return [RoundView(r, stages[r], tuple(ms)) for r, ms in sorted(rounds.items())]


def match_dates(draw: Draw) -> dict[str, MatchDate]:
    return {m.match: m for m in MatchDate.objects.filter(draw=draw)}


def slot_text(slot: SlotView) -> str:
    if slot.team is not None:
        return f"{slot.number}. {slot.team.name}"
    return slot.ref


def protocol_data(draw: Draw) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(draw.protocol) if draw.protocol else {}
    return data
