"""The public page of one match (issue 12): ``/<lang>/e/<edition>/public/matches/<code>/``.

The teams (home and visitors, R12.2), the status, the running score with the boards played, each
team's chance to win while the match is in progress (:mod:`bridgeko.competition.chances`), the
line-ups of the segments that have started, each segment with its IMPs, penalties and
adjustments (with their reasons) and the board-by-board table of both rooms.

What is public is decided where it is decided for the API: a board's results only once both
rooms have played it (:func:`bridgeko.public.api.results_shown`), a line-up only once its
segment has started (:func:`bridgeko.matches.lineups.started`: until then the captains may still
change it and the team sitting first must not learn the second's, R12.6), a board's deal only
once its segment has ended in both rooms (I15, :func:`bridgeko.boards.secrecy.revealed`: then
its number links to the public board page).

The page is read from :func:`bridgeko.matches.state.view` in a fixed number of queries whatever
the number of boards or teams; it is rendered without the request
(:func:`bridgeko.public.render.page`) and lives in ``<main>``, so ``live.js`` refreshes it when a
result is saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import reverse
from django.views.decorators.http import require_safe

from bridgeko.boards import secrecy
from bridgeko.boards.models import BoardDeal
from bridgeko.competition import chances as chance_model
from bridgeko.entries import queries as entry_queries
from bridgeko.matches import lineups, state
from bridgeko.matches.models import LineUp, Match, MatchStatus, PenaltyKind
from bridgeko.matches.views import stage_label
from bridgeko.public.api import penalty_document, results_shown
from bridgeko.public.render import page
from bridgeko.public.views import _edition

__all__ = ["BoardRow", "SegmentBlock", "match", "match_context"]

LIVE = (MatchStatus.IN_PROGRESS, MatchStatus.EXTRA_SEGMENT_REQUIRED)
"""The statuses of a match being played: its chances to win are shown."""


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One board of the table: both rooms' results when public, else only its number."""

    number: int
    shown: bool
    open_text: str = ""
    open_ns: int | None = None
    closed_text: str = ""
    closed_ns: int | None = None
    home_imps: int | None = None
    visitors_imps: int | None = None
    removed: bool = False
    record_url: str = ""
    """The public board page (deal, analysis) once the segment has ended (I15)."""


@dataclass(frozen=True, slots=True)
class Pair:
    team: str
    side: str
    players: str


@dataclass
class SegmentBlock:
    view: state.SegmentView
    rows: list[BoardRow]
    rooms: list[tuple[str, Pair, Pair]] = field(default_factory=list)
    """(room, NS pair, EW pair) once the segment has started and a line-up is in."""
    hand_records_url: str = ""
    hand_records_pdf_url: str = ""

    @property
    def segment(self) -> Any:
        return self.view.segment


def _rows(seg: state.SegmentView, records: set[int], edition: str, code: str) -> list[BoardRow]:
    out = []
    for line in seg.boards:
        url = ""
        if line.number in records:
            url = reverse(
                "public:hand_record",
                kwargs={"edition": edition, "code": code, "board": line.number},
            )
        if not results_shown(seg, line) or line.open is None or line.closed is None:
            out.append(BoardRow(line.number, False, removed=line.removed, record_url=url))
            continue
        imps = line.imps or 0
        out.append(
            BoardRow(
                line.number,
                True,
                line.open.text,
                line.open.ns_score,
                line.closed.text,
                line.closed.ns_score,
                imps if imps > 0 else None,
                -imps if imps < 0 else None,
                record_url=url,
            )
        )
    return out


def _rooms(seg: state.SegmentView, stored: dict[str, LineUp], names: dict[str, str]) -> list[Any]:
    """The seats of the two rooms (R12.2: which line each team takes), from the line-ups in."""
    if not stored:
        return []
    out = []
    for room in ("open", "closed"):
        pairs: dict[str, Pair] = {}
        for side in ("home", "visitors"):
            lu = stored.get(side)
            players = "?"
            if lu is not None:
                first = getattr(lu, f"{room}_first")
                second = getattr(lu, f"{room}_second")
                players = f"{first.name} – {second.name}"
            line = lineups.line_of(seg.segment, side, room)
            pairs[line] = Pair(names[side], side, players)
        out.append((room, pairs["NS"], pairs["EW"]))
    return out


def _status(m: Match, view: state.MatchView) -> dict[str, Any]:
    current = next((s.segment for s in view.segments if not s.complete), None)
    winner = m.home if m.winner == "home" else m.visitors if m.winner == "visitors" else None
    return {
        "code": m.status,
        "segment": current.number if current is not None else None,
        "winner": winner.name if winner is not None else "",
    }


