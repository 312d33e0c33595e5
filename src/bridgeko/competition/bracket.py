"""The playing scheme as data: matches whose slots are references (R9, R11.4, R13, I1, I2, I7).

A :class:`Scheme` is a list of :class:`MatchSpec` in scheme order. Each match has two slots, and
each slot is a reference: a draw number (:class:`Number`), the winner of an earlier match
(:class:`Winner`) or its loser (:class:`Loser`). The 3rd-place match is simply
``Loser("SF1")`` against ``Loser("SF2")``; projected teams ("winner of QF1" while QF1 is not
decided) and byes fall out of resolving the references (:func:`resolve`).

:func:`standard_scheme` builds the standard seeded scheme of I1 for any power of two; a TD can
load the organiser's own annex from a JSON or TOML file with :func:`load_scheme` (I1: "a TD must
be able to load a different scheme as data").

Nothing here knows about team objects: slots hold draw numbers (R11), and the caller maps a number
to its team.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Collection, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from bridgeko.competition.regulations import Stage

T = TypeVar("T", bound=Hashable)

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
    "standard_scheme",
]


class BracketError(ValueError):
    """A user error about a bracket: an impossible size, a result that does not fit the scheme."""


class SchemeError(BracketError):
    """A scheme (usually loaded from a file) that is not valid; the message names the match."""


# ---------------------------------------------------------------------------------------------
# Slot references


@dataclass(frozen=True, slots=True)
class Number:
    """The team that drew this number (R11)."""

    number: int

    def __str__(self) -> str:
        return f"number {self.number}"


@dataclass(frozen=True, slots=True)
class Winner:
    """The winner of an earlier match."""

    match: str

    def __str__(self) -> str:
        return f"winner of {self.match}"


@dataclass(frozen=True, slots=True)
class Loser:
    """The loser of an earlier match (e.g. the semifinal losers meet for 3rd place, R1.2)."""

    match: str

    def __str__(self) -> str:
        return f"loser of {self.match}"


SlotRef = Number | Winner | Loser

_REF_RE = re.compile(r"^\s*(winner|loser)\s+(?:of\s+)?(\S+)\s*$", re.IGNORECASE)


def parse_ref(value: object) -> SlotRef:
    """Reads a slot reference: ``5``, ``"5"``, ``"winner of QF1"``, ``"loser of SF1"``.

    >>> parse_ref("winner of QF1")
    Winner(match='QF1')
    >>> parse_ref(3)
    Number(number=3)
    """
    if isinstance(value, bool):
        raise SchemeError(f"a slot must be a number or 'winner of X' / 'loser of X', not {value!r}")
    if isinstance(value, int):
        return Number(value)
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            return Number(int(text))
        m = _REF_RE.match(text)
        if m:
            kind, match_id = m.group(1).lower(), m.group(2)
            return Winner(match_id) if kind == "winner" else Loser(match_id)
    raise SchemeError(f"a slot must be a number or 'winner of X' / 'loser of X', not {value!r}")


def _ref_value(ref: SlotRef) -> int | str:
    return ref.number if isinstance(ref, Number) else str(ref)


# ---------------------------------------------------------------------------------------------
# The scheme


_STAGE_NAMES = {
    Stage.QUARTERFINAL: "quarterfinal",
    Stage.SEMIFINAL: "semifinal",
    Stage.FINAL: "final",
    Stage.THIRD_PLACE: "match for 3rd place",
}


def round_name(stage: Stage, round_no: int) -> str:
    """English name of a round: "preliminary round 2", "quarterfinal", ... (R11.6, R13)."""
    if stage is Stage.PRELIMINARY:
        return f"preliminary round {round_no}"
    return _STAGE_NAMES[stage]


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match of the scheme. The home slot is listed first (R12.2)."""

    id: str
    """Unique id within the scheme: "R1-M1", "QF1", "SF2", "F", "3RD"."""
    round: int
    """1 for the first round; the final and the 3rd-place match share the last round."""
    stage: Stage
    home: SlotRef
    away: SlotRef

    @property
    def round_name(self) -> str:
        return round_name(self.stage, self.round)

    @property
    def slots(self) -> tuple[SlotRef, SlotRef]:
        return (self.home, self.away)


