"""The bracket state: a scheme resolved with the results so far (R11.4, R13, I7, I16).

:func:`resolve` follows the references of a :class:`~bridgeko.competition.scheme.Scheme` (module
:mod:`bridgeko.competition.scheme`: building, validating and loading schemes; its names are
re-exported here) given the present draw numbers and the results so far: who plays whom, who
goes on without a match (R11.4, I16), which teams can still reach a slot (projected slots), and
the standings (:meth:`BracketState.standings`, I7).

Resolving takes time in proportion to the number of matches (the benchmark
``benchmarks/bench_draw.py`` shows it); the candidates of a projected slot are worked out when
they are asked for.

Nothing here knows about team objects: slots hold draw numbers (R11), and the caller maps a number
to its team. Errors are :class:`BracketError` with a translatable :attr:`~BracketError.detail`.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

from bridgeko.competition import _gc
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.scheme import (
    TEAMS_DO_NOT_FIT,
    BracketError,
    Loser,
    MatchSpec,
    Number,
    Scheme,
    SchemeError,
    SlotRef,
    Winner,
    first_round,
    is_side_match,
    load_scheme,
    parse_ref,
    preliminary_rounds,
    round_name,
    scheme_from_dict,
    scheme_to_dict,
    standard_byes,
    standard_scheme,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T", bound=Hashable)
    _Tuple = tuple[Any, ...]
    _Cell = list[Any]
    """The candidates of a pending slot, shared by the slots with the same candidates: a list
    of the two slots they come from, replaced by ``[their union]`` when first asked for."""
else:
    _Tuple = tuple  # the base of Slot and MatchState, without typing (start-up time)

__all__ = [
    "BracketError",
    "BracketState",
    "Loser",
    "MatchSpec",
    "MatchState",
    "MatchStatus",
    "Number",
    "Placing",
    "Scheme",
    "SchemeError",
    "Slot",
    "SlotRef",
    "SlotStatus",
    "Winner",
    "describe",
    "first_round",
    "load_scheme",
    "numbered_results",
    "parse_ref",
    "preliminary_rounds",
    "projected",
    "resolve",
    "round_name",
    "scheme_from_dict",
    "scheme_to_dict",
    "standard_byes",
    "standard_scheme",
]

# Message templates of the errors (the web layer translates them).
TEAMS_NOT_WHOLE = N_("the number of teams must be a whole number, not %(teams)s")
NUMBER_NOT_IN_SCHEME = N_("number %(number)s is outside 1..%(size)s of the scheme")
NOT_ITS_WINNER = N_("match %(match)s is %(home)s v %(away)s; %(outcome)s cannot be its winner")
RESULT_TOO_EARLY = N_("a result is given for match %(match)s, but its teams are not known yet")
BYE_RESULT_DOES_NOT_FIT = N_(
    "match %(match)s: %(number)s has no opponent and advances without a match; the result "
    "%(outcome)s does not fit"
)
NO_TEAMS_NO_WINNER = N_("match %(match)s has no teams; it cannot have a winner")
NO_DRAW_NUMBER = N_("match %(match)s: the winner %(winner)s has no draw number")


def _error(template: str, **params: str | int) -> BracketError:
    return BracketError(Message(template, params))


# ---------------------------------------------------------------------------------------------
# Resolving references: byes, advancement, projected teams


class SlotStatus(StrEnum):
    TEAM = "team"
    """The team is known."""
    EMPTY = "empty"
    """Nobody will come: a missing number (R11.4), the loser of a bye, or I16."""
    PENDING = "pending"
    """Depends on a match not decided yet (a projected slot)."""


_NO_CANDIDATES: frozenset[int] = frozenset()
_NO = _NO_CANDIDATES

_tuple_new = tuple.__new__


class Slot(_Tuple):
    """A resolved slot: an immutable value with the fields ``ref``, ``status``, ``number`` and
    ``candidates``, compared by them.

    ``candidates`` are the numbers that can still end up here (for a pending slot); {number}
    when known. :func:`resolve` leaves them to be worked out the first time they are asked for
    (from the slots the pending one depends on), so that resolving stays linear in the size of
    the bracket. (A tuple underneath, for speed: the bracket of 2^16 teams has 200,000 slots.)
    """

    __slots__ = ()

    def __new__(
        cls,
        ref: SlotRef,
        status: SlotStatus,
        number: int | None = None,
        candidates: frozenset[int] = _NO_CANDIDATES,
    ) -> Slot:
        return _tuple_new(cls, (ref, status, number, candidates))

    @property
    def ref(self) -> SlotRef:
        ref: SlotRef = self[0]
        return ref

    @property
    def status(self) -> SlotStatus:
        status: SlotStatus = self[1]
        return status

    @property
    def number(self) -> int | None:
        """The team's draw number when known."""
        number: int | None = self[2]
        return number

    @property
    def candidates(self) -> frozenset[int]:
        c = self[3]
        if c is None:  # a known team
            number = self[2]
            return _NO_CANDIDATES if number is None else frozenset((number,))
        if isinstance(c, frozenset):
            return c
        return c[0] if len(c) == 1 else _candidates_of(c)

    @property
    def label(self) -> str:
        if self.status is SlotStatus.TEAM:
            return str(self.number)
        if self.status is SlotStatus.EMPTY:
            return "-"
        who = " or ".join(str(n) for n in sorted(self.candidates))
        return f"{self.ref} ({who})" if who else str(self.ref)

    def _key(self) -> tuple[SlotRef, SlotStatus, int | None, frozenset[int]]:
        return (self[0], self[1], self[2], self.candidates)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Slot(ref={self.ref!r}, status={self.status!r}, number={self.number!r}, "
            f"candidates={self.candidates!r})"
        )

    def __reduce__(self) -> tuple[type[Slot], tuple[object, ...]]:
        return (Slot, self._key())


