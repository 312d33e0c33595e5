"""Duplicate scoring (Law 77), the IMP scale (Law 78B) and the IMPs of a board played in two rooms.

The numbers here are those of the 1997 International Laws of Duplicate Bridge, which govern the
competition (R2.1); its result is in IMPs (R12.3). The IMP scale is a parameter with the WBF scale
as its default, so that another scale can be passed in without touching this module.

>>> score("4S", 10, vulnerable=False)
420
>>> score("3NTX", 5, vulnerable=True)
-1100
>>> imps(620 - 170), imps(-620)
(10, -12)
>>> result = parse_result("4SX S -2")
>>> str(result), result.tricks
('4SX S -2', 8)
>>> result_score(result, Vulnerability.NS)
-500
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bridgeko.bridge.cards import Seat, Strain, Vulnerability
from bridgeko.bridge.contract import Contract, Doubling
from bridgeko.bridge.errors import BridgeInputError, ScoringError
from bridgeko.bridge.result import BoardResult

__all__ = [
    "MAX_IMPS",
    "WBF_IMP_SCALE",
    "BoardScore",
    "board_imps",
    "imps",
    "parse_result",
    "result_score",
    "score",
    "score_board",
]

# --- Law 77: the scoring table -------------------------------------------------------------------
# Pairs are (not vulnerable, vulnerable).

_TRICK_POINTS: dict[Strain, tuple[int, int]] = {
    # Law 77 "trick points for declarer": (first trick over book, each subsequent trick), undoubled.
    Strain.CLUBS: (20, 20),
    Strain.DIAMONDS: (20, 20),
    Strain.HEARTS: (30, 30),
    Strain.SPADES: (30, 30),
    Strain.NOTRUMP: (40, 30),
}
_BOOK = 6
"""Tricks before the first trick counted for the contract (Law 77: 'odd tricks')."""
_GAME = 100
"""Trick points for the contract that make a game (Law 77)."""
_GAME_BONUS = (300, 500)
_PART_SCORE_BONUS = 50
_SMALL_SLAM_BONUS = (500, 750)
_GRAND_SLAM_BONUS = (1000, 1500)
_TRICK_FACTOR = {Doubling.UNDOUBLED: 1, Doubling.DOUBLED: 2, Doubling.REDOUBLED: 4}
"""Trick points doubled are twice, redoubled four times the undoubled ones (Law 77)."""
_PENALTY_FACTOR = {Doubling.UNDOUBLED: 1, Doubling.DOUBLED: 1, Doubling.REDOUBLED: 2}
"""Redoubled overtricks and undertricks are twice the doubled ones (Law 77)."""
_INSULT = {Doubling.UNDOUBLED: 0, Doubling.DOUBLED: 50, Doubling.REDOUBLED: 100}
"""Bonus for making a doubled or redoubled contract (Law 77)."""
_DOUBLED_OVERTRICK = (100, 200)
"""Each overtrick doubled; twice that redoubled (Law 77)."""
_UNDOUBLED_UNDERTRICK = (50, 100)
"""Each undertrick undoubled (Law 77)."""
_DOUBLED_UNDERTRICK = ((100, 200, 300), (200, 300, 300))
"""Doubled undertricks (Law 77): (first, second and third, fourth and each subsequent), NV and V.
Redoubled undertricks score twice the doubled ones."""
_MAX_TRICKS = 13


def _check_tricks(tricks: object) -> int:
    if isinstance(tricks, bool) or not isinstance(tricks, int):
        raise ScoringError(f"tricks taken must be a whole number from 0 to 13, not {tricks!r}")
    if not 0 <= tricks <= _MAX_TRICKS:
        raise ScoringError(f"tricks taken must be 0 to 13, not {tricks}")
    return tricks


def _as_contract(contract: object) -> Contract:
    if isinstance(contract, Contract):
        return contract
    if isinstance(contract, str):
        return Contract.parse(contract)
    raise ScoringError(f"not a contract: {contract!r} (expected e.g. '4S', '3NTX' or 'Pass')")


def _contract_points(level: int, strain: Strain, doubling: Doubling) -> int:
    """Trick points for the tricks bid and made (Law 77), doubled x2, redoubled x4."""
    first, subsequent = _TRICK_POINTS[strain]
    return (first + (level - 1) * subsequent) * _TRICK_FACTOR[doubling]


def _undertrick_penalty(down: int, doubling: Doubling, vul: int) -> int:
    """The defenders' score for ``down`` undertricks (Law 77), a positive number."""
    if doubling is Doubling.UNDOUBLED:
        return down * _UNDOUBLED_UNDERTRICK[vul]
    first, second_third, further = _DOUBLED_UNDERTRICK[vul]
    doubled = first + min(down - 1, 2) * second_third + max(down - 3, 0) * further
    return doubled * _PENALTY_FACTOR[doubling]


