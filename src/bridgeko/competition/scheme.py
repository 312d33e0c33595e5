"""The playing scheme as data: matches whose slots are references (R9, R11.4, R13, I1, I2, I7).

A :class:`Scheme` is a list of :class:`MatchSpec` in scheme order. Each match has two slots, and
each slot is a reference: a draw number (:class:`Number`), the winner of an earlier match
(:class:`Winner`) or its loser (:class:`Loser`). The 3rd-place match is simply
``Loser("SF1")`` against ``Loser("SF2")``; projected teams ("winner of QF1" while QF1 is not
decided) and byes fall out of resolving the references
(:func:`bridgeko.competition.bracket.resolve`, the bracket state).

:func:`standard_scheme` builds the standard seeded scheme of I1 for any power of two; a TD can
load the organiser's own annex from a JSON or TOML file with :func:`load_scheme` (I1: "a TD must
be able to load a different scheme as data"). Every scheme is validated when it is built
(:class:`SchemeError` names the match and the problem).

Nothing here knows about team objects: slots hold draw numbers (R11), and the caller maps a number
to its team. Errors carry their message as a translatable
:class:`~bridgeko.competition.messages.Message` (:attr:`BracketError.detail`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from bridgeko.competition import _gc
from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.sizes import SIZE_NOT_POWER_OF_TWO as SIZE_NOT_POWER_OF_TWO
from bridgeko.competition.sizes import TEAMS_DO_NOT_FIT as TEAMS_DO_NOT_FIT
from bridgeko.competition.sizes import BracketError, check_size, standard_byes
from bridgeko.competition.stage import Stage

TYPE_CHECKING = False  # typing.TYPE_CHECKING, spelt out (the bracket is cheap to import)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TypeVar

# json, tomllib and pathlib are imported by load_scheme, when a file is read (start-up time).

__all__ = [
    "SIDE_PREFIX",
    "BracketError",
    "Loser",
    "MatchSpec",
    "Number",
    "Scheme",
    "SchemeError",
    "SlotRef",
    "Winner",
    "check_size",
    "first_round",
    "is_side_match",
    "load_scheme",
    "parse_ref",
    "preliminary_rounds",
    "ref_text",
    "round_name",
    "scheme_from_dict",
    "scheme_to_dict",
    "standard_byes",
    "standard_scheme",
]


SIDE_PREFIX = "P-"
"""A match whose id starts with this belongs to a side competition (a plate for the first-round
losers, :func:`bridgeko.competition.formats.with_plate`): its results do not rank the event."""


def is_side_match(match_id: str) -> bool:
    """Whether the match is part of a side competition (a plate), not of the event's ranking."""
    return match_id.startswith(SIDE_PREFIX)


class SchemeError(BracketError):
    """A scheme (usually loaded from a file) that is not valid; the message names the match."""


