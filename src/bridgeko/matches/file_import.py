"""A match's results from a file of another program, whichever it is (issue 20): a LIN file
(:mod:`bridgeko.matches.lin_import`, told by its first key) or a PBN file
(:mod:`bridgeko.matches.pbn_import`). The TD's import page and ``bridgeko import-results`` call
these; both importers share :mod:`bridgeko.matches.result_import`. :func:`read_results` also
reads a Bridgemate file (:mod:`bridgeko.matches.bws_import`): the file a captain sends with the
match record (issue 21)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bridgeko.bridge import bws
from bridgeko.matches import bws_import, lin_import, pbn_import
from bridgeko.matches.models import Match
from bridgeko.matches.result_import import ImportPreview, Read

__all__ = ["import_results", "kind", "preview", "read_results"]


def kind(data: bytes) -> str:
    """``"lin"`` or ``"pbn"``."""
    return "lin" if lin_import.looks_like_lin(data) else "pbn"


def read_results(match: Match, data: bytes) -> Read:
    """The results of the match in a PBN, LIN or Bridgemate file (its rooms: see
    :func:`bws_import.guessed_tables`), storing nothing; a ``ServiceError`` naming the
    problem otherwise."""
    if bws.looks_like_bws(data):
        file = bws_import.read_file(data)  # parsed once: the tables are guessed from it
        return bws_import.read_results(match, file, bws_import.guessed_tables(match, file))
    if kind(data) == "lin":
        return lin_import.read_results(match, data)
    return pbn_import.read_results(match, data)


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