def _made_score(contract: Contract, strain: Strain, over: int, vul: int) -> int:
    """The declarer's score for a contract made with ``over`` overtricks (Law 77)."""
    points = _contract_points(contract.level, strain, contract.doubling)
    total = points + (_GAME_BONUS[vul] if points >= _GAME else _PART_SCORE_BONUS)
    if contract.level == 6:
        total += _SMALL_SLAM_BONUS[vul]
    elif contract.level == 7:
        total += _GRAND_SLAM_BONUS[vul]
    total += _INSULT[contract.doubling]
    if contract.doubling is Doubling.UNDOUBLED:
        total += over * _TRICK_POINTS[strain][1]
    else:
        total += over * _DOUBLED_OVERTRICK[vul] * _PENALTY_FACTOR[contract.doubling]
    return total


def score(contract: str | Contract, tricks: int, vulnerable: bool) -> int:
    """The declaring side's duplicate score (Law 77): positive when made, negative when defeated.

    ``contract`` is a :class:`Contract` or its spelling (``"4SX"``); ``tricks`` are the tricks
    the declarer took (0-13). A passed-out board scores 0 whatever ``tricks`` says.

    >>> score("1NTXX", 7, vulnerable=True), score("7NTXX", 0, vulnerable=True)
    (760, -7600)
    """
    c = _as_contract(contract)
    _check_tricks(tricks)
    if not isinstance(vulnerable, bool):
        raise ScoringError(f"vulnerable must be True or False, not {vulnerable!r}")
    if c.is_passed_out or c.strain is None:
        return 0
    vul = 1 if vulnerable else 0
    needed = c.level + _BOOK
    if tricks >= needed:
        return _made_score(c, c.strain, tricks - needed, vul)
    return -_undertrick_penalty(needed - tricks, c.doubling, vul)


# --- Law 78B: the IMP scale ----------------------------------------------------------------------

WBF_IMP_SCALE: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip
"""The WBF IMP scale (Law 78B) as the lower edge of each band: a difference of at least
``WBF_IMP_SCALE[k]`` points (and less than the next edge) is worth ``k + 1`` IMPs; below 20 is 0.
Bands are contiguous, so a difference that is not a multiple of 10 falls in the band it lies in
(15 -> 0, 45 -> 1, 4000 and more -> 24)."""


def imps(difference: int, scale: Sequence[int] = WBF_IMP_SCALE) -> int:
    """The IMPs for a difference in points (Law 78B), with the sign of the difference.

    ``scale`` holds the ascending lower edges of the bands worth 1, 2, ... IMPs.

    >>> imps(0), imps(19), imps(20), imps(-620), imps(5000)
    (0, 0, 1, -12, 24)
    """
    if isinstance(difference, bool) or not isinstance(difference, int):
        raise ScoringError(f"a score difference must be a whole number, not {difference!r}")
    size = abs(difference)
    result = 0
    for edge in scale:
        if size < edge:
            break
        result += 1
    return result if difference >= 0 else -result


MAX_IMPS = len(WBF_IMP_SCALE)
"""The most IMPs one board can give (the top of the WBF scale, 24): a segment's IMPs are at most
this many times its boards."""


# --- A table result and a board in two rooms -----------------------------------------------------


def result_score(result: BoardResult, vulnerability: Vulnerability) -> int:
    """The score of one table's result from North-South's point of view (+ = NS scored)."""
    if result.is_passed_out or result.declarer is None or result.tricks is None:
        return 0
    declarer = result.declarer
    points = score(result.contract, result.tricks, vulnerability.is_vulnerable(declarer))
    return points if declarer.side == "NS" else -points


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One board played in both rooms of a match, from the home team's point of view (R12.2).

    The home team sits North-South in the open room and East-West in the closed room, so its net
    score on the board is the open room's NS score minus the closed room's NS score.
    """

    open_room: BoardResult
    """The result in the open room (home team NS)."""
    closed_room: BoardResult
    """The result in the closed room (home team EW)."""
    vulnerability: Vulnerability
    """The board's vulnerability."""
    open_ns: int
    """North-South's score in the open room (the home team's score there)."""
    closed_ns: int
    """North-South's score in the closed room (the visiting team's score there)."""
    imps: int
    """IMPs to the home team; negative when the visiting team gains (R12.3)."""

    @property
    def difference(self) -> int:
        """The home team's net score on the board: ``open_ns - closed_ns``."""
        return self.open_ns - self.closed_ns

    @property
    def home_points(self) -> int:
        """The net score in the home team's column of a result sheet (0 when it lost points)."""
        return max(self.difference, 0)

    @property
    def away_points(self) -> int:
        """The net score in the visiting team's column of a result sheet."""
        return max(-self.difference, 0)

    @property
    def home_imps(self) -> int:
        """IMPs won by the home team on this board (0 or more)."""
        return max(self.imps, 0)

    @property
    def away_imps(self) -> int:
        """IMPs won by the visiting team on this board (0 or more)."""
        return max(-self.imps, 0)