def _chances(edition: Any, m: Match, view: state.MatchView) -> dict[str, Any] | None:
    """Each team's chance to win while the match is played (issue 12, item 3)."""
    if m.status not in LIVE or m.home_id is None or m.visitors_id is None:
        return None
    played = view.boards_played
    left = sum(len(s.missing) for s in view.segments if not s.complete)
    infos = {
        t.team.pk: t.elo
        for t in entry_queries.edition_teams(edition, team_ids=[m.home_id, m.visitors_id])
    }
    elo_home, elo_visitors = infos.get(m.home_id), infos.get(m.visitors_id)
    home, visitors = view.running
    params = chance_model.params_for(edition.regulations)
    p_home, p_visitors = chance_model.chances(
        home - visitors, played, left, elo_home, elo_visitors, params
    )
    return {
        "home": round(100 * p_home),
        "visitors": round(100 * p_visitors),
        "left": left,
        "elo_home": elo_home,
        "elo_visitors": elo_visitors,
        "sigma": params.sigma,
        "elo_scale": round(params.elo_scale),
        "reference_boards": params.reference_boards,
        "extra_boards": params.extra_segment_boards,
    }


def _provisional(m: Match) -> dict[str, Any] | None:
    from bridgeko.matches import records

    waiting = records.pending(m)
    if waiting is None:
        return None
    home, visitors = records.provisional_score(waiting)
    return {"home": home, "visitors": visitors, "status": waiting.get_status_display()}


def match_context(edition: Any, m: Match) -> dict[str, Any]:
    """Everything the match page shows (a fixed number of queries)."""
    view = state.view(m)
    slug = edition.slug
    names = {
        "home": m.home.name if m.home is not None else "?",
        "visitors": m.visitors.name if m.visitors is not None else "?",
    }
    segments = [s.segment for s in view.segments]
    ended = [s.pk for s in segments if secrecy.revealed(s)]  # I15
    records = (
        set(
            BoardDeal.objects.filter(deal_set__segment_id__in=ended).values_list("board", flat=True)
        )
        if ended
        else set()
    )
    with_results = {board for board, _room in view.facts.results}
    started = [s.pk for s in segments if lineups.started(s, with_results)]
    stored: dict[int, dict[str, LineUp]] = {}
    if started:
        for lu in LineUp.objects.filter(segment_id__in=started).select_related(
            "open_first", "open_second", "closed_first", "closed_second"
        ):
            stored.setdefault(lu.segment_id, {})[lu.side] = lu
    blocks = []
    for seg in view.segments:
        number = seg.segment.number
        has_records = seg.segment.pk in ended and any(
            b in records for b in seg.segment.board_numbers
        )
        where = {"edition": slug, "code": m.code, "segment": number}
        blocks.append(
            SegmentBlock(
                seg,
                _rows(seg, records, slug, m.code),
                _rooms(seg, stored.get(seg.segment.pk, {}), names),
                reverse("public:hand_records", kwargs=where) if has_records else "",
                reverse("public:hand_records_pdf", kwargs=where) if has_records else "",
            )
        )
    boards_of = {s.number: s.last_board - s.first_board + 1 for s in segments}
    minutes = edition.regulations.penalties.lateness_minutes_per_board
    penalties = []
    for p in view.facts.penalties:
        doc = penalty_document(p, boards_of, minutes)
        doc["kind_label"] = PenaltyKind(p.kind).label
        doc["team"] = names.get(p.side, "?")
        penalties.append(doc)
    home, visitors = view.running
    return {
        "match": m,
        "names": names,
        "stage": stage_label(m.stage),
        "view": view,
        "status": _status(m, view),
        "running": {"home": home, "visitors": visitors},
        "played": view.boards_played,
        "total_boards": sum(len(s.boards) for s in view.segments),
        "chances": _chances(edition, m, view),
        "blocks": blocks,
        "penalties": penalties,
        "api_url": reverse("api:match", kwargs={"edition": slug, "code": m.code}),
        # a record of the captains waiting for the TD (R14.2b): provisional, shown as such
        "provisional": _provisional(m),
        # the whole result file for other programs, once a segment's deals are public
        "pbn_url": (
            reverse("site:match_pbn", kwargs={"edition": slug, "code": m.code})
            if any(b.hand_records_url for b in blocks)
            else ""
        ),
    }


@require_safe
def match(request: HttpRequest, edition: str, code: str) -> HttpResponseBase:
    """One match, board by board (see the module)."""
    obj = _edition(request, edition)
    found = Match.objects.select_related("home", "visitors").filter(edition=obj, code=code).first()
    if found is None:
        raise Http404
    found.edition = obj
    return page(request, obj, "public/match.html", lambda: match_context(obj, found))
