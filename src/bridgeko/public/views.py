"""Public read-only pages of an edition: no login, a fixed handful of queries per page
(the whole edition is loaded at once by :func:`bridgeko.entries.queries.edition_teams`).
GET and HEAD only (``require_safe``): nothing here changes data."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from bridgeko.competition.draw import ProtocolError
from bridgeko.core import security
from bridgeko.core.collation import sort_key
from bridgeko.draw import display, schedule_services
from bridgeko.draw import services as draw_services
from bridgeko.draw.models import Draw
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import Team
from bridgeko.matches import standings as match_standings
from bridgeko.public import bracket, event_odds
from bridgeko.public.freshness import edition_version, etag
from bridgeko.public.render import cache_headers, page


def _edition(request: HttpRequest, slug: str) -> Edition:
    """The page's edition, as ``EditionMiddleware`` found it (``request.edition``)."""
    edition = getattr(request, "edition", None)
    if not isinstance(edition, Edition) or edition.slug != slug:
        edition = get_object_or_404(Edition, slug=slug)
        request.edition = edition  # type: ignore[attr-defined]
    return edition


def _rounds(draw: Draw | None, numbers: dict[int, Team] | None = None) -> list[display.RoundView]:
    """The resolved bracket with the scores, the live matches and (once published, R14.1) the
    dates; empty before the draw. ``numbers``: the draw's numbers when already read."""
    if draw is None or not draw.held:
        return []
    if numbers is None:
        numbers = display.numbers_of(draw)
    if not numbers:
        return []
    published = draw.schedule_published_at is not None
    dates = display.match_dates(draw) if published else None
    return display.bracket_rounds(draw, numbers, dates, live=True)


@require_safe
def home(request: HttpRequest, edition: str) -> HttpResponseBase:
    """The edition at a glance: what is being played now, the latest results, the next matches
    (by the matches' status, never by the clock), and the edition's facts."""
    obj = _edition(request, edition)

    def context() -> dict[str, object]:
        draw = draw_services.draw_of(obj)
        return {
            "edition": obj,
            "reg": obj.regulations,
            "draw": draw,
            "closing": entry_queries.closing_of(obj),
            "overview": bracket.overview(_rounds(draw)),
            "links": True,
        }

    return page(request, obj, "public/home.html", context)


@require_safe
def teams(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)

    def context() -> dict[str, object]:
        closing = entry_queries.closing_of(obj)
        infos = entry_queries.edition_teams(obj)
        if closing is not None:
            infos = [t for t in infos if t.team.accepted]
        return {
            "edition": obj,
            "reg": obj.regulations,
            "teams": sorted(infos, key=lambda t: (-t.elo, sort_key(t.name))),
            "closing": closing,
        }

    return page(request, obj, "public/teams.html", context)


@require_safe
def draw(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)

    def context() -> dict[str, object]:
        draw = draw_services.draw_of(obj)
        numbers = display.numbers_of(draw) if draw is not None and draw.held else {}
        rounds = _rounds(draw, numbers) if numbers else []
        odds = event_odds.for_bracket(obj, rounds)
        report = None
        if draw is not None and draw.held:
            try:  # I8: the engine's own check of the published protocol, shown with it
                report = draw_services.verify(draw)
            except ProtocolError:
                report = None
        embed = reverse("public:embed_bracket", kwargs={"edition": obj.slug})
        return {
            "edition": obj,
            "draw": draw,
            "numbers": sorted(numbers.items()),
            "rounds": rounds,
            "sections": display.sections(rounds),
            "odds": odds,
            "odds_rows": event_odds.table(odds, numbers),
            "byes": [m for r in rounds[:1] for m in r.matches if m.status == "bye"],
            "report": report,
            "live_now": display.has_live(rounds),
            "links": True,
            "embed_url": settings.BRIDGEKO_SITE_URL.rstrip("/") + embed,
        }

    return page(request, obj, "public/draw.html", context)


def _embed_context(obj: Edition, draw: Draw | None) -> dict[str, object]:
    rounds = _rounds(draw)
    return {
        "edition": obj,
        "draw": draw,
        "rounds": rounds,
        "sections": display.sections(rounds),
        "live_now": display.has_live(rounds),
        "links": "_top",
    }