# Message templates of the errors (the web layer translates them).
REF_NUMBER = N_("number %(number)s")
REF_WINNER = N_("winner of %(match)s")
REF_LOSER = N_("loser of %(match)s")
NO_SUCH_MATCH = N_("the scheme has no match %(match)s")
SLOT_NOT_A_REF = N_("a slot must be a number or 'winner of X' / 'loser of X', not %(value)s")
SIZE_TOO_SMALL = N_("the scheme size must be a whole number of at least 2, not %(size)s")
NO_MATCHES = N_("the scheme has no matches")
MATCH_WITHOUT_ID = N_("a match needs a non-empty id, not %(id)s")
ID_USED_TWICE = N_("match %(match)s: the id is used twice")
ROUND_NOT_WHOLE = N_("match %(match)s: the round must be a whole number >= 1, not %(round)s")
STAGE_UNKNOWN = N_("match %(match)s: unknown stage %(stage)s")
NUMBER_OUTSIDE = N_("match %(match)s: number %(number)s is outside 1..%(size)s of the scheme")
REF_TO_UNKNOWN_MATCH = N_("match %(match)s: '%(ref)s' refers to an unknown match")
BOTH_SLOTS_SAME = N_("match %(match)s: both slots are '%(ref)s'")
REF_NOT_EARLIER = N_(
    "match %(match)s (round %(round)s): '%(ref)s' is from round %(from_round)s, not an earlier "
    "round"
)
REF_PLACED_TWICE = N_("match %(match)s: '%(ref)s' is already placed in match %(other)s")
REF_PLAYS_TWICE = N_(
    "match %(match)s: '%(ref)s' is already placed in match %(other)s (a team would play twice "
    "in round %(round)s)"
)
NUMBER_WITHOUT_PLACE = N_("number %(number)s has no place in the scheme")
PLACE_NOT_WHOLE = N_("place %(place)s must be a whole number >= 1")
PLACE_TWICE = N_("place %(place)s is given twice")
PLACE_NOT_A_RESULT = N_("place %(place)s: '%(ref)s' must be the winner or loser of a match")
PLACE_PLAYS_ON = N_("place %(place)s: '%(ref)s' also plays on in match %(match)s")
CYCLE = N_("match %(match)s: its slots refer back to itself (%(cycle)s)")
RESET_SLOTS = N_(
    "match %(match)s: a second final must be 'loser of %(of)s' (home) against 'winner of %(of)s'"
)
NOT_A_SCHEME = N_("a scheme must be a table/object with 'size' and 'matches'")
SIZE_NOT_WHOLE = N_("'size' must be a whole number, not %(size)s")
MATCHES_NOT_A_LIST = N_("'matches' must be a non-empty list of matches")
MATCH_LABEL = N_("match %(match)s")
MATCH_NUMBER_LABEL = N_("match #%(index)s")
MATCH_NOT_A_TABLE = N_("%(where)s: must be a table/object")
ID_NOT_TEXT = N_("%(where)s: 'id' must be a non-empty text")
KEY_MISSING = N_("%(where)s: '%(key)s' is missing")
ROUND_NOT_A_NUMBER = N_("%(where)s: 'round' must be a whole number, not %(round)s")
STAGE_NOT_KNOWN = N_("%(where)s: unknown stage %(stage)s (one of %(allowed)s)")
PLACES_NOT_A_TABLE = N_("'places' must be a table/object: place -> 'winner of X'")
PLACE_KEY_NOT_WHOLE = N_("place %(place)s must be a whole number")
PLACE_LABEL = N_("place %(place)s")
IN_CONTEXT = N_("%(where)s: %(problem)s")
CANNOT_READ = N_("cannot read the scheme file %(path)s: %(error)s")
NOT_A_VALID_FILE = N_("%(file)s: not a valid %(kind)s file: %(error)s")


def _error(template: str, **params: Param) -> SchemeError:
    return SchemeError(Message(template, params))


def _within(where: Param, exc: BracketError) -> SchemeError:
    """``exc`` with its place in front ("match F: ...", "annex.toml: ...")."""
    return _error(IN_CONTEXT, where=where, problem=exc.detail)


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


def ref_text(ref: SlotRef) -> Message:
    """A reference in words, as a translatable message (``str`` of it is ``str(ref)``)."""
    if isinstance(ref, Number):
        return Message(REF_NUMBER, {"number": ref.number})
    return Message(REF_WINNER if isinstance(ref, Winner) else REF_LOSER, {"match": ref.match})


