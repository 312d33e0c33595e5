"""A match's results from a file of another program, whichever it is (issue 20): a LIN file
(:mod:`bridgeko.matches.lin_import`, told by its first key) or a PBN file
(:mod:`bridgeko.matches.pbn_import`). The TD's import page and ``bridgeko import-results`` call
these; both importers share :mod:`bridgeko.matches.result_import`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bridgeko.matches import lin_import, pbn_import
from bridgeko.matches.models import Match
from bridgeko.matches.result_import import ImportPreview

__all__ = ["import_results", "kind", "preview"]


def kind(data: bytes) -> str:
    """``"lin"`` or ``"pbn"``."""
    return "lin" if lin_import.looks_like_lin(data) else "pbn"


def preview(match: Match, data: bytes, *, segment: int | None = None) -> ImportPreview:
    if kind(data) == "lin":
        return lin_import.preview(match, data, segment=segment)
    return pbn_import.preview(match, data, segment=segment)


def import_results(
    *,
    match: Match,
    data: bytes,
    user: Any,
    now: datetime,
    replace: bool = False,
    segment: int | None = None,
) -> ImportPreview:
    if kind(data) == "lin":
        return lin_import.import_results(
            match=match, data=data, user=user, now=now, replace=replace, segment=segment
        )
    return pbn_import.import_results(
        match=match, data=data, user=user, now=now, replace=replace, segment=segment
    )
