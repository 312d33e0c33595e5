"""The read-only JSON API of the public site (issue 10, item 11), starting with one match:
``GET /api/v1/editions/<edition>/matches/<code>/`` (first ``/api/e/<edition>/matches/<code>/``,
still answered; the rest of version 1 is :mod:`bridgeko.public.api_v1`).

The document (:func:`match_document`) is made from :func:`bridgeko.matches.state.view` — the
same reading of the stored facts as the TD's pages, in a fixed number of queries whatever the
number of boards — and holds codes and stored text only (no translated words), so it is the
same in every language::

    {"code": "F", "stage": "final",
     "home": {"name": "..."}, "visitors": {"name": "..."},     # null while not known
     "status": "in_progress",                                   # models.MatchStatus values
     "winner": "home" | "visitors" | null,
     "total": {"home": 31, "visitors": 12},
     "segments": [{"number": 1, "home_imps": 31, "visitors_imps": 12,
                   "hand_records": "/api/v1/editions/.../segments/1/hand-records/",
                   "boards": [{"number": 1, "open": "4S N =", "closed": "4S N -1",
                               "imps": 10,
                               "deal": "N:AKQ.… … … …", "dd": {...}, "par": {...}},
                              ...]}, ...],
     "penalties": [{"kind": "lateness", "side": "visitors", "segment": 2, "boards": 2,
                    "minutes": 9, "imps": null, "reason": "..."}],
     "results_pbn": "/e/ko-1999/matches/QF1/results.pbn"}   # null until a segment has ended

* ``open``/``closed``: each room's result in the TD's quick text as stored (``4S N =``,
  ``3NTX E -2``, ``P``); ``imps``: the board's IMPs from the home team's view (negative: to the
  visitors, R12.2-R12.3).
* **A board is shown only when both rooms have played it.** While one room's result is in and
  the other's is not, the board shows ``"open": null, "closed": null, "imps": null``: the board
  may still be being played in the other room, and the players there must not learn the result
  of the first. A board removed for lateness (R12.9) shows nulls too; so does every board of a
  segment entered as totals from the scorecards (its ``home_imps``/``visitors_imps`` are the
  totals).
* ``deal``, ``dd``, ``par`` (issue 11): **only once the segment has ended in both rooms** (I15,
  :func:`bridgeko.boards.secrecy.revealed`) and has a set of deals — the PBN Deal value, the
  double-dummy table ``{declarer: {denomination: tricks}}`` and the par ``{"score",
  "contracts"}`` (the shapes of :mod:`bridgeko.boards.handrecords`; ``dd``/``par`` null while the
  analysis has not reached the board). Before the end these keys are absent, and so is the
  segment's ``hand_records`` (afterwards the address of its hand-record JSON).
* ``home_imps``/``visitors_imps`` of a segment: the IMPs at the table so far (boards played in
  both rooms), or the totals from the scorecards.
* ``total``: the score a spectator sees — the completed segments with their penalties and
  adjustments, plus the IMPs at the table of the segment in progress (``MatchView.running``);
  the final score once the match is decided.
* ``penalties``: the penalties and adjustments that count (a withdrawn one is left out):
  ``kind`` (``slow_play``, ``lateness``, ``adjustment``), ``side``, ``segment``, ``boards``
  (slow play: the boards not played in time; lateness: the boards removed, as the TD set them or
  as R12.9 computes them from ``minutes``), ``minutes`` (lateness), ``imps`` (an adjustment),
  ``reason``.

HTTP: GET and HEAD only (OPTIONS: 204 with ``Allow``; anything else: 405 with a JSON body and
``Allow``), no login, no
cookie and no session (the view reads neither the user nor the session, so nothing sets one).
``ETag`` from the match's ``version`` (raised by every change of the match or its facts) and its
teams' names, ``Last-Modified`` from its ``updated_at``; ``If-None-Match``/``If-Modified-Since``
are answered with 304 after one query. ``Cache-Control: public, max-age=0, must-revalidate``:
a score changes at any moment, so every reader asks again and usually gets the 304.
An unknown edition or match is a 404 with a JSON body (``{"error": "not found", "detail": ...}``;
the unknown edition's 404 comes from the site's 404 handler, which answers JSON under ``/api/``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import gettext as _

from bridgeko.boards import handrecords, secrecy
from bridgeko.boards.models import BoardDeal
from bridgeko.competition import match as engine
from bridgeko.editions.models import Edition
from bridgeko.matches import state
from bridgeko.matches.models import Match, Penalty, PenaltyKind

__all__ = ["match", "match_document", "not_found", "penalty_document", "results_shown"]

SAFE_METHODS = ("GET", "HEAD")
ALLOWED = "GET, HEAD, OPTIONS"
"""The ``Allow`` header: OPTIONS is answered too (CORS preflights are answered by the CORS
middleware before the view; a plain OPTIONS by :func:`_json_safe`)."""
CACHE_CONTROL = {"public": True, "max_age": 0, "must_revalidate": True}


def not_found(detail: str) -> JsonResponse:
    """The API's 404: a JSON body (the site's 404 handler uses it under ``/api/`` too)."""
    return JsonResponse({"error": "not found", "detail": detail}, status=404)


def _json_safe(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """GET and HEAD only; OPTIONS says so (204 with ``Allow``); another method gets a 405 with
    a JSON body (not the HTML page)."""

    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "OPTIONS":
            options = HttpResponse(status=204)
            options["Allow"] = ALLOWED
            return options
        if request.method not in SAFE_METHODS:
            response = JsonResponse(
                {
                    "error": "method not allowed",
                    "detail": _("This address is read-only: use GET or HEAD."),
                },
                status=405,
            )
            response["Allow"] = ALLOWED
            return response
        return view(request, *args, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    wrapped.__module__ = view.__module__
    return wrapped


def results_shown(seg: state.SegmentView, line: state.BoardLine) -> bool:
    """May the public see the board's results? Only once **both rooms** have played it: while
    the other room may still be playing it, neither room's result is shown (nor for a board
    removed for lateness, R12.9, nor on a segment entered as totals from the scorecards). The
    API and the public match page both ask this."""
    return (
        not seg.segment.has_totals
        and not line.removed
        and line.open is not None
        and line.closed is not None
    )


def _board(seg: state.SegmentView, line: state.BoardLine) -> dict[str, Any]:
    if not results_shown(seg, line) or line.open is None or line.closed is None:
        return {"number": line.number, "open": None, "closed": None, "imps": None}
    return {
        "number": line.number,
        "open": line.open.text,
        "closed": line.closed.text,
        "imps": line.imps,
    }


def _segment(
    seg: state.SegmentView, deals: dict[int, BoardDeal] | None = None, m: Match | None = None
) -> dict[str, Any]:
    boards = [_board(seg, b) for b in seg.boards]
    hand_records = None
    shown = deals is not None and secrecy.revealed(seg.segment)  # I15: after the end only
    if shown and deals is not None:
        present = [(b, deals.get(line.number)) for b, line in zip(boards, seg.boards, strict=True)]
        present = [(b, d) for b, d in present if d is not None]
        for b, found in present:
            assert found is not None
            b |= {"deal": found.deal} | _analysis(found)
        if present and m is not None:
            hand_records = reverse(
                "api:hand_records",
                kwargs={"edition": m.edition.slug, "code": m.code, "segment": seg.segment.number},
            )
    out: dict[str, Any] = {
        "number": seg.segment.number,
        "home_imps": seg.home_imps,
        "visitors_imps": seg.visitors_imps,
        "boards": boards,
    }
    if hand_records is not None:
        out["hand_records"] = hand_records
    return out


def _analysis(found: BoardDeal) -> dict[str, Any]:
    """The stored analysis in the one shape of :mod:`bridgeko.boards.handrecords`."""
    table = handrecords.dd_from_json(found.dd)
    par = handrecords.par_from_json(found.par) if table is not None else None
    return {
        "dd": handrecords.dd_to_json(table) if table is not None else None,
        "par": handrecords.par_to_json(par) if par is not None else None,
    }


def _revealed_deals(view: state.MatchView) -> dict[int, BoardDeal]:
    """Board -> deal of the match's segments that have ended in both rooms (one query, none
    when no segment has ended)."""
    ended = [s.pk for s in view.facts.segments if secrecy.revealed(s)]
    if not ended:
        return {}
    return {
        d.board: d
        for d in BoardDeal.objects.filter(deal_set__segment_id__in=ended).order_by("board")
    }


def penalty_document(
    p: Penalty, boards_of: dict[int, int], minutes_per_board: int
) -> dict[str, Any]:
    """One penalty or adjustment as the API shows it (lateness: the boards removed as R12.9
    computes them unless the TD set them); the public match page shows the same."""
    boards = p.boards
    if p.kind == PenaltyKind.LATENESS and boards is None and p.minutes is not None:
        boards = engine.boards_removed_for_lateness(  # R12.9, I6: the engine's count
            p.minutes,
            minutes_per_board=minutes_per_board,
            segment_boards=boards_of.get(p.segment),
        )
    return {
        "kind": p.kind,
        "side": p.side,
        "segment": p.segment,
        "boards": boards if p.kind != PenaltyKind.ADJUSTMENT else None,
        "minutes": p.minutes if p.kind == PenaltyKind.LATENESS else None,
        "imps": p.imps if p.kind == PenaltyKind.ADJUSTMENT else None,
        "reason": p.reason,
    }


def _team(team: Any) -> dict[str, Any] | None:
    return None if team is None else {"name": team.name}


def match_document(view: state.MatchView) -> dict[str, Any]:
    """The JSON document of one match (the shape in the module's docstring)."""
    m = view.match
    home, visitors = view.running
    boards_of = {s.number: s.last_board - s.first_board + 1 for s in view.facts.segments}
    deals = _revealed_deals(view)
    minutes_per_board = m.edition.regulations.penalties.lateness_minutes_per_board
    return {
        "code": m.code,
        "stage": m.stage,
        "home": _team(m.home),
        "visitors": _team(m.visitors),
        "status": m.status,
        "winner": m.winner or None,
        "total": {"home": home, "visitors": visitors},
        "segments": [_segment(s, deals, m) for s in view.segments],
        "penalties": [
            penalty_document(p, boards_of, minutes_per_board) for p in view.facts.penalties
        ],
        # the whole result file (PBN, issue 20), once a segment's deals are public (I15)
        "results_pbn": (
            reverse("site:match_pbn", kwargs={"edition": m.edition.slug, "code": m.code})
            if deals
            else None
        ),
    }


def _etag(m: Match) -> str:
    names = "\x1f".join(t.name if t is not None else "" for t in (m.home, m.visitors))
    analysed = getattr(m, "hr_analysed", 0)  # the DD analysis moves on without the match
    digest = hashlib.sha256(f"{m.pk}:{m.version}:{names}:{analysed}".encode()).hexdigest()[:16]
    return f'"m{m.pk}-v{m.version}-{digest}"'


def _analysed_boards() -> Any:
    """The number of the match's boards with a stored analysis (a subquery of the match's own
    query: the ETag changes as the background analysis fills the tables)."""
    return Coalesce(
        Subquery(
            BoardDeal.objects.filter(deal_set__segment__match=OuterRef("pk"), dd__isnull=False)
            .values("deal_set__segment__match")
            .annotate(n=Count("id"))
            .values("n")[:1]
        ),
        0,
    )


@_json_safe
def match(request: HttpRequest, edition: str, code: str) -> HttpResponseBase:
    """One match as JSON (see the module's docstring)."""
    obj = getattr(request, "edition", None)
    if not isinstance(obj, Edition) or obj.slug != edition:
        obj = Edition.objects.filter(slug=edition).first()
        if obj is None:
            return not_found(_("There is no such edition."))
    try:
        m = (
            Match.objects.select_related("home", "visitors")
            .annotate(hr_analysed=_analysed_boards())
            .get(edition=obj, code=code)
        )
    except Match.DoesNotExist:
        return not_found(_("Match %(code)s is not in this edition.") % {"code": code})
    m.edition = obj
    etag = _etag(m)
    last_modified = int(m.updated_at.timestamp()) if m.updated_at is not None else None
    response: HttpResponse | None = get_conditional_response(
        request, etag=etag, last_modified=last_modified
    )
    if response is None:
        response = JsonResponse(
            match_document(state.view(m)), json_dumps_params={"ensure_ascii": False}
        )
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, **CACHE_CONTROL)
    return response
