"""The read side of a match: its stored facts loaded in a fixed number of queries (never one per
board) and the state the engine computes from them (:func:`bridgeko.competition.match.match_state`):
segments with their boards, the running score, the winner, the extra segment needed (R12.5).

Views, the JSON API and the services all read a match through :func:`load` and :func:`compute`;
nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bridgeko.bridge.scoring import imps
from bridgeko.competition import match as engine
from bridgeko.competition.match import Side
from bridgeko.competition.regulations import Regulations, Stage
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr
from bridgeko.entries.models import NoShow
from bridgeko.matches.models import BoardResult, Match, Penalty, PenaltyKind, Segment

__all__ = [
    "BoardLine",
    "Facts",
    "MatchView",
    "SegmentView",
    "compute",
    "load",
    "load_many",
    "view",
    "views_of",
]


@dataclass(slots=True)
class Facts:
    """What is stored of one match (4 queries: segments, results, penalties, failures to
    appear)."""

    match: Match
    segments: list[Segment]
    results: dict[tuple[int, str], BoardResult]
    """(board, room) -> the room's result."""
    penalties: list[Penalty]
    """The penalties and adjustments that count (not withdrawn)."""
    withdrawn: list[Penalty]
    absent: frozenset[Side]
    """Teams recorded as failing to appear for this match (R15.2)."""


def load(match: Match) -> Facts:
    return load_many([match])[match.pk]


def load_many(matches: Sequence[Match]) -> dict[int, Facts]:
    """The facts of several matches (of one edition) by match id, in the same 4 queries as one
    match: the public pages read every match in progress at once."""
    if not matches:
        return {}
    ids = [m.pk for m in matches]
    segments: dict[int, list[Segment]] = {pk: [] for pk in ids}
    for seg in Segment.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        segments[seg.match_id].append(seg)
    results: dict[int, dict[tuple[int, str], BoardResult]] = {pk: {} for pk in ids}
    for r in BoardResult.objects.filter(match_id__in=ids).select_related("entered_by"):
        results[r.match_id][(r.board, r.room)] = r
    penalties: dict[int, list[Penalty]] = {pk: [] for pk in ids}
    for p in Penalty.objects.filter(match_id__in=ids).order_by("segment", "created_at", "id"):
        penalties[p.match_id].append(p)
    both = [m for m in matches if m.home_id is not None and m.visitors_id is not None]
    shows: set[tuple[str, int]] = set()
    both_ids = {m.pk for m in both}
    if both:
        shows = set(
            NoShow.objects.filter(
                edition_id=both[0].edition_id,
                match__in=[m.code for m in both],
                withdrawn_at__isnull=True,
            ).values_list("match", "team_id")
        )
    out: dict[int, Facts] = {}
    for m in matches:
        absent: set[Side] = set()
        if m.pk in both_ids:
            teams = {m.home_id: Side.HOME, m.visitors_id: Side.VISITORS}
            absent = {side for team, side in teams.items() if (m.code, team) in shows}
        all_penalties = penalties[m.pk]
        out[m.pk] = Facts(
            match=m,
            segments=segments[m.pk],
            results=results[m.pk],
            penalties=[p for p in all_penalties if p.withdrawn_at is None],
            withdrawn=[p for p in all_penalties if p.withdrawn_at is not None],
            absent=frozenset(absent),
        )
    return out


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a segment: both rooms' results, the IMPs to the home team (R12.2-R12.3)."""

    number: int
    open: BoardResult | None
    closed: BoardResult | None
    removed: bool
    """Removed for lateness (R12.9, I6): not played, no result."""

    @property
    def imps(self) -> int | None:
        """IMPs to the home team (negative: to the visitors); None until both rooms are in."""
        if self.open is None or self.closed is None:
            return None
        return imps(self.open.ns_score - self.closed.ns_score)

    @property
    def complete(self) -> bool:
        return self.removed or (self.open is not None and self.closed is not None)


@dataclass(slots=True)
class SegmentView:
    segment: Segment
    boards: list[BoardLine]
    removed: tuple[int, ...]
    complete: bool
    """Every board played in both rooms (or removed), totals entered, or closed by the TD."""
    home_imps: int
    """IMPs at the table so far (the totals when entered from the scorecards)."""
    visitors_imps: int
    line: engine.SegmentLine | None = None
    """The engine's line for a completed segment (penalties, running score)."""

    @property
    def missing(self) -> list[int]:
        return [b.number for b in self.boards if not b.complete]

    @property
    def scored(self) -> int:
        return sum(1 for b in self.boards if b.imps is not None)


