"""Results of a match from a PBN file (issue 10, item 3): a preview of what would be stored, board
by board and room by room, next to what is stored already, and the import itself, through
:func:`bridgeko.matches.services.save_board` (the one service: versions, audit, the bracket).

The file is read by the bridge core (:func:`bridgeko.bridge.pbn.decode`: UTF-8, Windows-1250 or
ISO 8859-1, with or without a byte order mark; :func:`~bridgeko.bridge.pbn.parse` in lenient
mode, which skips a bad game and says so). Each game is one table; its room is

1. the ``[Room "Open"/"Closed"]`` tag (BBO/vugraph exports, Bridge Composer), else
2. the team sitting North-South (R12.2: the home team sits NS in the open room), told by
   ``[HomeTeam]`` naming one of the match's teams (exports that write the NS team there: the
   two games of a board then name the teams the other way round), else by the ``North``/``South``
   (and ``East``/``West``) names matched to the two teams' rosters or to the teams' names, else
3. the ``[Table]`` tag as scoring programs write it for a two-table match (1 = open, 2 = closed).

Board numbers are the match's (1-32 through the segments, R12.1). A file of one segment may
number its boards from 1: with ``segment=N`` such numbers are moved into segment N — unless
some of the file's numbers already fall in the segment: then those are taken as they are and the
others skipped (a whole match's file given with a segment imports that segment only).

What cannot be read (a game without a result, ``"?"`` or ``"-"``; a game whose room cannot be
told; a board the match does not have) is skipped and listed in :attr:`ImportPreview.problems`;
a file with nothing of the match in it is refused with a :class:`ServiceError` (one line per
problem in ``errors``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.bridge import pbn
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.core.collation import search_text
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import RosterEntry
from bridgeko.matches import services
from bridgeko.matches.models import Match
from bridgeko.matches.result_import import (
    DifferencesFound,
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
    "DifferencesFound",
    "FileTeams",
    "ImportPreview",
    "ImportRow",
    "decode_text",
    "import_results",
    "preview",
    "teams_of",
]

MAX_FILE_SIZE = 1_000_000
"""The largest file read (bytes): a 64-board match with auctions and play is ~150 kB. (The web
page sends the file back base64-encoded, within Django's 2.5 MB limit of a form.)"""

# ---------------------------------------------------------------------------------------------
# Telling the rooms apart


_WORD = re.compile(r"[^\W\d_]+")


def _words(name: str) -> frozenset[str]:
    """The words of a name, folded (no case, no diacritics); initials (one letter) left out."""
    return frozenset(w for w in _WORD.findall(search_text(name)) if len(w) > 1)


@dataclass(frozen=True)
class FileTeams:
    """The two teams of the match as the file may name them: their names and their players."""

    names: dict[str, str]
    """side -> the team's name, folded."""
    players: dict[str, list[frozenset[str]]]
    """side -> the words of each roster player's name."""

    def side_of_team(self, value: str | None) -> str | None:
        if not value:
            return None
        folded = search_text(value)
        found = [side for side, name in self.names.items() if name and name == folded]
        return found[0] if len(found) == 1 else None

    def side_of_player(self, value: str | None) -> str | None:
        """The side whose roster has a player of this name (every word of the file's name in the
        player's name: "Novák", "Jan Novák", "NOVAK J." all match "Novák Jan"), or whose team
        is called so; None when neither or both."""
        if not value:
            return None
        team = self.side_of_team(value)
        if team is not None:
            return team
        words = _words(value)
        if not words:
            return None
        found = {
            side for side, names in self.players.items() if any(words <= name for name in names)
        }
        return found.pop() if len(found) == 1 else None


def teams_of(match: Match) -> FileTeams:
    names = {"home": "", "visitors": ""}
    players: dict[str, list[frozenset[str]]] = {"home": [], "visitors": []}
    sides = {match.home_id: "home", match.visitors_id: "visitors"}
    for side, team in (("home", match.home), ("visitors", match.visitors)):
        if team is not None:
            names[side] = search_text(team.name)
    ids = [pk for pk in (match.home_id, match.visitors_id) if pk is not None]
    for entry in RosterEntry.objects.filter(team_id__in=ids).select_related("player"):
        players[sides[entry.team_id]].append(_words(entry.player.name))
    return FileTeams(names=names, players=players)


def _open_if(ns_side: str | None) -> str | None:
    """The room where ``ns_side`` sits North-South (R12.2: home NS in the open room)."""
    if ns_side is None:
        return None
    return "open" if ns_side == "home" else "closed"


def _by_home_team(game: pbn.PbnGame, teams: FileTeams) -> str | None:
    home = teams.side_of_team(game.get("HomeTeam"))
    visit = teams.side_of_team(game.get("VisitTeam"))
    if home is not None and visit is not None and home == visit:
        return None
    return _open_if(home or ({"home": "visitors", "visitors": "home"}.get(visit or "")))


def _by_players(game: pbn.PbnGame, teams: FileTeams) -> str | None:
    votes = {"home": 0, "visitors": 0}
    other = {"home": "visitors", "visitors": "home"}
    for tag, ns in (("North", True), ("South", True), ("East", False), ("West", False)):
        side = teams.side_of_player(game.get(tag))
        if side is not None:
            votes[side if ns else other[side]] += 1
    if votes["home"] == votes["visitors"]:
        return None
    return _open_if("home" if votes["home"] > votes["visitors"] else "visitors")


def _by_table(game: pbn.PbnGame, teams: FileTeams) -> str | None:
    value = (game.get("Table") or "").strip()
    return {"1": "open", "2": "closed"}.get(value)


_METHODS = (_by_home_team, _by_players, _by_table)


def _place(games: Sequence[pbn.PbnGame], taken: set[str], teams: FileTeams) -> list[str] | None:
    """The rooms of one board's games without a Room tag (``taken``: rooms of its games with
    one): the first way of telling that places every game in a room of its own; else a way
    placing all but one, the last taking the room left; None when nothing tells."""
    free = {"open", "closed"} - taken
    if len(games) > len(free):
        return None
    if len(games) == 1 and len(free) == 1:
        return sorted(free)  # the other game of the board says its room
    partial: list[str | None] | None = None
    for method in _METHODS:
        rooms = [method(g, teams) for g in games]
        known = [r for r in rooms if r is not None]
        if len(set(known)) != len(known) or not set(known) <= free:
            continue  # the tags say the same room twice: they do not tell the tables apart
        if len(known) == len(games):
            return [r for r in rooms if r is not None]
        if partial is None and len(known) == len(games) - 1 and known:
            partial = rooms
    if partial is not None:
        left = sorted(free - {r for r in partial if r is not None})
        return [r if r is not None else left[0] for r in partial]
    return None


# ---------------------------------------------------------------------------------------------
# Reading the file


def decode_text(data: bytes) -> str:
    """The text of a PBN or LIN file's bytes (at most :data:`MAX_FILE_SIZE`), or a
    :class:`ServiceError` saying why not."""
    if len(data) > MAX_FILE_SIZE:
        raise ServiceError(
            _("The file is too large (%(size)s kB; at most %(max)s kB).")
            % {"size": len(data) // 1000, "max": MAX_FILE_SIZE // 1000}
        )
    try:
        return pbn.decode(data)
    except BridgeInputError as exc:  # a UTF-16 byte order mark on bytes that are not UTF-16
        raise ServiceError(_("The file cannot be read: %(error)s") % {"error": exc}) from None


def _read(match: Match, data: bytes, segment: int | None) -> Read:
    parsed = pbn.parse(decode_text(data), lenient=True)
    problems = [str(p) for p in parsed.problems]
    if not parsed.games:
        raise ServiceError(
            _("The file holds no game of a PBN file; nothing can be imported."),
            errors=problems,
        )
    teams = teams_of(match)
    # Group the games by board (a bad Board tag skips its game), then give every game a room.
    by_board: dict[int, list[pbn.PbnGame]] = {}
    for game in parsed.games:
        try:
            number = game.board
            game.room  # noqa: B018 (a bad Room tag is a problem of its game)
        except pbn.PbnError as exc:
            problems.append(_("%(error)s; the game was skipped.") % {"error": exc})
            continue
        if number is None:
            problems.append(
                _("line %(line)s: a game without a board number; skipped.") % {"line": game.line}
            )
            continue
        by_board.setdefault(number, []).append(game)
    placed: list[pbn.PbnGame] = []
    for number, games in sorted(by_board.items()):
        tagged = [g for g in games if g.room is not None]
        loose = [g for g in games if g.room is None]
        if loose:
            rooms = _place(loose, {str(g.room).lower() for g in tagged}, teams)
            if rooms is None:
                problems.append(
                    _(
                        "Board %(board)s: cannot tell the open room from the closed room (no Room "
                        "tag, and neither the teams, the players nor the table number say which "
                        "team sits North–South); skipped."
                    )
                    % {"board": number}
                )
                continue
            loose = [
                g.with_tag("Room", room.capitalize()) for g, room in zip(loose, rooms, strict=True)
            ]
        placed.extend([*tagged, *loose])
    try:
        grouped = pbn.boards(placed)
    except pbn.PbnError as exc:
        raise ServiceError(
            _("The file cannot be imported: %(error)s.") % {"error": exc}, errors=problems
        ) from None
    mapping, board_problems = board_map(match, grouped, segment)
    problems.extend(board_problems)
    results: dict[tuple[int, str], str] = {}
    for number, rooms_games in sorted(grouped.items()):
        if number not in mapping:
            continue
        for room_name, game in sorted(rooms_games.items()):
            room = room_name.lower()
            where = {"board": number, "room": room_label(room), "line": game.line}
            try:
                result = game.result
            except pbn.PbnError as exc:
                problems.append(
                    _("Board %(board)s, %(room)s (line %(line)s): %(error)s; skipped.")
                    % (where | {"error": exc.reason})
                )
                continue
            if result is None and game.is_end_position:
                problems.append(
                    _(
                        "Board %(board)s, %(room)s (line %(line)s): an end position (fewer than "
                        "13 cards in every hand), not a board played; skipped."
                    )
                    % where
                )
                continue
            if result is None:
                problems.append(
                    _("Board %(board)s, %(room)s (line %(line)s): no result in the file; skipped.")
                    % where
                )
                continue
            results[(mapping[number], room)] = services.normalised(result)
    if not results:
        raise ServiceError(
            _("The file holds no result of a board of match %(code)s.") % {"code": match.code},
            errors=problems,
        )
    return Read(results=results, problems=problems)


# ---------------------------------------------------------------------------------------------
# The service


def read_results(match: Match, data: bytes) -> Read:
    """The file's results of the match, storing nothing."""
    return _read(match, data, None)


def preview(match: Match, data: bytes, *, segment: int | None = None) -> ImportPreview:
    """What importing ``data`` (a PBN file's bytes) into ``match`` would store, next to what is
    stored; writes nothing. A :class:`ServiceError` when the file cannot be read or holds
    nothing of the match (one line per problem in ``errors``)."""
    check_match(match)
    return preview_of(match, _read(match, data, segment))


def import_results(
    *,
    match: Match,
    data: bytes,
    user: Any,
    now: datetime,
    replace: bool = False,
    segment: int | None = None,
) -> ImportPreview:
    """Stores the file's results through :func:`services.save_board` (``source="pbn"``), all in
    one transaction: when any board is refused, nothing is stored. A result different from the
    stored one is refused unless ``replace`` (a :class:`DifferencesFound` listing each). Returns
    the preview the import followed (the statuses as they were before it)."""
    with transaction.atomic():
        match = services.locked(match)
        check_match(match)
        return store(
            match=match,
            read=_read(match, data, segment),
            user=user,
            now=now,
            replace=replace,
            source="pbn",
            details={"segment": segment},
        )
