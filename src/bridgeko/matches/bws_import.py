"""Results of a match from a Bridgemate file (issue 20): Bridgemate Control Software writes every
result the terminals send into a ``.bws`` file (read by :mod:`bridgeko.bridge.bws`); the TD says
which section and tables are the match's open and closed rooms.

Per table and board the **last record** counts: a result corrected at the table is a later
record, one erased is a record marked ``Erased`` (it takes a stored result back: shown as a
change to confirm). A record without a contract (BCS's *Not played*, an artificial score) is
listed and skipped: an adjusted score is the TD's (R12 penalties and adjustments page). A record
whose contract or result the Laws do not allow refuses the file, naming the record. Board
numbers follow :func:`bridgeko.matches.result_import.board_map` (``segment``: a file of one
segment numbered from 1); boards of the file outside the match or the segment are listed and
skipped.

**Following** a file while a segment is played (:func:`follow_step`, run every few seconds by
``bridgeko import-bws --follow`` and ``bridgeko follow``): each read stores the results new since
the last one and the corrections made at the tables (a record newer than the one last seen); a
stored result that differs from the file's and was not changed at the table (the TD's own
correction) is left and reported, unless ``replace``. A file that cannot be read (BCS writing it
at that moment) stores nothing and is read again at the next step: nothing is lost, since every
read reads every record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.audit.services import record as audit
from bridgeko.bridge import bws
from bridgeko.bridge.board import dealer
from bridgeko.bridge.cards import Card
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.play_record import Auction, Play
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import RosterEntry
from bridgeko.matches import services
from bridgeko.matches.models import BridgemateTables, Match, Segment
from bridgeko.matches.result_import import (
    DIFFERENT,
    NEW,
    ImportPreview,
    ImportRow,
    Read,
    board_map,
    check_match,
    preview_of,
    room_label,
    store,
)

__all__ = [
    "MAX_FILE_SIZE",
    "FollowStep",
    "Tables",
    "follow_step",
    "import_results",
    "preview",
    "read_file",
    "remember",
]

MAX_FILE_SIZE = 64_000_000
"""The largest file read (bytes). A session's file is 0.2-3 MB, most of it the player list BCS
ships with; a file kept for years of club sessions grows to tens of MB."""


@dataclass(frozen=True)
class Tables:
    """The TD's choice: the tables of the open and the closed room (and the section)."""

    open: int
    closed: int
    section: str = ""
    """The section's letter (``A``) or number; ``""``: the file's only section."""


