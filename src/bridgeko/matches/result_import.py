"""What every import of a match's results shares (issue 10's PBN, issue 20's Bridgemate and
LIN files): the rows of a preview next to what is stored, the board numbers of a file of one
segment, and the import itself — all or nothing, through :func:`services.save_board` (versions,
the audit of each board, the bracket), with one audit entry for the file.

A reader gives ``{(the match's board, room): quick text}``; the text ``""`` says the file takes a
result back (a Bridgemate record erased at the table), which clears what is stored."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bridgeko.audit.services import record
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError
from bridgeko.matches import services
from bridgeko.matches.models import BoardResult, Match, Segment

__all__ = [
    "DIFFERENT",
    "NEW",
    "SAME",
    "DifferencesFound",
    "ImportPreview",
    "ImportRow",
    "Read",
    "board_map",
    "check_match",
    "difference_line",
    "preview_of",
    "room_label",
    "store",
]

NEW, SAME, DIFFERENT = "new", "same", "different"

SOURCES = {
    "pbn": N_("a PBN file"),
    "bws": N_("a Bridgemate file (BWS)"),
    "lin": N_("a LIN file"),
}
"""The kinds of file, as the audit log names them."""


@dataclass(frozen=True)
class ImportRow:
    """One room's result of one board as the file gives it, next to what is stored."""

    board: int
    room: str
    """``"open"`` or ``"closed"``."""
    new: str
    """The quick text as :func:`bridgeko.matches.services.normalised` gives it (``"4S N ="``,
    ``"P"``); ``""``: the file takes the result back (erased at the table)."""
    old: str | None
    """What is stored now (None: nothing)."""
    status: str
    """``"new"`` (nothing stored), ``"same"`` or ``"different"``."""

    @property
    def erases(self) -> bool:
        return self.new == ""


@dataclass(frozen=True)
class ImportPreview:
    rows: tuple[ImportRow, ...]
    problems: tuple[str, ...]

    @property
    def differences(self) -> tuple[ImportRow, ...]:
        """The rows that would replace (or clear) another stored result."""
        return tuple(r for r in self.rows if r.status == DIFFERENT)

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)


@dataclass(frozen=True)
class Read:
    """What a reader found in a file for a match."""

    results: dict[tuple[int, str], str]
    """(the match's board, room) -> the normalised quick text (``""``: taken back)."""
    problems: list[str]


class DifferencesFound(ServiceError):
    """The file differs from stored results and ``replace`` was not given (one line each in
    ``errors``; the rows in ``rows``)."""

    def __init__(self, rows: tuple[ImportRow, ...]) -> None:
        count = len(rows)
        super().__init__(
            ngettext(
                "The file differs from %(count)s stored result; nothing was imported. "
                "Confirm that it is to be replaced.",
                "The file differs from %(count)s stored results; nothing was imported. "
                "Confirm that they are to be replaced.",
                count,
            )
            % {"count": count},
            errors=[difference_line(r) for r in rows],
        )
        self.rows = rows


def room_label(room: str) -> str:
    return _("open room") if room == "open" else _("closed room")


def difference_line(row: ImportRow) -> str:
    """One line saying what a row would replace (for the refusal and the CLI)."""
    values = {"board": row.board, "room": room_label(row.room), "old": row.old or ""}
    if row.erases:
        return _("Board %(board)s, %(room)s: stored “%(old)s”, the file has it erased.") % values
    return _("Board %(board)s, %(room)s: stored “%(old)s”, the file has “%(new)s”.") % (
        values | {"new": row.new}
    )


def check_match(match: Match) -> None:
    if match.home_id is None or match.visitors_id is None:
        raise ServiceError(
            _("The teams of match %(code)s are not known yet.") % {"code": match.code}
        )


def board_map(
    match: Match, numbers: Iterable[int], segment: int | None
) -> tuple[dict[int, int], list[str]]:
    """The file's board numbers -> the match's, and the problems of numbers the match (or the
    segment) has not.

    Without ``segment`` the file's numbers are the match's (board 17 is board 17). With it, a
    file of one segment may number its boards its own way (from 1; a vugraph segment 46-60): its
    first board is moved to the segment's first, the others after it — unless some of the
    file's numbers already fall in the segment: then those are taken as they are and the others
    skipped (a whole match's file given with a segment imports that segment only)."""
    segments = list(Segment.objects.filter(match=match).order_by("number"))
    numbers = sorted(set(numbers))
    problems: list[str] = []
    if segment is None:
        boards = {n for s in segments for n in s.board_numbers}
        mapping = {n: n for n in numbers if n in boards}
        for n in numbers:
            if n not in boards:
                problems.append(
                    _("Board %(board)s: match %(code)s has no such board; skipped.")
                    % {"board": n, "code": match.code}
                )
        return mapping, problems
    seg = next((s for s in segments if s.number == segment), None)
    if seg is None:
        raise ServiceError(
            _("Match %(code)s has no segment %(number)s.")
            % {"code": match.code, "number": segment},
            field="segment",
        )
    size = seg.last_board - seg.first_board + 1
    if any(n in seg.board_numbers for n in numbers):  # numbered as in the match: as they are
        mapping = {n: n for n in numbers if n in seg.board_numbers}
    else:  # the file's own numbers (from 1, or a vugraph's 46-60): its first is the segment's
        start = min(numbers, default=1)
        mapping = {n: n - start + seg.first_board for n in numbers if n - start < size}
    for n in numbers:
        if n not in mapping:
            problems.append(
                _(
                    "Board %(board)s: segment %(number)s has boards %(first)s–%(last)s "
                    "(or 1–%(size)s in a file of the segment); skipped."
                )
                % {
                    "board": n,
                    "number": segment,
                    "first": seg.first_board,
                    "last": seg.last_board,
                    "size": size,
                }
            )
    return mapping, problems


