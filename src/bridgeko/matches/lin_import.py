"""Results of a match from a LIN file (issue 20): BBO vugraph and online team matches, the
files RealBridge and BBO give for a match. The file is read by :mod:`bridgeko.bridge.lin`
(lenient: a board it cannot read is skipped and listed); each board's open (``qx|o…|``) and
closed (``qx|c…|``) table is a room, the result is the one the auction and the play (or the
claim) give, checked against the file's ``rs|`` list. The auction and the play are stored with
the result (:func:`services.set_play_record`) and shown on the board's hand record.

Which of the match's rooms a table is: BBO's first team of ``vg|`` sits North-South in the
open room. When that team is the match's visitors (its name, else the players sitting
North-South in the open room, match the visitors), the file's rooms are swapped: in the match
the home team sits North-South in the open room (R12.2). Boards are numbered as
:func:`bridgeko.matches.result_import.board_map` says; a board of one table only (a BBO hand,
no ``qx``) cannot be placed in a room and is listed.

Everything else — preview, all or nothing, differences confirmed — is
:mod:`bridgeko.matches.result_import`'s, as for PBN."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.bridge import lin
from bridgeko.bridge.cards import Seat
from bridgeko.core.errors import ServiceError
from bridgeko.matches import services
from bridgeko.matches.models import Match
from bridgeko.matches.pbn_import import FileTeams, decode_text, teams_of
from bridgeko.matches.result_import import (
    ImportPreview,
    Read,
    board_map,
    check_match,
    preview_of,
    room_label,
    store,
)

__all__ = ["import_results", "looks_like_lin", "preview"]

_LIN_KEYS = ("vg|", "pn|", "qx|", "md|", "rs|", "st|", "ah|", "sv|", "mb|")


def looks_like_lin(data: bytes) -> bool:
    """Whether the bytes start as a LIN file (a LIN key and a bar), not as PBN."""
    head = data[:200].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return any(head.startswith(key.encode()) for key in _LIN_KEYS)


@dataclass(frozen=True)
class _Found:
    read: Read
    records: dict[tuple[int, str], tuple[str, str]]
    """(the match's board, room) -> (auction, play) as stored."""
    swapped: bool


def _swapped(file: lin.LinFile, teams: FileTeams) -> tuple[bool, str | None]:
    """Whether the file's open room is the match's closed room, and a problem when the file's
    teams are not the match's."""
    first, second = (teams.side_of_team(name) for name in file.teams)
    if first == "visitors" or second == "home":
        return True, None
    if first == "home" or second == "visitors":
        return False, None
    votes = {"home": 0, "visitors": 0}
    for board in file.boards:
        if board.room != "open":
            continue
        for seat in (Seat.NORTH, Seat.SOUTH):
            side = teams.side_of_player(board.players.get(seat))
            if side is not None:
                votes[side] += 1
    if votes["visitors"] > votes["home"]:
        return True, None
    if votes["home"] > votes["visitors"]:
        return False, None
    named = [name for name in file.teams if name.strip()]
    if named:
        return False, _(
            "The file's teams (%(teams)s) and players are not the match's: its open room is "
            "taken as the match's open room — is this another match's file?"
        ) % {"teams": ", ".join(named)}
    return False, None


def _read(match: Match, data: bytes, segment: int | None) -> _Found:
    parsed = lin.parse(decode_text(data), lenient=True)
    problems = [str(p) for p in parsed.problems]
    if not parsed.boards:
        raise ServiceError(
            _("The file holds no board of a LIN file; nothing can be imported."), errors=problems
        )
    swapped, warning = _swapped(parsed, teams_of(match))
    if warning:
        problems.append(warning)
    mapping, board_problems = board_map(match, {b.number for b in parsed.boards}, segment)
    problems.extend(board_problems)
    results: dict[tuple[int, str], str] = {}
    records: dict[tuple[int, str], tuple[str, str]] = {}
    for board in parsed.boards:
        if board.number not in mapping:
            continue
        number = mapping[board.number]
        if board.room is None:
            problems.append(
                _(
                    "Board %(board)s (line %(line)s): a board of one table (no open or closed "
                    "room in the file); skipped."
                )
                % {"board": board.number, "line": board.line}
            )
            continue
        room = board.room
        if swapped:
            room = "closed" if room == "open" else "open"
        where = {"board": number, "room": room_label(room), "line": board.line}
        if board.result is None:
            problems.append(
                _(
                    "Board %(board)s, %(room)s (line %(line)s): no result in the file (the "
                    "auction or the play is not finished); skipped."
                )
                % where
            )
            continue
        results[(number, room)] = services.normalised(board.result)
        auction = ""
        if board.auction is not None:
            auction = " ".join(
                call + ("!" if i in board.auction.alerts else "")
                for i, call in enumerate(board.auction.calls)
            )
        play = " ".join(str(card) for card in board.play.cards) if board.play else ""
        records[(number, room)] = (auction, play)
    if not results:
        raise ServiceError(
            _("The file holds no result of a board of match %(code)s.") % {"code": match.code},
            errors=problems,
        )
    return _Found(Read(results=results, problems=problems), records, swapped)


def read_results(match: Match, data: bytes) -> Read:
    """The file's results of the match, storing nothing."""
    return _read(match, data, None).read


def preview(match: Match, data: bytes, *, segment: int | None = None) -> ImportPreview:
    """What importing ``data`` (a LIN file's bytes) would store, next to what is stored."""
    check_match(match)
    return preview_of(match, _read(match, data, segment).read)


def import_results(
    *,
    match: Match,
    data: bytes,
    user: Any,
    now: datetime,
    replace: bool = False,
    segment: int | None = None,
) -> ImportPreview:
    """Stores the file's results (``source="lin"``) and their auctions and plays, all in one
    transaction; differences refused unless ``replace``."""
    with transaction.atomic():
        match = services.locked(match)
        check_match(match)
        found = _read(match, data, segment)
        locked = match

        def auctions() -> dict[str, Any]:
            changed = [
                f"{board} {room}"
                for (board, room), (auction, play) in sorted(found.records.items())
                if services.set_play_record(
                    match=locked, board=board, room=room, auction=auction, play=play
                )
            ]
            return {"auctions_and_plays": changed} if changed else {}

        return store(
            match=match,
            read=found.read,
            user=user,
            now=now,
            replace=replace,
            source="lin",
            details={"segment": segment, "rooms_swapped": found.swapped},
            also=auctions,
        )