def parse_ref(value: object) -> SlotRef:
    """Reads a slot reference: ``5``, ``"5"``, ``"winner of QF1"``, ``"loser of SF1"``.

    >>> parse_ref("winner of QF1")
    Winner(match='QF1')
    >>> parse_ref(3)
    Number(number=3)
    """
    if isinstance(value, bool):
        raise _error(SLOT_NOT_A_REF, value=repr(value))
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
    raise _error(SLOT_NOT_A_REF, value=repr(value))


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
    reset_of: str | None = None
    """A second final (double elimination, "grand final reset"): the id of the final it replays,
    played only if the team that came to that final unbeaten — its home team — lost it. Its
    slots are the loser of that final (home) against its winner; when the unbeaten team won,
    this match is not needed and that team wins it (:data:`~.bracket.MatchStatus.NOT_NEEDED`)."""

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
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _refs: dict[str, tuple[Winner, Loser]] = field(init=False, repr=False, compare=False)
    _ordered: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id = _validate(self)
        ordered = all(a.round <= b.round for a, b in itertools.pairwise(self.matches))
        self._set_index(by_id, ordered=ordered)

    def _set_index(self, by_id: dict[str, MatchSpec], *, ordered: bool) -> None:
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "_index", {mid: k for k, mid in enumerate(by_id)})
        object.__setattr__(self, "_refs", {})
        object.__setattr__(self, "_ordered", ordered)

    @classmethod
    def _built(
        cls,
        size: int,
        matches: tuple[MatchSpec, ...],
        places: tuple[tuple[int, SlotRef], ...],
        name: str,
    ) -> Scheme:
        """A scheme built by this module, valid by construction: not validated again (the
        tests validate the standard scheme of every size through :func:`scheme_from_dict`)."""
        scheme = object.__new__(cls)
        for key, value in (("size", size), ("matches", matches), ("places", places)):
            object.__setattr__(scheme, key, value)
        object.__setattr__(scheme, "name", name)
        scheme._set_index({m.id: m for m in matches}, ordered=True)  # built round by round
        return scheme

    def match(self, match_id: str) -> MatchSpec:
        try:
            return self._by_id[match_id]
        except KeyError:
            raise BracketError(Message(NO_SUCH_MATCH, {"match": repr(match_id)})) from None

    def _result_refs(self) -> dict[str, tuple[Winner, Loser]]:
        """Match id -> (its Winner, its Loser reference), the objects the scheme's slots and
        places use where they name them (one value each, shared by the resolved slots)."""
        refs = self._refs
        if not refs and self.matches:
            winners: dict[str, Winner] = {}
            losers: dict[str, Loser] = {}
            for m in self.matches:
                for ref in m.slots:
                    if isinstance(ref, Winner):
                        winners[ref.match] = ref
                    elif isinstance(ref, Loser):
                        losers[ref.match] = ref
            for _place, ref in self.places:
                if isinstance(ref, Winner):
                    winners[ref.match] = ref
                elif isinstance(ref, Loser):
                    losers[ref.match] = ref
            for m in self.matches:
                mid = m.id
                refs[mid] = (winners.get(mid) or Winner(mid), losers.get(mid) or Loser(mid))
        return refs

    def _in_round_order(self) -> bool:
        """Whether :attr:`matches` lists no match before one of an earlier round (as the
        standard scheme does)."""
        return self._ordered

    def position(self, match_id: str) -> int:
        """The index of a match in :attr:`matches` (scheme order)."""
        self.match(match_id)
        return self._index[match_id]

    @property
    def round_count(self) -> int:
        return max(m.round for m in self.matches)

    def round(self, round_no: int) -> tuple[MatchSpec, ...]:
        return tuple(m for m in self.matches if m.round == round_no)

    def __iter__(self) -> Iterator[MatchSpec]:
        return iter(self.matches)

    def __len__(self) -> int:
        return len(self.matches)


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
    order = _layout(check_size(size))
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
    check_size(size)
    rounds = size.bit_length() - 1
    return sum(1 for r in range(1, rounds + 1) if _stage_of(r, rounds) is Stage.PRELIMINARY)