def _stored(match: Match) -> dict[tuple[int, str], BoardResult]:
    return {(r.board, r.room): r for r in BoardResult.objects.filter(match=match)}


def _rows(read: Read, stored: Mapping[tuple[int, str], BoardResult]) -> tuple[ImportRow, ...]:
    rows = []
    for (board, room), new in sorted(
        read.results.items(), key=lambda kv: (kv[0][0], kv[0][1] == "closed")
    ):
        current = stored.get((board, room))
        old = current.text if current is not None else None
        if new == "" and old is None:
            continue  # taken back, and nothing stored: nothing to do
        status = NEW if old is None else SAME if old == new else DIFFERENT
        rows.append(ImportRow(board=board, room=room, new=new, old=old, status=status))
    return tuple(rows)


def preview_of(match: Match, read: Read) -> ImportPreview:
    """The rows of ``read`` next to what is stored; writes nothing."""
    return ImportPreview(rows=_rows(read, _stored(match)), problems=tuple(read.problems))


def store(
    *,
    match: Match,
    read: Read,
    user: Any,
    now: datetime,
    replace: bool,
    source: str,
    details: Mapping[str, Any],
    only: Collection[tuple[int, str]] | None = None,
    also: Callable[[], dict[str, Any]] | None = None,
) -> ImportPreview:
    """Stores what ``read`` holds through :func:`services.save_board` (``source``: ``"pbn"``,
    ``"bws"``, ``"lin"``) in the caller's transaction (the caller holds the match's row
    locked): when any board is refused, nothing is stored. A result different from the stored
    one is refused unless ``replace`` (a :class:`DifferencesFound` listing each). With ``only``,
    the rows of the other boards and rooms are left as they are (the follower stores what
    changed at the tables). ``also`` runs after the results are stored (the auctions and plays
    of a LIN file) and returns what it changed, for the audit (``{}``: nothing). Returns the
    preview the import followed (the statuses as they were before it); one audit entry when
    anything was written (``details`` go into it)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("result_import.store runs inside the caller's transaction")
    stored = _stored(match)
    rows = _rows(read, stored)
    if only is not None:
        rows = tuple(r for r in rows if (r.board, r.room) in only)
    result = ImportPreview(rows=rows, problems=tuple(read.problems))
    if result.differences and not replace:
        raise DifferencesFound(result.differences)
    failures: list[str] = []
    written = 0
    for row in result.rows:
        if row.status == SAME:
            continue
        current = stored.get((row.board, row.room))
        try:
            services.save_board(
                match=match,
                board=row.board,
                room=row.room,
                text=row.new,
                version=current.version if current is not None else 0,
                user=user,
                now=now,
                source=source,
            )
        except ServiceError as exc:
            failures.append(
                _("Board %(board)s, %(room)s: %(error)s")
                % {"board": row.board, "room": room_label(row.room), "error": exc.message}
            )
            failures.extend(exc.errors)
        else:
            written += 1
    if failures:
        raise ServiceError(
            _("The file's results were refused; nothing was imported."), errors=failures
        )
    extra = also() if also is not None else {}
    if written or extra:
        record(
            "bridgeko.results.imported",
            user=user,
            edition=match.edition,
            obj=match,
            after={
                "source": source,
                "new": result.count(NEW),
                "same": result.count(SAME),
                "replaced": result.count(DIFFERENT),
                "problems": list(result.problems),
                "rows": [
                    {"board": r.board, "room": r.room, "old": r.old, "new": r.new}
                    for r in result.rows
                    if r.status != SAME
                ],
                **details,
                **extra,
            },
            summary=Message(
                N_(
                    "%(match)s: results imported from %(source)s (%(new)s new, %(replaced)s "
                    "replaced)"
                ),
                {
                    "match": match.code,
                    "source": Message(SOURCES.get(source, source)),
                    "new": result.count(NEW),
                    "replaced": result.count(DIFFERENT),
                },
            ),
            at=now,
        )
    return result