@dataclass(frozen=True, slots=True)
class Scheme:
    """A validated playing scheme (R9.1). Build it with :func:`standard_scheme` or
    :func:`scheme_from_dict`; the constructor validates (:class:`SchemeError`)."""

    size: int
    """The number of draw numbers 1..size the scheme places."""
    matches: tuple[MatchSpec, ...]
    """In scheme order: a match listed earlier gives the home team later (I2)."""
    places: tuple[tuple[int, SlotRef], ...] = ()
    """Explicit final places, e.g. ((1, Winner("F")), (2, Loser("F")), ...) (I7)."""
    name: str = ""
    _by_id: dict[str, MatchSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", _validate(self))

    def match(self, match_id: str) -> MatchSpec:
        try:
            return self._by_id[match_id]
        except KeyError:
            raise BracketError(f"the scheme has no match {match_id!r}") from None

    @property
    def round_count(self) -> int:
        return max(m.round for m in self.matches)

    def round(self, round_no: int) -> tuple[MatchSpec, ...]:
        return tuple(m for m in self.matches if m.round == round_no)

    def __iter__(self) -> Iterator[MatchSpec]:
        return iter(self.matches)

    def __len__(self) -> int:
        return len(self.matches)


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def _layout(size: int) -> list[int]:
    """Draw numbers in bracket order, 1 at the top and 2 at the bottom (I1).

    Each step doubles the bracket: number s at position i becomes the pair s and 2m+1-s, the
    pair reversed at odd positions so that the better number of each half stays at its edge.
    """
    order = [1, 2]
    while len(order) < size:
        m2 = 2 * len(order) + 1
        new: list[int] = []
        for i, s in enumerate(order):
            new.extend((s, m2 - s) if i % 2 == 0 else (m2 - s, s))
        order = new
    return order


def first_round(size: int) -> list[tuple[int, int]]:
    """The first-round pairs of the standard scheme, in scheme order, home team first (I1).

    Number *i* meets number *size+1-i*; 1 and 2 can meet only in the final, 1-4 only from the
    semifinals, 1-8 only from the quarterfinals.

    >>> first_round(8)
    [(1, 8), (4, 5), (3, 6), (2, 7)]
    """
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or size < 4
        or not _is_power_of_two(size)
    ):
        raise BracketError(f"a scheme size must be a power of two, at least 4, not {size!r}")
    order = _layout(size)
    pairs = [(order[k], order[k + 1]) for k in range(0, size, 2)]
    return [(min(a, b), max(a, b)) for a, b in pairs]


def _round_ids(stage: Stage, round_no: int, count: int) -> list[str]:
    if stage is Stage.QUARTERFINAL:
        return [f"QF{j}" for j in range(1, count + 1)]
    if stage is Stage.SEMIFINAL:
        return [f"SF{j}" for j in range(1, count + 1)]
    if stage is Stage.FINAL:
        return ["F"]
    return [f"R{round_no}-M{j}" for j in range(1, count + 1)]


def _stage_of(round_no: int, rounds: int) -> Stage:
    from_end = rounds - round_no
    if from_end == 0:
        return Stage.FINAL
    if from_end == 1:
        return Stage.SEMIFINAL
    if from_end == 2:
        return Stage.QUARTERFINAL
    return Stage.PRELIMINARY  # R11.6


def preliminary_rounds(size: int) -> int:
    """How many rounds of the standard scheme for ``size`` numbers come before the
    quarterfinals (R11.6): 0 for 8, 1 for 16, 2 for 32, ... (the stages of :func:`_stage_of`)."""
    first_round(size)  # validates the size
    rounds = size.bit_length() - 1
    return sum(1 for r in range(1, rounds + 1) if _stage_of(r, rounds) is Stage.PRELIMINARY)


