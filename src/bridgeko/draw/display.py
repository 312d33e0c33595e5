"""The read side of the draw for its pages: the numbers drawn, the bracket resolved round by round
(the scheme, I1, with the byes of R11.4) as display objects, the match dates, the protocol.
The score of each match and a start rescheduled by agreement (R14.2) come from the matches app
through :mod:`bridgeko.core.match_info` (it lies above this app). A few queries per page;
nothing here writes."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

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
    return None if chance is None else percent(chance)


def percent(chance: float) -> int:
    """A chance as a whole percentage; never 0 or 100 while the outcome is open (a rounded
    99.7 % shows as 99 %, not as a certainty the match has not reached)."""
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
    section: str = formats.Section.MAIN
    """The part of the drawing it belongs to (:func:`bridgeko.competition.formats.sections`):
    the main knockout (double elimination: the winners' bracket), the losers' bracket, a plate
    or placement matches."""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    stage: Stage
    matches: tuple[MatchView, ...]
    title: str = ""
    """The round's name in the reader's language: its column's title (:func:`sections`), or
    "Round 2: Quarterfinals · Losers' round 1" where it holds matches of several sections."""
    parts: tuple[tuple[str, str], ...] = ()
    """(section, column title) of each part of the format the round holds matches of."""


@dataclass(frozen=True, slots=True)
class ColumnView:
    """One column of a drawn section: the section's matches of one round."""

    title: str
    round: int
    matches: tuple[MatchView, ...]


@dataclass(frozen=True, slots=True)
class SectionView:
    """One bracket of the drawing (the winners' and losers' brackets of double elimination, a
    plate, placement matches): drawn side by side where the page is wide enough."""

    kind: str
    title: str
    """Empty for the main knockout when it is the only bracket."""
    columns: tuple[ColumnView, ...]


def sections(rounds: list[RoundView]) -> list[SectionView]:
    """The resolved bracket (:func:`bracket_rounds`) as the drawing shows it: one section per
    part of the format, each with a column per round, titled in the reader's language."""
    by_section: dict[str, dict[int, list[MatchView]]] = {}
    for r in rounds:
        for m in r.matches:
            by_section.setdefault(m.section, {}).setdefault(r.number, []).append(m)
    double = formats.Section.LOSERS in by_section
    result = []
    for kind in formats.Section:  # main first, then losers, plate, placement
        columns = by_section.get(kind)
        if not columns:
            continue
        ordered = sorted(columns.items())
        result.append(
            SectionView(
                kind,
                _section_title(kind, double=double),
                tuple(
                    ColumnView(
                        _column_title(kind, number, k, len(ordered), matches),
                        number,
                        tuple(matches),
                    )
                    for k, (number, matches) in enumerate(ordered)
                ),
            )
        )
    if len(result) == 1 and not double:
        result[0] = SectionView(result[0].kind, "", result[0].columns)
    return result


def _section_title(kind: str, *, double: bool) -> str:
    if kind == formats.Section.LOSERS:
        return _("Losers' bracket")
    if kind == formats.Section.PLATE:
        return _("Plate (the first-round losers)")
    if kind == formats.Section.PLACEMENT:
        return _("Matches for 5th-8th place")
    return _("Winners' bracket") if double else _("Knockout")


def _column_title(kind: str, number: int, index: int, count: int, matches: list[MatchView]) -> str:
    """A column's title: the stage of its matches in the main knockout (the winners' final of
    double elimination: a semifinal-stage round of one match), its round within the other
    sections."""
    last = index == count - 1 and len(matches) == 1
    if kind == formats.Section.LOSERS:
        return _("Losers' final") if last else _("Losers' round %(n)s") % {"n": index + 1}
    if kind == formats.Section.PLATE:
        return _("Plate final") if last else _("Plate round %(n)s") % {"n": index + 1}
    if kind == formats.Section.PLACEMENT:
        return _("Placement round %(n)s") % {"n": index + 1}
    stages = {m.stage for m in matches}
    if Stage.FINAL in stages:
        if Stage.THIRD_PLACE in stages:
            return _("Final and match for 3rd place")
        return _("Final")
    if Stage.SEMIFINAL in stages:
        return _("Winners' final") if len(matches) == 1 else _("Semifinals")
    if Stage.QUARTERFINAL in stages:
        return _("Quarterfinals")
    return _("Preliminary round %(n)s") % {"n": number}


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
    section_of = formats.sections(scheme)

    def slot(s: bracket.Slot) -> SlotView:
        team = numbers.get(s.number) if s.number is not None else None
        return SlotView(s.number, team, str(s.ref), str(s.status))

    views = []
    for m in state.matches:
        when = dates.get(m.id)
        home, away = slot(m.home), slot(m.away)
        info = infos.get(m.id)
        start, location = (when.start, when.location) if when else (None, "")
        rescheduled = info is not None and info.start is not None
        if info is not None and info.start is not None:
            start, location = info.start, info.location or location
        views.append(
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
                section_of[m.id],
            )
        )
    return _rounds_of(views)


