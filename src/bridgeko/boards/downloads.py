"""The files of a set for the dealing machine (R12.7): PBN, DUP and DLM, with the options the
machines need — a range of boards, the copies of each board (DUP), a sealed or shown set (DLM
``Status``). Made with the bridge core (:class:`bridgeko.bridge.dealt_pbn.DealtPbn`,
:func:`bridgeko.bridge.formats.to_dup`, :func:`~bridgeko.bridge.formats.to_dlm`); the PBN is
what ``bridgeko deal`` writes, so ``bridgeko verify-deal`` reads it back.

Organiser and chief TD only (the views check it): the files hold the deals."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.utils.translation import gettext as _

from bridgeko.boards.models import DealSet
from bridgeko.bridge import formats
from bridgeko.bridge.board import dealer
from bridgeko.bridge.cards import Deal
from bridgeko.bridge.dealt_pbn import DealtPbn
from bridgeko.core.errors import ServiceError

FORMATS = ("pbn", "dup", "dlm")


@dataclass(frozen=True)
class Download:
    filename: str
    content: bytes
    content_type: str


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^A-Za-z0-9]+", "-", ascii_text).strip("-") or "set"


def deals_of(
    deal_set: DealSet, first: int | None = None, last: int | None = None
) -> dict[int, Deal]:
    """Board -> deal of the set, within ``first``..``last`` when given."""
    out = {b.board: Deal.from_pbn(b.deal) for b in deal_set.boards.all()}
    if not out:
        raise ServiceError(_("The set has no deals yet: make it first."))
    lo, hi = min(out), max(out)
    first = lo if first is None else first
    last = hi if last is None else last
    if not lo <= first <= last <= hi:
        raise ServiceError(
            _("Choose boards within %(first)s–%(last)s.") % {"first": lo, "last": hi},
            field="first",
        )
    return {b: d for b, d in out.items() if first <= b <= last}


def filename(deal_set: DealSet, first: int, last: int, ext: str) -> str:
    """``ko-1999_QF1_segment-2_boards-17-32.dlm``: the match and the segment."""
    segment = deal_set.segment
    return (
        f"{_slug(segment.match.edition.slug)}_{_slug(segment.match.code)}_segment-"
        f"{segment.number}_boards-{first}-{last}.{ext}"
    )


def make(
    deal_set: DealSet,
    fmt: str,
    *,
    first: int | None = None,
    last: int | None = None,
    copies: int = 1,
    show: bool = False,
) -> Download:
    """The file of the set in ``fmt`` (``pbn``, ``dup``, ``dlm``); a :class:`ServiceError`
    naming what the format cannot hold (e.g. DLM numbers boards 1 to 99 only)."""
    if fmt not in FORMATS:
        raise ServiceError(_("Unknown format: %(fmt)s.") % {"fmt": fmt}, field="format")
    deals = deals_of(deal_set, first, last)
    boards = sorted(deals)
    name = filename(deal_set, boards[0], boards[-1], fmt)
    try:
        if fmt == "pbn":
            writer = DealtPbn(event=deal_set.event or deal_set.segment.match.edition.name)
            values = [deals[b].to_pbn(dealer(b)) for b in boards]
            text = writer.header() + writer.games(boards, values)
            return Download(name, text.encode("utf-8"), "application/x-pbn; charset=utf-8")
        if fmt == "dup":
            return Download(name, formats.to_dup(deals, copies=copies), "application/octet-stream")
        title = f"{deal_set.segment.match.edition.name} {deal_set.segment}"
        text = formats.to_dlm(deals, title=title, show=show)
        return Download(name, text.encode("ascii", "replace"), "text/plain; charset=us-ascii")
    except formats.FormatError as exc:
        raise ServiceError(
            _("The %(fmt)s file cannot hold this set: %(problem)s")
            % {"fmt": fmt.upper(), "problem": str(exc)},
            field="format",
        ) from None