@require_safe
@xframe_options_exempt
def embed_bracket(request: HttpRequest, edition: str) -> HttpResponseBase:
    """The bracket alone, to be shown in an ``<iframe>`` on any site (issue 12, item 5): no
    ``X-Frame-Options``, any ancestor allowed; its links open outside the frame."""
    obj = _edition(request, edition)
    response = page(
        request,
        obj,
        "public/embed_bracket.html",
        lambda: _embed_context(obj, draw_services.draw_of(obj)),
    )
    response["Content-Security-Policy"] = security.FRAMEABLE
    return response


@require_safe
def protocol(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)
    draw = draw_services.draw_of(obj)
    if draw is None or not draw.held:
        raise Http404
    response = HttpResponse(draw.protocol, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="draw-{obj.slug}.json"'
    return response


@require_safe
def schedule(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)

    def context() -> dict[str, object]:
        draw = draw_services.draw_of(obj)
        rounds = []
        if draw is not None and draw.schedule_published_at is not None:
            rounds = display.dated_rounds(
                display.bracket_rounds(draw, display.numbers_of(draw), display.match_dates(draw))
            )
        return {
            "edition": obj,
            "draw": draw,
            "rounds": rounds,
            "reg": obj.regulations,
            "links": True,
            "no_preliminary": (
                draw is not None
                and draw.held
                and not schedule_services.has_preliminary_rounds(draw)
            ),  # R11.6
        }

    return page(request, obj, "public/schedule.html", context)


def _feed(
    request: HttpRequest, obj: Edition, make: Callable[..., bytes], filename: str
) -> HttpResponseBase:
    """An iCalendar feed of the edition's published schedule (R14.1), answered like the pages:
    the data's version as its ``ETag`` (304 when unchanged) and as the events' ``DTSTAMP``, so
    the file is the same bytes until the data changes. 404 before the dates are published."""
    draw = draw_services.draw_of(obj)
    if draw is None or draw.schedule_published_at is None:
        raise Http404
    version = edition_version(obj)
    tag = etag(version, request.path, get_language())
    response = get_conditional_response(request, etag=tag)
    if response is None:
        stamp = version.at or draw.schedule_published_at
        response = HttpResponse(make(draw, stamp), content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return cache_headers(response, tag, version)


@require_safe
def schedule_ics(request: HttpRequest, edition: str) -> HttpResponseBase:
    """Every match of the published schedule, one event each (R14.1)."""
    obj = _edition(request, edition)
    return _feed(
        request,
        obj,
        lambda draw, stamp: schedule_services.schedule_ics(obj, draw, stamp=stamp),
        f"{obj.slug}.ics",
    )


def _team(obj: Edition, pk: int) -> Team:
    """A team the public teams page lists (after the closing of entries: the accepted ones)."""
    team = Team.objects.filter(edition=obj, pk=pk).first()
    if team is None:
        raise Http404
    if not team.accepted and entry_queries.closing_of(obj) is not None:
        raise Http404
    return team


@require_safe
def team(request: HttpRequest, edition: str, team: int) -> HttpResponseBase:
    """A team: its roster with Elo (R10, captain first), its Elo and its path through the
    bracket (each match with its round, opponent, score and result)."""
    obj = _edition(request, edition)
    row = _team(obj, team)

    def context() -> dict[str, object]:
        draw = draw_services.draw_of(obj)
        info = entry_queries.team_info(row)
        rounds = _rounds(draw)
        odds = event_odds.for_bracket(obj, rounds)
        return {
            "edition": obj,
            "reg": obj.regulations,
            "team": info,
            "path": bracket.team_path(rounds, row.pk),
            "odds": odds,
            "team_odds": event_odds.for_team(odds, row.pk, rounds),
            "feed": draw is not None and draw.schedule_published_at is not None,
            "links": True,
        }

    return page(request, obj, "public/team.html", context)


@require_safe
def team_ics(request: HttpRequest, edition: str, team: int) -> HttpResponseBase:
    """The team's matches of the published schedule, one event each (R14.1)."""
    obj = _edition(request, edition)
    row = _team(obj, team)
    return _feed(
        request,
        obj,
        lambda draw, stamp: schedule_services.schedule_ics(obj, draw, stamp=stamp, team=row.pk),
        f"{obj.slug}-{row.pk}.ics",
    )


@require_safe
def standings(request: HttpRequest, edition: str) -> HttpResponseBase:
    """The places known so far (I7) and the prize list once the final and the 3rd-place match
    are decided (R5.1); the organiser's reasons for a decided place stay on the staff page."""
    obj = _edition(request, edition)
    return page(
        request,
        obj,
        "public/standings.html",
        lambda: {"edition": obj, "result": match_standings.summary(obj)},
    )