def read_file(data: bytes) -> bws.BwsFile:
    """The file's records, or a :class:`ServiceError` saying why it cannot be read."""
    if len(data) > MAX_FILE_SIZE:
        raise ServiceError(
            _("The file is too large (%(size)s MB; at most %(max)s MB).")
            % {"size": len(data) // 1_000_000, "max": MAX_FILE_SIZE // 1_000_000}
        )
    try:
        return bws.read(data)
    except bws.BwsError as exc:
        raise ServiceError(_("The file cannot be read: %(error)s.") % {"error": exc}) from None


def _section(file: bws.BwsFile, tables: Tables) -> int:
    if tables.section.strip():
        try:
            return file.section_id(tables.section)
        except bws.BwsError as exc:
            raise ServiceError(str(exc), field="section") from None
    used = sorted({r.section for r in file.records} | set(file.sections))
    if len(used) == 1:
        return used[0]
    if not used:
        return 1
    names = ", ".join(file.sections.get(n, str(n)).strip() or str(n) for n in used)
    raise ServiceError(
        _("The file has several sections (%(sections)s): say which one the match played in.")
        % {"sections": names},
        field="section",
    )


def _check_tables(tables: Tables) -> None:
    if tables.open == tables.closed:
        raise ServiceError(
            _("The open and the closed room cannot be the same table (%(table)s).")
            % {"table": tables.open},
            field="closed_table",
        )
    for name, table in (("open_table", tables.open), ("closed_table", tables.closed)):
        if table < 1:
            raise ServiceError(_("A table number is 1 or more."), field=name)


def _roster_numbers(match: Match) -> set[str]:
    ids = [pk for pk in (match.home_id, match.visitors_id) if pk is not None]
    return {
        fid.strip().lstrip("0")
        for fid in RosterEntry.objects.filter(team_id__in=ids).values_list(
            "player__federation_id", flat=True
        )
        if fid and fid.strip()
    }


def _players_problem(
    match: Match, file: bws.BwsFile, section: int, room: str, table: int
) -> str | None:
    """A warning when the players entered at a table (their federation numbers) are on neither
    team's roster: the file may be another match's."""
    numbers = {
        p.number.strip().lstrip("0")
        for p in file.players
        if p.section == section and p.table == table and p.number.strip().strip("0")
    }
    known = _roster_numbers(match)
    if not numbers or not known or numbers & known:
        return None
    return _(
        "Table %(table)s (%(room)s): none of the players entered at the table (numbers "
        "%(numbers)s) is on the roster of either team — is this another match's file?"
    ) % {"table": table, "room": room_label(room), "numbers": ", ".join(sorted(numbers))}


@dataclass(frozen=True)
class _Found:
    read: Read
    records: dict[tuple[int, str], int]
    """(the match's board, room) -> the ID of the record behind the result."""
    tables_sent: bool
    """Whether either table sent anything at all."""
    plays: dict[tuple[int, str], tuple[str, str]] = field(default_factory=dict)
    """(the match's board, room) -> (auction, play) from BiddingData/PlayData, when given."""

    def store_plays(self, match: Match, only: set[tuple[int, str]] | None = None) -> dict[str, Any]:
        """Stores the auctions and plays (inside the import's transaction) of the results
        stored (``only``: of these): what changed."""
        changed = [
            f"{board} {room}"
            for (board, room), (auction, play) in sorted(self.plays.items())
            if (board, room) in self.read.results
            and (only is None or (board, room) in only)
            and services.set_play_record(
                match=match, board=board, room=room, auction=auction, play=play
            )
        ]
        return {"auctions_and_plays": changed} if changed else {}


def _read(match: Match, file: bws.BwsFile, tables: Tables, segment: int | None) -> _Found:
    _check_tables(tables)
    section = _section(file, tables)
    latest = {
        "open": file.latest(section, tables.open),
        "closed": file.latest(section, tables.closed),
    }
    problems = list(file.problems)
    for room, table in (("open", tables.open), ("closed", tables.closed)):
        warning = _players_problem(match, file, section, room, table)
        if warning:
            problems.append(warning)
    numbers = set(latest["open"]) | set(latest["closed"])
    mapping, board_problems = board_map(match, numbers, segment)
    problems.extend(board_problems)
    results: dict[tuple[int, str], str] = {}
    records: dict[tuple[int, str], int] = {}
    plays: dict[tuple[int, str], tuple[str, str]] = {}
    errors: list[str] = []
    for room in ("open", "closed"):
        for number, rec in sorted(latest[room].items()):
            if number not in mapping:
                continue
            key = (mapping[number], room)
            where = {
                "board": mapping[number],
                "room": room_label(room),
                "table": rec.table,
                "record": rec.id,
            }
            if rec.erased:
                results[key] = ""
                records[key] = rec.id
                continue
            if rec.is_artificial:
                problems.append(
                    _(
                        "Board %(board)s, %(room)s (table %(table)s, record %(record)s): no "
                        "contract (BCS: “%(remark)s”); skipped — an adjusted score is entered "
                        "by the TD."
                    )
                    % (where | {"remark": rec.remarks or "—"})
                )
                continue
            try:
                result = rec.table_result()
            except bws.BwsError as exc:
                errors.append(_("Board %(board)s, %(room)s: %(error)s.") % (where | {"error": exc}))
                continue
            results[key] = services.normalised(result)
            records[key] = rec.id
            played = _play_record(file, rec, mapping[number])
            if played is not None:
                plays[key] = played
    if errors:
        raise ServiceError(
            _("The file holds results the Laws do not allow; nothing was imported."),
            errors=errors,
        )
    return _Found(
        read=Read(results=results, problems=problems),
        records=records,
        tables_sent=bool(latest["open"] or latest["closed"]),
        plays=plays,
    )


def _play_record(file: bws.BwsFile, rec: bws.BwsRecord, board: int) -> tuple[str, str] | None:
    """The calls (BiddingData) and cards (PlayData) a table sent for a board, when they make a
    legal auction of the match's board (its dealer) and a play of its contract; else None."""
    calls = file.auction(rec.section, rec.table, rec.board)
    if not calls:
        return None
    cards = file.play(rec.section, rec.table, rec.board)
    try:
        auction = Auction(dealer(board), calls)
        contract, declarer = auction.contract, auction.declarer
        if cards and contract is not None and declarer is not None:
            Play(declarer.next(), contract.strain, tuple(Card.parse(c) for c in cards))
        elif cards:
            return None
    except BridgeInputError:
        return None
    return " ".join(calls), " ".join(cards)


def _nothing(match: Match, found: _Found, tables: Tables) -> ServiceError:
    if not found.tables_sent:
        return ServiceError(
            _(
                "Tables %(open)s and %(closed)s have sent no result (the file has results of "
                "other tables only)."
            )
            % {"open": tables.open, "closed": tables.closed},
            errors=found.read.problems,
        )
    return ServiceError(
        _(
            "The file holds no result of a board of match %(code)s at tables %(open)s and "
            "%(closed)s."
        )
        % {"code": match.code, "open": tables.open, "closed": tables.closed},
        errors=found.read.problems,
    )


def guessed_tables(match: Match, file: bws.BwsFile) -> Tables:
    """The rooms of a file a captain sends with the match record (issue 21): the tables the TD
    chose for the match before, else the file's only two tables (the lower one the open room);
    a :class:`ServiceError` when the file has more or fewer."""
    remembered = BridgemateTables.objects.filter(match=match).first()
    if remembered is not None:
        return Tables(remembered.open_table, remembered.closed_table, remembered.section)
    used = sorted({(r.section, r.table) for r in file.records})
    if len(used) != 2 or used[0][0] != used[1][0]:
        raise ServiceError(
            _(
                "The Bridgemate file has results of %(count)s tables: it can be sent with the "
                "record only from a match played at two tables (the TD imports other files)."
            )
            % {"count": len(used)}
        )
    section = used[0][0]
    return Tables(used[0][1], used[1][1], file.sections.get(section, str(section)))


def read_results(match: Match, file: bws.BwsFile, tables: Tables) -> Read:
    """The file's results of the match (the readers' check included), storing nothing."""
    found = _read(match, file, tables, None)
    if not found.read.results:
        raise _nothing(match, found, tables)
    return found.read


def preview(
    match: Match, data: bytes, tables: Tables, *, segment: int | None = None
) -> ImportPreview:
    """What importing the file would store, next to what is stored; writes nothing. A
    :class:`ServiceError` when the file cannot be read or holds nothing of the match."""
    check_match(match)
    found = _read(match, read_file(data), tables, segment)
    if not found.read.results:
        raise _nothing(match, found, tables)
    return preview_of(match, found.read)


def import_results(
    *,
    match: Match,
    data: bytes,
    tables: Tables,
    user: Any,
    now: datetime,
    replace: bool = False,
    segment: int | None = None,
) -> ImportPreview:
    """Stores the file's results of the two tables, all or nothing (``source="bws"``); a result
    different from the stored one (or erased at the table) is refused unless ``replace``."""
    file = read_file(data)
    with transaction.atomic():
        match = services.locked(match)
        check_match(match)
        found = _read(match, file, tables, segment)
        if not found.read.results:
            raise _nothing(match, found, tables)
        return store(
            match=match,
            read=found.read,
            user=user,
            now=now,
            replace=replace,
            source="bws",
            details=_details(tables, segment),
            also=lambda: found.store_plays(match),
        )


def _details(tables: Tables, segment: int | None) -> dict[str, Any]:
    return {
        "section": tables.section,
        "open_table": tables.open,
        "closed_table": tables.closed,
        "segment": segment,
    }


# ---------------------------------------------------------------------------------------------
# The TD's choice, remembered per match


def remember(
    *,
    match: Match,
    tables: Tables,
    segment: int | None,
    user: Any,
    now: datetime,
    path: str | None = None,
    follow: bool | None = None,
) -> BridgemateTables:
    """Stores which tables are the match's rooms (and, when given, the file the server follows
    and whether it does). A change of tables or file forgets what the follower had seen."""
    _check_tables(tables)
    if segment is not None and not Segment.objects.filter(match=match, number=segment).exists():
        raise ServiceError(
            _("Match %(code)s has no segment %(number)s.")
            % {"code": match.code, "number": segment},
            field="segment",
        )
    with transaction.atomic():
        current = BridgemateTables.objects.select_for_update().filter(match=match).first()
        before = _state(current)
        row = current or BridgemateTables(match=match, updated_at=now)
        changed_source = (
            current is None
            or (row.section, row.open_table, row.closed_table, row.segment)
            != (tables.section.strip(), tables.open, tables.closed, segment)
            or (path is not None and path.strip() != row.path)
        )
        row.section = tables.section.strip()
        row.open_table = tables.open
        row.closed_table = tables.closed
        row.segment = segment
        if path is not None:
            row.path = path.strip()
        if follow is not None:
            if follow and not row.path:
                raise ServiceError(
                    _("Give the path of the file on the server to follow it."), field="path"
                )
            row.follow = follow
        if changed_source:
            row.seen = {}
            row.problem = ""
        row.updated_by = user if getattr(user, "pk", None) else None
        row.updated_at = now
        after = _state(row)
        if after == before:
            return row
        row.save()
        audit(
            "bridgeko.bridgemate.tables",
            user=user,
            edition=match.edition,
            obj=match,
            before=before,
            after=after,
            summary=Message(
                N_(
                    "%(match)s: Bridgemate tables %(open)s (open room) and %(closed)s (closed room)"
                ),
                {"match": match.code, "open": tables.open, "closed": tables.closed},
            ),
            at=now,
        )
    return row


def _state(row: BridgemateTables | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "section": row.section,
        "open_table": row.open_table,
        "closed_table": row.closed_table,
        "segment": row.segment,
        "path": row.path,
        "follow": row.follow,
    }


# ---------------------------------------------------------------------------------------------
# Following the file while the segment is played


@dataclass(frozen=True)
class FollowStep:
    """What one read of the followed file did."""

    stored: tuple[ImportRow, ...] = ()
    """The results stored by this read (new, corrected or erased at the table)."""
    left: tuple[ImportRow, ...] = ()
    """Stored results that differ from the file's, left as stored (first seen in this read)."""
    problems: tuple[str, ...] = ()
    """What the file held but was not imported (first seen in this read)."""
    error: str = ""
    """Why the file could not be read or stored this time (read again at the next step)."""
    finished: bool = False
    """The segment (or, without one, the match) is over: this was the last read."""
    seen: Mapping[str, int] = field(default_factory=dict)
    """What to give the next step: ``"board room"`` -> the ID of the record last seen."""
    reported: tuple[str, ...] = ()
    """The problems and differences reported so far (not reported again)."""


def _key(board: int, room: str) -> str:
    return f"{board} {room}"


def _over(match: Match, segment: int | None) -> bool:
    if match.is_over:
        return True
    if segment is None:
        return False
    seg = Segment.objects.filter(match=match, number=segment).first()
    return seg is None or seg.closed_at is not None or seg.ended_at is not None


def follow_step(
    *,
    match: Match,
    data: bytes,
    tables: Tables,
    segment: int | None,
    seen: Mapping[str, int],
    user: Any,
    now: datetime,
    replace: bool = False,
    reported: tuple[str, ...] = (),
) -> FollowStep:
    """One read of a followed file: stores the results that are new or were changed at the
    tables since ``seen``, in one transaction; never raises for the file (``error`` says why
    nothing was stored: the next step reads the file again)."""
    finished = _over(match, segment)
    try:
        file = read_file(data)
        with transaction.atomic():
            locked = services.locked(match)
            check_match(locked)
            found = _read(locked, file, tables, segment)
            current = preview_of(locked, found.read)
            changed = {
                (r.board, r.room)
                for r in current.rows
                if seen.get(_key(r.board, r.room)) != found.records.get((r.board, r.room))
            }
            to_store: set[tuple[int, str]] = set()
            left: list[ImportRow] = []
            for row in current.rows:
                where = (row.board, row.room)
                if where not in changed:
                    continue
                if row.status == NEW:
                    to_store.add(where)
                elif row.status == DIFFERENT:
                    if replace or _key(*where) in seen:  # changed at the table since
                        to_store.add(where)
                    else:
                        left.append(row)
            done = (
                store(
                    match=locked,
                    read=found.read,
                    user=user,
                    now=now,
                    replace=True,
                    source="bws",
                    details=_details(tables, segment) | {"followed": True},
                    only=to_store,
                    also=lambda: found.store_plays(locked, to_store),
                )
                if to_store
                else None
            )
    except ServiceError as exc:
        return FollowStep(
            error="\n".join([exc.message, *exc.errors]),
            finished=finished,
            seen=dict(seen),
            reported=reported,
        )
    statuses = {(r.board, r.room): r.status for r in current.rows}
    new_seen = dict(seen)
    for where, ident in found.records.items():
        if where in to_store or statuses.get(where) != DIFFERENT:
            new_seen[_key(*where)] = ident
    lines = [*found.read.problems, *(f"left:{r.board}:{r.room}:{r.new}" for r in left)]
    fresh_problems = tuple(p for p in found.read.problems if p not in reported)
    fresh_left = tuple(r for r in left if f"left:{r.board}:{r.room}:{r.new}" not in reported)
    return FollowStep(
        stored=tuple(r for r in done.rows if r.status != "same") if done else (),
        left=fresh_left,
        problems=fresh_problems,
        finished=finished,
        seen=new_seen,
        reported=tuple(dict.fromkeys([*reported, *lines])),
    )
