"""The TD records the end of a segment in each room (I15): "End in the open room at HH:MM"
(default now) on the match page; clearing a mistaken record asks first. The deals of a
computer-dealt set stay secret until both rooms have ended, and the appeal deadline after a
segment runs from it. Every write is :func:`bridgeko.matches.services.mark_room_end`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.matches import services
from bridgeko.matches.models import Match, Segment
from bridgeko.matches.views import _detail_url, _match, _segment

TD = str(Role.TD)


class RoomEndForm(forms.Form):
    date = forms.DateField(
        label=gettext_lazy("date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    time = forms.TimeField(
        label=gettext_lazy("time"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )


def room_end_form(segment: Segment, room: str, now: datetime, data: Any = None) -> RoomEndForm:
    local = timezone.localtime(now)
    return RoomEndForm(
        data,
        prefix=f"end-{segment.number}-{room}",
        initial={"date": local.date(), "time": local.time().replace(second=0, microsecond=0)},
    )


def room_ends(segments: list[Segment], now: datetime) -> list[dict[str, object]]:
    """Per segment: each room with its recorded end (or None) and the form recording it."""
    return [
        {
            "segment": seg,
            "rooms": [
                (
                    room,
                    room_label(room),
                    getattr(seg, f"{room}_ended_at"),
                    room_end_form(seg, room, now),
                )
                for room in services.ROOMS
            ],
        }
        for seg in segments
    ]


def room_label(room: str) -> str:
    return _("open room") if room == "open" else _("closed room")


def _room_segment(edition: Edition, code: str, segment: int, room: str) -> tuple[Match, Segment]:
    """The match and segment of a room-end URL; 404 for a room that is not one."""
    if room not in services.ROOMS:
        raise Http404
    match = _match(edition, code)
    return match, _segment(match, segment)


def _mark(
    request: HttpRequest,
    seg: Segment,
    room: str,
    at: datetime | None,
    now: datetime,
    done: tuple[str, str],
) -> None:
    """Records (or with ``at`` None clears) the room's end; the refusal or ``done`` (the
    message for the open room, for the closed room) as the message."""
    try:
        services.mark_room_end(segment=seg, room=room, at=at, user=request.user, now=now)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        text = done[0] if room == "open" else done[1]
        messages.success(request, text % {"number": seg.number})


@require_POST
@edition_role_required(TD)
def room_end(
    request: HttpRequest, edition: Edition, code: str, segment: int, room: str
) -> HttpResponse:
    match, seg = _room_segment(edition, code, segment, room)
    now = timezone.now()
    form = room_end_form(seg, room, now, request.POST)
    if form.is_valid():
        at = timezone.make_aware(
            datetime.combine(form.cleaned_data["date"], form.cleaned_data["time"])
        )
        _mark(
            request,
            seg,
            room,
            at,
            now,
            (
                _("Segment %(number)s: the end in the open room is recorded."),
                _("Segment %(number)s: the end in the closed room is recorded."),
            ),
        )
    else:
        messages.error(request, _("Give the date and the time of the end (HH:MM)."))
    return redirect(_detail_url(match, f"segment-end-{seg.number}"))


@edition_role_required(TD)
def room_end_clear(
    request: HttpRequest, edition: Edition, code: str, segment: int, room: str
) -> HttpResponse:
    """GET: what is cleared (and what it reopens); POST: cleared."""
    match, seg = _room_segment(edition, code, segment, room)
    recorded = getattr(seg, f"{room}_ended_at")
    if request.method == "POST" and recorded is not None:
        _mark(
            request,
            seg,
            room,
            None,
            timezone.now(),
            (
                _("Segment %(number)s: the end in the open room is cleared."),
                _("Segment %(number)s: the end in the closed room is cleared."),
            ),
        )
        return redirect(_detail_url(match, f"segment-end-{seg.number}"))
    return render(
        request,
        "matches/room_end_clear.html",
        {
            "edition": edition,
            "match": match,
            "segment": seg,
            "room": room,
            "room_label": room_label(room),
            "recorded": recorded,
        },
    )