@dataclass(slots=True)
class MatchView:
    facts: Facts
    state: engine.MatchState
    segments: list[SegmentView] = field(default_factory=list)
    error: str = ""
    """The engine's objection to the stored facts (should never happen: the services check)."""

    @property
    def match(self) -> Match:
        return self.facts.match

    @property
    def boards_played(self) -> int:
        """Boards played in both rooms, a segment given by its totals counting whole (the
        number the bracket, the API and the match page show, and the chances start from)."""
        return sum(
            len(seg.boards) if seg.segment.has_totals else seg.scored for seg in self.segments
        )

    @property
    def running(self) -> tuple[int, int]:
        """Home and visitors: completed segments with penalties, plus the IMPs of the segment in
        progress (what a spectator sees as the score)."""
        home, visitors = self.state.home_total, self.state.visitors_total
        for seg in self.segments:
            if not seg.complete:
                home += seg.home_imps
                visitors += seg.visitors_imps
        return home, visitors


def engine_facts(
    penalties: Iterable[Penalty],
) -> tuple[list[engine.SlowPlay | engine.Lateness], list[engine.Adjustment]]:
    out: list[engine.SlowPlay | engine.Lateness] = []
    adjustments: list[engine.Adjustment] = []
    for p in penalties:
        side = Side(p.side)
        if p.kind == PenaltyKind.SLOW_PLAY:
            out.append(engine.SlowPlay(p.segment, side, p.boards or 0))
        elif p.kind == PenaltyKind.LATENESS:
            out.append(engine.Lateness(p.segment, side, p.minutes or 0, p.boards))
        else:
            adjustments.append(engine.Adjustment(p.segment, side, p.imps or 0, p.reason))
    return out, adjustments


def _engine_segment(segment: Segment) -> engine.Segment:
    return engine.Segment(
        segment.number, segment.first_board, segment.last_board, is_extra=segment.is_extra
    )


def compute(
    facts: Facts,
    regulations: Regulations,
    *,
    penalties: Sequence[Penalty] | None = None,
) -> MatchView:
    """The state of the match from ``facts`` (``penalties`` instead of the stored ones, to try
    a new one). Raises :class:`ServiceError` with the engine's message when the facts contradict
    each other."""
    match = facts.match
    pens = list(facts.penalties if penalties is None else penalties)
    slow_late, adjustments = engine_facts(pens)
    pr = regulations.penalties
    views: list[SegmentView] = []
    results: list[engine.SegmentResult] = []
    counting = True
    try:
        for seg in facts.segments:
            removed = engine.removed_boards_in(_engine_segment(seg), slow_late, pr)
            lines = [
                BoardLine(
                    n,
                    facts.results.get((n, "open")),
                    facts.results.get((n, "closed")),
                    n in removed,
                )
                for n in seg.board_numbers
            ]
            if seg.has_totals:
                assert seg.home_imps is not None and seg.visitors_imps is not None
                home, visitors, complete = seg.home_imps, seg.visitors_imps, True
                result = engine.SegmentResult(seg.number, home, visitors)
            else:
                board_imps = [b.imps for b in lines if b.imps is not None]
                home = sum(i for i in board_imps if i > 0)
                visitors = -sum(i for i in board_imps if i < 0)
                complete = seg.closed_at is not None or all(b.complete for b in lines)
                result = engine.SegmentResult.from_board_imps(seg.number, board_imps)
            views.append(SegmentView(seg, lines, removed, complete, home, visitors))
            if counting and complete:
                results.append(result)
            else:
                counting = False
        state = engine.match_state(
            Stage(match.stage),
            regulations,
            segments=results,
            penalties=slow_late,
            adjustments=adjustments,
            absent=facts.absent,
        )
    except engine.MatchError as exc:
        raise ServiceError(tr(exc.detail)) from None
    for seg_view, line in zip(views, state.lines, strict=False):
        seg_view.line = line
    return MatchView(facts, state, views)


def _view(facts: Facts, regulations: Regulations) -> MatchView:
    """Compute ``facts``; a contradiction in the stored facts is reported on the view."""
    try:
        return compute(facts, regulations)
    except ServiceError as exc:
        empty = engine.match_state(Stage(facts.match.stage), regulations)
        return MatchView(facts, empty, [], error=exc.message)


def view(match: Match) -> MatchView:
    """Load and compute (the pages' and the API's entry point). A contradiction in the stored
    facts is reported on the view, not raised."""
    return _view(load(match), match.edition.regulations)


def views_of(matches: Sequence[Match]) -> dict[int, MatchView]:
    """Match id -> its view, for many matches of one edition at once (the bracket, the API's
    match lists): the facts of all of them in the 4 queries of :func:`load_many` whatever the
    number of matches and boards, each then computed as :func:`view` does. ``matches`` must
    share one edition (its regulations are read once)."""
    if not matches:
        return {}
    regulations = matches[0].edition.regulations
    return {pk: _view(facts, regulations) for pk, facts in load_many(matches).items()}
