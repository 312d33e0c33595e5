"""Public read-only pages of an edition: no login, a fixed handful of queries per page
(the whole edition is loaded at once by :func:`bridgeko.entries.queries.edition_teams`).
GET and HEAD only (``require_safe``): nothing here changes data."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_safe

from bridgeko.competition.draw import ProtocolError
from bridgeko.core.collation import sort_key
from bridgeko.draw import display, schedule_services
from bridgeko.draw import services as draw_services
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.matches import standings as match_standings
from bridgeko.public.render import page


def _edition(request: HttpRequest, slug: str) -> Edition:
    """The page's edition, as ``EditionMiddleware`` found it (``request.edition``)."""
    edition = getattr(request, "edition", None)
    if not isinstance(edition, Edition) or edition.slug != slug:
        edition = get_object_or_404(Edition, slug=slug)
        request.edition = edition  # type: ignore[attr-defined]
    return edition


@require_safe
def home(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)
    draw = draw_services.draw_of(obj)
    return page(
        request,
        obj,
        "public/home.html",
        lambda: {
            "edition": obj,
            "reg": obj.regulations,
            "draw": draw,
            "closing": entry_queries.closing_of(obj),
        },
    )


@require_safe
def teams(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)
    closing = entry_queries.closing_of(obj)
    infos = entry_queries.edition_teams(obj)
    if closing is not None:
        infos = [t for t in infos if t.team.accepted]
    return page(
        request,
        obj,
        "public/teams.html",
        lambda: {
            "edition": obj,
            "reg": obj.regulations,
            "teams": sorted(infos, key=lambda t: (-t.elo, sort_key(t.name))),
            "closing": closing,
        },
    )


@require_safe
def draw(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)
    draw = draw_services.draw_of(obj)
    numbers = display.numbers_of(draw) if draw is not None and draw.held else {}
    rounds = display.bracket_rounds(draw, numbers) if draw is not None and numbers else []
    report = None
    if draw is not None and draw.held:
        try:  # I8: the engine's own check of the published protocol, shown with it
            report = draw_services.verify(draw)
        except ProtocolError:
            report = None
    return page(
        request,
        obj,
        "public/draw.html",
        lambda: {
            "edition": obj,
            "draw": draw,
            "numbers": sorted(numbers.items()),
            "rounds": rounds,
            "byes": [m for r in rounds[:1] for m in r.matches if m.status == "bye"],
            "report": report,
        },
    )


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
    draw = draw_services.draw_of(obj)
    rounds = []
    if draw is not None and draw.schedule_published_at is not None:
        rounds = [
            r
            for r in display.bracket_rounds(
                draw, display.numbers_of(draw), display.match_dates(draw)
            )
            if any(m.start for m in r.matches)
        ]
    return page(
        request,
        obj,
        "public/schedule.html",
        lambda: {
            "edition": obj,
            "draw": draw,
            "rounds": rounds,
            "reg": obj.regulations,
            "no_preliminary": (
                draw is not None
                and draw.held
                and not schedule_services.has_preliminary_rounds(draw)
            ),  # R11.6
        },
    )


@require_safe
def schedule_ics(request: HttpRequest, edition: str) -> HttpResponseBase:
    obj = _edition(request, edition)
    draw = draw_services.draw_of(obj)
    if draw is None or draw.schedule_published_at is None:
        raise Http404
    data = schedule_services.schedule_ics(obj, draw, stamp=timezone.now())
    response = HttpResponse(data, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{obj.slug}.ics"'
    return response


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