def _candidates_of(cell: _Cell) -> frozenset[int]:
    """The union of the candidates of the two slots in ``cell``, each pending one worked out
    once and kept (iteratively: a deep bracket needs no deep recursion)."""
    stack = [cell]
    while stack:
        top = stack[-1]
        if len(top) == 1:  # worked out meanwhile (a shared cell)
            stack.pop()
            continue
        a, b = top
        todo = [c for c in (a[3], b[3]) if c.__class__ is list and len(c) == 2]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        top[:] = [a.candidates | b.candidates]
    union: frozenset[int] = cell[0]
    return union


class MatchStatus(StrEnum):
    PENDING = "pending"
    """A team is not known yet."""
    TO_PLAY = "to_play"
    """Both teams known, no result yet."""
    PLAYED = "played"
    """Decided by a result (a walkover counts like any result)."""
    BYE = "bye"
    """One team has no opponent and advances without a match (R11.4, I16)."""
    NO_WINNER = "no_winner"
    """Both teams failed to appear (I16), or nobody came to either slot."""
    NOT_NEEDED = "not_needed"
    """A second final (:attr:`~.scheme.MatchSpec.reset_of`) whose unbeaten team won the first:
    not played, that team wins it."""


class MatchState(_Tuple):
    """A match of the resolved bracket: an immutable value with the fields ``spec``, ``home``,
    ``away``, ``status``, ``winner`` and ``loser`` (a tuple underneath, for speed)."""

    __slots__ = ()

    def __new__(
        cls,
        spec: MatchSpec,
        home: Slot,
        away: Slot,
        status: MatchStatus,
        winner: Slot,
        loser: Slot,
    ) -> MatchState:
        return _tuple_new(cls, (spec, home, away, status, winner, loser))

    @property
    def spec(self) -> MatchSpec:
        spec: MatchSpec = self[0]
        return spec

    @property
    def home(self) -> Slot:
        home: Slot = self[1]
        return home

    @property
    def away(self) -> Slot:
        away: Slot = self[2]
        return away

    @property
    def status(self) -> MatchStatus:
        status: MatchStatus = self[3]
        return status

    @property
    def winner(self) -> Slot:
        winner: Slot = self[4]
        return winner

    @property
    def loser(self) -> Slot:
        loser: Slot = self[5]
        return loser

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def decided(self) -> bool:
        return self[3] not in (MatchStatus.PENDING, MatchStatus.TO_PLAY)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return tuple.__ne__(self, other)

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __repr__(self) -> str:
        return (
            f"MatchState(spec={self.spec!r}, home={self.home!r}, away={self.away!r}, "
            f"status={self.status!r}, winner={self.winner!r}, loser={self.loser!r})"
        )

    def __reduce__(self) -> tuple[type[MatchState], tuple[object, ...]]:
        return (MatchState, tuple(self))


