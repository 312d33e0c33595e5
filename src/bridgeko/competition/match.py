"""One match: its segments, extra segments, penalties, walkovers and winner (R1.3, R12, R15).

The web layer stores what happened (segment scores, penalties, TD adjustments, who appeared) and
calls :func:`match_state` with those plain values; the state is computed, never stored.

>>> from bridgeko.competition.regulations import MatchRules, PenaltyRules, Stage
>>> rules = MatchRules()
>>> [(s.number, s.first_board, s.last_board) for s in segments_for_stage(Stage.FINAL, rules)]
[(1, 1, 16), (2, 17, 32), (3, 33, 48)]
>>> state = match_state(
...     Stage.PRELIMINARY, rules, PenaltyRules(),
...     segments=[SegmentResult(1, 30, 20), SegmentResult(2, 15, 25)],
... )
>>> state.status, state.home_total, state.visitors_total
(<MatchStatus.EXTRA_SEGMENT_REQUIRED: 'extra_segment_required'>, 45, 45)
>>> state.next_segment
Segment(number=3, first_board=33, last_board=36, is_extra=True)
>>> boards_removed_for_lateness(8)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.regulations import MatchRules, PenaltyRules, Regulations, Stage

__all__ = [
    "Adjustment",
    "Lateness",
    "LatenessOutcome",
    "MatchError",
    "MatchState",
    "MatchStatus",
    "Penalty",
    "Room",
    "RoomAssignment",
    "Segment",
    "SegmentLine",
    "SegmentResult",
    "Side",
    "SlowPlay",
    "boards_for_stage",
    "boards_removed_for_lateness",
    "extra_segment",
    "lateness_outcome",
    "match_state",
    "removed_board_numbers",
    "removed_boards_in",
    "room_assignment",
    "segment_boards_for_stage",
    "segments_for_stage",
]


# Message templates of MatchError (English; the web layer translates them, see
# competition/messages.py)
SIDE_HOME = N_("home")
SIDE_VISITORS = N_("visitors")
FACT_SLOW_PLAY = N_("SlowPlay")
FACT_LATENESS = N_("Lateness")
FACT_ADJUSTMENT = N_("Adjustment")
ABSENT = N_("absent")
NOT_POSITIVE = N_("match.%(key)s must be a positive whole number, not %(value)s")
SEGMENT_FROM_ONE = N_("a segment number starts at 1, not %(number)s")
BAD_BOARDS = N_("segment %(number)s: bad boards %(first)s-%(last)s")
EXTRA_NEGATIVE = N_("the number of extra segments cannot be negative (%(count)s)")
NOT_A_LINE = N_("a line is NS or EW, not %(line)s")
MINUTES_NOT_WHOLE = N_("minutes late must be a whole number, not %(value)s")
MINUTES_NEGATIVE = N_("minutes late cannot be negative (%(minutes)s)")
MINUTES_PER_BOARD = N_("minutes per removed board must be positive, not %(value)s")
SEGMENT_SIZE = N_("a segment cannot have %(boards)s boards")
REMOVE_NEGATIVE = N_("cannot remove %(count)s boards")
REMOVE_TOO_MANY = N_("segment %(number)s has %(boards)s boards; cannot remove %(count)s")
REMOVED_FOR_SIDE = N_(
    "segment %(number)s: %(count)s boards removed for the %(side)s team "
    "(the segment has %(boards)s)"
)
NOT_WHOLE = N_("%(what)s must be a whole number, not %(value)s")
W_SEGMENT_NUMBER = N_("a segment number")
W_SIDE_IMPS = N_("segment %(number)s: the %(side)s IMPs")
W_BOARD_IMPS = N_("segment %(number)s: the IMPs of board %(board)s")
W_FACT_SEGMENT = N_("%(fact)s: the segment")
W_SLOW_PLAY_BOARDS = N_("slow play: the boards")
W_LATENESS_MINUTES = N_("lateness: the minutes")
W_LATENESS_BOARDS = N_("lateness: the boards")
W_ADJUSTMENT_IMPS = N_("adjustment: the IMPs")
IMPS_NEGATIVE = N_("segment %(number)s: the %(side)s IMPs cannot be negative")
PLAYED_NEGATIVE = N_("segment %(number)s: boards played cannot be negative")
NOT_A_SIDE = N_("%(what)s: a team is home or visitors, not %(value)s")
FACT_SEGMENT_FROM_ONE = N_("%(fact)s: a segment number starts at 1, not %(number)s")
SLOW_PLAY_NEGATIVE = N_("slow play in segment %(segment)s: boards cannot be negative")
LATE_MINUTES_NEGATIVE = N_("lateness in segment %(segment)s: minutes cannot be negative")
LATE_BOARDS_NEGATIVE = N_("lateness in segment %(segment)s: boards cannot be negative")
NO_REASON = N_("adjustment in segment %(segment)s: give a reason")
RECORDED_TWICE = N_("segment %(number)s is recorded twice")
RESULT_MISSING = N_("segment %(missing)s has no result, but segment %(number)s has one")
LATENESS_TWICE = N_("lateness of the %(side)s team in segment %(segment)s is recorded twice")
FACT_AHEAD = N_("%(fact)s recorded for segment %(segment)s, but segment %(next)s has no result yet")
A_RESULT = N_("a result")
PENALTIES_OR_ADJUSTMENTS = N_("penalties or adjustments")
AFTER_DECIDED = N_(
    "segment %(number)s has %(what)s, but the match was decided after segment %(previous)s "
    "(%(home)s:%(visitors)s)"
)
TOO_MANY_SCORED = N_("segment %(number)s has %(boards)s boards; %(played)s boards were scored")
TOO_MANY_SCORED_REMOVED = N_(
    "segment %(number)s has %(boards)s boards of which %(removed)s were removed for lateness; "
    "%(played)s boards were scored"
)
SLOW_PLAY_TOO_MANY = N_(
    "slow play in segment %(number)s: %(count)s boards, but the segment has %(boards)s"
)
SLOW_PLAY_ON_REMOVED = N_(
    "slow play in segment %(number)s: %(count)s boards, but of its %(boards)s boards "
    "%(removed)s were removed for lateness and were not played (R12.8, R12.9)"
)
LATE_TOO_MANY = N_(
    "lateness in segment %(number)s: %(count)s boards removed, but the segment has %(boards)s"
)


class MatchError(ValueError):
    """Recorded facts of a match that are impossible or contradict each other.

    :attr:`detail` is the message as a translatable :class:`Message` (``str(error)`` is its
    English text); the web layer shows it with ``bridgeko.core.i18n.tr(error.detail)``."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