def standard_scheme(size: int) -> Scheme:
    """The standard seeded scheme for ``size`` = 2^k numbers (I1, I2, R1.2, R13).

    Round 1 is :func:`first_round`; in each later round the winner of the match listed earlier
    is the home team (I2); the semifinal losers play for 3rd place, the loser of SF1 at home.
    """
    pairs = first_round(size)
    rounds = size.bit_length() - 1
    matches: list[MatchSpec] = []
    stage = _stage_of(1, rounds)
    prev = _round_ids(stage, 1, len(pairs))
    for mid, (a, b) in zip(prev, pairs, strict=True):
        matches.append(MatchSpec(mid, 1, stage, Number(a), Number(b)))
    for r in range(2, rounds + 1):
        stage = _stage_of(r, rounds)
        ids = _round_ids(stage, r, len(prev) // 2)
        for j, mid in enumerate(ids):
            # I2: the winner of the match listed earlier is listed first (home).
            matches.append(MatchSpec(mid, r, stage, Winner(prev[2 * j]), Winner(prev[2 * j + 1])))
        if stage is Stage.FINAL:
            # R1.2, R13.2; I2: the loser of the semifinal listed earlier is at home.
            matches.append(MatchSpec("3RD", r, Stage.THIRD_PLACE, Loser(prev[0]), Loser(prev[1])))
        prev = ids
    places: tuple[tuple[int, SlotRef], ...] = (
        (1, Winner("F")),
        (2, Loser("F")),
        (3, Winner("3RD")),
        (4, Loser("3RD")),
    )
    return Scheme(size, tuple(matches), places, name=f"standard scheme for {size} teams")


# ---------------------------------------------------------------------------------------------
# Validation


def _validate(scheme: Scheme) -> dict[str, MatchSpec]:
    size = scheme.size
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise SchemeError(f"the scheme size must be a whole number of at least 2, not {size!r}")
    if not scheme.matches:
        raise SchemeError("the scheme has no matches")
    by_id: dict[str, MatchSpec] = {}
    for m in scheme.matches:
        if not isinstance(m.id, str) or not m.id.strip():
            raise SchemeError(f"a match needs a non-empty id, not {m.id!r}")
        if m.id in by_id:
            raise SchemeError(f"match {m.id}: the id is used twice")
        if isinstance(m.round, bool) or not isinstance(m.round, int) or m.round < 1:
            raise SchemeError(
                f"match {m.id}: the round must be a whole number >= 1, not {m.round!r}"
            )
        if not isinstance(m.stage, Stage):
            raise SchemeError(f"match {m.id}: unknown stage {m.stage!r}")
        by_id[m.id] = m
    # Unknown references, then cycles, then the order of rounds.
    for m in scheme.matches:
        for ref in m.slots:
            if isinstance(ref, Number):
                if not 1 <= ref.number <= size:
                    raise SchemeError(
                        f"match {m.id}: number {ref.number} is outside 1..{size} of the scheme"
                    )
            elif ref.match not in by_id:
                raise SchemeError(f"match {m.id}: '{ref}' refers to an unknown match")
        if m.home == m.away:
            raise SchemeError(f"match {m.id}: both slots are '{m.home}'")
    _check_cycles(scheme, by_id)
    for m in scheme.matches:
        for ref in m.slots:
            if not isinstance(ref, Number) and by_id[ref.match].round >= m.round:
                raise SchemeError(
                    f"match {m.id} (round {m.round}): '{ref}' is from round "
                    f"{by_id[ref.match].round}, not an earlier round"
                )
    # Each reference is used once, so a team is in one place at a time; as references point to
    # earlier rounds, a team's path moves on by at least a round per match: nobody plays twice
    # in a round.
    used: dict[SlotRef, MatchSpec] = {}
    for m in scheme.matches:
        for ref in m.slots:
            if ref in used:
                other = used[ref]
                twice = (
                    f" (a team would play twice in round {m.round})"
                    if other.round == m.round
                    else ""
                )
                raise SchemeError(
                    f"match {m.id}: '{ref}' is already placed in match {other.id}{twice}"
                )
            used[ref] = m
    for n in range(1, size + 1):
        if Number(n) not in used:
            raise SchemeError(f"number {n} has no place in the scheme")
    places_seen: set[int] = set()
    for place, ref in scheme.places:
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise SchemeError(f"place {place!r} must be a whole number >= 1")
        if place in places_seen:
            raise SchemeError(f"place {place} is given twice")
        places_seen.add(place)
        if isinstance(ref, Number) or ref.match not in by_id:
            raise SchemeError(f"place {place}: '{ref}' must be the winner or loser of a match")
        if ref in used:
            raise SchemeError(f"place {place}: '{ref}' also plays on in match {used[ref].id}")
    return by_id


def _check_cycles(scheme: Scheme, by_id: Mapping[str, MatchSpec]) -> None:
    state: dict[str, int] = {}  # 1 = on the path, 2 = done

    def visit(mid: str, path: list[str]) -> None:
        if state.get(mid) == 2:
            return
        if state.get(mid) == 1:
            cycle = [*path[path.index(mid) :], mid]
            raise SchemeError(f"match {mid}: its slots refer back to itself ({' -> '.join(cycle)})")
        state[mid] = 1
        for ref in by_id[mid].slots:
            if not isinstance(ref, Number):
                visit(ref.match, [*path, mid])
        state[mid] = 2

    for m in scheme.matches:
        visit(m.id, [])


# ---------------------------------------------------------------------------------------------
# Files


def scheme_to_dict(scheme: Scheme) -> dict[str, Any]:
    """The scheme as plain data, the format :func:`scheme_from_dict` reads."""
    doc: dict[str, Any] = {"name": scheme.name, "size": scheme.size}
    doc["matches"] = [
        {
            "id": m.id,
            "round": m.round,
            "stage": m.stage.value,
            "home": _ref_value(m.home),
            "away": _ref_value(m.away),
        }
        for m in scheme.matches
    ]
    doc["places"] = {str(p): str(ref) for p, ref in scheme.places}
    return doc


def scheme_from_dict(data: Mapping[str, Any]) -> Scheme:
    """Builds and validates a scheme from plain data (a parsed JSON or TOML file).

    Keys: ``size``; ``matches`` (or ``match`` in TOML's ``[[match]]``), each with ``id``,
    ``round``, ``stage`` (preliminary, quarterfinal, semifinal, third_place, final), ``home`` and
    ``away`` (a number, ``"winner of X"`` or ``"loser of X"``); optional ``places`` (place ->
    reference) and ``name``.
    """
    if not isinstance(data, Mapping):
        raise SchemeError("a scheme must be a table/object with 'size' and 'matches'")
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int):
        raise SchemeError(f"'size' must be a whole number, not {size!r}")
    raw = data.get("matches", data.get("match"))
    if not isinstance(raw, list) or not raw:
        raise SchemeError("'matches' must be a non-empty list of matches")
    matches: list[MatchSpec] = []
    for k, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            raise SchemeError(f"match #{k}: must be a table/object")
        mid = item.get("id")
        label = f"match {mid}" if isinstance(mid, str) and mid else f"match #{k}"
        if not isinstance(mid, str) or not mid.strip():
            raise SchemeError(f"{label}: 'id' must be a non-empty text")
        for key in ("round", "stage", "home", "away"):
            if key not in item:
                raise SchemeError(f"{label}: '{key}' is missing")
        rnd = item["round"]
        if isinstance(rnd, bool) or not isinstance(rnd, int):
            raise SchemeError(f"{label}: 'round' must be a whole number, not {rnd!r}")
        try:
            stage = Stage(item["stage"])
        except ValueError:
            allowed = ", ".join(s.value for s in Stage)
            raise SchemeError(
                f"{label}: unknown stage {item['stage']!r} (one of {allowed})"
            ) from None
        try:
            home, away = parse_ref(item["home"]), parse_ref(item["away"])
        except SchemeError as exc:
            raise SchemeError(f"{label}: {exc}") from None
        matches.append(MatchSpec(mid.strip(), rnd, stage, home, away))
    places: list[tuple[int, SlotRef]] = []
    raw_places = data.get("places", {})
    if not isinstance(raw_places, Mapping):
        raise SchemeError("'places' must be a table/object: place -> 'winner of X'")
    for key, value in raw_places.items():
        try:
            place = int(key)
        except (TypeError, ValueError):
            raise SchemeError(f"place {key!r} must be a whole number") from None
        try:
            places.append((place, parse_ref(value)))
        except SchemeError as exc:
            raise SchemeError(f"place {place}: {exc}") from None
    name = data.get("name", "")
    return Scheme(
        size, tuple(matches), tuple(sorted(places, key=lambda item: item[0])), name=str(name)
    )


