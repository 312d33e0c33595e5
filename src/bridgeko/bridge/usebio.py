"""USEBIO 1.3 XML for a finished teams knockout: teams, matches board by board, deals, places.

USEBIO ("Universal Scoring Exchange Bridge Information Object") is the English Bridge Union's
XML format for results, read by results sites (Bridgewebs, Pianola, ...). Version 1.3 (January
2018, https://www.usebio.org/usebio-1.3.html) is defined by a *DTD* (no XSD exists) and a
specification PDF; 1.3 "remains backwards compatible with USEBIO 1.2".

**Not yet checked against the official DTD.** Neither the 1.3 DTD nor the specification could
be obtained where this module was written (``tests/data/usebio/README.md`` says where to get
them and what the test does once the DTD is there). The element names and the nesting below
are those that several independent programs reading or writing USEBIO 1.2/1.3 agree on:

* real USEBIO 1.2 files written by Compscore/Pianola (test files of ``abftech/cobalt``):
  ``CLUB``; ``EVENT`` with ``EVENT_DESCRIPTION``, ``PROGRAM_NAME``, ``DATE``, ``VENUE``,
  ``WINNER_TYPE``; ``PARTICIPANTS``; ``PLAYER`` with ``PLAYER_NAME`` and
  ``NATIONAL_ID_NUMBER``; ``TRAVELLER_LINE`` with ``CONTRACT``, ``PLAYED_BY``, ``LEAD`` (rank
  then suit, ``KD``), ``TRICKS``, ``SCORE`` (North-South's score); ``HAND`` with ``DIRECTION``
  in words and ``CLUBS``/``DIAMONDS``/``HEARTS``/``SPADES``;
* a Swiss-teams writer that says it follows the 1.2 DTD (``rhindonltd/bridge-box-scorer``):
  ``TEAM`` with the attributes ``TEAM_ID`` and ``TEAM_NAME``; ``MATCH`` with ``ROUND_NUMBER``,
  ``TEAM``, ``OPPOSING_TEAM``, ``TEAM_SCORE``, ``OPPOSING_TEAM_SCORE`` and its ``BOARD``
  elements; a board's ``IMPS`` from the first team's side; ``TRAVELLER_LINE`` starting with
  ``DIRECTION``, the direction in which the first team sat; ``VULNERABILITY`` and ``HAND``
  inside ``BOARD``;
* a USEBIO reader (``marcshearer/ImportUsebio``): ``PLACE`` with ``=`` after the number for a
  shared place (``5=``);
* a 1.3 writer (``itsthepom/pairs-stratification``): ``<USEBIO Version="1.3">``, ``DATE`` in
  ISO form ``YYYY-MM-DD``.

Where those sources say nothing, the choice is marked *unverified* below; each lives in one
constant or helper here so that the official DTD can settle it in one place.

The document this module writes::

    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_3.dtd">
    <USEBIO Version="1.3">
      <CLUB><CLUB_NAME>organiser</CLUB_NAME></CLUB>
      <EVENT EVENT_TYPE="TEAMS">                         (unverified value, EVENT_TYPE)
        <PROGRAM_NAME>bridgeko</PROGRAM_NAME> <PROGRAM_VERSION>...</PROGRAM_VERSION>
        <EVENT_DESCRIPTION>name</EVENT_DESCRIPTION>
        <DATE>first day, ISO</DATE>                     (the last day has no element: unverified)
        <VENUE>venue</VENUE>
        <BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD>
        <MATCH_SCORING_METHOD>IMPS</MATCH_SCORING_METHOD>
        <WINNER_TYPE>1</WINNER_TYPE> <BOARDS_PLAYED>boards of all matches</BOARDS_PLAYED>
        <PARTICIPANTS>
          <TEAM TEAM_ID="1" TEAM_NAME="...">
            <PLACE>1</PLACE> or <PLACE>5=</PLACE>
            <PLAYER><PLAYER_NAME>Dvořák Jiří</PLAYER_NAME>
                    <NATIONAL_ID_NUMBER>1234</NATIONAL_ID_NUMBER></PLAYER>   (number when known)
          </TEAM>
        </PARTICIPANTS>
        <MATCH>                                          one per match, in the order given
          <ROUND_NUMBER>1</ROUND_NUMBER> <TEAM>home</TEAM> <OPPOSING_TEAM>away</OPPOSING_TEAM>
          <TEAM_SCORE>IMPs</TEAM_SCORE> <OPPOSING_TEAM_SCORE>IMPs</OPPOSING_TEAM_SCORE>
          <BOARD>
            <BOARD_NUMBER>1</BOARD_NUMBER>
            <VULNERABILITY>Love</VULNERABILITY> <HAND>...</HAND> x 4     (when the deal is known)
            <IMPS>net IMPs to the home team</IMPS>                       (when the board counts)
            <TRAVELLER_LINE>                                            one per room played
              <DIRECTION>NS</DIRECTION>        (the home team: NS in the open room, EW closed)
              <CONTRACT>4SX</CONTRACT> <PLAYED_BY>S</PLAYED_BY> <LEAD>KH</LEAD>
              <TRICKS>8</TRICKS> <SCORE>-500</SCORE>                    (North-South's score)
            </TRAVELLER_LINE>
          </BOARD>
        </MATCH>
      </EVENT>
    </USEBIO>

A passed-out board has ``CONTRACT`` ``PASS``, ``SCORE`` 0 and no ``PLAYED_BY``, ``LEAD`` or
``TRICKS``. A room not played has no traveller line; a board not played in either room is
written with its number (and its deal, when known) only. A board counts when both rooms played
it (its IMPs are computed here, :func:`bridgeko.bridge.scoring.score_board`) or when the caller
gives its IMPs (an artificial adjusted score); otherwise it has no ``IMPS`` and adds nothing.
The stage name of a match (``"Semifinal"``) has no element in the sources above: it is kept in
:class:`UsebioMatch` for the caller, and the stage's order is ``ROUND_NUMBER``.

The writer is pure and deterministic: the same input gives the same bytes (no clock, no
randomness; ``program_version`` is an input).

>>> from datetime import date
>>> from bridgeko.bridge.scoring import parse_result
>>> team = lambda n, name: UsebioTeam(n, name, (UsebioPlayer("Dvořák Jiří", "1234"),), place=n)
>>> board = UsebioBoard(1, parse_result("4S N ="), parse_result("4S N -1"))
>>> event = UsebioEvent(
...     "KO", date(2026, 5, 1), date(2026, 5, 3), "ČBS", "Praha",
...     (team(1, "Vltava"), team(2, "Labe")),
...     (UsebioMatch("Final", 1, 1, 2, (board,)),),
... )
>>> xml = write(event)
>>> xml.splitlines()[0]
b'<?xml version="1.0" encoding="UTF-8"?>'
>>> b"<IMPS>10</IMPS>" in xml, "Dvořák Jiří".encode() in xml
(True, True)
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from bridgeko.bridge.board import vulnerability as standard_vulnerability
from bridgeko.bridge.cards import Deal, Seat, Suit, Vulnerability
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.result import BoardResult
from bridgeko.bridge.scoring import WBF_IMP_SCALE, imps, result_score

__all__ = [
    "DOCTYPE_SYSTEM_ID",
    "EVENT_TYPE",
    "USEBIO_VERSION",
    "UsebioBoard",
    "UsebioError",
    "UsebioEvent",
    "UsebioMatch",
    "UsebioPlayer",
    "UsebioTeam",
    "write",
]

USEBIO_VERSION = "1.3"
"""The ``Version`` attribute of the root element."""
DOCTYPE_SYSTEM_ID = "http://www.usebio.org/files/usebio_v1_3.dtd"
"""The DTD named in the ``DOCTYPE``. Unverified: 1.2 files name
``http://www.usebio.org/files/usebio_v1_2.dtd`` (or the same file on ebu.co.uk); 1.3 by analogy."""
EVENT_TYPE = "TEAMS"
"""The ``EVENT_TYPE`` attribute of ``EVENT``. Unverified: 1.2 files use kind-and-movement values
(``SWISS_TEAMS``, ``BUTLER_PAIRS``); 1.3 deprecates ``MP_PAIRS`` for ``PAIRS`` with a scoring
method element, so a teams event of IMP matches is ``TEAMS`` with ``IMPS`` scoring."""
PROGRAM_NAME = "bridgeko"

