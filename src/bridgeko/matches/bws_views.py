"""The TD's page importing a match's results from a Bridgemate file (issue 20): upload the
``.bws`` with the tables of the two rooms (remembered per match), a preview of every board and
room next to what is stored, the import on confirmation; and the switch that has the server
follow the file while a segment is played (``bridgeko follow`` reads it), with what the
follower last did.

Between the preview and the confirmation the uploaded file waits under the data directory
(``uploads/<sha-256>.bws``; a file is 0.2-3 MB, too large to travel back in a form) and is read
again from scratch on confirmation; it is removed after the import, and any left for a day is
removed at the next upload. Every write goes through :mod:`bridgeko.matches.bws_import`."""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import edition_role_required
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.editions.models import Edition
from bridgeko.matches import bws_import, pbn_views
from bridgeko.matches.models import BridgemateTables, Match
from bridgeko.matches.pbn_views import SegmentForm, import_summary
from bridgeko.matches.result_import import ImportPreview

_WAITING_FOR = 24 * 3600
"""Seconds an uploaded file waits for its confirmation."""


def _uploads() -> Path:
    folder = Path(settings.DATA_DIR) / "uploads"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _keep(data: bytes) -> str:
    """Keeps an uploaded file for the confirmation; returns its name (its SHA-256)."""
    folder = _uploads()
    cutoff = time.time() - _WAITING_FOR
    for old in folder.glob("*.bws"):
        if old.stat().st_mtime < cutoff:
            old.unlink(missing_ok=True)
    name = hashlib.sha256(data).hexdigest()
    (folder / f"{name}.bws").write_bytes(data)
    return name


def _kept(name: str) -> bytes:
    if not re.fullmatch(r"[0-9a-f]{64}", name):
        raise forms.ValidationError(_("The file was not sent back whole; upload it again."))
    try:
        return (_uploads() / f"{name}.bws").read_bytes()
    except OSError:
        raise forms.ValidationError(
            _("The uploaded file is no longer on the server; upload it again.")
        ) from None


class _TablesForm(SegmentForm):
    section = forms.CharField(
        label=gettext_lazy("Section"),
        max_length=10,
        required=False,
        help_text=gettext_lazy("Its letter (A) or number; empty when the file has one section."),
    )
    open_table = forms.IntegerField(label=gettext_lazy("Table of the open room"), min_value=1)
    closed_table = forms.IntegerField(label=gettext_lazy("Table of the closed room"), min_value=1)

    def tables(self) -> bws_import.Tables:
        data = self.cleaned_data
        return bws_import.Tables(
            open=data["open_table"], closed=data["closed_table"], section=data["section"] or ""
        )


class UploadForm(_TablesForm):
    file = forms.FileField(label=gettext_lazy("Bridgemate file (.bws)"))
    field_order = ("file", "section", "open_table", "closed_table", "segment")

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size is not None and upload.size > bws_import.MAX_FILE_SIZE:
            raise forms.ValidationError(
                _("The file is too large (%(size)s MB; at most %(max)s MB).")
                % {
                    "size": upload.size // 1_000_000,
                    "max": bws_import.MAX_FILE_SIZE // 1_000_000,
                }
            )
        data: bytes = upload.read()
        return data