def load_scheme(path: str | Path) -> Scheme:
    """Reads a scheme from a ``.json`` or ``.toml`` file (the organiser's own annex, R9.1)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SchemeError(f"cannot read the scheme file {p}: {exc.strerror}") from None
    try:
        if p.suffix.lower() == ".toml":
            data: Any = tomllib.loads(text)
        else:
            data = json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise SchemeError(
            f"{p.name}: not a valid {p.suffix.lstrip('.') or 'JSON'} file: {exc}"
        ) from None
    try:
        return scheme_from_dict(data)
    except SchemeError as exc:
        raise SchemeError(f"{p.name}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Resolving references: byes, advancement, projected teams


class SlotStatus(StrEnum):
    TEAM = "team"
    """The team is known."""
    EMPTY = "empty"
    """Nobody will come: a missing number (R11.4), the loser of a bye, or I16."""
    PENDING = "pending"
    """Depends on a match not decided yet (a projected slot)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """A resolved slot."""

    ref: SlotRef
    status: SlotStatus
    number: int | None = None
    """The team's draw number when known."""
    candidates: frozenset[int] = frozenset()
    """Numbers that can still end up here (for a pending slot); {number} when known."""

    @property
    def label(self) -> str:
        if self.status is SlotStatus.TEAM:
            return str(self.number)
        if self.status is SlotStatus.EMPTY:
            return "-"
        who = " or ".join(str(n) for n in sorted(self.candidates))
        return f"{self.ref} ({who})" if who else str(self.ref)


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