_SEAT_WORDS = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
_SUIT_ELEMENTS = ((Suit.CLUBS, "CLUBS"), (Suit.DIAMONDS, "DIAMONDS"), (Suit.HEARTS, "HEARTS"),
                  (Suit.SPADES, "SPADES"))  # fmt: skip
"""The suits of a ``HAND`` in the order the Compscore/Pianola files write them."""
_VULNERABILITY_WORDS = {
    Vulnerability.NONE: "Love",
    Vulnerability.NS: "North-South",
    Vulnerability.EW: "East-West",
    Vulnerability.ALL: "All",
}
"""``VULNERABILITY`` text as the Swiss-teams writer above gives it (unverified)."""
_PASSED_OUT = "PASS"


class UsebioError(BridgeInputError):
    """An event that cannot be written: a match naming an unknown team, a bad place."""


@dataclass(frozen=True, slots=True)
class UsebioPlayer:
    """A member of a team."""

    name: str
    """The name as it should appear in results (e.g. ``"Dvořák Jiří"``)."""
    federation_number: str | None = None
    """The national federation's number (``NATIONAL_ID_NUMBER``); None when not known."""


@dataclass(frozen=True, slots=True)
class UsebioTeam:
    """A team of the event and its final place."""

    number: int
    """The team's number in the event (``TEAM_ID``; matches refer to teams by it)."""
    name: str
    """The team's name (``TEAM_NAME``)."""
    players: tuple[UsebioPlayer, ...] = ()
    """The players, in the order to be listed."""
    place: int | None = None
    """The final place (1 = winner); None when the team has none (withdrawn)."""
    place_to: int | None = None
    """The last place of a shared range (teams out in the same round: 5 to 8); None or equal to
    ``place`` when the place is not shared. A shared place is written ``5=``."""


