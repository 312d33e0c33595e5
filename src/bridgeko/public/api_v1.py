"""Version 1 of the open JSON API (issue 12, item 5): everything the public pages show, as JSON,
under ``/api/v1/`` — the editions, an edition, its teams (and a team's path through the
bracket), the bracket, the matches (each one the match document of :mod:`bridgeko.public.api`),
a segment's hand records after play, the schedule and the standings. The OpenAPI document
(:mod:`bridgeko.public.openapi`) at ``/api/openapi.json`` describes every path and shape;
``docs/api.md`` is the reader's guide.

Every document holds codes and stored text only (no translated words), so it is the same in
every language. No view reads the user or the session (nothing sets a cookie), and each answers
in a fixed number of queries whatever the number of teams and boards (tests assert it).

Caching: an edition's resources carry an ``ETag`` made from the edition's version
(:func:`bridgeko.public.freshness.edition_version`: one query, moved by every audited write and
by the double-dummy analysis) and the path, and ``Last-Modified`` from the newest audit entry;
``If-None-Match`` gets a 304 after two queries (the edition, its version). A match and its hand
records keep their own, finer tags (the match's version). ``Cache-Control: public, max-age=0,
must-revalidate`` on all: every reader asks again and usually gets the 304.

Secrecy (I15): no resource here shows a deal, a hand or a seed; the match document and the hand
records show deals only after the segment has ended in both rooms
(:func:`bridgeko.boards.secrecy.revealed`), as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from django.db.models import Max
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import gettext as _

from bridgeko.audit.models import AuditEntry
from bridgeko.core.collation import sort_key
from bridgeko.draw import display
from bridgeko.draw import services as draw_services
from bridgeko.draw.models import Draw
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import Team
from bridgeko.matches import standings as match_standings
from bridgeko.matches import state
from bridgeko.matches.models import Match
from bridgeko.public import event_odds, freshness
from bridgeko.public.api import CACHE_CONTROL, _json_safe, not_found
from bridgeko.public.openapi import API_VERSION, document

__all__ = [
    "bracket",
    "edition",
    "editions",
    "matches",
    "openapi",
    "schedule",
    "standings",
    "team",
    "teams",
]

Doc = dict[str, Any]


# ------------------------------------------------------------------------------- HTTP helpers


def _json(data: Any) -> JsonResponse:
    return JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})


def _conditional(
    request: HttpRequest, etag: str, at: datetime | None, make: Callable[[], Any]
) -> HttpResponseBase:
    """``make()`` as JSON unless the reader's copy is current (304); ETag, Last-Modified and
    Cache-Control on both."""
    last_modified = int(at.timestamp()) if at is not None else None
    response: HttpResponse | None = get_conditional_response(
        request, etag=etag, last_modified=last_modified
    )
    if response is None:
        response = _json(make())
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, **CACHE_CONTROL)
    return response


def _edition_of(request: HttpRequest, slug: str) -> Edition | None:
    """The edition ``EditionMiddleware`` found (``request.edition``), else looked up."""
    found = getattr(request, "edition", None)
    if isinstance(found, Edition) and found.slug == slug:
        return found
    return Edition.objects.filter(slug=slug).first()


def _edition_resource(
    request: HttpRequest, slug: str, build: Callable[[Edition], Doc | None]
) -> HttpResponseBase:
    """An edition's resource: ``build(edition)`` (None: a 404), cached by the edition's
    version. The 404 of a missing edition is answered before."""
    obj = _edition_of(request, slug)
    if obj is None:
        return not_found(_("There is no such edition."))
    version = freshness.edition_version(obj)
    etag = freshness.etag(version, "api", API_VERSION, request.path_info)
    built: list[Doc | None] = []

    def make() -> Doc | None:
        built.append(build(obj))
        return built[0]

    response = _conditional(request, etag, version.at, make)
    if built and built[0] is None:
        return not_found(_("There is nothing at this address."))
    return response


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _url(name: str, **kwargs: Any) -> str:
    return reverse(f"api:{name}", kwargs=kwargs)


# ------------------------------------------------------------------------------- documents


def _edition_links(slug: str) -> Doc:
    return {
        "self": _url("edition", edition=slug),
        "teams": _url("teams", edition=slug),
        "bracket": _url("bracket", edition=slug),
        "matches": _url("matches", edition=slug),
        "schedule": _url("schedule", edition=slug),
        "standings": _url("standings", edition=slug),
    }


def _edition_summary(e: Edition) -> Doc:
    return {
        "slug": e.slug,
        "name": e.name,
        "year": e.year,
        "stage": e.stage,
        "language": e.language,
        "links": _edition_links(e.slug),
    }


def _edition_doc(e: Edition) -> Doc:
    reg = e.regulations
    draw = draw_services.draw_of(e)
    doc = _edition_summary(e)
    doc["dates"] = {
        "entry_deadline": _iso(reg.entry.deadline),
        "elo_reference_date": _iso(reg.rating.reference_date),
        "finals_start": _iso(reg.schedule.finals_start),
        "finals_end": _iso(reg.schedule.finals_end),
        "timezone": reg.edition.timezone,
    }
    doc["draw"] = _draw_doc(draw)
    return doc


def _draw_doc(draw: Draw | None) -> Doc | None:
    """The public facts of the draw (the protocol itself is the HTML site's download)."""
    if draw is None or draw.announced_at is None:
        return None
    return {
        "place": draw.place,
        "scheduled_at": _iso(draw.scheduled_at),
        "commitment": draw.commitment or None,
        "held_at": _iso(draw.held_at),
        "scheme_size": draw.scheme_size if draw.held_at is not None else None,
        "schedule_published": draw.schedule_published_at is not None,
    }


def _team_ref(team: Team | None) -> Doc | None:
    return None if team is None else {"id": team.pk, "name": team.name}


def _teams_doc(e: Edition, numbers: dict[int, int]) -> list[Doc]:
    """The teams as the public teams page lists them (accepted ones once entries closed), best
    Elo first: name, team Elo (R10), roster with each player's Elo, captain first."""
    closing = entry_queries.closing_of(e)
    infos = entry_queries.edition_teams(e)
    if closing is not None:
        infos = [t for t in infos if t.team.accepted]
    infos = sorted(infos, key=lambda t: (-t.elo, sort_key(t.name)))
    return [
        {
            "id": t.id,
            "name": t.name,
            "elo": t.elo,
            "number": numbers.get(t.id),
            "roster": [
                {"name": line.player.name, "elo": line.elo, "captain": k == 0}
                for k, line in enumerate(t.roster)
            ],
            "links": {"self": _url("team", edition=e.slug, team=t.id)},
        }
        for t in infos
    ]


def _slot(s: display.SlotView) -> Doc:
    return {"number": s.number, "team": _team_ref(s.team), "ref": s.ref, "kind": s.kind}


def _played(view: state.MatchView | None) -> tuple[int, int]:
    """Boards played in both rooms (or given as segment totals) and boards of the match."""
    if view is None:
        return 0, 0
    return view.boards_played, sum(len(seg.boards) for seg in view.segments)


def _bracket_match(
    m: display.MatchView, row: Match | None, view: state.MatchView | None, slug: str
) -> Doc:
    """One match of the bracket in the scheme's order of slots (``home`` listed first even
    when the chief TD swapped home and visitors, I2; ``swapped`` says so)."""
    score = None
    if row is not None and view is not None and (m.score is not None or _played(view)[0]):
        first, second = view.running
        reverse_sides = m.home.team is not None and row.visitors_id == m.home.team.pk
        if reverse_sides:
            first, second = second, first
        winner = None
        if row.winner in ("home", "visitors"):
            winner = "home" if (row.winner == "home") != reverse_sides else "away"
        played, total = _played(view)
        score = {
            "home": first,
            "away": second,
            "status": row.status,
            "winner": winner,
            "boards_played": played,
            "boards": total,
        }
    return {
        "code": m.id,
        "round": m.round,
        "stage": m.stage.value,
        "status": m.status,
        "home": _slot(m.home),
        "away": _slot(m.away),
        "start": _iso(m.start),
        "location": m.location,
        "rescheduled": m.rescheduled,
        "swapped": m.swapped,
        "section": m.section,
        "score": score,
        "links": {
            "match": _url("match", edition=slug, code=m.id) if row is not None else None,
        },
    }


def _bracket(e: Edition, odds: list[Doc | None] | None = None) -> tuple[Draw | None, list[Doc]]:
    """The rounds of the bracket with every match (byes, "winner of" slots, running scores):
    the draw (1 query), its numbers (1), dates (1), the matches' infos and results (about 6).
    ``odds``: gets the chances to win the event (one query more) appended, when shown."""
    draw = draw_services.draw_of(e)
    if draw is None or draw.held_at is None:
        return draw, []
    numbers = display.numbers_of(draw)
    dates = display.match_dates(draw) if draw.schedule_published_at is not None else {}
    rounds = display.bracket_rounds(draw, numbers, dates)
    if odds is not None:
        odds.append(_odds(event_odds.for_bracket(e, rounds), numbers))
    rows = {
        m.code: m
        for m in Match.objects.filter(edition=e).select_related("home", "visitors", "edition")
    }
    views = state.views_of(list(rows.values()))
    out = []
    for r in rounds:
        ms = []
        for m in r.matches:
            row = rows.get(m.id)
            ms.append(_bracket_match(m, row, views.get(row.pk) if row else None, e.slug))
        out.append({"number": r.number, "stage": r.stage.value, "matches": ms})
    return draw, out


def _odds(shown: event_odds.Shown, numbers: dict[int, Any]) -> Doc | None:
    """The chances to win the event, as of the results the bracket shows (None: none to show,
    or being computed after the latest result)."""
    if shown.odds is None:
        return None
    teams = []
    for t in shown.odds.still_in():
        team = numbers.get(t.number)
        teams.append(
            {
                "team": {"id": t.team_id, "name": team.name if team is not None else ""},
                "number": t.number,
                "win": t.win,
                "places": {str(p): v for p, v in sorted(t.places.items())},
                "reach": {str(r): v for r, v in sorted(t.reach.items())},
            }
        )
    return {
        "computed_at": _iso(shown.odds.computed_at),
        "exact": shown.odds.exact,
        "runs": shown.odds.runs,
        "teams": teams,
    }


def _numbers(e: Edition) -> dict[int, int]:
    """Team id -> draw number (empty before the draw)."""
    draw = draw_services.draw_of(e)
    if draw is None or draw.held_at is None:
        return {}
    return {team.pk: n for n, team in display.numbers_of(draw).items()}


def _team_ids(m: Doc) -> set[int]:
    """The ids of the teams known in a bracket match's two slots."""
    return {m[s]["team"]["id"] for s in ("home", "away") if m[s]["team"] is not None}


# ------------------------------------------------------------------------------- views


@_json_safe
def openapi(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/openapi.json``: the OpenAPI document of the API."""
    doc = document()
    text = json.dumps(doc, ensure_ascii=False, sort_keys=True)
    etag = '"oa-' + hashlib.sha256(f"{freshness.BUILD}|{text}".encode()).hexdigest()[:20] + '"'
    return _conditional(request, etag, None, lambda: doc)


@_json_safe
def editions(request: HttpRequest) -> HttpResponseBase:
    """``GET /api/v1/editions/``: every edition, newest first."""
    rows = list(Edition.objects.all())
    doc = {"editions": [_edition_summary(e) for e in rows]}
    text = json.dumps(doc, ensure_ascii=False, sort_keys=True)
    etag = '"ed-' + hashlib.sha256(f"{freshness.BUILD}|{text}".encode()).hexdigest()[:20] + '"'
    at = AuditEntry.objects.aggregate(at=Max("at"))["at"]
    return _conditional(request, etag, at, lambda: doc)


@_json_safe
def edition(request: HttpRequest, edition: str) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/``: name, year, stage, dates, the draw, links."""
    return _edition_resource(request, edition, _edition_doc)


@_json_safe
def teams(request: HttpRequest, edition: str) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/teams/``: the teams, rosters, Elo (R10)."""

    def build(e: Edition) -> Doc:
        return {"edition": e.slug, "teams": _teams_doc(e, _numbers(e))}

    return _edition_resource(request, edition, build)


@_json_safe
def team(request: HttpRequest, edition: str, team: int) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/teams/<id>/``: one team and its path through the
    bracket (its matches, round by round)."""

    def build(e: Edition) -> Doc | None:
        _draw, rounds = _bracket(e)
        numbers = {}
        for r in rounds:
            for m in r["matches"]:
                for side in ("home", "away"):
                    slot = m[side]
                    if slot["team"] is not None:
                        numbers[slot["team"]["id"]] = slot["number"]
        found = [t for t in _teams_doc(e, numbers) if t["id"] == team]
        if not found:
            return None
        path = [m for r in rounds for m in r["matches"] if team in _team_ids(m)]
        return {"edition": e.slug, **found[0], "path": path}

    return _edition_resource(request, edition, build)


@_json_safe
def bracket(request: HttpRequest, edition: str) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/bracket/``: every round, byes, "winner of" slots, the
    running score and boards played of each match."""

    def build(e: Edition) -> Doc:
        odds: list[Doc | None] = []
        draw, rounds = _bracket(e, odds)
        return {
            "edition": e.slug,
            "held": draw is not None and draw.held_at is not None,
            "format": e.regulations.format.template,
            "rounds": rounds,
            "event_chances": odds[0] if odds else None,
        }

    return _edition_resource(request, edition, build)


@_json_safe
def matches(request: HttpRequest, edition: str) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/matches/``: every match of the bracket in the order of
    the scheme, with its running score; each one's document is at its ``links.match``."""

    def build(e: Edition) -> Doc:
        _draw, rounds = _bracket(e)
        return {"edition": e.slug, "matches": [m for r in rounds for m in r["matches"]]}

    return _edition_resource(request, edition, build)


@_json_safe
def schedule(request: HttpRequest, edition: str) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/schedule/``: when and where each match is played, once
    the dates are published (R14.1; a start agreed by the teams, R14.2, wins)."""

    def build(e: Edition) -> Doc:
        draw, rounds = _bracket(e)
        published = draw is not None and draw.schedule_published_at is not None
        entries = []
        if published:
            entries = [
                {
                    "code": m["code"],
                    "round": m["round"],
                    "stage": m["stage"],
                    "start": m["start"],
                    "location": m["location"],
                    "rescheduled": m["rescheduled"],
                    "home": m["home"],
                    "away": m["away"],
                    "links": m["links"],
                }
                for r in rounds
                for m in r["matches"]
                if m["start"] is not None
            ]
        ics = None
        if published:  # the HTML site's feed, in the edition's language whoever asks
            with translation.override(e.language):
                ics = reverse("public:schedule_ics", kwargs={"edition": e.slug})
        return {
            "edition": e.slug,
            "published": published,
            "matches": entries,
            "links": {"ical": ics},
        }

    return _edition_resource(request, edition, build)


@_json_safe
def standings(request: HttpRequest, edition: str) -> HttpResponseBase:
    """``GET /api/v1/editions/<edition>/standings/``: the places known so far (I7), the prizes
    once the final and the 3rd-place match are decided (R5.1)."""

    def build(e: Edition) -> Doc:
        result = match_standings.summary(e)
        return {
            "edition": e.slug,
            "finished": result.finished,
            "placings": [
                {
                    "first": p.first,
                    "last": p.last,
                    "place": p.place,
                    "teams": [_team_ref(t) for t in p.teams],
                    "needs_decision": p.needs_decision,
                }
                for p in result.placings
            ],
            "prizes": (
                [
                    {
                        "place": a.place,
                        "team": _team_ref(a.team),
                        "amount": a.amount,
                        "currency": a.currency,
                        "per_player": a.per_player,
                        "total": a.total,
                    }
                    for a in result.awards
                ]
                if result.awards is not None
                else None
            ),
        }

    return _edition_resource(request, edition, build)
