r"""Read LIN files: the hand records of Bridge Base Online (BBO), its vugraph archive and the
programs that write them.

The format
----------

A LIN file is a sequence of ``key|value|`` pairs: a key of two letters, a bar, the value (any
text without a bar), a bar. Line breaks (LF or CRLF) may stand between pairs and inside values;
a key is read without them, a value that is a code (``md``, ``mb``, ``pc``, ``qx`` ...) without
any blanks, and a value that is text (names, the event, alert explanations) with each run of
blanks and line breaks read as one space. The keys read:

========  =============================================================================
``vg``    a vugraph match: ``event,segment,scoring,first board,last board,team 1,carry-over 1,
          team 2,carry-over 2``. Team 1 is the *home* team: the team sitting North-South in the
          open room (BBO's vugraph convention).
``rs``    the results, comma-separated, two a board from the first board of ``vg`` (without
          ``vg``, the lowest board number of the file) on: open room, closed room, open room of
          the next board ... (``4HE=``, ``3NW+1``, ``5DNx-2``, ``PASS``; empty when not known).
          A board of a single table takes the open room's place.
``pn``    the players, South, West, North, East. A vugraph file gives eight names: the open room
          South, West, North, East, then the closed room in the same order (a board of a single
          table takes the first four, as does a closed room when only four are given). A ``pn``
          holds for the boards that follow, until the next one; an empty name is no name.
``qx``    starts a board of a vugraph: ``o46`` (open room, board 46), ``c46`` (closed room);
          text after a comma (``o1,BOARD 1``) is ignored.
``md``    the deal: a digit for the dealer (1 = South, 2 = West, 3 = North, 4 = East), then the
          hands of South, West, North and East, comma-separated, each as suit letters followed
          by ranks (``S48JH25TQD235C679``, ranks in any order). A missing or empty fourth hand is
          the cards the other three do not hold, when they hold 13 each.
``sv``    the vulnerability: ``o``/``0``/``-`` none, ``n`` North-South, ``e`` East-West, ``b``
          both. Without one, the board number's (the standard 16-board cycle).
``ah``    a heading such as ``Board 15``: its number is the board number of a file with no
          ``qx`` (and must agree with ``qx`` when both are given).
``mb``    one call (``p``, ``d``, ``r``, ``1S``, ``3N``); a ``!`` after it marks an alert.
``an``    the explanation of the call just made (one before any call is ignored).
``pc``    one card played (``c2``, ``HA``).
``mc``    a claim: the declarer's total number of tricks (those already won included).
========  =============================================================================

Every other key is ignored: ``pg`` (a pause of the replay), ``nt`` (commentary), ``st``,
``rh``, ``sa``, ``zz``, ``pw``, ``bn`` and any key not listed here. BBO's undo (``up``) is not
replayed. A second ``vg`` or ``rs`` replaces the first; of two ``mc``, the last counts.

Where a board starts: at ``qx``; without ``qx``, at a ``md`` when the board read so far already
has a deal, at an ``ah`` when it already has a heading, calls or cards, and at a ``sv`` when it
already has calls or cards (so both a vugraph file and a file of single BBO hands, one a line,
are read). A board's players are those of the last ``pn`` before its deal; in a board started by
``qx``, a ``pn`` after the deal and before the first call still counts.

What is checked
---------------

The calls must make a legal auction and the cards a legal play of its contract with the deal
(:mod:`bridgeko.bridge.play_record`); a claim must be possible after the tricks played. The
result (:attr:`LinBoard.result`) comes from the auction and the claim, or the 13 tricks played;
when ``rs`` states a result for the board and room, the two must agree. A file that ends in the
middle of a pair, before the deal of its last board, in the middle of its last auction, in the
middle of its last play without a claim, or before the result ``rs`` gives for its last board is
taken for a file cut off. A board of an unfinished auction or play in the middle of a file is
kept, without a result (a vugraph operator may leave a board early); a board with a deal and no
auction is a deal alone, also at the end.

:func:`parse` never raises anything but :class:`LinError`, which names the line, the board and
the problem; with ``lenient=True`` it skips a board it cannot read instead, keeps one whose
result disagrees with ``rs``, and says so in :attr:`LinFile.problems`.

>>> f = parse("pn|Sam,Wes,Nora,Ed|md|1SAKQJHT98D765C432,ST987HAKQJD32CAKQ,S6543H765DAKQCJT9,|"
...           "ah|Board 1|sv|o|mb|1S|mb|p|mb|4S|mb|p|mb|p|mb|p|pc|HA|mc|11|pg||")
>>> board = f.boards[0]
>>> board.number, board.dealer, board.players[Seat.NORTH], str(board.result)
(1, <Seat.SOUTH: 'S'>, 'Nora', '4S S +1')
>>> parse("qx|o1|md|1SAKQ|mb|1S|mb|1C|")
Traceback (most recent call last):
...
bridgeko.bridge.lin.LinError: line 1: board 1 (open room): call 2 (W): 1C is not higher than 1S

Text is :class:`str`; :func:`decode` reads the bytes of a file (UTF-8, else Windows-1250 or
ISO 8859-1, as :func:`bridgeko.bridge.pbn.decode`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from bridgeko.bridge import board as _board
from bridgeko.bridge import pbn
from bridgeko.bridge.cards import FULL_PACK, Card, Deal, Hand, Rank, Seat, Suit, Vulnerability
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.errors import BridgeInputError, LineError, Problem
from bridgeko.bridge.play_record import Auction, AuctionError, Play, PlayError, table_result
from bridgeko.bridge.result import BoardResult

__all__ = [
    "LinBoard",
    "LinError",
    "LinFile",
    "Problem",
    "decode",
    "parse",
    "parse_result",
]


class LinError(LineError):
    """A LIN file that cannot be read; :attr:`line` is the 1-based line of the problem."""


@dataclass(frozen=True, slots=True)
class LinBoard:
    """One board at one table, as the file records it."""

    number: int
    """The board number."""
    room: str | None
    """``"open"`` or ``"closed"`` (a vugraph's ``qx``), None for a single table."""
    deal: Deal | None
    """The deal; None when the file gives none."""
    dealer: Seat
    """The dealer (from ``md``, else from the board number)."""
    vulnerability: Vulnerability
    """The vulnerability (from ``sv``, else from the board number)."""
    players: dict[Seat, str] = field(default_factory=dict)
    """The players' names (seats with no name left out)."""
    auction: Auction | None = None
    """The calls; None when the file gives none."""
    play: Play | None = None
    """The cards played; None when none were."""
    claim: int | None = None
    """The claim (``mc``): the declarer's total tricks."""
    result: BoardResult | None = None
    """The result from the auction and the claim or the 13 tricks played (with the lead)."""
    stated: str | None = None
    """The result ``rs`` gives for this board and room, as written (``"4HE="``)."""
    line: int = field(default=0, compare=False)
    """The line where the board starts."""

    @property
    def label(self) -> str:
        """``"board 46 (open room)"``, ``"board 15"``: the board as messages name it."""
        return _label(self.number, self.room)

    @property
    def stated_result(self) -> BoardResult | None:
        """:attr:`stated` as a result (no lead); None when ``rs`` states none.

        Raises :class:`LinError` when it is not a result."""
        if self.stated is None:
            return None
        try:
            return parse_result(self.stated)
        except LinError as exc:
            raise LinError(self.line, f"{self.label}: rs| {exc.reason}") from None


@dataclass(frozen=True, slots=True)
class LinFile:
    """What :func:`parse` read: the match (``vg``), the boards, and what it could not read."""

    boards: tuple[LinBoard, ...]
    """The boards in the order of the file."""
    event: str = ""
    """The event (``vg``)."""
    segment: str = ""
    """The segment (``vg``), e.g. ``"Segment 4 of 8"``."""
    scoring: str = ""
    """The scoring letter of ``vg``: ``I`` (IMPs), ``P`` (matchpoints), ``B`` (board-a-match)."""
    teams: tuple[str, str] = ("", "")
    """Team 1 (home: North-South in the open room) and team 2 (``vg``)."""
    carry_over: tuple[float, float] | None = None
    """The two teams' carry-over (``vg``); None when the file gives none."""
    first_board: int | None = None
    """The first board of the segment (``vg``)."""
    last_board: int | None = None
    """The last board of the segment (``vg``)."""
    problems: tuple[Problem, ...] = ()
    """Skipped boards and disagreements, with their lines (lenient mode only)."""

    def board(self, number: int, room: str | None = None) -> LinBoard | None:
        """The board ``number`` played in ``room`` (``"open"``/``"closed"``/None), or None."""
        for b in self.boards:
            if b.number == number and b.room == room:
                return b
        return None


def decode(data: bytes, encoding: str = "auto") -> str:
    r"""The text of a LIN file's bytes, as :func:`bridgeko.bridge.pbn.decode` reads them: UTF-8
    when valid, else Windows-1250 (when it gives Czech letters), else ISO 8859-1; a byte order
    mark is dropped. Raises :class:`LinError` for bytes that are not in a given encoding.

    >>> decode("pn|Dvořák|".encode("cp1250")), decode(b"\xef\xbb\xbfpg||")
    ('pn|Dvořák|', 'pg||')
    """
    try:
        return pbn.decode(data, encoding)
    except BridgeInputError as exc:
        raise LinError(0, str(exc)) from None


# -- results as rs| writes them ----------------------------------------------------------------

_RESULT = re.compile(r"([1-7])(NT|N|S|H|D|C)([NESW])(XX|X|R)?(=|[+-][0-9]{1,2})")
_PASS_RESULTS = frozenset({"PASS", "P"})


def parse_result(text: str) -> BoardResult | None:
    """A result written as ``rs|`` gives it: ``"4HE="``, ``"3NW+1"``, ``"4SWx-4"``, ``"PASS"``
    (None for ``""``). Raises :class:`LinError` for anything else.

    >>> str(parse_result("5DNx-2")), str(parse_result("3NN+3")), parse_result("")
    ('5DX N -2', '3NT N +3', None)
    """
    t = "".join(text.split()).upper()
    if not t:
        return None
    if t in _PASS_RESULTS:
        return BoardResult.passed_out()
    m = _RESULT.fullmatch(t)
    if m is None:
        raise LinError(0, f"{_show(text)} is not a result (expected e.g. 4HE=, 3NW+1 or PASS)")
    level, strain, seat, dbl, made = m.groups()
    doubling = {None: Doubling.UNDOUBLED, "X": Doubling.DOUBLED}.get(dbl, Doubling.REDOUBLED)
    contract = Contract.parse(f"{level}{strain}{doubling.suffix}")
    tricks = contract.tricks_needed + (0 if made == "=" else int(made))
    if not 0 <= tricks <= 13:
        raise LinError(0, f"{_show(text)} is not a result ({tricks} tricks)")
    return BoardResult(contract, Seat(seat), tricks)


def _result_text(result: BoardResult) -> str:
    """A result as ``rs|`` writes it: ``4HE=``, ``3NW+1``, ``5DNx-2``, ``PASS``."""
    c = result.contract
    if c.is_passed_out or c.strain is None or result.declarer is None:
        return "PASS"
    strain = "N" if c.strain.value == "NT" else c.strain.value
    diff = result.over_under
    return (
        f"{c.level}{strain}{result.declarer.value}{c.doubling.suffix.lower()}"
        f"{'=' if diff == 0 else f'{diff:+d}'}"
    )


# -- the lexer ---------------------------------------------------------------------------------

_KEY = re.compile(r"[A-Za-z]{2}")
_MAX_DIGITS = 6
"""The longest board number, claim or carry-over the reader takes (more is a bad value)."""


@dataclass(frozen=True, slots=True)
class _Pair:
    key: str
    """The key, lower case, without blanks (not yet checked)."""
    value: str
    """The value as written."""
    line: int
    """The line of the key."""


def _lex(text: str) -> tuple[list[_Pair], tuple[str, LinError] | None]:
    """The pairs of ``text`` in order; for a file cut off inside a pair, the key of that pair
    (lower case, without blanks) and the error."""
    pairs: list[_Pair] = []
    pos, line, end = 0, 1, len(text)
    while pos < end:
        bar = text.find("|", pos)
        raw = text[pos:] if bar < 0 else text[pos:bar]
        lead = len(raw) - len(raw.lstrip())
        key_line = line + raw.count("\n", 0, lead)
        key = "".join(raw.split())
        if bar < 0:
            if not key:
                break
            if not pairs:
                message = "not a LIN file: no key|value| pairs (such as md|...| or qx|o1|)"
                return pairs, ("", LinError(key_line, message))
            message = f"the file ends with {_show(key)}, not a key|value| pair (is it cut off?)"
            return pairs, ("", LinError(key_line, message))
        line += raw.count("\n")
        close = text.find("|", bar + 1)
        if close < 0:
            shown = f"{key}|" if _KEY.fullmatch(key) else _show(key)
            message = f"the file ends inside the value of {shown} (is it cut off?)"
            return pairs, (key.lower(), LinError(key_line, message))
        value = text[bar + 1 : close]
        pairs.append(_Pair(key.lower(), value, key_line))
        line += value.count("\n")
        pos = close + 1
    return pairs, None


def _show(text: str, size: int = 30) -> str:
    """``text`` quoted for a message, shortened."""
    return repr(text if len(text) <= size else text[:size] + "...")


def _code(value: str) -> str:
    """A value that is a code: without blanks and line breaks."""
    return "".join(value.split())


def _words(value: str) -> str:
    """A value that is text: each run of blanks and line breaks read as one space."""
    return " ".join(value.split())


def _number(text: str) -> int | None:
    """A whole number of at most ``_MAX_DIGITS`` ASCII digits, or None."""
    t = text.lstrip("0") or "0"
    if not text or len(t) > _MAX_DIGITS or not all("0" <= c <= "9" for c in text):
        return None
    return int(t)


# -- the values of a board ---------------------------------------------------------------------

_DEALERS = {"1": Seat.SOUTH, "2": Seat.WEST, "3": Seat.NORTH, "4": Seat.EAST}
_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
"""The order of the hands of ``md`` and of the names of ``pn``."""
_VULNERABILITY = {
    "o": Vulnerability.NONE,
    "0": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "n": Vulnerability.NS,
    "e": Vulnerability.EW,
    "b": Vulnerability.ALL,
}
_ROOMS = {"o": "open", "c": "closed"}
_BOARD_KEYS = frozenset({"qx", "md", "ah", "sv", "mb", "pc", "mc"})
"""The keys of a board's record (``an`` belongs to the call before it)."""
_QX = re.compile(r"([oc])([0-9]+)", re.IGNORECASE)


def _label(number: int | None, room: str | None, line: int = 0) -> str:
    if number is None:
        return f"the board starting at line {line}"
    return f"board {number}" if room is None else f"board {number} ({room} room)"


def _hand(text: str) -> Hand:
    """One hand of ``md``: suit letters, each followed by its ranks (``S48JH25TQD235C679``)."""
    cards: list[Card] = []
    suit: Suit | None = None
    for char in text.upper().replace("10", "T"):
        if char in "SHDC":
            suit = Suit(char)
        elif suit is None:
            raise BridgeInputError(f"the rank {char!r} comes before a suit letter")
        else:
            cards.append(Card(suit, Rank.parse(char)))
    return Hand.of(cards)


def _deal(value: str) -> tuple[Seat | None, Deal | None]:
    """The dealer and the deal of a ``md`` value (no cards at all: no deal)."""
    text = _code(value)
    dealer: Seat | None = None
    if text[:1] in _DEALERS:
        dealer, text = _DEALERS[text[0]], text[1:]
    elif text[:1].isdigit():
        raise BridgeInputError(f"the dealer is 1 to 4 (S, W, N, E), not {text[0]!r}")
    parts = text.split(",")
    if len(parts) > 4 and any(parts[4:]):
        raise BridgeInputError(f"{len(parts)} hands, not 4")
    parts += [""] * (4 - len(parts))
    hands: dict[Seat, Hand] = {}
    for seat, part in zip(_LIN_SEATS, parts[:4], strict=True):
        try:
            hands[seat] = _hand(part)
        except BridgeInputError as exc:
            raise BridgeInputError(f"the hand of {seat.name.title()}: {exc}") from None
    known = [hands[s] for s in _LIN_SEATS[:3]]
    if not parts[3] and all(len(h) == 13 for h in known):
        held = set().union(*(h.cards for h in known))
        hands[Seat.EAST] = Hand(frozenset(c for c in FULL_PACK if c not in held))
    if not any(hands.values()):
        return dealer, None
    return dealer, Deal.from_hands(hands)


def _vulnerability(value: str) -> Vulnerability | None:
    text = _code(value).lower()
    if not text:
        return None
    if text in _VULNERABILITY:
        return _VULNERABILITY[text]
    try:
        return Vulnerability.parse(text)
    except BridgeInputError:
        raise BridgeInputError(
            f"sv|{_code(value)[:10]}| is not a vulnerability (expected o, n, e or b)"
        ) from None


def _card(value: str) -> Card:
    text = _code(value).upper()
    if len(text) == 3 and text.endswith("10"):
        text = text[0] + "T"
    return Card.parse(text)


def _names(value: str) -> list[str]:
    return [_words(n) for n in value.split(",")]


@dataclass
class _Draft:
    """A board being read: the pairs of its keys, as written, with their lines."""

    line: int
    by_qx: bool
    names: list[str]
    number: int | None = None
    ah_number: int | None = None
    ah_line: int = 0
    room: str | None = None
    md: _Pair | None = None
    sv: _Pair | None = None
    has_ah: bool = False
    calls: list[_Pair] = field(default_factory=list)
    alerts: dict[int, str] = field(default_factory=dict)
    cards: list[_Pair] = field(default_factory=list)
    claim: _Pair | None = None
    names_fixed: bool = False
    error: LinError | None = None

    @property
    def started(self) -> bool:
        """Whether the auction or the play has begun."""
        return bool(self.calls or self.cards or self.claim)

    def fail(self, line: int, message: str) -> None:
        """Note the board's first problem (it is reported when the board ends)."""
        if self.error is None:
            self.error = LinError(line, message)

    def label(self) -> str:
        return _label(
            self.number if self.number is not None else self.ah_number, self.room, self.line
        )


class _Reader:
    """Reads the pairs of a file, a board at a time."""

    def __init__(self, lenient: bool) -> None:
        self.lenient = lenient
        self.problems: list[Problem] = []
        self.boards: list[LinBoard] = []
        self.names: list[str] = []
        self.draft: _Draft | None = None
        self.vg: _Pair | None = None
        self.rs: _Pair | None = None
        self.seen: dict[tuple[int, str | None], int] = {}
        self.end_line = 0
        """The line of the last board of the file."""

    def fail(self, line: int, message: str) -> None:
        """A problem: an error in strict mode, noted in lenient mode."""
        if not self.lenient:
            raise LinError(line, message)
        self.problems.append(Problem(line, message))

    # -- the pairs ----------------------------------------------------------------------------
    def read(self, text: str) -> LinFile:
        pairs, cut = _lex(text.removeprefix("\ufeff"))
        for k, pair in enumerate(pairs):
            if _KEY.fullmatch(pair.key) is None:
                message = f"{_show(pair.key)} is not a LIN key (two letters before a |)"
                if k == 0:
                    message = f"not a LIN file: it starts with {_show(pair.key)}|, not a key|"
                if self.draft is not None:
                    self.draft.fail(pair.line, message)
                else:
                    self.fail(pair.line, message)
                continue
            self.pair(pair)
        if cut is not None:
            key, error = cut
            if key in _BOARD_KEYS and self.opens(key):
                self.start(_Pair(key, "", error.line), by_qx=key == "qx")
            if self.draft is not None:
                self.draft.fail(error.line, error.reason)
            else:
                self.fail(error.line, error.reason)
        self.close(at_end=True)
        return self.finish()

    def start(self, pair: _Pair, by_qx: bool = False) -> _Draft:
        self.close(at_end=False)
        self.draft = _Draft(pair.line, by_qx, list(self.names))
        return self.draft

    def opens(self, key: str) -> bool:
        """Whether ``key`` starts a new board after the board being read (see the docstring)."""
        d = self.draft
        if key == "qx" or d is None:
            return True
        if key == "md":
            return d.md is not None
        if key == "ah":
            return d.has_ah or d.started
        if key == "sv":
            return d.started
        return False

    def pair(self, pair: _Pair) -> None:
        key, value, line = pair.key, pair.value, pair.line
        if key == "vg":
            self.vg = pair
            return
        if key == "rs":
            self.rs = pair
            return
        if key == "pn":
            self.names = _names(value)
            if self.draft is not None and not self.draft.names_fixed:
                self.draft.names = list(self.names)
            return
        if key == "an":
            if self.draft is not None and self.draft.calls:
                i = len(self.draft.calls) - 1
                self.draft.alerts[i] = _words(f"{self.draft.alerts.get(i, '')} {value}")
            return
        if key not in _BOARD_KEYS:
            return  # pg, nt, st, rh, sa, zz, pw, bn ... do not change the record
        d = self.draft
        if d is None or self.opens(key):
            d = self.start(pair, by_qx=key == "qx")
        if key == "qx":
            m = _QX.fullmatch(_code(value.split(",")[0]))
            number = None if m is None else _number(m.group(2))
            if m is None or number is None or number < 1:
                d.fail(line, f"qx|{_code(value)[:20]}| is not o or c and a board number (e.g. o12)")
            else:
                d.room, d.number = _ROOMS[m.group(1).lower()], number
        elif key == "md":
            d.md = pair
            if not d.by_qx:
                d.names_fixed = True
        elif key == "ah":
            d.has_ah = True
            digits = re.search(r"[0-9]+", value)
            if digits is not None:
                d.ah_number, d.ah_line = _number(digits.group()), line
                if d.ah_number is None or d.ah_number < 1:
                    d.fail(line, f"ah|{_words(value)[:20]}| is not a board number from 1 up")
        elif key == "sv":
            d.sv = pair
        elif key == "mb":
            if d.cards or d.claim:
                d.fail(line, f"a call ({_code(value)[:10]}) after the play began")
            d.calls.append(pair)
            d.names_fixed = True
        elif key == "pc":
            d.cards.append(pair)
            d.names_fixed = True
        else:  # mc
            d.claim = pair
            d.names_fixed = True

    # -- a board ------------------------------------------------------------------------------
    def close(self, at_end: bool) -> None:
        """End the board being read: keep it, or report its problem."""
        d, self.draft = self.draft, None
        if d is None:
            return
        if at_end:
            self.end_line = d.line
        try:
            if d.error is not None:
                raise d.error
            board = _board_of(d, at_end)
        except LinError as exc:
            self.fail(exc.line or d.line, f"{d.label()}: {exc.reason}")
            return
        key = (board.number, board.room)
        if key in self.seen:
            self.fail(board.line, f"{board.label} again (first at line {self.seen[key]})")
            return
        self.seen[key] = board.line
        self.boards.append(board)

    # -- the file -----------------------------------------------------------------------------
    def finish(self) -> LinFile:
        event = segment = scoring = ""
        teams = ("", "")
        carry: tuple[float, float] | None = None
        first: int | None = None
        last: int | None = None
        if self.vg is not None:
            try:
                event, segment, scoring, first, last, teams, carry = _match(self.vg.value)
            except LinError as exc:
                self.fail(self.vg.line, f"vg|: {exc.reason}")
        boards = self.boards
        if self.rs is not None and boards:
            results = [_code(r) for r in self.rs.value.split(",")]
            base = first if first is not None else min(b.number for b in boards)
            stated = (self.stated(b, results, base) for b in boards)
            boards = [b for b in stated if b is not None]
        return LinFile(
            boards=tuple(boards),
            event=event,
            segment=segment,
            scoring=scoring,
            teams=teams,
            carry_over=carry,
            first_board=first,
            last_board=last,
            problems=tuple(self.problems),
        )

    def stated(self, board: LinBoard, results: list[str], base: int) -> LinBoard | None:
        """``board`` with the result ``rs`` states for it, checked against the one played;
        None for a last board cut off before that result (lenient mode)."""
        index = 2 * (board.number - base) + (1 if board.room == "closed" else 0)
        stated = results[index] if 0 <= index < len(results) and results[index] else None
        if stated is None:
            return board
        board = replace(board, stated=stated)
        try:
            said = board.stated_result
        except LinError as exc:
            self.fail(exc.line, exc.reason)
            return board
        got = board.result
        if said is not None and got is None and board.line == self.end_line:
            self.fail(
                board.line,
                f"{board.label}: the file ends before the result rs| gives ({stated}) is played "
                "or claimed: is it cut off?",
            )
            return None
        if said is not None and got is not None and _result_text(said) != _result_text(got):
            self.fail(
                board.line,
                f"{board.label}: rs| gives {stated}, the auction and play give {_result_text(got)}",
            )
        return board


def _match(
    value: str,
) -> tuple[str, str, str, int | None, int | None, tuple[str, str], tuple[float, float] | None]:
    """The fields of ``vg``: event, segment, scoring, first and last board, teams, carry-over."""
    fields = [_words(f) for f in value.split(",")]
    fields += [""] * (9 - len(fields))
    event, segment, scoring, first, last, team1, carry1, team2, carry2 = fields[:9]
    boards: list[int | None] = []
    for name, text in (("first", first), ("last", last)):
        n = _number(text) if text else None
        if text and (n is None or n < 1):
            raise LinError(0, f"the {name} board {_show(text)} is not a board number")
        boards.append(n)
    carry: tuple[float, float] | None = None
    if carry1 or carry2:
        carry = (_carry(carry1, team1), _carry(carry2, team2))
    return event, segment, scoring, boards[0], boards[1], (team1, team2), carry


_CARRY = re.compile(r"-?[0-9]{1,6}(\.[0-9]{1,3})?")


def _carry(text: str, team: str) -> float:
    if not text:
        return 0.0
    if _CARRY.fullmatch(text) is None:
        raise LinError(0, f"the carry-over of {team or 'a team'}, {_show(text)}, is not a number")
    return float(text)


def _board_of(d: _Draft, at_end: bool) -> LinBoard:
    """The board of a draft with no problem noted while reading; raises :class:`LinError`."""
    number = d.number if d.number is not None else d.ah_number
    if number is None:
        raise LinError(d.line, "no board number (neither qx|o12| nor ah|Board 12|)")
    if d.ah_number is not None and d.number is not None and d.ah_number != d.number:
        raise LinError(d.ah_line, f"qx| says board {d.number}, ah| says board {d.ah_number}")
    dealer: Seat | None = None
    deal: Deal | None = None
    if d.md is not None:
        try:
            dealer, deal = _deal(d.md.value)
        except BridgeInputError as exc:
            raise LinError(d.md.line, f"md|: {exc}") from None
    vul: Vulnerability | None = None
    if d.sv is not None:
        try:
            vul = _vulnerability(d.sv.value)
        except BridgeInputError as exc:
            raise LinError(d.sv.line, str(exc)) from None
    dealer = dealer or _board.dealer(number)
    names = d.names[4:8] if d.room == "closed" and len(d.names) >= 8 else d.names[:4]
    players = {seat: name for seat, name in zip(_LIN_SEATS, names, strict=False) if name}

    auction: Auction | None = None
    if d.calls:
        try:
            auction = Auction(dealer, tuple(_code(c.value) for c in d.calls), d.alerts)
        except AuctionError as exc:
            where = d.calls[exc.index].line if exc.index is not None else d.calls[0].line
            raise LinError(where, str(exc)) from None
    play = _play(d, auction)
    claim: int | None = None
    if d.claim is not None:
        claim = _number(_code(d.claim.value))
        if claim is None or claim > 13:
            raise LinError(
                d.claim.line, f"mc|{_code(d.claim.value)[:10]}| is not a claim (0 to 13 tricks)"
            )
    try:
        result = table_result(auction, play, claim, deal)
    except PlayError as exc:
        if exc.index is not None:
            where = d.cards[exc.index].line
        else:
            where = d.claim.line if d.claim is not None else d.line
        raise LinError(where, str(exc)) from None
    if at_end:
        _check_end(d, auction, play, claim)
    return LinBoard(
        number=number,
        room=d.room,
        deal=deal,
        dealer=dealer,
        vulnerability=vul or _board.vulnerability(number),
        players=players,
        auction=auction,
        play=play,
        claim=claim,
        result=result,
        line=d.line,
    )


def _play(d: _Draft, auction: Auction | None) -> Play | None:
    """The cards of a draft as the play of the auction's contract."""
    if not d.cards:
        return None
    first = d.cards[0]
    contract = auction.contract if auction is not None else None
    declarer = auction.declarer if auction is not None else None
    if contract is None:
        raise LinError(first.line, "a card played before the end of the auction")
    if contract == PASSED_OUT or declarer is None:
        raise LinError(first.line, "a card played on a passed-out board")
    cards: list[Card] = []
    for i, pair in enumerate(d.cards):
        try:
            cards.append(_card(pair.value))
        except BridgeInputError as exc:
            where = f"trick {i // 4 + 1}, card {i % 4 + 1}"
            raise LinError(pair.line, f"{where}: {exc}") from None
    try:
        return Play(declarer.next(), contract.strain, tuple(cards))
    except PlayError as exc:
        line = d.cards[exc.index].line if exc.index is not None else first.line
        raise LinError(line, str(exc)) from None


def _check_end(d: _Draft, auction: Auction | None, play: Play | None, claim: int | None) -> None:
    """The last board of a file: is it whole, or is the file cut off?"""
    if d.md is None and not d.started:
        raise LinError(d.line, "the file ends before the deal (md|) of the board: is it cut off?")
    if auction is not None and not auction.is_complete:
        raise LinError(
            d.calls[-1].line,
            f"the file ends after call {len(auction.calls)}, before the end of the auction: "
            "is it cut off?",
        )
    if play is not None and play.completed_tricks < 13 and claim is None:
        raise LinError(
            d.cards[-1].line,
            f"the file ends after {len(play.cards)} cards of the play, with no claim: "
            "is it cut off?",
        )


def parse(text: str, *, lenient: bool = False) -> LinFile:
    """Read a LIN file's text (see the module's docstring for what is read and checked).

    Raises :class:`LinError` (and nothing else) naming the line, the board and the problem;
    with ``lenient=True`` it raises nothing: it skips a board it cannot read, keeps a board
    whose result disagrees with ``rs``, ignores a bad ``vg``, and lists each in
    :attr:`LinFile.problems`.

    >>> text = "qx|o1|md|1SAKQ|mb|1S|mb|1C|qx|c1|md|1SAKQ|mb|1S|mb|p|mb|p|mb|p|"
    >>> f = parse(text, lenient=True)
    >>> [b.label for b in f.boards], [str(p) for p in f.problems]
    (['board 1 (closed room)'],
     ['line 1: board 1 (open room): call 2 (W): 1C is not higher than 1S'])
    """
    return _Reader(lenient).read(text)