class ConfirmForm(_TablesForm):
    upload = forms.CharField(widget=forms.HiddenInput, max_length=64)
    replace = pbn_views.ConfirmForm.base_fields["replace"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auto_id = "confirm_%s"
        for name in ("section", "open_table", "closed_table", "segment"):
            self.fields[name].widget = forms.HiddenInput()

    def clean_upload(self) -> bytes:
        return _kept(self.cleaned_data["upload"])


class FollowForm(_TablesForm):
    path = forms.CharField(
        label=gettext_lazy("The file on the server"),
        max_length=500,
        required=False,
        help_text=gettext_lazy(
            "Where the server reads BCS's file (a shared folder of the scoring computer)."
        ),
    )
    follow = forms.BooleanField(label=gettext_lazy("Follow this file"), required=False)
    field_order = ("path", "section", "open_table", "closed_table", "segment", "follow")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auto_id = "follow_%s"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        path = (data.get("path") or "").strip()
        if data.get("follow") and path and not Path(path).is_file():
            self.add_error("path", _("The server cannot find a file at %(path)s.") % {"path": path})
        return data


def _initial(remembered: BridgemateTables | None) -> dict[str, Any]:
    if remembered is None:
        return {"open_table": 1, "closed_table": 2}
    return {
        "section": remembered.section,
        "open_table": remembered.open_table,
        "closed_table": remembered.closed_table,
        "segment": "" if remembered.segment is None else remembered.segment,
        "path": remembered.path,
        "follow": remembered.follow,
    }


@edition_role_required(str(Role.TD))
def import_bws(request: HttpRequest, edition: Edition, match: str) -> HttpResponse:
    """GET: the forms. POST with a file: the preview and the confirmation form (nothing
    written but the choice of tables). POST ``confirm``: the import. POST ``follow``: the
    server's following of a file switched on or off."""
    obj = get_object_or_404(
        Match.objects.select_related("home", "visitors", "edition"), edition=edition, code=match
    )
    playable = obj.home_id is not None and obj.visitors_id is not None
    remembered = BridgemateTables.objects.filter(match=obj).first()
    upload = UploadForm(match=obj, initial=_initial(remembered))
    following = FollowForm(match=obj, initial=_initial(remembered))
    confirm: ConfirmForm | None = None
    preview: ImportPreview | None = None
    if request.method == "POST" and playable:
        if "path" in request.POST:
            following = FollowForm(request.POST, match=obj)
            if following.is_valid():
                data = following.cleaned_data
                try:
                    bws_import.remember(
                        match=obj,
                        tables=following.tables(),
                        segment=data["segment"],
                        user=request.user,
                        now=timezone.now(),
                        path=data["path"],
                        follow=data["follow"],
                    )
                except ServiceError as exc:
                    apply_service_error(following, exc)
                else:
                    messages.success(
                        request,
                        _("The server follows the file.")
                        if data["follow"]
                        else _("The server does not follow a file for this match."),
                    )
                    return redirect("matches:import_bws", edition=edition.slug, match=obj.code)
        elif "confirm" in request.POST:
            confirm = ConfirmForm(request.POST, match=obj)
            if confirm.is_valid():
                data = confirm.cleaned_data
                try:
                    preview = bws_import.preview(
                        obj, data["upload"], confirm.tables(), segment=data["segment"]
                    )
                    if preview.differences and not data["replace"]:
                        confirm.add_error(
                            "replace",
                            _(
                                "Tick this to replace the results that differ, or upload "
                                "another file."
                            ),
                        )
                    else:
                        done = bws_import.import_results(
                            match=obj,
                            data=data["upload"],
                            tables=confirm.tables(),
                            user=request.user,
                            now=timezone.now(),
                            replace=data["replace"],
                            segment=data["segment"],
                        )
                except ServiceError as exc:
                    apply_service_error(confirm, exc)
                else:
                    if not confirm.errors:
                        (_uploads() / f"{request.POST['upload']}.bws").unlink(missing_ok=True)
                        messages.success(request, import_summary(done))
                        return redirect("matches:import_bws", edition=edition.slug, match=obj.code)
        else:
            upload = UploadForm(request.POST, request.FILES, match=obj)
            if upload.is_valid():
                data = upload.cleaned_data
                try:
                    preview = bws_import.preview(
                        obj, data["file"], upload.tables(), segment=data["segment"]
                    )
                    bws_import.remember(
                        match=obj,
                        tables=upload.tables(),
                        segment=data["segment"],
                        user=request.user,
                        now=timezone.now(),
                    )
                except ServiceError as exc:
                    apply_service_error(upload, exc)
                else:
                    confirm = ConfirmForm(
                        match=obj,
                        initial={
                            "upload": _keep(data["file"]),
                            "section": data["section"],
                            "open_table": data["open_table"],
                            "closed_table": data["closed_table"],
                            "segment": "" if data["segment"] is None else data["segment"],
                        },
                    )
    return render(
        request,
        "matches/import_bws.html",
        {
            "edition": edition,
            "match": obj,
            "playable": playable,
            "upload": upload,
            "confirm": confirm,
            "preview": preview,
            "following": following,
            "remembered": BridgemateTables.objects.filter(match=obj).first(),
            "to_import": (
                sum(1 for r in preview.rows if r.status != "same") if preview is not None else 0
            ),
        },
    )