@dataclass(frozen=True, slots=True)
class UsebioBoard:
    """One board of a match: the result in each room, the deal when known.

    The home team sits North-South in the open room and East-West in the closed room (R12.2).
    """

    number: int
    """The board number."""
    open_room: BoardResult | None = None
    """The open room's result (home team NS); None when not played there."""
    closed_room: BoardResult | None = None
    """The closed room's result (home team EW); None when not played there."""
    deal: Deal | None = None
    """The four hands, when known."""
    vulnerability: Vulnerability | None = None
    """The board's vulnerability; None = that of the standard cycle for ``number``."""
    imps: int | None = None
    """Net IMPs to the home team when given by the caller (an artificial adjusted score, or a
    board played in one room only); None = computed from both rooms, or no IMPs when a room is
    missing."""

    @property
    def board_vulnerability(self) -> Vulnerability:
        if self.vulnerability is not None:
            return self.vulnerability
        return standard_vulnerability(self.number)

    @property
    def net_imps(self) -> int | None:
        """IMPs to the home team (negative when the visitors gain); None when the board does not
        count (a room missing and no IMPs given)."""
        if self.imps is not None:
            return self.imps
        if self.open_room is None or self.closed_room is None:
            return None
        vul = self.board_vulnerability
        difference = result_score(self.open_room, vul) - result_score(self.closed_room, vul)
        return imps(difference, WBF_IMP_SCALE)