def standard_scheme(size: int) -> Scheme:
    """The standard seeded scheme for ``size`` = 2^k numbers (I1, I2, R1.2, R13).

    Round 1 is :func:`first_round`; in each later round the winner of the match listed earlier
    is the home team (I2); the semifinal losers play for 3rd place, the loser of SF1 at home.
    """
    pairs = first_round(size)
    with _gc.paused():  # many small values, no cycles (see competition._gc)
        return _standard_scheme(size, pairs)


def _standard_scheme(size: int, pairs: list[tuple[int, int]]) -> Scheme:
    rounds = size.bit_length() - 1
    matches: list[MatchSpec] = []
    refs: dict[str, tuple[Winner, Loser]] = {}
    stage = _stage_of(1, rounds)
    prev = _round_ids(stage, 1, len(pairs))
    for mid, (a, b) in zip(prev, pairs, strict=True):
        matches.append(_spec(mid, 1, stage, _ref(Number, "number", a), _ref(Number, "number", b)))
    for r in range(2, rounds + 1):
        stage = _stage_of(r, rounds)
        ids = _round_ids(stage, r, len(prev) // 2)
        for j, mid in enumerate(ids):
            # I2: the winner of the match listed earlier is listed first (home).
            home = _ref(Winner, "match", prev[2 * j])
            away = _ref(Winner, "match", prev[2 * j + 1])
            matches.append(_spec(mid, r, stage, home, away))
            refs[home.match] = (home, _ref(Loser, "match", home.match))
            refs[away.match] = (away, _ref(Loser, "match", away.match))
        if stage is Stage.FINAL:
            # R1.2, R13.2; I2: the loser of the semifinal listed earlier is at home.
            home_l, away_l = Loser(prev[0]), Loser(prev[1])
            matches.append(MatchSpec("3RD", r, Stage.THIRD_PLACE, home_l, away_l))
            refs[prev[0]] = (refs[prev[0]][0], home_l)
            refs[prev[1]] = (refs[prev[1]][0], away_l)
        prev = ids
    win_f, lose_f, win_3rd, lose_3rd = Winner("F"), Loser("F"), Winner("3RD"), Loser("3RD")
    places: tuple[tuple[int, SlotRef], ...] = ((1, win_f), (2, lose_f), (3, win_3rd), (4, lose_3rd))
    refs["F"], refs["3RD"] = (win_f, lose_f), (win_3rd, lose_3rd)
    scheme = Scheme._built(size, tuple(matches), places, f"standard scheme for {size} teams")
    scheme._refs.update(refs)
    return scheme


_new = object.__new__
_set = object.__setattr__
if TYPE_CHECKING:
    _R = TypeVar("_R", Number, Winner, Loser)


def _ref(cls: type[_R], name: str, value: int | str) -> _R:
    """``cls(value)`` for the standard scheme's values, made directly: the constructor
    generated for a frozen dataclass takes twice as long, which shows for 2^16 teams."""
    ref: _R = _new(cls)
    _set(ref, name, value)
    return ref


def _spec(mid: str, round_no: int, stage: Stage, home: SlotRef, away: SlotRef) -> MatchSpec:
    """``MatchSpec(mid, round_no, stage, home, away)`` made directly (see :func:`_ref`)."""
    spec: MatchSpec = _new(MatchSpec)
    _set(spec, "id", mid)
    _set(spec, "round", round_no)
    _set(spec, "stage", stage)
    _set(spec, "home", home)
    _set(spec, "away", away)
    _set(spec, "reset_of", None)
    return spec


# ---------------------------------------------------------------------------------------------
# Validation


def _validate(scheme: Scheme) -> dict[str, MatchSpec]:
    size = scheme.size
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise _error(SIZE_TOO_SMALL, size=repr(size))
    if not scheme.matches:
        raise _error(NO_MATCHES)
    by_id: dict[str, MatchSpec] = {}
    for m in scheme.matches:
        if not isinstance(m.id, str) or not m.id.strip():
            raise _error(MATCH_WITHOUT_ID, id=repr(m.id))
        if m.id in by_id:
            raise _error(ID_USED_TWICE, match=m.id)
        if isinstance(m.round, bool) or not isinstance(m.round, int) or m.round < 1:
            raise _error(ROUND_NOT_WHOLE, match=m.id, round=repr(m.round))
        if not isinstance(m.stage, Stage):
            raise _error(STAGE_UNKNOWN, match=m.id, stage=repr(m.stage))
        by_id[m.id] = m
    # Unknown references, then cycles, then the order of rounds.
    for m in scheme.matches:
        for ref in m.slots:
            if isinstance(ref, Number):
                if not 1 <= ref.number <= size:
                    raise _error(NUMBER_OUTSIDE, match=m.id, number=ref.number, size=size)
            elif ref.match not in by_id:
                raise _error(REF_TO_UNKNOWN_MATCH, match=m.id, ref=ref_text(ref))
        if m.home == m.away:
            raise _error(BOTH_SLOTS_SAME, match=m.id, ref=ref_text(m.home))
        if m.reset_of is not None and (
            m.reset_of not in by_id or (m.home, m.away) != (Loser(m.reset_of), Winner(m.reset_of))
        ):
            raise _error(RESET_SLOTS, match=m.id, of=str(m.reset_of))
    # References to earlier rounds only. A scheme where they all point to earlier rounds has no
    # cycle; otherwise a cycle, if there is one, is the problem named first.
    late = [
        (m, ref)
        for m in scheme.matches
        for ref in m.slots
        if not isinstance(ref, Number) and by_id[ref.match].round >= m.round
    ]
    if late:
        _check_cycles(scheme, by_id)
        m, ref = late[0]
        assert not isinstance(ref, Number)
        raise _error(
            REF_NOT_EARLIER,
            match=m.id,
            round=m.round,
            ref=ref_text(ref),
            from_round=by_id[ref.match].round,
        )
    # Each reference is used once, so a team is in one place at a time; as references point to
    # earlier rounds, a team's path moves on by at least a round per match: nobody plays twice
    # in a round.
    used: dict[SlotRef, MatchSpec] = {}
    for m in scheme.matches:
        for ref in m.slots:
            if ref in used:
                other = used[ref]
                if other.round == m.round:
                    raise _error(
                        REF_PLAYS_TWICE,
                        match=m.id,
                        ref=ref_text(ref),
                        other=other.id,
                        round=m.round,
                    )
                raise _error(REF_PLACED_TWICE, match=m.id, ref=ref_text(ref), other=other.id)
            used[ref] = m
    for n in range(1, size + 1):
        if Number(n) not in used:
            raise _error(NUMBER_WITHOUT_PLACE, number=n)
    places_seen: set[int] = set()
    for place, ref in scheme.places:
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise _error(PLACE_NOT_WHOLE, place=repr(place))
        if place in places_seen:
            raise _error(PLACE_TWICE, place=place)
        places_seen.add(place)
        if isinstance(ref, Number) or ref.match not in by_id:
            raise _error(PLACE_NOT_A_RESULT, place=place, ref=ref_text(ref))
        if ref in used:
            raise _error(PLACE_PLAYS_ON, place=place, ref=ref_text(ref), match=used[ref].id)
    return by_id


def _check_cycles(scheme: Scheme, by_id: Mapping[str, MatchSpec]) -> None:
    state: dict[str, int] = {}  # 1 = on the path, 2 = done

    def visit(mid: str, path: list[str]) -> None:
        if state.get(mid) == 2:
            return
        if state.get(mid) == 1:
            cycle = [*path[path.index(mid) :], mid]
            raise _error(CYCLE, match=mid, cycle=" -> ".join(cycle))
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
        | ({"reset_of": m.reset_of} if m.reset_of is not None else {})
        for m in scheme.matches
    ]
    doc["places"] = {str(p): str(ref) for p, ref in scheme.places}
    return doc