@dataclass(frozen=True, slots=True)
class Placing:
    """A final place, possibly shared ("5-8"), and the draw numbers holding it (I7)."""

    first: int
    last: int
    numbers: tuple[int, ...]

    @property
    def place(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True, slots=True)
class BracketState:
    scheme: Scheme
    present: frozenset[int]
    matches: tuple[MatchState, ...]

    def match(self, match_id: str) -> MatchState:
        return self.matches[self.scheme.position(match_id)]

    @property
    def finished(self) -> bool:
        """Every match of the event is decided (a plate's matches aside: they rank nobody)."""
        return all(m.decided for m in self.matches if not is_side_match(m.id))

    def to_play(self) -> tuple[MatchState, ...]:
        """Matches whose two teams are known and which still need a result."""
        return tuple(m for m in self.matches if m.status is MatchStatus.TO_PLAY)

    def standings(self) -> list[Placing]:
        """Final places known so far, best first (I7).

        Explicit places of the scheme (1-4 from the final and the 3rd-place match) come from
        their matches; every other team shares a place with the teams that went out in the same
        round (quarterfinal losers 5-8, and so on), counted from the bottom, so that a group is
        listed as soon as its round and all earlier rounds are decided.
        """
        scheme = self.scheme
        # a plate's matches (side competition) do not rank the event: a team that goes on to
        # the plate went out of the event in its round
        continuing: set[SlotRef] = {
            ref for m in scheme.matches if not is_side_match(m.id) for ref in m.slots
        }
        placed_refs = dict((ref, p) for p, ref in scheme.places)
        explicit: dict[int, int] = {}
        groups: dict[tuple[int, int], list[int]] = {}
        undecided_from: int | None = None  # the first round with a match not decided
        for m in self.matches:
            if is_side_match(m.id):
                continue
            if not m.decided:
                r = m.spec.round
                undecided_from = r if undecided_from is None else min(undecided_from, r)
                continue
            if m.status is MatchStatus.NO_WINNER:
                # I16: neither advances; both go out in this round.
                for s in (m.home, m.away):
                    if s.number is not None:
                        groups.setdefault((m.spec.round, 0), []).append(s.number)
                continue
            for ref, slot, won in ((Winner(m.id), m.winner, 1), (Loser(m.id), m.loser, 0)):
                if slot.number is None or ref in continuing:
                    continue
                if ref in placed_refs:
                    explicit[placed_refs[ref]] = slot.number
                else:
                    groups.setdefault((m.spec.round, won), []).append(slot.number)
        known: list[tuple[int, ...]] = []
        for key in sorted(groups):
            if undecided_from is not None and key[0] >= undecided_from:
                break
            known.append(tuple(sorted(groups[key])))
        return _place_groups(explicit, known, len(self.present))


def _place_groups(
    explicit: Mapping[int, int], groups: list[tuple[int, ...]], total: int
) -> list[Placing]:
    """The standings from the explicit places (place -> number) and the groups that went out
    together, lowest group first, counted from the bottom (``total`` teams) (I7).

    Where both teams of a match failed to appear (I16), an explicit place has nobody, and the
    groups take the free places: both finalists absent share 1st-2nd above the 3rd-place match.
    If a group's free places are not consecutive (a whole semifinal absent), the explicit places
    close up first (1st, then the 3rd-place winner 2nd, ...), so places never overlap.
    """
    free = sorted(set(range(1, total + 1)) - set(explicit), reverse=True)
    placed: list[Placing] = []
    taken = 0
    for nums in groups:
        block = free[taken : taken + len(nums)]
        if len(block) < len(nums) or block[0] - block[-1] != len(nums) - 1:
            break
        placed.append(Placing(block[-1], block[0], nums))
        taken += len(nums)
    else:
        top = [Placing(p, p, (n,)) for p, n in sorted(explicit.items())]
        return sorted(top + placed, key=lambda p: p.first)
    # I16 left a hole among the explicit places: close them up, groups from the bottom.
    top = [Placing(k, k, (n,)) for k, (_p, n) in enumerate(sorted(explicit.items()), start=1)]
    placed = []
    last = total
    for nums in groups:
        placed.append(Placing(last - len(nums) + 1, last, nums))
        last -= len(nums)
    return top + placed[::-1]