@dataclass(frozen=True, slots=True)
class UsebioMatch:
    """One knockout match between two teams."""

    stage: str
    """The stage's name (``"Semifinal"``, ``"Final"``, ``"Play-off for 3rd place"``)."""
    round_number: int
    """The stage's order in the event, 1 for the first round (``ROUND_NUMBER``)."""
    home: int
    """The home team's number (North-South in the open room)."""
    away: int
    """The visiting team's number."""
    boards: tuple[UsebioBoard, ...]
    """The boards in the order played."""
    home_extra_imps: Decimal = Decimal(0)
    """IMPs added to the home team's total beyond the boards (carry-over, an adjustment)."""
    away_extra_imps: Decimal = Decimal(0)
    """IMPs added to the visiting team's total beyond the boards."""

    @property
    def home_imps(self) -> Decimal:
        """The home team's IMPs: the boards it won plus ``home_extra_imps``."""
        won = sum(max(b.net_imps or 0, 0) for b in self.boards)
        return Decimal(won) + self.home_extra_imps

    @property
    def away_imps(self) -> Decimal:
        """The visiting team's IMPs: the boards it won plus ``away_extra_imps``."""
        won = sum(max(-(b.net_imps or 0), 0) for b in self.boards)
        return Decimal(won) + self.away_extra_imps