def scheme_from_dict(data: Mapping[str, Any]) -> Scheme:
    """Builds and validates a scheme from plain data (a parsed JSON or TOML file).

    Keys: ``size``; ``matches`` (or ``match`` in TOML's ``[[match]]``), each with ``id``,
    ``round``, ``stage`` (preliminary, quarterfinal, semifinal, third_place, final), ``home`` and
    ``away`` (a number, ``"winner of X"`` or ``"loser of X"``), optional ``reset_of`` (a second
    final: :attr:`MatchSpec.reset_of`); optional ``places`` (place -> reference) and ``name``.
    """
    if not isinstance(data, Mapping):
        raise _error(NOT_A_SCHEME)
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int):
        raise _error(SIZE_NOT_WHOLE, size=repr(size))
    raw = data.get("matches", data.get("match"))
    if not isinstance(raw, list) or not raw:
        raise _error(MATCHES_NOT_A_LIST)
    matches: list[MatchSpec] = []
    for k, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            raise _error(MATCH_NOT_A_TABLE, where=Message(MATCH_NUMBER_LABEL, {"index": k}))
        mid = item.get("id")
        label = (
            Message(MATCH_LABEL, {"match": mid})
            if isinstance(mid, str) and mid
            else Message(MATCH_NUMBER_LABEL, {"index": k})
        )
        if not isinstance(mid, str) or not mid.strip():
            raise _error(ID_NOT_TEXT, where=label)
        for key in ("round", "stage", "home", "away"):
            if key not in item:
                raise _error(KEY_MISSING, where=label, key=key)
        rnd = item["round"]
        if isinstance(rnd, bool) or not isinstance(rnd, int):
            raise _error(ROUND_NOT_A_NUMBER, where=label, round=repr(rnd))
        try:
            stage = Stage(item["stage"])
        except ValueError:
            allowed = ", ".join(s.value for s in Stage)
            raise _error(
                STAGE_NOT_KNOWN, where=label, stage=repr(item["stage"]), allowed=allowed
            ) from None
        try:
            home, away = parse_ref(item["home"]), parse_ref(item["away"])
        except SchemeError as exc:
            raise _within(label, exc) from None
        reset_of = item.get("reset_of")
        if reset_of is not None and (not isinstance(reset_of, str) or not reset_of.strip()):
            raise _error(RESET_SLOTS, match=mid.strip(), of=repr(reset_of))
        matches.append(
            MatchSpec(mid.strip(), rnd, stage, home, away, reset_of.strip() if reset_of else None)
        )
    places: list[tuple[int, SlotRef]] = []
    raw_places = data.get("places", {})
    if not isinstance(raw_places, Mapping):
        raise _error(PLACES_NOT_A_TABLE)
    for key, value in raw_places.items():
        try:
            place = int(key)
        except (TypeError, ValueError):
            raise _error(PLACE_KEY_NOT_WHOLE, place=repr(key)) from None
        try:
            places.append((place, parse_ref(value)))
        except SchemeError as exc:
            raise _within(Message(PLACE_LABEL, {"place": place}), exc) from None
    name = data.get("name", "")
    return Scheme(
        size, tuple(matches), tuple(sorted(places, key=lambda item: item[0])), name=str(name)
    )


def load_scheme(path: str | Path) -> Scheme:
    """Reads a scheme from a ``.json`` or ``.toml`` file (the organiser's own annex, R9.1)."""
    import json
    import tomllib
    from pathlib import Path

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise _error(CANNOT_READ, path=str(p), error=str(exc.strerror)) from None
    try:
        if p.suffix.lower() == ".toml":
            data: Any = tomllib.loads(text)
        else:
            data = json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise _error(
            NOT_A_VALID_FILE, file=p.name, kind=p.suffix.lstrip(".") or "JSON", error=str(exc)
        ) from None
    try:
        return scheme_from_dict(data)
    except SchemeError as exc:
        raise _within(p.name, exc) from None