def _present_numbers(size: int, teams: int | Collection[int]) -> frozenset[int]:
    if isinstance(teams, bool):
        raise _error(TEAMS_NOT_WHOLE, teams=repr(teams))
    if isinstance(teams, int):
        if not 0 <= teams <= size:
            raise _error(TEAMS_DO_NOT_FIT, teams=teams, size=size)
        return frozenset(range(1, teams + 1))  # R11.4: the highest numbers are missing
    present = frozenset(teams)
    bad = sorted(n for n in present if not 1 <= n <= size)
    if bad:
        raise _error(NUMBER_NOT_IN_SCHEME, number=bad[0], size=size)
    return present


def resolve(
    scheme: Scheme,
    results: Mapping[str, int | None] | None = None,
    *,
    teams: int | Collection[int],
) -> BracketState:
    """Resolves every slot of ``scheme`` given the results so far.

    ``teams`` is the number of teams (numbers 1..teams are present, R11.4) or the set of present
    numbers. ``results`` maps a match id to the draw number of its winner (a walkover winner
    counts like any winner) or to ``None`` when both teams failed to appear (I16: neither
    advances, the next opponent goes through without a match). A team whose opponent is missing
    advances without a match (R11.4). Results that do not fit raise :class:`BracketError`.

    Linear in the number of matches: each match is looked at once, and the slots that refer to
    an earlier match share its winner's or loser's slot.
    """
    res: Mapping[str, int | None] = results or {}
    for mid in res:
        scheme.match(mid)
    present = _present_numbers(scheme.size, teams)
    with _gc.paused():  # many small values, no cycles (see competition._gc)
        return _resolve(scheme, res, present)


def _resolve(
    scheme: Scheme, res: Mapping[str, int | None], present: frozenset[int]
) -> BracketState:
    out: dict[str, tuple[Slot, Slot]] = {}  # match id -> (winner, loser)
    home_won: dict[str, bool] = {}  # played match id -> its home team won (a second final)
    states: list[MatchState] = []
    refs = scheme._result_refs()
    matches = scheme.matches
    in_order = scheme._in_round_order()
    team_s, empty_s, pending_s = SlotStatus.TEAM, SlotStatus.EMPTY, SlotStatus.PENDING
    new, slot_t, state_t = _tuple_new, Slot, MatchState
    # Validated: references point to earlier rounds (a stable sort: linear when in order).
    for spec in matches if in_order else sorted(matches, key=attrgetter("round")):
        mid = spec.id
        ref = spec.home
        if ref.__class__ is Number:
            n = ref.number
            home = (
                new(slot_t, (ref, team_s, n, None))
                if n in present
                else new(slot_t, (ref, empty_s, None, _NO))
            )
        else:
            home = out[ref.match][0 if ref.__class__ is Winner else 1]  # type: ignore[union-attr]
        ref = spec.away
        if ref.__class__ is Number:
            n = ref.number
            away = (
                new(slot_t, (ref, team_s, n, None))
                if n in present
                else new(slot_t, (ref, empty_s, None, _NO))
            )
        else:
            away = out[ref.match][0 if ref.__class__ is Winner else 1]  # type: ignore[union-attr]
        w_ref, l_ref = refs[mid]
        hs, as_ = home[1], away[1]
        given = mid in res
        reset = spec.reset_of
        if reset is not None and hs is team_s and as_ is team_s and home_won.get(reset):
            # the team that came to the final unbeaten won it: no second final
            w = new(slot_t, (w_ref, team_s, away[2], None))
            lo = new(slot_t, (l_ref, team_s, home[2], None))
            status = MatchStatus.NOT_NEEDED
        elif hs is team_s and as_ is team_s:
            if not given:
                cell = [home, away]
                w = new(slot_t, (w_ref, pending_s, None, cell))
                lo = new(slot_t, (l_ref, pending_s, None, cell))
                status = MatchStatus.TO_PLAY
            else:
                outcome = res[mid]
                if outcome is None:  # I16
                    w, lo = (
                        new(slot_t, (w_ref, empty_s, None, _NO)),
                        new(slot_t, (l_ref, empty_s, None, _NO)),
                    )
                    status = MatchStatus.NO_WINNER
                elif outcome == home[2] or outcome == away[2]:
                    loser = away[2] if outcome == home[2] else home[2]
                    home_won[mid] = outcome == home[2]
                    w = new(slot_t, (w_ref, team_s, outcome, None))
                    lo = new(slot_t, (l_ref, team_s, loser, None))
                    status = MatchStatus.PLAYED
                else:
                    raise _error(
                        NOT_ITS_WINNER,
                        match=mid,
                        home=str(home.number),
                        away=str(away.number),
                        outcome=repr(outcome),
                    )
        elif hs is pending_s or as_ is pending_s:
            if given:
                raise _error(RESULT_TOO_EARLY, match=mid)
            cell = [home, away]
            w = new(slot_t, (w_ref, pending_s, None, cell))
            # Against a missing opponent the pending team will have a bye: no loser then.
            if hs is empty_s or as_ is empty_s:
                lo = new(slot_t, (l_ref, empty_s, None, _NO))
            else:
                lo = new(slot_t, (l_ref, pending_s, None, cell))
            status = MatchStatus.PENDING
        elif hs is team_s or as_ is team_s:
            # R11.4, I16: the team without an opponent goes on without a match.
            team = home if hs is team_s else away
            if given and res[mid] != team.number:
                raise _error(
                    BYE_RESULT_DOES_NOT_FIT,
                    match=mid,
                    number=str(team.number),
                    outcome=repr(res[mid]),
                )
            w = new(slot_t, (w_ref, team_s, team[2], team[3]))
            lo = new(slot_t, (l_ref, empty_s, None, _NO))
            status = MatchStatus.BYE
        else:
            if given and res[mid] is not None:
                raise _error(NO_TEAMS_NO_WINNER, match=mid)
            w, lo = (
                new(slot_t, (w_ref, empty_s, None, _NO)),
                new(slot_t, (l_ref, empty_s, None, _NO)),
            )
            status = MatchStatus.NO_WINNER
        out[mid] = (w, lo)
        states.append(new(state_t, (spec, home, away, status, w, lo)))
    if not in_order:
        by_id = {m[0].id: m for m in states}
        states = [by_id[m.id] for m in matches]
    return BracketState(scheme, present, tuple(states))