@dataclass(frozen=True, slots=True)
class MatchState:
    spec: MatchSpec
    home: Slot
    away: Slot
    status: MatchStatus
    winner: Slot
    loser: Slot

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def decided(self) -> bool:
        return self.status not in (MatchStatus.PENDING, MatchStatus.TO_PLAY)


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
        spec = self.scheme.match(match_id)
        return self.matches[self.scheme.matches.index(spec)]

    @property
    def finished(self) -> bool:
        return all(m.decided for m in self.matches)

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
        continuing: set[SlotRef] = {ref for m in scheme.matches for ref in m.slots}
        placed_refs = dict((ref, p) for p, ref in scheme.places)
        explicit: dict[int, int] = {}
        groups: dict[tuple[int, int], list[int]] = {}
        for m in self.matches:
            if not m.decided:
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
            r = key[0]
            if not all(m.decided for m in self.matches if m.spec.round <= r):
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
        raise BracketError(f"the number of teams must be a whole number, not {teams!r}")
    if isinstance(teams, int):
        if not 0 <= teams <= size:
            raise BracketError(f"{teams} teams do not fit a scheme for {size}")
        return frozenset(range(1, teams + 1))  # R11.4: the highest numbers are missing
    present = frozenset(teams)
    bad = sorted(n for n in present if not 1 <= n <= size)
    if bad:
        raise BracketError(f"number {bad[0]} is outside 1..{size} of the scheme")
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
    """
    res: Mapping[str, int | None] = results or {}
    for mid in res:
        scheme.match(mid)
    present = _present_numbers(scheme.size, teams)
    out: dict[str, MatchState] = {}

    def slot_of(ref: SlotRef) -> Slot:
        if isinstance(ref, Number):
            if ref.number in present:
                return Slot(ref, SlotStatus.TEAM, ref.number, frozenset({ref.number}))
            return Slot(ref, SlotStatus.EMPTY)
        src = out[ref.match]
        s = src.winner if isinstance(ref, Winner) else src.loser
        return Slot(ref, s.status, s.number, s.candidates)

    order = sorted(scheme.matches, key=lambda m: m.round)  # validated: refs point to earlier rounds
    for spec in order:
        home, away = slot_of(spec.home), slot_of(spec.away)
        w_ref, l_ref = Winner(spec.id), Loser(spec.id)
        empty_w, empty_l = Slot(w_ref, SlotStatus.EMPTY), Slot(l_ref, SlotStatus.EMPTY)
        given = spec.id in res
        outcome = res.get(spec.id)
        if home.status is SlotStatus.TEAM and away.status is SlotStatus.TEAM:
            if not given:
                cands = home.candidates | away.candidates
                pend_w = Slot(w_ref, SlotStatus.PENDING, None, cands)
                pend_l = Slot(l_ref, SlotStatus.PENDING, None, cands)
                state = MatchState(spec, home, away, MatchStatus.TO_PLAY, pend_w, pend_l)
            elif outcome is None:  # I16
                state = MatchState(spec, home, away, MatchStatus.NO_WINNER, empty_w, empty_l)
            elif outcome in (home.number, away.number):
                loser = away.number if outcome == home.number else home.number
                assert loser is not None
                state = MatchState(
                    spec,
                    home,
                    away,
                    MatchStatus.PLAYED,
                    Slot(w_ref, SlotStatus.TEAM, outcome, frozenset({outcome})),
                    Slot(l_ref, SlotStatus.TEAM, loser, frozenset({loser})),
                )
            else:
                raise BracketError(
                    f"match {spec.id} is {home.number} v {away.number}; "
                    f"{outcome!r} cannot be its winner"
                )
        elif SlotStatus.PENDING in (home.status, away.status):
            if given:
                raise BracketError(
                    f"a result is given for match {spec.id}, but its teams are not known yet"
                )
            cands = home.candidates | away.candidates
            # Against a missing opponent the pending team will have a bye: no loser then.
            no_loser = SlotStatus.EMPTY in (home.status, away.status)
            pend_w = Slot(w_ref, SlotStatus.PENDING, None, cands)
            pend_l = empty_l if no_loser else Slot(l_ref, SlotStatus.PENDING, None, cands)
            state = MatchState(spec, home, away, MatchStatus.PENDING, pend_w, pend_l)
        elif SlotStatus.TEAM in (home.status, away.status):
            # R11.4, I16: the team without an opponent goes on without a match.
            team = home if home.status is SlotStatus.TEAM else away
            if given and outcome != team.number:
                raise BracketError(
                    f"match {spec.id}: {team.number} has no opponent and advances without a "
                    f"match; the result {outcome!r} does not fit"
                )
            winner = Slot(w_ref, SlotStatus.TEAM, team.number, team.candidates)
            state = MatchState(spec, home, away, MatchStatus.BYE, winner, empty_l)
        else:
            if given and outcome is not None:
                raise BracketError(f"match {spec.id} has no teams; it cannot have a winner")
            state = MatchState(spec, home, away, MatchStatus.NO_WINNER, empty_w, empty_l)
        out[spec.id] = state
    return BracketState(scheme, present, tuple(out[m.id] for m in scheme.matches))


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
            raise BracketError(f"match {match_id}: the winner {winner!r} has no draw number")
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