def score_board(
    open_room: BoardResult,
    closed_room: BoardResult,
    vulnerability: Vulnerability,
    scale: Sequence[int] = WBF_IMP_SCALE,
) -> BoardScore:
    """Both rooms' scores, the difference and the IMPs of one board (R12.2, R12.3, Law 78B)."""
    open_ns = result_score(open_room, vulnerability)
    closed_ns = result_score(closed_room, vulnerability)
    # R12.2: the home team is NS in the open room and EW in the closed room.
    return BoardScore(
        open_room=open_room,
        closed_room=closed_room,
        vulnerability=vulnerability,
        open_ns=open_ns,
        closed_ns=closed_ns,
        imps=imps(open_ns - closed_ns, scale),
    )


def board_imps(
    open_room: BoardResult, closed_room: BoardResult, vulnerability: Vulnerability
) -> int:
    """IMPs to the home team on one board (R12.2: home is NS in the open room, EW in the closed).

    >>> board_imps(parse_result("4S N ="), parse_result("4S N -1"), Vulnerability.NONE)
    10
    """
    return score_board(open_room, closed_room, vulnerability).imps


# --- Quick entry of a result ---------------------------------------------------------------------

_SEAT_WORDS = {
    "N": Seat.NORTH,
    "NORTH": Seat.NORTH,
    "E": Seat.EAST,
    "EAST": Seat.EAST,
    "S": Seat.SOUTH,
    "SOUTH": Seat.SOUTH,
    "W": Seat.WEST,
    "WEST": Seat.WEST,
}
_GLUED_SEAT_RE = re.compile(r"^([NESW])([=+-].*)$")
_OUTCOME_RE = re.compile(r"^(=|[+-]\d{1,2}|\d{1,2})$")
_PASS_WORDS = frozenset({"PASS", "P", "AP", "PASSED", "PASSED OUT", "ALL PASS", "-"})
_EXAMPLES = "e.g. '4S N =', '4SX S -2', '3NT E +1', '6HXX W 12' or 'Pass'"


def parse_result(text: str) -> BoardResult:
    """A table result from a TD's shorthand: contract, declarer, and ``=``, ``+n``, ``-n`` or the
    number of tricks taken; ``"Pass"`` for a passed-out board. Case does not matter. Raises
    :class:`ScoringError` (and nothing else) for any other text (``tests/fuzz`` checks it).

    >>> parse_result("3nt e +1")
    BoardResult(contract=Contract.parse('3NT'), declarer=<Seat.EAST: 'E'>, tricks=10, lead=None)
    >>> str(parse_result("6HXX W 12")), str(parse_result("pass"))
    ('6HXX W =', 'Pass')
    """
    if not isinstance(text, str):
        raise ScoringError(f"not a result: {text!r} (expected text, {_EXAMPLES})")
    cleaned = text.replace("\u2212", "-").replace("\u2013", "-").upper()
    tokens = cleaned.split()
    if not tokens:
        raise ScoringError(f"no result given (expected {_EXAMPLES})")
    if len(tokens) == 2:
        glued = _GLUED_SEAT_RE.match(tokens[1])
        if glued:
            tokens = [tokens[0], glued.group(1), glued.group(2)]
    if len(tokens) == 4 and tokens[2] in ("+", "-"):  # "4S N - 2"
        tokens = [*tokens[:2], tokens[2] + tokens[3]]
    if " ".join(tokens) in _PASS_WORDS:  # "Pass", "All pass", "Passed out"
        return BoardResult.passed_out()
    try:
        contract = Contract.parse(tokens[0])
    except BridgeInputError as exc:
        raise ScoringError(f"not a result: {text!r} ({exc})") from None
    if contract.is_passed_out:
        if len(tokens) > 1:
            raise ScoringError(f"not a result: {text!r} (a passed-out board has no declarer)")
        return BoardResult.passed_out()
    if len(tokens) != 3:
        raise ScoringError(
            f"not a result: {text!r} (expected the contract, the declarer and the tricks, "
            f"{_EXAMPLES})"
        )
    seat = _SEAT_WORDS.get(tokens[1])
    if seat is None:
        raise ScoringError(
            f"not a result: {text!r} (unknown declarer {tokens[1]!r}; expected N, E, S or W)"
        )
    outcome = tokens[2]
    if not _OUTCOME_RE.match(outcome):
        raise ScoringError(
            f"not a result: {text!r} (the tricks {outcome!r} should be '=', '+1', '-2' or the "
            "number of tricks taken, 0 to 13)"
        )
    needed = contract.tricks_needed
    if outcome == "=":
        tricks = needed
    elif outcome[0] in "+-":
        tricks = needed + int(outcome)
        if not 0 <= tricks <= _MAX_TRICKS:
            raise ScoringError(
                f"not a result: {text!r} ({contract} {outcome} would be {tricks} tricks; "
                "a declarer takes 0 to 13)"
            )
    else:
        tricks = int(outcome)
        if tricks > _MAX_TRICKS:
            raise ScoringError(
                f"not a result: {text!r} (tricks taken must be 0 to 13, not {tricks})"
            )
    return BoardResult(contract, seat, tricks)