def numbered_results(
    results: Mapping[str, T | None], numbers: Mapping[int, T]
) -> dict[str, int | None]:
    """Results given by team (match id -> winning team, or None for I16) -> by draw number.

    ``numbers`` is the draw's number -> team mapping (``DrawResult.numbers``).
    """
    index: dict[T, int] = {}
    for number, team in numbers.items():
        index[team] = number
    out: dict[str, int | None] = {}
    for match_id, winner in results.items():
        if winner is None:
            out[match_id] = None
        elif winner in index:
            out[match_id] = index[winner]
        else:
            raise _error(NO_DRAW_NUMBER, match=match_id, winner=repr(winner))
    return out


def projected(state: BracketState) -> dict[str, tuple[str, str]]:
    """Match id -> (home label, away label), e.g. ``("3", "winner of QF2 (4 or 5)")``."""
    return {m.id: (m.home.label, m.away.label) for m in state.matches}


def describe(scheme: Scheme, teams: int | Collection[int] | None = None) -> list[str]:
    """Lines describing the scheme round by round (for ``bridgeko bracket``)."""
    state = resolve(scheme, teams=scheme.size if teams is None else teams)
    lines: list[str] = []
    current: tuple[int, str] | None = None
    for m in state.matches:
        key = (m.spec.round, m.spec.round_name)
        if key != current:
            if lines:
                lines.append("")
            lines.append(f"Round {m.spec.round}: {m.spec.round_name}")
            current = key
        home = _slot_text(m.home)
        away = _slot_text(m.away)
        line = f"  {m.id:<7} {home} v {away}"
        if m.status is MatchStatus.BYE:
            line += f"  -> {m.winner.number} advances without a match (R11.4)"
        elif m.status is MatchStatus.NO_WINNER:
            line += "  -> no match"
        lines.append(line)
    if scheme.places:
        lines.append("")
        lines.append("Places: " + ", ".join(f"{p}. {ref}" for p, ref in scheme.places))
    return lines


def _slot_text(slot: Slot) -> str:
    if isinstance(slot.ref, Number):
        return (
            str(slot.ref.number)
            if slot.status is SlotStatus.TEAM
            else f"({slot.ref.number} missing)"
        )
    if slot.status is SlotStatus.TEAM:
        return f"{slot.ref} [{slot.number}]"
    if slot.status is SlotStatus.EMPTY:
        return f"{slot.ref} [nobody]"
    return str(slot.ref)
