"""The staff pages of the boards of a match (R12.7, I8, I15): the segments with the state of
their sets; committing a seed, making the set, the files for the dealing machine (organiser
and chief TD only); loading the deals played from a PBN file (TDs too); the analysis' progress.

Deals and the seed are shown only where :func:`bridgeko.boards.secrecy.may_see` allows."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import ORGANISER_ROLES, Role
from bridgeko.accounts.permissions import ORGANISERS, edition_role_required
from bridgeko.boards import downloads, secrecy, services
from bridgeko.boards.forms import CommitForm, DownloadForm, LoadConfirmForm, LoadForm
from bridgeko.boards.models import DealSet, SetSource
from bridgeko.bridge.board import dealer, vulnerability
from bridgeko.bridge.cards import Deal, Seat, Suit
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.editions.models import Edition
from bridgeko.matches.models import Match, Segment

TD = str(Role.TD)


def _match(edition: Edition, code: str) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    match.edition = edition
    return match


def _segment(edition: Edition, code: str, number: int) -> Segment:
    match = _match(edition, code)
    segment = get_object_or_404(Segment, match=match, number=number)
    segment.match = match
    return segment


def _segment_with_set(edition: Edition, code: str, number: int) -> tuple[Segment, DealSet]:
    """The segment and its set; 404 when it has none."""
    segment = _segment(edition, code, number)
    deal_set = services.set_of(segment)
    if deal_set is None:
        raise Http404
    return segment, deal_set


def _act(request: HttpRequest, action: Callable[[], object], success: str) -> None:
    """Run the service ``action``: its refusal or ``success`` as the message."""
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)


def _is_organiser(request: HttpRequest) -> bool:
    roles: frozenset[str] = getattr(request, "edition_roles", frozenset())
    return bool(request.user.is_superuser or roles & ORGANISER_ROLES)


def _set_url(segment: Segment) -> str:
    return reverse(
        "boards:set",
        kwargs={
            "edition": segment.match.edition.slug,
            "code": segment.match.code,
            "segment": segment.number,
        },
    )


def _match_url(match: Match) -> str:
    return reverse("boards:match", kwargs={"edition": match.edition.slug, "code": match.code})


def status_label(code: str) -> str:
    labels = {
        "none": _("no set"),
        "committed": _("seed committed"),
        "made": _("set made"),
        "analysed": _("set made and analysed"),
        "ended": _("segment ended"),
        "revealed": _("seed revealed"),
    }
    return labels.get(code, code)


@require_safe
@edition_role_required(TD)
def match_boards(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    """The segments of a match with the state of their sets and the actions."""
    match = _match(edition, code)
    now = timezone.now()
    sets = {s.segment_id: s for s in DealSet.objects.filter(segment__match=match)}
    rows = []
    for segment in Segment.objects.filter(match=match).order_by("number"):
        segment.match = match
        deal_set = sets.get(segment.pk)
        code_ = services.status(segment, deal_set, now=now)
        progress = services.progress(deal_set, now=now) if deal_set is not None else None
        rows.append(
            {
                "segment": segment,
                "set": deal_set,
                "status": status_label(code_),
                "status_code": code_,
                "progress": progress,
                "computer_dealt": services.is_computer_dealt(segment),
                "started": services.started(segment),
            }
        )
    return render(
        request,
        "boards/match.html",
        {"edition": edition, "match": match, "rows": rows, "organiser": _is_organiser(request)},
    )


SUIT_SYMBOLS = [(s, s.symbol) for s in Suit]


def _hands(deal_text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    deal = Deal.from_pbn(deal_text)
    out = []
    for seat in Seat:
        hand = deal[seat]
        suits = [
            (symbol, "".join(r.char for r in hand.holding(suit)) or "—")
            for suit, symbol in SUIT_SYMBOLS
        ]
        out.append((seat.value, suits))
    return out


@require_safe
@edition_role_required(TD)
def set_page(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    """One segment's set: its state, the analysis' progress (refreshing itself while it runs);
    the deals, downloads and seed for those who may see them (organiser, chief TD; everyone
    after the end)."""
    seg = _segment(edition, code, segment)
    deal_set = services.set_of(seg)
    now = timezone.now()
    see = secrecy.may_see(request.user, seg)
    progress = services.progress(deal_set, now=now) if deal_set is not None else None
    boards: list[dict[str, Any]] = []
    if deal_set is not None and see:
        for b in deal_set.boards.all():
            boards.append(
                {
                    "board": b.board,
                    "dealer": dealer(b.board).value,
                    "vulnerability": vulnerability(b.board).value,
                    "hands": _hands(b.deal),
                    "par": b.par,
                    "analysed": b.dd is not None,
                }
            )
    organiser = _is_organiser(request)
    return render(
        request,
        "boards/set.html",
        {
            "edition": edition,
            "match": seg.match,
            "segment": seg,
            "set": deal_set,
            "status": status_label(services.status(seg, deal_set, now=now)),
            "progress": progress,
            "may_see": see,
            "boards": boards,
            "organiser": organiser,
            "computer_dealt": services.is_computer_dealt(seg),
            "started": services.started(seg),
            "download_form": DownloadForm(
                initial={
                    "first": seg.first_board,
                    "last": seg.last_board,
                    "copies": 1,
                    "format": "dlm",
                }
            ),
            "revealed": secrecy.revealed(seg),
            "refresh": progress is not None and progress.running,
        },
    )


@require_safe
@edition_role_required(TD)
def progress_json(request: HttpRequest, edition: Edition, code: str, segment: int) -> JsonResponse:
    """The analysis' progress (no deal in it): ``{"done", "total", "running", "stale",
    "failed"}``."""
    seg = _segment(edition, code, segment)
    deal_set = services.set_of(seg)
    if deal_set is None:
        return JsonResponse({"done": 0, "total": 0, "running": False, "stale": False})
    p = services.progress(deal_set)
    return JsonResponse(
        {
            "done": p.done,
            "total": p.total,
            "running": p.running,
            "stale": p.stale,
            "failed": bool(p.error),
        }
    )


@edition_role_required(*ORGANISERS)
def commit(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    """GET: the form (event and session with their defaults; what a replacement loses). POST:
    a new seed committed; its commitment is public at once."""
    seg = _segment(edition, code, segment)
    existing = services.set_of(seg)
    computer = services.is_computer_dealt(seg)
    form = CommitForm(
        request.POST or None,
        initial={"event": services.default_event(seg), "session": services.default_session(seg)},
    )
    lost: list[str] = services._what_is_lost(existing) if existing is not None else []
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.commit_set(
                    segment=seg,
                    event=data["event"],
                    session=data["session"],
                    by_agreement=data["by_agreement"],
                    reason=data["reason"],
                    replace=data["replace"],
                    user=request.user,
                    now=timezone.now(),
                )
            except services.ReplaceNeeded as exc:
                lost = list(exc.errors)
                form.add_error("replace", exc.message)
            except ServiceError as exc:
                apply_service_error(form, exc)
            else:
                messages.success(
                    request,
                    _("Seed committed for segment %(number)s; its commitment is public.")
                    % {"number": seg.number},
                )
                return redirect(_set_url(seg))
        status = 400
    return render(
        request,
        "boards/commit.html",
        {
            "edition": edition,
            "match": seg.match,
            "segment": seg,
            "form": form,
            "existing": existing,
            "lost": lost,
            "computer_dealt": computer,
            "started": services.started(seg),
        },
        status=status,
    )


@require_POST
@edition_role_required(*ORGANISERS)
def make(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    seg = _segment(edition, code, segment)
    deal_set = services.set_of(seg)
    if deal_set is None:
        messages.error(request, _("Commit a seed first."))
        return redirect(_match_url(seg.match))
    _act(
        request,
        lambda: services.make_set(deal_set=deal_set, user=request.user, now=timezone.now()),
        _("The set of segment %(number)s is made; its analysis runs in the background.")
        % {"number": seg.number},
    )
    return redirect(_set_url(seg))


@require_safe
@edition_role_required(*ORGANISERS)
def download(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    """The set as a PBN, DUP or DLM file for the dealing machine."""
    seg, deal_set = _segment_with_set(edition, code, segment)
    form = DownloadForm(request.GET)
    if form.is_valid():
        data = form.cleaned_data
        try:
            file = downloads.make(
                deal_set,
                data["format"],
                first=data["first"],
                last=data["last"],
                copies=data["copies"],
                show=data["show"],
                bigdeal=data["bigdeal"],
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            response = HttpResponse(file.content, content_type=file.content_type)
            response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
            response["Cache-Control"] = "no-store, private"
            return response
    else:
        messages.error(request, _("The file could not be made; check the options."))
    return redirect(_set_url(seg))


@require_POST
@edition_role_required(*ORGANISERS)
def restart(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    seg, deal_set = _segment_with_set(edition, code, segment)
    _act(
        request,
        lambda: services.restart_analysis(deal_set=deal_set, user=request.user, now=timezone.now()),
        _("The analysis is restarted."),
    )
    return redirect(_set_url(seg))


@edition_role_required(TD)
def load(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    """The deals played, from a PBN file (boards not computer-dealt): upload; when the segment
    has a set already, what is lost and a confirmation (the file travels back, base64)."""
    seg = _segment(edition, code, segment)
    existing = services.set_of(seg)
    upload = LoadForm()
    confirm: LoadConfirmForm | None = None
    lost: list[str] = []
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        status = 400
        data: bytes | None = None
        replace = False
        if "pbn" in request.POST:
            confirm = LoadConfirmForm(request.POST)
            if confirm.is_valid():
                data, replace = confirm.cleaned_data["pbn"], True
        else:
            upload = LoadForm(request.POST, request.FILES)
            if upload.is_valid():
                data = upload.cleaned_data["file"]
        if data is not None:
            try:
                done = services.load_set(
                    segment=seg, data=data, user=request.user, now=timezone.now(), replace=replace
                )
            except services.ReplaceNeeded as exc:
                lost = list(exc.errors)
                confirm = LoadConfirmForm(initial={"pbn": base64.b64encode(data).decode("ascii")})
                status = 200
            except ServiceError as exc:
                if upload.is_bound:
                    apply_service_error(upload, exc)
                else:
                    problems = [exc.message, *exc.errors]
                    confirm = None
            else:
                messages.success(
                    request,
                    _(
                        "The deals of %(count)s boards are loaded; their analysis runs in the "
                        "background."
                    )
                    % {"count": done.boards.count()},
                )
                return redirect(_set_url(seg))
    return render(
        request,
        "boards/load.html",
        {
            "edition": edition,
            "match": seg.match,
            "segment": seg,
            "existing": existing,
            "dealt": existing is not None and existing.source == SetSource.DEALT,
            "upload": upload,
            "confirm": confirm,
            "lost": lost,
            "problems": problems,
        },
        status=status,
    )