def _rounds_of(views: list[MatchView]) -> list[RoundView]:
    """The matches grouped by round (the stage of a round: its first match's), titled."""
    rounds: dict[int, list[MatchView]] = {}
    for view in views:
        rounds.setdefault(view.round, []).append(view)
    return _titled([RoundView(r, ms[0].stage, tuple(ms)) for r, ms in sorted(rounds.items())])


def _titled(result: list[RoundView]) -> list[RoundView]:
    """The rounds with their titles (:attr:`RoundView.title`) and parts."""
    parts: dict[int, list[tuple[str, str]]] = {}
    for section in sections(result):
        for column in section.columns:
            parts.setdefault(column.round, []).append((section.kind, column.title))
    return [
        RoundView(r.number, r.stage, r.matches, _round_title(r.number, parts[r.number]),
                  tuple(parts[r.number]))
        for r in result
    ]  # fmt: skip


def _round_title(number: int, parts: list[tuple[str, str]]) -> str:
    if len(parts) == 1:
        return parts[0][1]
    return _("Round %(n)s: %(parts)s") % {"n": number, "parts": " · ".join(t for _k, t in parts)}


def dated_rounds(rounds: list[RoundView]) -> list[RoundView]:
    """The rounds with a dated match, each with its dated matches only and titled by the parts
    of the format they belong to (a schedule: the losers' first round is dated, the winners'
    quarterfinals are played on the finals weekend)."""
    out = []
    for r in rounds:
        dated = tuple(m for m in r.matches if m.start is not None)
        if not dated:
            continue
        kinds = {m.section for m in dated}
        parts = [p for p in r.parts if p[0] in kinds] or list(r.parts)
        out.append(RoundView(r.number, r.stage, dated, _round_title(r.number, parts), r.parts))
    return out


@dataclass(frozen=True, slots=True)
class Preview:
    """The scheme as the draw will make it for the teams entered so far (before the draw): the
    organiser sees the format drawn and whether it is fit for the prizes."""

    teams: int
    size: int
    seeded: int
    rounds: list[RoundView]
    problem: str
    """Why the draw would refuse this scheme (:func:`formats.check_format`), or ""."""


def preview(draw: Draw | None, edition: Any, teams: int) -> Preview | None:
    """:class:`Preview` for ``teams`` teams (None: too few for a draw, R8.1): the organiser's
    own scheme if it has the size, else the edition's format; numbers 1..``teams`` drawn, the
    others empty (byes, R11.4); "winner of" and "loser of" slots throughout."""
    from bridgeko.competition import draw as engine_draw
    from bridgeko.competition.scheme import BracketError
    from bridgeko.core.i18n import tr

    reg = edition.regulations
    try:
        size = engine_draw.scheme_size(
            teams, min_teams=reg.entry.min_teams, scheme_sizes=reg.draw.scheme_sizes
        )
        seeded = engine_draw.seeded_count(size, teams, seeded_divisor=reg.draw.seeded_divisor)
    except engine_draw.DrawError:
        return None
    own = bracket.scheme_from_dict(json.loads(draw.scheme)) if draw and draw.scheme else None
    scheme = own if own is not None and own.size == size else None
    try:
        if scheme is None:
            scheme = formats.build(reg.format.template, size)
        formats.check_format(scheme, len(reg.prizes))
        problem = ""
    except BracketError as exc:
        problem = tr(exc.detail)
        if scheme is None:  # a format that cannot be built for this size
            return Preview(teams, size, seeded, [], problem)
    state = bracket.resolve(scheme, teams=set(range(1, teams + 1)))
    section_of = formats.sections(scheme)
    views = []
    for m in state.matches:
        home, away = (SlotView(s.number, None, str(s.ref), str(s.status)) for s in (m.home, m.away))
        views.append(
            MatchView(
                m.id, m.spec.round, m.spec.stage, home, away, str(m.status),
                section=section_of[m.id],
            )
        )  # fmt: skip
    return Preview(teams, size, seeded, _rounds_of(views), problem)


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


def results_basis(rounds: list[RoundView]) -> str:
    """A fingerprint of the bracket's decided matches and their winners (by draw number): what
    the chances to win the event start from (:mod:`bridgeko.public.event_odds`); it changes
    with every decision, walkover or correction of a winner."""
    parts = []
    for r in rounds:
        for m in r.matches:
            if m.score is None or m.score.status not in _OVER:
                continue
            slot = m.home if m.score.winner == "home" else m.away if m.score.winner else None
            parts.append(f"{m.id}={slot.number if slot is not None else '-'}")
    return hashlib.sha256("|".join(sorted(parts)).encode()).hexdigest()


_OVER = ("decided", "walkover", "no_winner")


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
