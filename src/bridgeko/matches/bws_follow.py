"""The server's follower of Bridgemate files (issue 20): every file a TD switched on (*Follow this
file* on a match's import page, :class:`~bridgeko.matches.models.BridgemateTables`) is read by
:func:`read_all`, which ``bridgeko follow`` calls every few seconds.

Each read goes through :func:`bridgeko.matches.bws_import.follow_step` (the results new or
changed at the tables, one transaction, audited like any import). What the follower last did is
kept on the row for the page: when it read the file, when it last stored a result, what went
wrong (a file it cannot read is read again at the next round: nothing is lost). When the
segment is over the row stops being followed, and that is audited."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from bridgeko.audit.services import record
from bridgeko.competition.messages import N_, Message
from bridgeko.matches.bws_import import Tables, follow_step
from bridgeko.matches.models import BridgemateTables

__all__ = ["read_all", "read_one"]

_reported: dict[int, tuple[str, ...]] = {}
"""Row ID -> what was already reported (this process's memory: a restart reports again)."""


def read_all(now: datetime | None = None) -> Iterator[str]:
    """Reads every followed file once; yields a line per result stored or problem."""
    rows = BridgemateTables.objects.filter(follow=True).select_related(
        "match", "match__edition", "updated_by"
    )
    for row in list(rows):
        yield from read_one(row, now or timezone.now())


def read_one(row: BridgemateTables, now: datetime) -> Iterator[str]:
    match = row.match
    path = Path(row.path)
    tables = Tables(open=row.open_table, closed=row.closed_table, section=row.section)
    try:
        data = path.read_bytes()  # a copy, read at once: BCS holds the file open
    except OSError as exc:
        error = f"cannot read {row.path}: {exc.strerror or exc}"
        _save(row, now=now, problem=error)
        yield f"{match.code}: {error}"
        return
    step = follow_step(
        match=match,
        data=data,
        tables=tables,
        segment=row.segment,
        seen=row.seen,
        user=row.updated_by,
        now=now,
        reported=_reported.get(row.pk, ()),
    )
    _reported[row.pk] = step.reported
    for stored in step.stored:
        yield f"{match.code} board {stored.board} {stored.room}: {stored.new or 'erased'}"
    yield from (f"{match.code}: {p}" for p in step.problems)
    problem = step.error or "\n".join(
        f"{match.code} board {r.board}: stored {r.old}, the table {r.new or 'erased it'}"
        for r in step.left
    )
    _save(
        row,
        now=now,
        problem=problem,
        seen=dict(step.seen),
        stored=bool(step.stored),
        finished=step.finished and not step.error,
    )
    if step.error:
        yield f"{match.code}: not read this time: {step.error}"
    if step.finished and not step.error:
        yield f"{match.code}: the segment is over; no longer followed"


def _save(
    row: BridgemateTables,
    *,
    now: datetime,
    problem: str,
    seen: dict[str, int] | None = None,
    stored: bool = False,
    finished: bool = False,
) -> None:
    with transaction.atomic():
        fresh = BridgemateTables.objects.select_for_update().filter(pk=row.pk).first()
        if fresh is None or not fresh.follow or fresh.path != row.path:
            return  # switched off or changed by a TD meanwhile
        fresh.read_at = now
        if problem or not fresh.problem or seen is not None:
            fresh.problem = problem
        if seen is not None:
            fresh.seen = seen
        if stored:
            fresh.stored_at = now
        if finished:
            fresh.follow = False
        fresh.save(update_fields=["read_at", "problem", "seen", "stored_at", "follow"])
        if finished:
            record(
                "bridgeko.bridgemate.finished",
                user=None,
                edition=fresh.match.edition,
                obj=fresh.match,
                before={"follow": True},
                after={"follow": False},
                summary=Message(
                    N_("%(match)s: the segment is over; its Bridgemate file no longer followed"),
                    {"match": fresh.match.code},
                ),
                at=now,
            )