def _error(template: str, **params: Param) -> MatchError:
    return MatchError(Message(template, params))


class Side(StrEnum):
    """One of the two teams of a match; the home team is the one listed first (R12.2)."""

    HOME = "home"
    VISITORS = "visitors"

    @property
    def other(self) -> Side:
        """The opposing team."""
        return Side.VISITORS if self is Side.HOME else Side.HOME

    @property
    def word(self) -> Message:
        """``"home"`` or ``"visitors"`` as a translatable message."""
        return Message(SIDE_HOME if self is Side.HOME else SIDE_VISITORS)


class Room(StrEnum):
    """The two rooms of a teams match."""

    OPEN = "open"
    CLOSED = "closed"


# --------------------------------------------------------------------------------------------
# Boards and segments (R1.3, R12.1, R12.5)


def _match_rules(rules: Regulations | MatchRules) -> MatchRules:
    return rules.match if isinstance(rules, Regulations) else rules


def _positive(value: int, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _error(NOT_POSITIVE, key=key, value=repr(value))
    return value


def boards_for_stage(stage: Stage, rules: Regulations | MatchRules) -> int:
    """The prescribed number of boards of a match of ``stage``: in 1999 the final 48, others 32
    (R1.3); an edition may give a stage its own number (``match.stage_boards``)."""
    mr = _match_rules(rules)
    key = "final_boards" if stage is Stage.FINAL else "boards"
    if any(s is stage for s, _n in mr.stage_boards):
        key = "stage_boards"
    return _positive(mr.boards_of(stage), key)  # R1.3, R12.1


def segment_boards_for_stage(stage: Stage, rules: Regulations | MatchRules) -> int:
    """The boards of a segment of a match of ``stage``: 16 in 1999 (R1.3), 8 in the 2001
    final (``match.stage_segment_boards``)."""
    mr = _match_rules(rules)
    key = "segment_boards"
    if any(s is stage for s, _n in mr.stage_segment_boards):
        key = "stage_segment_boards"
    return _positive(mr.segment_boards_of(stage), key)


@dataclass(frozen=True, slots=True)
class Segment:
    """A block of consecutive boards of a match (*sestava*). Boards are numbered through the
    match: the segments of a 32-board match hold boards 1-16 and 17-32, the first extra segment
    33-36."""

    number: int
    """1 for the first segment; extra segments continue the numbering."""
    first_board: int
    """The first board of the segment, counted through the match."""
    last_board: int
    """The last board of the segment (inclusive)."""
    is_extra: bool = False
    """True for an extra segment played after a tie (R12.5)."""

    def __post_init__(self) -> None:
        if self.number < 1:
            raise _error(SEGMENT_FROM_ONE, number=self.number)
        if not 1 <= self.first_board <= self.last_board:
            raise _error(
                BAD_BOARDS, number=self.number, first=self.first_board, last=self.last_board
            )

    @property
    def boards(self) -> int:
        """How many boards the segment has."""
        return self.last_board - self.first_board + 1

    @property
    def board_numbers(self) -> range:
        """The board numbers of the segment, in order."""
        return range(self.first_board, self.last_board + 1)


def segments_for_stage(
    stage: Stage, rules: Regulations | MatchRules, *, extra_segments: int = 0
) -> list[Segment]:
    """The segment plan of a match: the prescribed segments of ``segment_boards`` boards (R1.3,
    R12.1), then ``extra_segments`` extra segments of ``extra_segment_boards`` boards (R12.5).

    If the prescribed boards are not a multiple of the segment size, the last prescribed segment
    is the shorter remainder.
    """
    mr = _match_rules(rules)
    if extra_segments < 0:
        raise _error(EXTRA_NEGATIVE, count=extra_segments)
    total = boards_for_stage(stage, mr)
    size = segment_boards_for_stage(stage, mr)
    plan: list[Segment] = []
    first = 1
    while first <= total:
        last = min(first + size - 1, total)
        plan.append(Segment(len(plan) + 1, first, last))
        first = last + 1
    for _ in range(extra_segments):
        plan.append(extra_segment(plan[-1], mr))
    return plan


def extra_segment(after: Segment, rules: Regulations | MatchRules) -> Segment:
    """The extra segment played after ``after`` when the match is tied (R12.5)."""
    size = _positive(_match_rules(rules).extra_segment_boards, "extra_segment_boards")
    first = after.last_board + 1
    return Segment(after.number + 1, first, first + size - 1, is_extra=True)


# --------------------------------------------------------------------------------------------
# Seating directions (R12.2)


@dataclass(frozen=True, slots=True)
class RoomAssignment:
    """Which team sits North-South and East-West in each room."""

    open_ns: Side
    open_ew: Side
    closed_ns: Side
    closed_ew: Side

    def team_at(self, room: Room, line: str) -> Side:
        """The team sitting ``line`` (``"NS"`` or ``"EW"``) in ``room``."""
        key = line.strip().upper().replace("-", "").replace("/", "")
        if key not in ("NS", "EW"):
            raise _error(NOT_A_LINE, line=repr(line))
        if room is Room.OPEN:
            return self.open_ns if key == "NS" else self.open_ew
        return self.closed_ns if key == "NS" else self.closed_ew

    def line_of(self, side: Side, room: Room) -> str:
        """``"NS"`` or ``"EW"``: where ``side`` sits in ``room``."""
        return "NS" if self.team_at(room, "NS") is side else "EW"


def room_assignment(segment_number: int) -> RoomAssignment:
    """Who sits where in ``segment_number``: the home team sits North-South in the open room and
    so East-West in the closed room, in every segment (R12.2). Which *players* take the seats is
    the business of :mod:`bridgeko.competition.seating` (R12.6)."""
    if segment_number < 1:
        raise _error(SEGMENT_FROM_ONE, number=segment_number)
    # R12.2
    return RoomAssignment(
        open_ns=Side.HOME, open_ew=Side.VISITORS, closed_ns=Side.VISITORS, closed_ew=Side.HOME
    )


# --------------------------------------------------------------------------------------------
# Lateness (R12.9, I6)


_MINUTES_PER_BOARD: int = PenaltyRules().lateness_minutes_per_board
"""R12.9's default in the data model (7); pass ``reg.penalties.lateness_minutes_per_board``."""


def boards_removed_for_lateness(
    minutes: int,
    *,
    minutes_per_board: int = _MINUTES_PER_BOARD,
    segment_boards: int | None = None,
) -> int:
    """Boards the TD removes for a team ``minutes`` late: one for every started
    ``minutes_per_board`` minutes (R12.9; the edition's ``reg.penalties.
    lateness_minutes_per_board``, 7 in 1999), i.e. ceil(minutes / minutes_per_board),
    0 minutes -> 0, never more than ``segment_boards`` (I6).

    >>> [boards_removed_for_lateness(m) for m in (0, 1, 7, 8, 14, 15)]
    [0, 1, 1, 2, 2, 3]
    >>> boards_removed_for_lateness(200, segment_boards=16)
    16
    """
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise _error(MINUTES_NOT_WHOLE, value=repr(minutes))
    if minutes < 0:
        raise _error(MINUTES_NEGATIVE, minutes=minutes)
    if minutes_per_board < 1:
        raise _error(MINUTES_PER_BOARD, value=minutes_per_board)
    if segment_boards is not None and segment_boards < 0:
        raise _error(SEGMENT_SIZE, boards=segment_boards)
    boards = -(-minutes // minutes_per_board)  # R12.9, I6: every *started* period, integer ceil
    if segment_boards is not None:
        boards = min(boards, segment_boards)  # I6
    return boards


def removed_board_numbers(segment: Segment, count: int) -> tuple[int, ...]:
    """The board numbers removed from ``segment`` when ``count`` boards are removed: the last
    boards of the segment (I6).

    >>> removed_board_numbers(Segment(2, 17, 32), 3)
    (30, 31, 32)
    """
    if count < 0:
        raise _error(REMOVE_NEGATIVE, count=count)
    if count > segment.boards:
        raise _error(REMOVE_TOO_MANY, number=segment.number, boards=segment.boards, count=count)
    return tuple(segment.board_numbers[segment.boards - count :])  # I6: the last boards


@dataclass(frozen=True, slots=True)
class LatenessOutcome:
    """The effect of lateness at the start of one segment (R12.9, I6)."""

    removed_boards: tuple[int, ...]
    """Board numbers that are not played (the last boards of the segment)."""
    home_imps: int
    """IMPs credited to the home team."""
    visitors_imps: int
    """IMPs credited to the visitors."""


def lateness_outcome(
    segment: Segment, *, home_boards: int, visitors_boards: int, imps_per_board: int
) -> LatenessOutcome:
    """Combine the boards removed for each team's lateness in one segment.

    Each removed board scores ``imps_per_board`` to the other team (R12.9). If both teams are
    late, play starts when the later one is ready, so the larger count of boards is removed, and
    the credits net out: only the difference is credited, to the team that was less late (I6).
    """
    for side, value in ((Side.HOME, home_boards), (Side.VISITORS, visitors_boards)):
        if value < 0 or value > segment.boards:
            raise _error(
                REMOVED_FOR_SIDE,
                number=segment.number,
                count=value,
                side=side.word,
                boards=segment.boards,
            )
    removed = removed_board_numbers(segment, max(home_boards, visitors_boards))
    net = home_boards - visitors_boards  # I6: removals net out
    return LatenessOutcome(
        removed_boards=removed,
        home_imps=max(-net, 0) * imps_per_board,  # R12.9: to the non-offending team
        visitors_imps=max(net, 0) * imps_per_board,
    )


# --------------------------------------------------------------------------------------------
# Recorded facts


def _check_int(value: object, what: Message) -> None:
    """Refuse a value that is not a whole number; ``what`` is one of the ``W_*`` templates."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _error(NOT_WHOLE, what=what, value=repr(value))


@dataclass(frozen=True, slots=True)
class SegmentResult:
    """The IMPs each team scored on the boards of one segment (R12.3)."""

    number: int
    """The segment number (1, 2, ...; extra segments continue the numbering)."""
    home_imps: int
    visitors_imps: int
    boards_played: int | None = None
    """How many boards were scored, when known (from board-by-board IMPs)."""

    def __post_init__(self) -> None:
        _check_int(self.number, Message(W_SEGMENT_NUMBER))
        if self.number < 1:
            raise _error(SEGMENT_FROM_ONE, number=self.number)
        for side, value in ((Side.HOME, self.home_imps), (Side.VISITORS, self.visitors_imps)):
            _check_int(value, Message(W_SIDE_IMPS, {"number": self.number, "side": side.word}))
            if value < 0:
                raise _error(IMPS_NEGATIVE, number=self.number, side=side.word)
        if self.boards_played is not None and self.boards_played < 0:
            raise _error(PLAYED_NEGATIVE, number=self.number)

    @classmethod
    def from_board_imps(cls, number: int, board_imps: Iterable[int]) -> SegmentResult:
        """Sum the IMPs of the boards of a segment, each from the HOME team's point of view
        (positive: home gained; negative: the visitors gained), as
        ``bridgeko.bridge.scoring.board_imps`` returns them.

        >>> SegmentResult.from_board_imps(1, [10, -3, 0, 6])
        SegmentResult(number=1, home_imps=16, visitors_imps=3, boards_played=4)
        """
        values = list(board_imps)
        for i, value in enumerate(values, 1):
            _check_int(value, Message(W_BOARD_IMPS, {"number": number, "board": i}))
        home = sum(v for v in values if v > 0)
        visitors = -sum(v for v in values if v < 0)
        return cls(number, home, visitors, boards_played=len(values))


@dataclass(frozen=True, slots=True)
class SlowPlay:
    """A slow-play penalty (R12.8): ``boards`` boards of ``segment`` not played in the time
    allowed by a pair of ``side``. Record one per team; both at fault -> both penalised (I13)."""

    segment: int
    side: Side
    boards: int

    def __post_init__(self) -> None:
        _check_fact(self)


@dataclass(frozen=True, slots=True)
class Lateness:
    """A team ``minutes`` late at the scheduled start of ``segment`` (R12.9, I6).

    ``boards`` is set when the TD records a number of removed boards other than the computed
    ceil(minutes / minutes per board)."""

    segment: int
    side: Side
    minutes: int
    boards: int | None = None

    def __post_init__(self) -> None:
        _check_fact(self)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A TD adjustment: ``imps`` added to (or, when negative, deducted from) ``side``'s score,
    recorded against ``segment``, with the reason the TD gave."""

    segment: int
    side: Side
    imps: int
    reason: str

    def __post_init__(self) -> None:
        _check_fact(self)


Penalty = SlowPlay | Lateness


# --------------------------------------------------------------------------------------------
# The state of a match


class MatchStatus(StrEnum):
    IN_PROGRESS = "in_progress"
    """Segments remain to be played (prescribed, or an extra segment that has started)."""
    EXTRA_SEGMENT_REQUIRED = "extra_segment_required"
    """Tied after the prescribed boards or after an extra segment: play another (R12.5)."""
    DECIDED = "decided"
    """One team leads after the prescribed boards or after an extra segment."""
    WALKOVER = "walkover"
    """One team did not appear; the other is the winner (R15.2)."""
    NO_WINNER = "no_winner"
    """Neither team appeared; neither advances (I16)."""


@dataclass(frozen=True, slots=True)
class SegmentLine:
    """One completed segment with everything that counts in it, and the running score."""

    segment: Segment
    home_imps: int
    """IMPs scored at the table."""
    visitors_imps: int
    home_penalties: int
    """Net effect of penalties on the home score: slow play deducted (R12.8), lateness of the
    visitors credited (R12.9)."""
    visitors_penalties: int
    home_adjustments: int
    """TD adjustments to the home score."""
    visitors_adjustments: int
    removed_boards: tuple[int, ...]
    """Boards removed for lateness (R12.9, I6)."""
    home_total: int
    """Running home score after this segment."""
    visitors_total: int


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything computed from the recorded facts of a match."""

    status: MatchStatus
    winner: Side | None
    """The team that advances; None while undecided and when neither appeared (I16)."""
    home_total: int
    """Final or current home score: segments + penalties + adjustments (I13)."""
    visitors_total: int
    lines: tuple[SegmentLine, ...]
    """The completed segments, in order, with the running score."""
    next_segment: Segment | None
    """The segment to play next (or being played); None when the match is over."""
    prescribed_boards: int
    """The boards of the match before any extra segment (R1.3)."""
    absent: frozenset[Side] = frozenset()
    """Teams that did not appear (R15.2)."""
    pending_home_penalties: int = 0
    """Penalties and adjustments already recorded for ``next_segment`` (counted in the totals)."""
    pending_visitors_penalties: int = 0

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.NO_WINNER)

    @property
    def extra_segments_played(self) -> int:
        return sum(1 for line in self.lines if line.segment.is_extra)

    @property
    def margin(self) -> int:
        """Home total minus visitors total."""
        return self.home_total - self.visitors_total

    @property
    def loser(self) -> Side | None:
        """The team that does not advance when there is a winner."""
        return None if self.winner is None else self.winner.other


def _penalty_rules(
    rules: Regulations | MatchRules, penalty_rules: PenaltyRules | None
) -> PenaltyRules:
    if penalty_rules is not None:
        return penalty_rules
    if isinstance(rules, Regulations):
        return rules.penalties
    raise TypeError("pass the PenaltyRules (or the whole Regulations) to match_state")


def _side(value: object, what: Message) -> Side:
    """``value`` as a :class:`Side` ("home"/"visitors" strings are accepted)."""
    if isinstance(value, str) and value in (Side.HOME.value, Side.VISITORS.value):
        return Side(value)
    raise _error(NOT_A_SIDE, what=what, value=repr(value))


def _kind(fact: SlowPlay | Lateness | Adjustment) -> Message:
    """The kind of a recorded fact (its class name, as the English messages give it)."""
    if isinstance(fact, SlowPlay):
        return Message(FACT_SLOW_PLAY)
    return Message(FACT_LATENESS if isinstance(fact, Lateness) else FACT_ADJUSTMENT)


def _check_fact(fact: SlowPlay | Lateness | Adjustment) -> None:
    kind = _kind(fact)
    _check_int(fact.segment, Message(W_FACT_SEGMENT, {"fact": kind}))
    if fact.segment < 1:
        raise _error(FACT_SEGMENT_FROM_ONE, fact=kind, number=fact.segment)
    object.__setattr__(fact, "side", _side(fact.side, kind))
    if isinstance(fact, SlowPlay):
        _check_int(fact.boards, Message(W_SLOW_PLAY_BOARDS))
        if fact.boards < 0:
            raise _error(SLOW_PLAY_NEGATIVE, segment=fact.segment)
    elif isinstance(fact, Lateness):
        _check_int(fact.minutes, Message(W_LATENESS_MINUTES))
        if fact.minutes < 0:
            raise _error(LATE_MINUTES_NEGATIVE, segment=fact.segment)
        if fact.boards is not None:
            _check_int(fact.boards, Message(W_LATENESS_BOARDS))
            if fact.boards < 0:
                raise _error(LATE_BOARDS_NEGATIVE, segment=fact.segment)
    else:
        _check_int(fact.imps, Message(W_ADJUSTMENT_IMPS))
        if not isinstance(fact.reason, str) or not fact.reason.strip():
            raise _error(NO_REASON, segment=fact.segment)


def match_state(
    stage: Stage,
    rules: Regulations | MatchRules,
    penalty_rules: PenaltyRules | None = None,
    *,
    segments: Iterable[SegmentResult] = (),
    penalties: Iterable[Penalty] = (),
    adjustments: Iterable[Adjustment] = (),
    absent: Iterable[Side] = (),
) -> MatchState:
    """Compute the state of a match from what was recorded.

    ``rules`` is the edition's :class:`Regulations` or its :class:`MatchRules` (then pass
    ``penalty_rules`` too). ``segments`` are the results of the segments played so far, numbered
    from 1 without gaps. Penalties and adjustments name the segment they belong to; they may
    already name the segment being played. ``absent`` lists the teams that did not appear.

    - R12.5, I5: a tie after the prescribed boards requires a further segment of
      ``extra_segment_boards`` boards, again and again until one team leads after one.
    - I13: penalties count in the totals and so in the tie test.
    - R15.2, I16: a team that does not appear does not advance; if both are absent, no winner.
    """
    mr = _match_rules(rules)
    pr = _penalty_rules(rules, penalty_rules)
    prescribed = segments_for_stage(stage, mr)
    prescribed_boards = prescribed[-1].last_board

    results = sorted(segments, key=lambda r: r.number)
    numbers = [r.number for r in results]
    for i, number in enumerate(numbers, 1):
        if number != i:
            if number in numbers[: i - 1]:
                raise _error(RECORDED_TWICE, number=number)
            raise _error(RESULT_MISSING, missing=i, number=number)
    played = len(results)

    facts: list[SlowPlay | Lateness | Adjustment] = [*penalties, *adjustments]
    late_seen: set[tuple[int, Side]] = set()
    for fact in facts:
        if isinstance(fact, Lateness):
            key = (fact.segment, fact.side)
            if key in late_seen:
                raise _error(LATENESS_TWICE, side=fact.side.word, segment=fact.segment)
            late_seen.add(key)

    for fact in facts:
        if fact.segment > played + 1:
            raise _error(FACT_AHEAD, fact=_kind(fact), segment=fact.segment, next=played + 1)

    # Walk the segments in order, extending the plan with extra segments while tied (R12.5).
    plan = list(prescribed)
    lines: list[SegmentLine] = []
    home_total = visitors_total = 0
    last_fact_segment = max((f.segment for f in facts), default=0)
    for index in range(max(played, last_fact_segment)):
        number = index + 1
        if number > len(plan):
            if home_total != visitors_total:
                what = A_RESULT if number <= played else PENALTIES_OR_ADJUSTMENTS
                raise _error(
                    AFTER_DECIDED,
                    number=number,
                    what=Message(what),
                    previous=number - 1,
                    home=home_total,
                    visitors=visitors_total,
                )
            plan.append(extra_segment(plan[-1], mr))  # R12.5, I5
        segment = plan[index]
        home_pen, visitors_pen, removed = _penalties_in(segment, facts, pr)
        home_adj = sum(
            f.imps for f in facts if isinstance(f, Adjustment) and _on(f, number, Side.HOME)
        )
        visitors_adj = sum(
            f.imps for f in facts if isinstance(f, Adjustment) and _on(f, number, Side.VISITORS)
        )
        home_total += home_pen + home_adj  # I13: penalties count in the total
        visitors_total += visitors_pen + visitors_adj
        if number > played:
            break  # penalties of the segment being played: counted, segment not complete
        result = results[index]
        if result.boards_played is not None and result.boards_played > segment.boards - len(
            removed
        ):
            params: dict[str, Param] = {
                "number": number,
                "boards": segment.boards,
                "played": result.boards_played,
            }
            if removed:
                raise _error(TOO_MANY_SCORED_REMOVED, removed=len(removed), **params)
            raise _error(TOO_MANY_SCORED, **params)
        home_total += result.home_imps
        visitors_total += result.visitors_imps
        lines.append(
            SegmentLine(
                segment=segment,
                home_imps=result.home_imps,
                visitors_imps=result.visitors_imps,
                home_penalties=home_pen,
                visitors_penalties=visitors_pen,
                home_adjustments=home_adj,
                visitors_adjustments=visitors_adj,
                removed_boards=removed,
                home_total=home_total,
                visitors_total=visitors_total,
            )
        )

    pending = len(lines) < max(played, last_fact_segment)
    pending_home = home_total - (lines[-1].home_total if lines else 0)
    pending_visitors = visitors_total - (lines[-1].visitors_total if lines else 0)

    absent_sides = frozenset(_side(side, Message(ABSENT)) for side in absent)
    if absent_sides:  # R15.2, I16
        return MatchState(
            status=MatchStatus.NO_WINNER if len(absent_sides) == 2 else MatchStatus.WALKOVER,
            winner=None if len(absent_sides) == 2 else next(iter(absent_sides)).other,
            home_total=home_total,
            visitors_total=visitors_total,
            lines=tuple(lines),
            next_segment=None,
            prescribed_boards=prescribed_boards,
            absent=absent_sides,
            pending_home_penalties=pending_home,
            pending_visitors_penalties=pending_visitors,
        )

    winner: Side | None = None
    next_segment: Segment | None
    if pending or played < len(prescribed):
        status = MatchStatus.IN_PROGRESS
        next_segment = plan[played]
    elif home_total == visitors_total:  # R12.5: tied after the prescribed or extra boards
        status = MatchStatus.EXTRA_SEGMENT_REQUIRED
        next_segment = extra_segment(plan[played - 1], mr)
    else:
        status = MatchStatus.DECIDED
        next_segment = None
        winner = Side.HOME if home_total > visitors_total else Side.VISITORS
    return MatchState(
        status=status,
        winner=winner,
        home_total=home_total,
        visitors_total=visitors_total,
        lines=tuple(lines),
        next_segment=next_segment,
        prescribed_boards=prescribed_boards,
        pending_home_penalties=pending_home,
        pending_visitors_penalties=pending_visitors,
    )


def _on(fact: SlowPlay | Lateness | Adjustment, segment: int, side: Side) -> bool:
    return fact.segment == segment and fact.side is side


def removed_boards_in(
    segment: Segment, penalties: Iterable[Penalty], penalty_rules: PenaltyRules
) -> tuple[int, ...]:
    """The boards of ``segment`` removed for lateness (R12.9, I6) by the recorded ``penalties``
    (facts of other segments and slow play are ignored): the last boards of the segment.

    >>> removed_boards_in(Segment(1, 1, 16), [Lateness(1, Side.HOME, 8)], PenaltyRules())
    (15, 16)
    """
    return _lateness_in(segment, list(penalties), penalty_rules).removed_boards


def _lateness_in(
    segment: Segment, facts: Sequence[SlowPlay | Lateness | Adjustment], pr: PenaltyRules
) -> LatenessOutcome:
    late = {Side.HOME: 0, Side.VISITORS: 0}
    for fact in facts:
        if fact.segment != segment.number or not isinstance(fact, Lateness):
            continue
        if fact.boards is not None:  # I6: as the TD records
            if fact.boards > segment.boards:
                raise _error(
                    LATE_TOO_MANY, number=segment.number, count=fact.boards, boards=segment.boards
                )
            late[fact.side] = fact.boards
        else:
            late[fact.side] = boards_removed_for_lateness(  # R12.9, I6
                fact.minutes,
                minutes_per_board=pr.lateness_minutes_per_board,
                segment_boards=segment.boards,
            )
    return lateness_outcome(
        segment,
        home_boards=late[Side.HOME],
        visitors_boards=late[Side.VISITORS],
        imps_per_board=pr.lateness_imps_per_board,
    )


def _penalties_in(
    segment: Segment, facts: Sequence[SlowPlay | Lateness | Adjustment], pr: PenaltyRules
) -> tuple[int, int, tuple[int, ...]]:
    """Net penalty effect on (home, visitors) in ``segment`` and the boards removed.

    A slow-play penalty (R12.8) is for boards not played in the time allowed; a board removed
    for lateness (R12.9, I6) is not played at all, so slow play cannot fall on it: the boards of
    slow play are at most the boards left to play."""
    outcome = _lateness_in(segment, facts, pr)
    playable = segment.boards - len(outcome.removed_boards)
    effect = {Side.HOME: outcome.home_imps, Side.VISITORS: outcome.visitors_imps}
    for fact in facts:
        if fact.segment != segment.number or not isinstance(fact, SlowPlay):
            continue
        if fact.boards > playable:
            if outcome.removed_boards:
                raise _error(
                    SLOW_PLAY_ON_REMOVED,
                    number=segment.number,
                    count=fact.boards,
                    boards=segment.boards,
                    removed=len(outcome.removed_boards),
                )
            raise _error(
                SLOW_PLAY_TOO_MANY, number=segment.number, count=fact.boards, boards=segment.boards
            )
        effect[fact.side] -= fact.boards * pr.slow_play_imps_per_board  # R12.8, I13
    return effect[Side.HOME], effect[Side.VISITORS], outcome.removed_boards
