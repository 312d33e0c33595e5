"""The captains' page of a match record (R14.2b, issue 21), one per side
(``/e/<edition>/matches/<code>/record/<side>/``): the winning team submits the segment totals
with the signed scorecards; the opponents confirm or dispute; the submitter may withdraw it
while unanswered. The TD's review (``/e/<edition>/matches/<code>/record-review/``) approves or
rejects it. The scorecards are served to the match's captains and the TDs only. Every write goes
through :mod:`bridgeko.matches.records`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required, has_role
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.editions.models import Edition
from bridgeko.matches import bws_import, file_import, records
from bridgeko.matches.models import ROOMS, Match, RecordStatus, RecordSubmission, Segment

CAPTAIN, TD = str(Role.CAPTAIN), str(Role.TD)


class RecordForm(forms.Form):
    """The record in one of three ways (R14.2b): the segment totals from the scorecards, the
    boards' results typed (the TD's quick text), or a PBN/LIN/Bridgemate file; totals and boards
    together are checked against each other by :func:`records.submit`."""

    results = forms.FileField(
        label=gettext_lazy("Results file (PBN, LIN or Bridgemate .bws) instead of typing boards"),
        required=False,
    )
    scorecards = forms.FileField(label=gettext_lazy("Signed scorecards (PDF or a photo)"))
    note = forms.CharField(
        label=gettext_lazy("Note"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, segments: list[Segment], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.segments = segments
        for seg in segments:
            for side, label in (("home", _("home")), ("visitors", _("visitors"))):
                self.fields[f"s{seg.number}_{side}"] = forms.IntegerField(
                    label=_("Segment %(number)s, IMPs %(side)s")
                    % {"number": seg.number, "side": label},
                    min_value=0,
                    max_value=records.MAX_BOARD_IMPS * len(seg.board_numbers),
                    required=False,
                )
            for board in seg.board_numbers:
                for room, room_label in ROOMS:
                    self.fields[f"b{board}_{room}"] = forms.CharField(
                        label=_("Board %(board)s, %(room)s") % {"board": board, "room": room_label},
                        required=False,
                        max_length=20,
                    )
        self.order_fields([f"s{s.number}_{x}" for s in segments for x in ("home", "visitors")])

    def total_fields(self) -> list[forms.BoundField]:
        return [self[f"s{s.number}_{x}"] for s in self.segments for x in ("home", "visitors")]

    def board_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        """(board, open room field, closed room field) of every board of the match."""
        return [
            (b, self[f"b{b}_open"], self[f"b{b}_closed"])
            for s in self.segments
            for b in s.board_numbers
        ]

    def board_typed(self) -> bool:
        """Some board's result was typed (the board table opens again to show it)."""
        return self.is_bound and any(
            (self.data.get(name) or "").strip() for name in self.fields if name[0] == "b"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        given = [data.get(f"s{s.number}_{x}") for s in self.segments for x in ("home", "visitors")]
        if any(v is not None for v in given) and any(v is None for v in given):
            self.add_error(None, _("Give the totals of every segment, or none."))
        typed = self.board_typed()
        upload = data.get("results")
        if upload and typed:
            self.add_error("results", _("Send the boards either typed or in a file, not both."))
        elif upload:
            limit = bws_import.MAX_FILE_SIZE
            if upload.size is not None and upload.size > limit:
                self.add_error(
                    "results",
                    _("The file is too large (%(size)s MB; at most %(max)s MB).")
                    % {"size": upload.size // 1_000_000, "max": limit // 1_000_000},
                )
        if not typed and not upload and all(v is None for v in given):
            self.add_error(
                None, _("Give the segment totals, the boards' results or a results file.")
            )
        return data

    def totals(self) -> dict[int, tuple[int, int]] | None:
        data = self.cleaned_data
        if not self.segments or data.get(f"s{self.segments[0].number}_home") is None:
            return None
        return {
            s.number: (data[f"s{s.number}_home"], data[f"s{s.number}_visitors"])
            for s in self.segments
        }

    def boards(self, match: Match) -> dict[tuple[int, str], str] | None:
        """The boards typed, or read from the results file (a ``ServiceError`` naming what the
        file lacks)."""
        upload = self.cleaned_data.get("results")
        if upload:
            read = file_import.read_results(match, upload.read())
            if read.problems:
                raise ServiceError(
                    _("The results file cannot be taken as it is:"), errors=read.problems
                )
            return {k: v for k, v in read.results.items() if v}
        typed = {
            (b, room): self.cleaned_data.get(f"b{b}_{room}", "").strip()
            for s in self.segments
            for b in s.board_numbers
            for room in ("open", "closed")
        }
        return typed if any(typed.values()) else None


class NoteForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("What is wrong (for the TD)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ReviewForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("Reason (required to reject; recorded)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _match(edition: Edition, code: str) -> Match:
    return get_object_or_404(
        Match.objects.select_related("home", "visitors", "edition"), edition=edition, code=code
    )


def _allowed(request: HttpRequest, edition: Edition, match: Match, side: str) -> bool:
    team = match.home if side == "home" else match.visitors
    if team is None:
        raise Http404
    if has_role(request.user, edition, [TD]):
        return True
    return has_role(request.user, edition, [CAPTAIN], team_id=team.pk)


@edition_role_required(CAPTAIN, TD)
def record_page(request: HttpRequest, edition: Edition, code: str, side: str) -> HttpResponse:
    match = _match(edition, code)
    if side not in ("home", "visitors"):
        raise Http404
    if not _allowed(request, edition, match, side):
        raise PermissionDenied
    segments = list(Segment.objects.filter(match=match, is_extra=False).order_by("number"))
    waiting = records.pending(match)
    form = RecordForm(segments=segments)
    note = NoteForm()
    if request.method == "POST":
        action = request.POST.get("action", "")
        now = timezone.now()
        try:
            if action == "submit":
                form = RecordForm(request.POST, request.FILES, segments=segments)
                if form.is_valid():
                    upload = form.cleaned_data["scorecards"]
                    records.submit(
                        match=match,
                        side=side,
                        scorecards=upload.read(),
                        filename=upload.name,
                        totals=form.totals(),
                        boards=form.boards(match),
                        note=form.cleaned_data["note"],
                        user=request.user,
                        now=now,
                    )
                    messages.success(request, _("The record is sent to the opponents."))
                    return redirect(request.path)
            elif action in ("confirm", "dispute", "revoke") and waiting is not None:
                note = NoteForm(request.POST)
                if note.is_valid():
                    if action == "confirm":
                        records.confirm(submission=waiting, side=side, user=request.user, now=now)
                        messages.success(request, _("Confirmed: the TD approves the record."))
                    elif action == "dispute":
                        records.dispute(
                            submission=waiting,
                            side=side,
                            note=note.cleaned_data["note"],
                            user=request.user,
                            now=now,
                        )
                        messages.success(request, _("Disputed: the TD decides."))
                    else:
                        records.revoke(submission=waiting, side=side, user=request.user, now=now)
                        messages.success(request, _("The record is withdrawn."))
                    return redirect(request.path)
        except ServiceError as exc:
            apply_service_error(form if action == "submit" else note, exc)
        waiting = records.pending(match)
    return render(
        request,
        "matches/record.html",
        {
            "edition": edition,
            "match": match,
            "side": side,
            "team": match.home if side == "home" else match.visitors,
            "waiting": waiting,
            "score": records.provisional_score(waiting) if waiting else None,
            "rows": records.board_rows(waiting) if waiting else [],
            "answer_by": records.answer_deadline(waiting).at if waiting else None,
            "mine": waiting is not None and waiting.side == side,
            "form": form,
            "note": note,
            "open": match.status in records.OPEN,
        },
    )


@require_safe
@edition_role_required(CAPTAIN, TD)
def scorecards(request: HttpRequest, edition: Edition, code: str, record: int) -> Any:
    """The scorecards of a record: the match's captains and the TDs."""
    match = _match(edition, code)
    sub = get_object_or_404(RecordSubmission, pk=record, match=match)
    if not (
        _allowed(request, edition, match, "home") or _allowed(request, edition, match, "visitors")
    ):
        raise PermissionDenied
    try:
        handle = sub.scorecards.open("rb")
    except (OSError, ValueError):
        raise Http404 from None
    return FileResponse(handle, as_attachment=False)


@edition_role_required(TD)
def review(request: HttpRequest, edition: Edition, code: str) -> HttpResponse:
    """The TD approves or rejects the record waiting for it (both versions side by side)."""
    match = _match(edition, code)
    waiting = records.pending(match)
    form = ReviewForm(request.POST or None)
    if request.method == "POST" and waiting is not None and form.is_valid():
        now = timezone.now()
        try:
            if request.POST.get("action") == "approve":
                records.approve(
                    submission=waiting, user=request.user, now=now, note=form.cleaned_data["note"]
                )
                messages.success(request, _("The record is approved: the results are stored."))
            else:
                records.reject(
                    submission=waiting, user=request.user, now=now, note=form.cleaned_data["note"]
                )
                messages.success(request, _("The record is rejected."))
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            return redirect("matches:detail", edition=edition.slug, code=match.code)
    return render(
        request,
        "matches/record_review.html",
        {
            "edition": edition,
            "match": match,
            "waiting": waiting,
            "score": records.provisional_score(waiting) if waiting else None,
            "rows": records.board_rows(waiting) if waiting else [],
            "answer_by": records.answer_deadline(waiting).at if waiting else None,
            "form": form,
            "can_approve": waiting is not None
            and (
                waiting.status in (RecordStatus.CONFIRMED, RecordStatus.DISPUTED)
                or records.unanswered_too_long(waiting, timezone.now())
            ),
        },
    )
