"""The TD's match pages (issue 10, item 10): the edition's matches by round, and one match on
one screen — teams, date and place, line-ups, segments with board-by-board results of both
rooms (R12.2-R12.3), penalties and adjustments (R12.8, R12.9), the running score, the time
allowed for the next segment (R12.8), the appeal deadline (R16.3) and what is still missing —
with the board-by-board entry, the segment totals, closing a segment and the penalties on it.

A match is read through :func:`bridgeko.matches.state.view` (a fixed number of queries, never
one per board); every write calls :mod:`bridgeko.matches.services`. The board fields save
themselves one by one (``board-entry.js`` posts each to :func:`save_board` and shows the
answer); without JavaScript each field is a small form of its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.models import ORGANISER_ROLES, Role
from bridgeko.accounts.permissions import edition_role_required, has_role
from bridgeko.competition import schedule, seating
from bridgeko.competition.match import boards_removed_for_lateness
from bridgeko.competition.regulations import Stage
from bridgeko.core import page_links, segment_links
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.draw.models import Draw, MatchDate
from bridgeko.editions.models import Edition
from bridgeko.matches import services
from bridgeko.matches import state as match_state
from bridgeko.matches.bracket_sync import ConfirmationNeeded
from bridgeko.matches.forms import BoardForm, CloseForm, PenaltyForm, TotalsForm, WithdrawForm
from bridgeko.matches.models import LineUp, Match, MatchStatus, Penalty, PenaltyKind, Segment

TD = str(Role.TD)
READERS = (TD, str(Role.APPEALS))
"""The TDs enter and correct; the appeals committee reads the matches (organisers: both)."""

STAGES = {
    Stage.PRELIMINARY: pgettext_lazy("stage of a match", "preliminary round"),
    Stage.QUARTERFINAL: pgettext_lazy("stage of a match", "quarterfinal"),
    Stage.SEMIFINAL: pgettext_lazy("stage of a match", "semifinal"),
    Stage.THIRD_PLACE: pgettext_lazy("stage of a match", "match for 3rd place"),
    Stage.FINAL: pgettext_lazy("stage of a match", "final"),
}


def stage_label(stage: str) -> str:
    try:
        return str(STAGES[Stage(stage)])
    except ValueError:
        return stage


def _match(edition: Edition, code: str) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("home", "visitors"), edition=edition, code=code
    )
    match.edition = edition  # the edition already loaded (its regulations are cached on it)
    return match


def _can_edit(request: HttpRequest, edition: Edition) -> bool:
    """A TD, an organiser or a superuser (the roles the permission helper read already)."""
    roles = getattr(request, "edition_roles", None)
    if roles is None:
        return has_role(request.user, edition, [TD])
    return bool(request.user.is_superuser or roles & (ORGANISER_ROLES | {TD}))


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _detail_url(match: Match, anchor: str = "") -> str:
    url = reverse("matches:detail", kwargs={"edition": match.edition.slug, "code": match.code})
    return f"{url}#{anchor}" if anchor else url


# ---------------------------------------------------------------------------------------------
# The list


@require_safe
@edition_role_required(*READERS)
def match_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    """Every match of the edition by round, with its teams, status and score."""
    matches = Match.objects.filter(edition=edition).select_related("home", "visitors")
    rounds: dict[int, list[Match]] = {}
    for m in matches.order_by("round", "position"):
        rounds.setdefault(m.round, []).append(m)
    return render(
        request,
        "matches/list.html",
        {
            "edition": edition,
            "rounds": [(n, stage_label(ms[0].stage), ms) for n, ms in sorted(rounds.items())],
        },
    )


# ---------------------------------------------------------------------------------------------
# One match on one screen


def _board_rows_html(
    boards: list[match_state.BoardLine], *, entry: bool, csrf_token: str, save_base: str
) -> SafeString:
    """The ``<tr>`` of each board of a segment (its number, both rooms — each an entry field
    of its own form when ``entry`` — and the IMPs), built here rather than in the template: a
    48-board final has 96 fields, and the template engine spent most of the page's time on
    them (one lookup, filter and escape a value). The markup is what the template wrote: the
    keyboard goes open room → closed room → next board (the fields' order in the page)."""
    removed = escape(_("removed for lateness (R12.9)"))
    removed_cell = f'<td colspan="2" class="muted">{removed}</td><td class="num">–</td>'
    labels = {"open": _("Board %(n)s, open room"), "closed": _("Board %(n)s, closed room")}
    csrf = escape(csrf_token)
    save = escape(_("Save"))
    button = f'<noscript><button type="submit" class="secondary small">{save}</button></noscript>'
    base = escape(save_base)
    out: list[str] = []
    for b in boards:
        n = b.number
        if b.removed:
            out.append(
                f'<tr id="board-{n}" class="removed"><th scope="row" class="num">{n}</th>'
                f"{removed_cell}</tr>"
            )
            continue
        cells = []
        for room, result in (("open", b.open), ("closed", b.closed)):
            if entry:
                field_id = f"{room}-{n}"
                cells.append(
                    f'<td class="room {room}"><form method="post" class="board-form" '
                    f'action="{base}{n}/{room}/">'
                    f'<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                    f'<input type="hidden" name="version" '
                    f'value="{result.version if result is not None else 0}">'
                    f'<label class="visually-hidden" for="{field_id}">'
                    f"{escape(labels[room] % {'n': n})}</label>"
                    f'<input type="text" class="result" id="{field_id}" name="text" '
                    f'value="{escape(result.text) if result is not None else ""}" maxlength="30" '
                    'autocomplete="off" autocapitalize="characters" spellcheck="false" '
                    f'aria-describedby="{field_id}-msg">{button}'
                    f'<span class="ns" id="{field_id}-ns">'
                    f"{result.ns_score if result is not None else ''}</span>"
                    f'<span class="field-msg" id="{field_id}-msg"></span></form></td>'
                )
            elif result is not None:
                cells.append(
                    f'<td class="room {room}"><span class="text">{escape(result.text)}</span> '
                    f'<span class="ns">{result.ns_score}</span></td>'
                )
            else:
                cells.append(f'<td class="room {room}"></td>')
        imps = b.imps
        out.append(
            f'<tr id="board-{n}"><th scope="row" class="num">{n}</th>{"".join(cells)}'
            f'<td class="num imps" id="imps-{n}">{"" if imps is None else imps}</td></tr>'
        )
    return SafeString("\n".join(out))


@dataclass
class SegmentBlock:
    """One segment as the page shows it."""

    view: match_state.SegmentView
    line_ups: dict[str, LineUp]
    penalties: list[Penalty]
    line_up_url: str = ""
    totals_form: TotalsForm | None = None
    close_form: CloseForm | None = None
    rows_html: str = ""
    """The boards' rows (:func:`_board_rows_html`)."""
    links: list[segment_links.Link] = field(default_factory=list)
    """Links of the apps above (``core.segment_links``: the hand records...)."""

    @property
    def number(self) -> int:
        return self.view.segment.number

    @property
    def missing_line_ups(self) -> list[str]:
        return [side for side in ("home", "visitors") if side not in self.line_ups]


@dataclass
class Missing:
    """What is still missing to finish the match."""

    boards: list[tuple[int, list[str]]] = field(default_factory=list)
    """(segment, board ranges) of the boards without both results."""
    line_ups: list[tuple[int, list[str]]] = field(default_factory=list)
    """(segment, sides) whose line-up is not entered."""


def ranges(numbers: list[int]) -> list[str]:
    """``[1, 2, 3, 7, 9, 10]`` -> ``["1–3", "7", "9–10"]``."""
    out: list[str] = []
    start = prev = None
    for n in numbers:
        if start is None:
            start = prev = n
        elif n == prev + 1:  # type: ignore[operator]
            prev = n
        else:
            out.append(f"{start}–{prev}" if start != prev else str(start))
            start = prev = n
    if start is not None:
        out.append(f"{start}–{prev}" if start != prev else str(start))
    return out


def _line_up_url(match: Match, segment: int) -> str:
    """The line-up page of the team sitting first in ``segment`` (R12.6): from there the TD
    goes on to the other team's."""
    side = seating.sits_first(segment).value
    return reverse(
        "matches:line_up",
        kwargs={"edition": match.edition.slug, "code": match.code, "number": segment, "side": side},
    )


def _date_and_place(match: Match) -> tuple[datetime | None, str]:
    """The match's own date (rescheduled, R14.2) or the draw's schedule (R14.1)."""
    start, place = match.start, match.location
    if start is None or not place:
        when = MatchDate.objects.filter(
            draw__in=Draw.objects.filter(edition_id=match.edition_id, held_at__isnull=False),
            match=match.code,
        ).first()
        if when is not None:
            start = start or when.start
            place = place or when.location
    return start, place


def _time_limit(view: match_state.MatchView) -> tuple[int, int, bool] | None:
    """(segment, minutes allowed, with screens) for the segment to play next (R12.8)."""
    nxt = view.state.next_segment
    if nxt is None or view.state.is_over:
        return None
    rules = view.match.edition.regulations.match
    screens = schedule.uses_screens(Stage(view.match.stage), rules)
    try:
        limit = schedule.segment_time_limit(nxt.boards, screens, rules, extra=nxt.is_extra)
    except schedule.ScheduleError:
        return None
    return nxt.number, int(limit.total_seconds() // 60), screens


def _appeal_deadlines(match: Match, segments: list[Segment]) -> list[tuple[datetime, str, str]]:
    """(when, clause, what) of the appeal deadlines once the match is over (R16.3): from the
    end of its last segment in both rooms when the TD recorded it (I15), else from the moment
    it was decided (the appeals app's pages give the full rule, segment deadlines included)."""
    if match.decided_at is None or match.status == MatchStatus.WALKOVER:
        return []
    last = max(segments, key=lambda seg: seg.number, default=None)
    ended = last.ended_at if last is not None else None
    try:
        deadlines = schedule.appeal_deadlines(
            match.edition.regulations, match_ended_at=ended or match.decided_at
        )
    except schedule.ScheduleError:
        return []
    return [(d.at, d.clause, _(d.what)) for d in deadlines]


def _penalty_rows(
    match: Match, penalties: list[Penalty], view: match_state.MatchView
) -> list[dict[str, Any]]:
    """Each penalty with its team and what it does, in words (lateness: the boards removed,
    computed from the minutes unless the TD set another number, R12.9, I6)."""
    rules = match.edition.regulations
    sizes = {s.segment.number: len(s.boards) for s in view.segments}
    rows = []
    for p in penalties:
        team = match.home if p.side == "home" else match.visitors
        if p.kind == PenaltyKind.SLOW_PLAY:
            what = _("boards not played in time: %(boards)s (R12.8)") % {"boards": p.boards}
        elif p.kind == PenaltyKind.LATENESS:
            computed = boards_removed_for_lateness(
                p.minutes or 0,
                minutes_per_board=rules.penalties.lateness_minutes_per_board,
                segment_boards=sizes.get(p.segment),
            )
            removed = p.boards if p.boards is not None else computed
            what = _("minutes late: %(minutes)s; boards removed: %(removed)s") % {
                "minutes": p.minutes,
                "removed": removed,
            }
            if p.boards is not None and p.boards != computed:
                what += " " + _("(set by the TD; computed: %(computed)s)") % {"computed": computed}
        else:
            what = _("%(imps)s IMPs") % {"imps": f"{p.imps:+d}" if p.imps else 0}
        rows.append({"penalty": p, "team": team.name if team else "?", "what": what})
    return rows


def _sides(match: Match) -> list[tuple[str, str]]:
    home = match.home.name if match.home else _("home")
    visitors = match.visitors.name if match.visitors else _("visitors")
    return [("home", f"{home} ({_('home')})"), ("visitors", f"{visitors} ({_('visitors')})")]


def _penalty_form(match: Match, view: match_state.MatchView, data: Any = None) -> PenaltyForm:
    numbers = [s.number for s in view.facts.segments]
    initial = {"segment": view.state.next_segment.number} if view.state.next_segment else None
    return PenaltyForm(data, segments=numbers, sides=_sides(match), initial=initial)


def _render_detail(
    request: HttpRequest,
    edition: Edition,
    match: Match,
    *,
    status: int = 200,
    forms: dict[int, dict[str, Any]] | None = None,
    penalty_form: PenaltyForm | None = None,
) -> HttpResponse:
    view = match_state.view(match)
    can_edit = _can_edit(request, edition)
    forms = forms or {}
    line_ups: dict[int, dict[str, LineUp]] = {}
    for lu in LineUp.objects.filter(segment__match=match).select_related(
        "open_first", "open_second", "closed_first", "closed_second"
    ):
        line_ups.setdefault(lu.segment_id, {})[lu.side] = lu
    all_penalties = sorted(
        [*view.facts.penalties, *view.facts.withdrawn], key=lambda p: (p.segment, p.created_at)
    )
    blocks: list[SegmentBlock] = []
    missing = Missing()
    playable = match.home_id is not None and match.visitors_id is not None
    entry_open = can_edit and playable and not view.facts.absent
    # the board fields' URL without "<board>/<room>/" (one reverse, not one a field)
    save_base = reverse(
        "matches:save_board",
        kwargs={"edition": edition.slug, "code": match.code, "board": 0, "room": "open"},
    ).removesuffix("0/open/")
    csrf_token = get_token(request) if entry_open else ""
    extra_links = segment_links.links(request, match, [s.segment for s in view.segments])
    for seg in view.segments:
        number = seg.segment.number
        block = SegmentBlock(
            seg,
            line_ups.get(seg.segment.pk, {}),
            [p for p in all_penalties if p.segment == number],
            line_up_url=_line_up_url(match, number),
            rows_html=_board_rows_html(
                seg.boards,
                entry=entry_open and not seg.segment.has_totals,
                csrf_token=csrf_token,
                save_base=save_base,
            ),
            links=extra_links.get(number, []),
        )
        if can_edit and playable:
            block.totals_form = forms.get(number, {}).get("totals") or TotalsForm(
                initial={
                    "home_imps": seg.segment.home_imps,
                    "visitors_imps": seg.segment.visitors_imps,
                },
                prefix=f"s{number}",
            )
            if not seg.complete:
                block.close_form = forms.get(number, {}).get("close") or CloseForm(
                    prefix=f"c{number}"
                )
        blocks.append(block)
        if playable and not seg.complete and not view.state.is_over:
            if seg.missing:
                missing.boards.append((number, ranges(seg.missing)))
            if block.missing_line_ups and not seg.segment.has_totals:
                missing.line_ups.append((number, block.missing_line_ups))
    start, place = _date_and_place(match)
    running = view.running
    rules = edition.regulations
    context = {
        "edition": edition,
        "match": match,
        "stage": stage_label(match.stage),
        "view": view,
        "blocks": blocks,
        "running": running,
        "start": start,
        "place": place,
        "can_edit": can_edit,
        "can_swap": bool(
            request.user.is_superuser
            or getattr(request, "edition_roles", frozenset()) & ORGANISER_ROLES
        ),
        "playable": playable,
        "entry_open": entry_open,
        "missing": missing,
        "time_limit": _time_limit(view),
        "room_ends": _room_ends(view) if can_edit and playable else [],
        "appeal_deadlines": _appeal_deadlines(match, list(view.facts.segments)),
        "penalty_form": penalty_form
        or (_penalty_form(match, view) if can_edit and playable else None),
        "minutes_per_board": rules.penalties.lateness_minutes_per_board,
        "segment_boards": rules.match.segment_boards,
        "examples": services.EXAMPLES,
        "penalties": _penalty_rows(match, all_penalties, view),
        # links of the apps above (the appeals app's "Lodge an appeal", core.page_links)
        "extra_links": page_links.links("match_appeals", request, edition, match),
    }
    return render(request, "matches/detail.html", context, status=status)


def _room_ends(view: match_state.MatchView) -> list[dict[str, Any]]:
    """The TD's forms recording the end of each segment per room (I15, issue 11)."""
    from bridgeko.matches.room_end_views import room_ends

    return room_ends([s.segment for s in view.segments], timezone.now())


@require_safe
@edition_role_required(*READERS)
def match_detail(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    return _render_detail(request, edition, _match(edition, code))


# ---------------------------------------------------------------------------------------------
# Board by board


def _board_answer(saved: services.Saved, board: int, room: str) -> dict[str, Any]:
    view = saved.view
    seg = next(
        (s for s in view.segments if s.segment.first_board <= board <= s.segment.last_board),
        None,
    )
    line = None
    if seg is not None:
        line = next((b for b in seg.boards if b.number == board), None)
    result = saved.result
    home, visitors = view.running
    return {
        "ok": True,
        "board": board,
        "room": room,
        "text": result.text if result is not None else "",
        "version": result.version if result is not None else 0,
        "ns_score": result.ns_score if result is not None else None,
        "imps": line.imps if line is not None else None,
        "segment": {
            "number": seg.segment.number if seg else None,
            "home": seg.home_imps if seg else 0,
            "visitors": seg.visitors_imps if seg else 0,
            "complete": seg.complete if seg else False,
        },
        "running": {"home": home, "visitors": visitors},
        "status": str(MatchStatus(saved.match.status).label),
    }


@require_POST
@edition_role_required(TD)
def save_board(
    request: HttpRequest, edition: Edition, code: str, board: int, room: str
) -> HttpResponse:
    """One room's result of one board: JSON for the page's script (200; 400 with the message;
    409 with both values on a conflict or with the matches affected when a confirmation is
    needed), else a redirect back to the match with a message."""
    match = _match(edition, code)
    as_json = _wants_json(request)
    form = BoardForm(request.POST)
    field_name = f"{room}-{board}"
    if not form.is_valid():
        message = _("The result could not be read; reload the page and try again.")
        if as_json:
            return JsonResponse({"ok": False, "error": message, "field": field_name}, status=400)
        messages.error(request, message)
        return redirect(_detail_url(match, f"board-{board}"))
    text = form.cleaned_data["text"] or ""
    try:
        saved = services.save_board(
            match=match,
            board=board,
            room=room,
            text=text,
            version=form.cleaned_data["version"] or 0,
            user=request.user,
            now=timezone.now(),
            confirm=form.cleaned_data["confirm"],
        )
    except ConfirmationNeeded as exc:
        if as_json:
            return JsonResponse(
                {
                    "ok": False,
                    "confirm": True,
                    "error": exc.message,
                    "affected": list(exc.errors),
                    "field": field_name,
                },
                status=409,
            )
        return _confirm_page(request, edition, match, exc, request.POST)
    except services.BoardConflict as exc:
        if as_json:
            return JsonResponse(
                {
                    "ok": False,
                    "conflict": True,
                    "error": exc.message,
                    "yours": exc.yours,
                    "theirs": exc.theirs,
                    "version": exc.version,
                    "field": field_name,
                },
                status=409,
            )
        messages.error(request, exc.message)
        return redirect(_detail_url(match, f"board-{board}"))
    except ServiceError as exc:
        if as_json:
            return JsonResponse(
                {"ok": False, "error": exc.message, "field": field_name, "text": text},
                status=400,
            )
        messages.error(request, exc.message)
        return redirect(_detail_url(match, f"board-{board}"))
    if as_json:
        return JsonResponse(_board_answer(saved, board, room))
    stored = saved.result.text if saved.result is not None else "—"
    messages.success(
        request,
        _("Board %(board)s, %(room)s: %(text)s saved.")
        % {
            "board": board,
            "room": _("open room") if room == "open" else _("closed room"),
            "text": stored,
        },
    )
    return redirect(_detail_url(match, f"board-{board}"))


def _confirm_page(
    request: HttpRequest,
    edition: Edition,
    match: Match,
    exc: ConfirmationNeeded,
    data: Any,
    confirm_name: str = "confirm",
) -> HttpResponse:
    """The bracket would change a winner who has played on: what it affects, and the same
    request again with ``confirm`` (R13, issue 10 item 7)."""
    fields = [(k, v) for k, v in data.items() if k not in ("csrfmiddlewaretoken", confirm_name)]
    return render(
        request,
        "matches/confirm.html",
        {
            "edition": edition,
            "match": match,
            "message": exc.message,
            "affected": exc.errors,
            "fields": fields,
            "action": request.path,
            "confirm_name": confirm_name,
        },
        status=409,
    )


# ---------------------------------------------------------------------------------------------
# Segment totals, closing a segment


def _segment(match: Match, number: int) -> Segment:
    segment = get_object_or_404(Segment, match=match, number=number)
    segment.match = match
    return segment


@require_POST
@edition_role_required(TD)
def segment_totals(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    match = _match(edition, code)
    seg = _segment(match, segment)
    form = TotalsForm(request.POST, prefix=f"s{segment}")
    if form.is_valid():
        try:
            services.set_segment_totals(
                segment=seg,
                home_imps=form.cleaned_data["home_imps"],
                visitors_imps=form.cleaned_data["visitors_imps"],
                user=request.user,
                now=timezone.now(),
                confirm=form.cleaned_data["confirm"],
            )
        except ConfirmationNeeded as exc:
            return _confirm_page(request, edition, match, exc, request.POST, f"s{segment}-confirm")
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Segment %(number)s: totals saved.") % {"number": segment})
            return redirect(_detail_url(match, f"segment-{segment}"))
    messages.error(request, _("The totals were not saved; see the segment's form."))
    return _render_detail(request, edition, match, status=400, forms={segment: {"totals": form}})


@require_POST
@edition_role_required(TD)
def close_segment(request: HttpRequest, edition: Edition, code: str, segment: int) -> HttpResponse:
    match = _match(edition, code)
    seg = _segment(match, segment)
    form = CloseForm(request.POST, prefix=f"c{segment}")
    if form.is_valid():
        try:
            services.close_segment(
                segment=seg,
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
                confirm=form.cleaned_data["confirm"],
            )
        except ConfirmationNeeded as exc:
            return _confirm_page(request, edition, match, exc, request.POST, f"c{segment}-confirm")
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Segment %(number)s closed: its missing boards score nothing.")
                % {"number": segment},
            )
            return redirect(_detail_url(match, f"segment-{segment}"))
    messages.error(request, _("The segment was not closed; see the segment's form."))
    return _render_detail(request, edition, match, status=400, forms={segment: {"close": form}})


# ---------------------------------------------------------------------------------------------
# Penalties and adjustments


@require_POST
@edition_role_required(TD)
def add_penalty(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    match = _match(edition, code)
    view = match_state.view(match)
    form = _penalty_form(match, view, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            penalty = services.add_penalty(
                match=match,
                segment=data["segment"],
                kind=data["kind"],
                side=data["side"],
                reason=data["reason"],
                boards=data["boards"],
                minutes=data["minutes"],
                imps=data["imps"],
                user=request.user,
                now=timezone.now(),
                confirm=data["confirm"],
            )
        except ConfirmationNeeded as exc:
            return _confirm_page(request, edition, match, exc, request.POST)
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(
                request,
                _("%(kind)s recorded.") % {"kind": PenaltyKind(penalty.kind).label},
            )
            return redirect(_detail_url(match, "penalties"))
    messages.error(request, _("The penalty was not recorded; see the form."))
    return _render_detail(request, edition, match, status=400, penalty_form=form)


@edition_role_required(TD)
def withdraw_penalty(
    request: HttpRequest, edition: Edition, code: str, penalty: int
) -> HttpResponse:
    """Asks first (what is withdrawn, and the score it changes), then withdraws with a reason."""
    match = _match(edition, code)
    pen = get_object_or_404(Penalty, pk=penalty, match=match)
    pen.match = match
    form = WithdrawForm(request.POST or None)
    if request.method == "POST" and pen.withdrawn_at is None and form.is_valid():
        try:
            services.withdraw_penalty(
                penalty=pen,
                reason=form.cleaned_data["reason"],
                user=request.user,
                now=timezone.now(),
                confirm=form.cleaned_data["confirm"],
            )
        except ConfirmationNeeded as exc:
            return _confirm_page(request, edition, match, exc, request.POST)
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Penalty withdrawn."))
            return redirect(_detail_url(match, "penalties"))
    removed: int | None = None
    if pen.kind == PenaltyKind.LATENESS:
        removed = (
            pen.boards
            if pen.boards is not None
            else boards_removed_for_lateness(
                pen.minutes or 0,
                minutes_per_board=edition.regulations.penalties.lateness_minutes_per_board,
            )
        )
    return render(
        request,
        "matches/withdraw.html",
        {
            "edition": edition,
            "match": match,
            "penalty": pen,
            "removed": removed,
            "form": form,
            "team": match.home if pen.side == "home" else match.visitors,
        },
        status=400 if request.method == "POST" else 200,
    )