@dataclass(frozen=True, slots=True)
class UsebioEvent:
    """A finished teams knockout."""

    name: str
    """The event's name (``EVENT_DESCRIPTION``)."""
    start: date
    """The first day (``DATE``)."""
    end: date
    """The last day (no element in the sources this module follows: not written)."""
    organiser: str
    """The organising club or federation (``CLUB_NAME``)."""
    venue: str
    """Where it was played (``VENUE``); empty when not to be written."""
    teams: tuple[UsebioTeam, ...]
    """The teams, in the order to be listed."""
    matches: tuple[UsebioMatch, ...]
    """The matches, in the order to be listed (by stage, then table)."""
    organiser_id: str | None = None
    """The organiser's club number (``CLUB_ID_NUMBER``), when it has one."""
    program_version: str = ""
    """``PROGRAM_VERSION``; empty = not written (the caller passes bridgeko's version)."""


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold (ElementTree would write them and give an unreadable file)."""


def _xml_text(value: object, where: str) -> str:
    text = str(value)
    bad = _NOT_XML.search(text)
    if bad:
        raise UsebioError(f"{where}: {text!r} holds U+{ord(bad.group()):04X}, not allowed in XML")
    return text


def _text(parent: ET.Element, tag: str, value: object) -> ET.Element:
    child = ET.SubElement(parent, tag)
    child.text = _xml_text(value, tag)
    return child


def _decimal(value: Decimal) -> str:
    """``12``, ``12.5`` (no exponent, no trailing zeros)."""
    text = format(value.normalize(), "f")
    return text if "." not in text else text.rstrip("0").rstrip(".")


def _place(team: UsebioTeam) -> str | None:
    if team.place is None:
        if team.place_to is not None:
            raise UsebioError(f"team {team.number} ({team.name}) has place_to but no place")
        return None
    last = team.place if team.place_to is None else team.place_to
    if team.place < 1 or last < team.place:
        raise UsebioError(
            f"team {team.number} ({team.name}): a place is 1 or more and a shared range runs "
            f"upwards, not {team.place}-{last}"
        )
    return f"{team.place}=" if last > team.place else str(team.place)


def _participants(event_el: ET.Element, teams: Sequence[UsebioTeam]) -> None:
    participants = ET.SubElement(event_el, "PARTICIPANTS")
    for team in teams:
        team_el = ET.SubElement(
            participants,
            "TEAM",
            {"TEAM_ID": str(team.number), "TEAM_NAME": _xml_text(team.name, "TEAM_NAME")},
        )
        place = _place(team)
        if place is not None:
            _text(team_el, "PLACE", place)
        for player in team.players:
            player_el = ET.SubElement(team_el, "PLAYER")
            _text(player_el, "PLAYER_NAME", player.name)
            if player.federation_number:
                _text(player_el, "NATIONAL_ID_NUMBER", player.federation_number)


def _hands(board_el: ET.Element, deal: Deal) -> None:
    for seat in Seat:
        hand_el = ET.SubElement(board_el, "HAND")
        _text(hand_el, "DIRECTION", _SEAT_WORDS[seat])
        hand = deal[seat]
        for suit, tag in _SUIT_ELEMENTS:
            _text(hand_el, tag, "".join(rank.char for rank in hand.holding(suit)))


def _traveller_line(
    board_el: ET.Element, result: BoardResult, home_direction: str, vul: Vulnerability
) -> None:
    line = ET.SubElement(board_el, "TRAVELLER_LINE")
    _text(line, "DIRECTION", home_direction)
    if result.is_passed_out or result.declarer is None or result.tricks is None:
        _text(line, "CONTRACT", _PASSED_OUT)
    else:
        _text(line, "CONTRACT", result.contract)
        _text(line, "PLAYED_BY", result.declarer.value)
        if result.lead is not None:
            _text(line, "LEAD", f"{result.lead.rank.char}{result.lead.suit.value}")
        _text(line, "TRICKS", result.tricks)
    _text(line, "SCORE", result_score(result, vul))


def _match(event_el: ET.Element, match: UsebioMatch) -> None:
    match_el = ET.SubElement(event_el, "MATCH")
    _text(match_el, "ROUND_NUMBER", match.round_number)
    _text(match_el, "TEAM", match.home)
    _text(match_el, "OPPOSING_TEAM", match.away)
    _text(match_el, "TEAM_SCORE", _decimal(match.home_imps))
    _text(match_el, "OPPOSING_TEAM_SCORE", _decimal(match.away_imps))
    for board in match.boards:
        board_el = ET.SubElement(match_el, "BOARD")
        _text(board_el, "BOARD_NUMBER", board.number)
        vul = board.board_vulnerability
        if board.deal is not None:
            _text(board_el, "VULNERABILITY", _VULNERABILITY_WORDS[vul])
            _hands(board_el, board.deal)
        net = board.net_imps
        if net is not None:
            _text(board_el, "IMPS", net)
        if board.open_room is not None:
            _traveller_line(board_el, board.open_room, "NS", vul)
        if board.closed_room is not None:
            _traveller_line(board_el, board.closed_room, "EW", vul)


def _check(event: UsebioEvent) -> None:
    numbers = [t.number for t in event.teams]
    if len(set(numbers)) != len(numbers):
        raise UsebioError(f"two teams have the same number: {sorted(numbers)}")
    if event.end < event.start:
        raise UsebioError(f"the event ends ({event.end}) before it starts ({event.start})")
    known = set(numbers)
    for match in event.matches:
        for number in (match.home, match.away):
            if number not in known:
                raise UsebioError(f"the match {match.stage!r} names team {number}, not a team")
        if match.home == match.away:
            raise UsebioError(f"the match {match.stage!r} has team {match.home} on both sides")
        for board in match.boards:
            if isinstance(board.number, bool) or board.number < 1:
                raise UsebioError(f"a board number is 1 or more, not {board.number!r}")


def write(event: UsebioEvent) -> bytes:
    """The USEBIO 1.3 document of ``event``: UTF-8 with an XML declaration and a ``DOCTYPE``."""
    _check(event)
    root = ET.Element("USEBIO", {"Version": USEBIO_VERSION})
    club = ET.SubElement(root, "CLUB")
    _text(club, "CLUB_NAME", event.organiser)
    if event.organiser_id:
        _text(club, "CLUB_ID_NUMBER", event.organiser_id)
    event_el = ET.SubElement(root, "EVENT", {"EVENT_TYPE": EVENT_TYPE})
    _text(event_el, "PROGRAM_NAME", PROGRAM_NAME)
    if event.program_version:
        _text(event_el, "PROGRAM_VERSION", event.program_version)
    _text(event_el, "EVENT_DESCRIPTION", event.name)
    _text(event_el, "DATE", event.start.isoformat())
    if event.venue:
        _text(event_el, "VENUE", event.venue)
    _text(event_el, "BOARD_SCORING_METHOD", "IMPS")
    _text(event_el, "MATCH_SCORING_METHOD", "IMPS")
    _text(event_el, "WINNER_TYPE", 1)
    _text(event_el, "BOARDS_PLAYED", sum(len(m.boards) for m in event.matches))
    _participants(event_el, event.teams)
    for match in event.matches:
        _match(event_el, match)
    ET.indent(root, space="  ")
    head = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM "{DOCTYPE_SYSTEM_ID}">\n'
    )
    return (head + ET.tostring(root, encoding="unicode") + "\n").encode("utf-8")
