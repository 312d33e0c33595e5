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
from bridgeko.matches import records
from bridgeko.matches.models import Match, RecordStatus, RecordSubmission, Segment

CAPTAIN, TD = str(Role.CAPTAIN), str(Role.TD)


class RecordForm(forms.Form):
    scorecards = forms.FileField(label=gettext_lazy("Signed scorecards (PDF or a photo)"))
    note = forms.CharField(
        label=gettext_lazy("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2})
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
                )
        self.order_fields([f"s{s.number}_{x}" for s in segments for x in ("home", "visitors")])

    def totals(self) -> dict[int, tuple[int, int]]:
        data = self.cleaned_data
        return {
            s.number: (data[f"s{s.number}_home"], data[f"s{s.number}_visitors"])
            for s in self.segments
        }


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
            "form": form,
            "can_approve": waiting is not None
            and waiting.status in (RecordStatus.CONFIRMED, RecordStatus.DISPUTED),
        },
    )
