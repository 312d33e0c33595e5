"""The TD's page importing a match's results from a PBN file (issue 10, item 3): upload (with the
segment, for a file of one segment numbered from 1), a preview of every board and room next to
what is stored (differences marked, problems listed), then the import on confirmation — with
"replace the differing results" ticked when the file differs from what is stored.

Between the two steps the file travels back in the confirmation form, base64-encoded (at most
:data:`~bridgeko.matches.pbn_import.MAX_FILE_SIZE`): nothing is kept on the server, and the
confirmation reads the file again from scratch, against what is stored by then. Every write goes
through :func:`bridgeko.matches.pbn_import.import_results`."""

from __future__ import annotations

import base64
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error, sent_back
from bridgeko.editions.models import Edition
from bridgeko.matches import file_import, pbn_import
from bridgeko.matches.models import Match, Segment


def segment_choices(match: Match) -> list[tuple[str, str]]:
    choices = [("", _("the whole match (boards numbered as in the match)"))]
    for seg in Segment.objects.filter(match=match).order_by("number"):
        choices.append(
            (
                str(seg.number),
                _("segment %(number)s (boards %(first)s–%(last)s)")
                % {"number": seg.number, "first": seg.first_board, "last": seg.last_board},
            )
        )
    return choices


class SegmentForm(forms.Form):
    """A form saying which of the match's segments the file holds (or the whole match)."""

    segment = forms.TypedChoiceField(
        label=gettext_lazy("The file holds"),
        coerce=int,
        empty_value=None,
        required=False,
        help_text=gettext_lazy(
            "A file of one segment may number its boards from 1: they are moved into the segment."
        ),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["segment"].choices = segment_choices(match)  # type: ignore[attr-defined]


class UploadForm(SegmentForm):
    file = forms.FileField(label=gettext_lazy("PBN or LIN file"))
    field_order = ("file", "segment")

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size is not None and upload.size > pbn_import.MAX_FILE_SIZE:
            raise forms.ValidationError(
                _("The file is too large (%(size)s kB; at most %(max)s kB).")
                % {"size": upload.size // 1000, "max": pbn_import.MAX_FILE_SIZE // 1000}
            )
        data: bytes = upload.read()
        return data


class ConfirmForm(SegmentForm):
    pbn = forms.CharField(
        widget=forms.HiddenInput, max_length=pbn_import.MAX_FILE_SIZE * 4 // 3 + 8
    )
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the differing results with the file's"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["segment"].widget = forms.HiddenInput()

    def clean_pbn(self) -> bytes:
        return sent_back(self.cleaned_data["pbn"])


def import_summary(done: pbn_import.ImportPreview) -> str:
    new, same, replaced = done.count("new"), done.count("same"), done.count("different")
    return ngettext(
        "Imported %(total)s result from the file: %(new)s new, %(replaced)s replaced, "
        "%(same)s the same as stored.",
        "Imported %(total)s results from the file: %(new)s new, %(replaced)s replaced, "
        "%(same)s the same as stored.",
        new + replaced + same,
    ) % {"total": new + replaced + same, "new": new, "replaced": replaced, "same": same}


@edition_role_required(str(Role.TD))
def import_pbn(request: HttpRequest, edition: Edition, match: str) -> HttpResponse:
    """GET: the upload form. POST with a file: the preview and the confirmation form (nothing
    written). POST ``confirm``: the import (differences only with ``replace``)."""
    obj = get_object_or_404(
        Match.objects.select_related("home", "visitors", "edition"), edition=edition, code=match
    )
    playable = obj.home_id is not None and obj.visitors_id is not None
    upload = UploadForm(match=obj)
    confirm: ConfirmForm | None = None
    preview: pbn_import.ImportPreview | None = None
    if request.method == "POST" and playable:
        if "confirm" in request.POST:
            confirm = ConfirmForm(request.POST, match=obj)
            if confirm.is_valid():
                data = confirm.cleaned_data["pbn"]
                segment = confirm.cleaned_data["segment"]
                try:
                    preview = file_import.preview(obj, data, segment=segment)
                    if preview.differences and not confirm.cleaned_data["replace"]:
                        confirm.add_error(
                            "replace",
                            _(
                                "Tick this to replace the results that differ, or upload "
                                "another file."
                            ),
                        )
                    else:
                        done = file_import.import_results(
                            match=obj,
                            data=data,
                            user=request.user,
                            now=timezone.now(),
                            replace=confirm.cleaned_data["replace"],
                            segment=segment,
                        )
                except ServiceError as exc:
                    apply_service_error(confirm, exc)
                else:
                    if not confirm.errors:
                        messages.success(request, import_summary(done))
                        return redirect("matches:import_pbn", edition=edition.slug, match=obj.code)
        else:
            upload = UploadForm(request.POST, request.FILES, match=obj)
            if upload.is_valid():
                data = upload.cleaned_data["file"]
                segment = upload.cleaned_data["segment"]
                try:
                    preview = file_import.preview(obj, data, segment=segment)
                except ServiceError as exc:
                    apply_service_error(upload, exc)
                else:
                    confirm = ConfirmForm(
                        match=obj,
                        initial={
                            "pbn": base64.b64encode(data).decode("ascii"),
                            "segment": "" if segment is None else segment,
                        },
                    )
    return render(
        request,
        "matches/import_pbn.html",
        {
            "edition": edition,
            "match": obj,
            "playable": playable,
            "upload": upload,
            "confirm": confirm,
            "preview": preview,
            "to_import": (
                sum(1 for r in preview.rows if r.status != "same") if preview is not None else 0
            ),
        },
    )
