"""Restrictions on bidding systems (R6, I9, I10).

A pair describes its pass in opening position and its one-level openings as structured data
(:class:`SystemDescription`); :func:`check_system` flags every clause of R6.1-R6.5 that the data
shows to be violated. R6.1-R6.4 need judgement (I10): a flag is not a ban. The TD looks at each
flag and records a :class:`Ruling` per pair and clause; :func:`unresolved` lists the flags still
waiting for one.

How the clauses are read (each is a reading the TD can overrule by a ruling):

- **Opening position (I10)**: no call other than pass has been made yet, so seats 1-4. A meaning
  applies to the seats listed in ``seats``; a pair that opens lighter in third seat gives a
  second entry for that seat.
- The numbers are the edition's ``[systems]`` section of the regulations
  (:class:`~bridgeko.competition.regulations.SystemRules`, ``reg.systems``; 1999 values here).
- **R6.1**: flagged when the pass's maximum is at or above ``SystemRules.one_level_minimum``
  (12 HCP), or when the pass and a one-level opening of the same pair, in a common seat, share
  an HCP value (the pass can hold a hand of a strength the pair opens). HCP alone cannot tell
  whether the shapes overlap too; that is the TD's judgement.
- **R6.2**: flagged when a one-level opening's minimum is below the maximum of the pass in a
  common seat (it allows hands weaker than some passes).
- **R6.3**: ``other_suits`` holds what the opening itself promises or denies about suits other
  than the named one (``"4+ hearts"``, ``"at most 1 spade"``); every such entry that narrows a
  suit is flagged. For 1NT no suit is named: the shape statement ``balanced`` is *not* definite
  information about the length of a particular suit and is not flagged, but an entry about a
  particular suit (``"1NT: 5+ hearts"``, ``"1NT: a singleton spade"``) is. An inference that only
  follows from the pair's other openings (a 1D opening "denies" five spades because such hands
  open 1S) is not the opening's information and is not recorded in ``other_suits``.
- **R6.4**: ``alternatives`` lists meanings besides the main one ("hearts or spades", "weak NT
  or strong any"); a one-level opening with any alternative is flagged.
- **R6.5 with I9**: a 1NT whose minimum is below ``nt_relay_threshold`` (16) and after which
  ``relays`` (an asking system specifying both strength and distribution; not Stayman or
  transfers) are used must have a range of fewer than ``nt_range_limit`` (5) points counted
  inclusively: ``max - min + 1 < 5``, so 12-15 is allowed and 12-16 is not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from bridgeko.bridge.cards import Suit
from bridgeko.competition.messages import N_, Message, Param, Worded
from bridgeko.competition.regulations import HCP_MAX, Regulations, SystemRules

__all__ = [
    "CLAUSES",
    "HCP_MAX",
    "SEATS",
    "CallMeaning",
    "Opening",
    "Ruling",
    "SuitLength",
    "SystemDescription",
    "SystemDescriptionError",
    "SystemRules",
    "Violation",
    "check_system",
    "refused",
    "unresolved",
]
SEATS = (1, 2, 3, 4)
"""Seats in opening position (I10)."""
_T = TypeVar("_T")
CLAUSES = ("R6.1", "R6.2", "R6.3", "R6.4", "R6.5")

# The message templates of the flags (English; the web layer translates, see messages.py)
SEAT = N_("seat %(seats)s")
SEATS_WORD = N_("seats %(seats)s")
HCP_RANGE = N_("%(min)s-%(max)s HCP")
LIST = N_("%(first)s, %(rest)s")
SUIT_WORDS = {
    Suit.CLUBS: N_("clubs"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.HEARTS: N_("hearts"),
    Suit.SPADES: N_("spades"),
}
LENGTH_AT_LEAST = N_("%(min)s+ %(suit)s")
LENGTH_AT_MOST = N_("at most %(max)s %(suit)s")
LENGTH_EXACTLY = N_("exactly %(min)s %(suit)s")
LENGTH_RANGE = N_("%(min)s-%(max)s %(suit)s")
R6_1_STRONG_PASS = N_(
    "Pass in %(seats)s allows up to %(max)s HCP, but hands of %(minimum)s HCP are normally "
    "worth a one-level opening."
)
R6_1_OVERLAP = N_(
    "Pass in %(seats)s (%(pass_range)s) can hold hands the pair opens %(call)s (%(call_range)s)."
)
R6_2_WEAKER = N_(
    "%(call)s in %(seats)s starts at %(min)s HCP, weaker than a pass there (up to %(pass_max)s "
    "HCP)."
)
R6_3_OTHER_SUIT = N_(
    "%(call)s gives definite information about a suit other than %(suit)s: %(what)s."
)
R6_3_NOTRUMP = N_("%(call)s gives definite information about a suit (1NT names no suit): %(what)s.")
R6_4_ALTERNATIVES = N_("%(call)s has alternative meanings: %(alternatives)s.")
R6_5_RANGE = N_(
    "1NT %(min)s-%(max)s is a range of %(points)s points; with relays after a 1NT below "
    "%(threshold)s HCP it must be less than %(limit)s."
)


# The errors (SystemDescriptionError.detail); a field is named by its place in the data,
# e.g. ``calls[0].min_hcp``
NOT_AN_OPENING = N_("not an opening restricted by R6: %(text)s (Pass, 1C .. 1S, 1NT)")
LENGTH_NOT_A_RANGE = N_("length of %(suit)s: %(min)s..%(max)s is not a range within 0..13")
CALL_LABEL = N_("%(call)s (seats %(seats)s)")
HCP_NOT_A_RANGE = N_("%(label)s: %(min)s-%(max)s HCP is not a range within 0..%(hcp_max)s")
SEATS_NOT_DISTINCT = N_("%(call)s: seats must be distinct, from 1 to 4")
SEATS_NOT_1_TO_4 = N_("%(call)s: seats are numbered 1 to 4, not %(seats)s")
SUIT_NOT_A_RANGE = N_("%(label)s: length %(min)s..%(max)s is not a range within 0..13")
NAMES_NO_SUIT = N_("%(label)s names no suit: give suit lengths in other_suits")
NAMED_SUIT_LENGTH = N_("%(label)s: the length of the named suit goes in suit_min/suit_max")
SUIT_TWICE = N_("%(label)s: %(suit)s described twice")
RELAYS_1NT_ONLY = N_("%(label)s: relays are recorded for 1NT only (R6.5)")
PASS_PER_SEAT = N_(
    "%(pair)s: seat %(seat)s needs exactly one meaning of pass in opening position, found %(count)s"
)
CALL_TWICE_IN_SEAT = N_("%(pair)s: %(call)s has more than one meaning in seat %(seat)s")
NOT_AN_OBJECT = N_("%(where)s: expected an object, got %(value)s")
MISSING = N_("%(where)s: missing")
DESCRIPTION_NOT_AN_OBJECT = N_("a system description is an object, got %(value)s")
RULING_CLAUSE = N_("a ruling is on one of %(clauses)s, not %(value)s")
RULING_WITHOUT_PAIR = N_("a ruling names the pair")
RULING_WITHOUT_TD = N_("a ruling names the TD")
RULING_NOT_AN_OBJECT = N_("a ruling is an object, got %(value)s")
IN_FIELD = N_("%(where)s: %(error)s")
NO_SUIT_OBJECT = N_("%(where)s: expected an object with a suit")
NOT_A_LIST = N_("%(where)s: expected a list, got %(value)s")
NOT_WHOLE = N_("%(where)s: expected a whole number, got %(value)s")
NOT_TRUE_OR_FALSE = N_("%(where)s: expected true or false, got %(value)s")
NOT_A_SUIT = N_("not a suit: %(value)s (C, D, H or S)")


class SystemDescriptionError(ValueError):
    """A description of a system that cannot be read; the message names the field.

    :attr:`detail` is the message as a translatable :class:`Message` (``str(error)`` is its
    English text); the web layer shows it with ``bridgeko.core.i18n.tr(error.detail)``."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


def _error(template: str, **params: Param) -> SystemDescriptionError:
    return SystemDescriptionError(Message(template, params))


class Opening(StrEnum):
    """A call in opening position that R6 restricts."""

    PASS = "Pass"
    ONE_CLUB = "1C"
    ONE_DIAMOND = "1D"
    ONE_HEART = "1H"
    ONE_SPADE = "1S"
    ONE_NOTRUMP = "1NT"

    @property
    def suit(self) -> Suit | None:
        """The suit the opening names (None for pass and 1NT)."""
        return _NAMED_SUIT.get(self)

    @classmethod
    def parse(cls, text: str) -> Opening:
        """``"pass"``, ``"P"``, ``"1c"``, ``"1♣"``, ``"1N"``, ``"1NT"`` ..."""
        key = text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H")
        key = key.replace("♠", "S")
        if key in ("P", "PASS", "PAS"):
            return cls.PASS
        if key in ("1N", "1NT", "1BT"):
            return cls.ONE_NOTRUMP
        for call in cls:
            if call.value == key:
                return call
        raise _error(NOT_AN_OPENING, text=repr(text))


_NAMED_SUIT: dict[Opening, Suit] = {
    Opening.ONE_CLUB: Suit.CLUBS,
    Opening.ONE_DIAMOND: Suit.DIAMONDS,
    Opening.ONE_HEART: Suit.HEARTS,
    Opening.ONE_SPADE: Suit.SPADES,
}

_SUIT_NAMES: dict[Suit, str] = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}


@dataclass(frozen=True, slots=True)
class SuitLength:
    """What an opening says about the length of one suit."""

    suit: Suit
    min_length: int = 0
    max_length: int = 13

    def __post_init__(self) -> None:
        if not 0 <= self.min_length <= self.max_length <= 13:
            raise _error(
                LENGTH_NOT_A_RANGE,
                suit=Message(SUIT_WORDS[self.suit]),
                min=self.min_length,
                max=self.max_length,
            )

    @property
    def definite(self) -> bool:
        """Whether it narrows the suit at all (promises length or shortness)."""
        return self.min_length > 0 or self.max_length < 13

    @property
    def detail(self) -> Message:
        """:meth:`__str__` as a translatable :class:`Message`."""
        params: dict[str, Param] = {
            "suit": Message(SUIT_WORDS[self.suit]),
            "min": self.min_length,
            "max": self.max_length,
        }
        if self.max_length == 13:
            return Message(LENGTH_AT_LEAST, params)
        if self.min_length == 0:
            return Message(LENGTH_AT_MOST, params)
        if self.min_length == self.max_length:
            return Message(LENGTH_EXACTLY, params)
        return Message(LENGTH_RANGE, params)

    def __str__(self) -> str:
        name = _SUIT_NAMES[self.suit]
        if self.max_length == 13:
            return f"{self.min_length}+ {name}"
        if self.min_length == 0:
            return f"at most {self.max_length} {name}"
        if self.min_length == self.max_length:
            return f"exactly {self.min_length} {name}"
        return f"{self.min_length}-{self.max_length} {name}"


@dataclass(frozen=True, slots=True)
class CallMeaning:
    """The meaning of one call in opening position, in the seats listed."""

    call: Opening
    min_hcp: int
    max_hcp: int
    seats: tuple[int, ...] = SEATS
    """Seats 1-4 in opening position (I10) where this meaning applies."""
    suit_min: int = 0
    """Length promised in the named suit (1C .. 1S)."""
    suit_max: int = 13
    other_suits: tuple[SuitLength, ...] = ()
    """What the opening itself promises or denies about other suits (R6.3)."""
    alternatives: tuple[str, ...] = ()
    """Meanings besides the main one, e.g. ``("strong, any shape",)`` (R6.4)."""
    forcing: bool = False
    artificial: bool = False
    balanced: bool = False
    """1NT: a balanced hand (not a statement about a particular suit, R6.3)."""
    relays: bool = False
    """1NT: an asking system specifying strength and distribution follows (R6.5, I9)."""
    note: str = ""

    def __post_init__(self) -> None:
        label = Message(CALL_LABEL, {"call": self.call.value, "seats": _seats(self.seats)})
        if not 0 <= self.min_hcp <= self.max_hcp <= HCP_MAX:
            raise _error(
                HCP_NOT_A_RANGE, label=label, min=self.min_hcp, max=self.max_hcp, hcp_max=HCP_MAX
            )
        if not self.seats or len(set(self.seats)) != len(self.seats):
            raise _error(SEATS_NOT_DISTINCT, call=self.call.value)
        if any(seat not in SEATS for seat in self.seats):
            raise _error(SEATS_NOT_1_TO_4, call=self.call.value, seats=str(self.seats))
        if not 0 <= self.suit_min <= self.suit_max <= 13:
            raise _error(SUIT_NOT_A_RANGE, label=label, min=self.suit_min, max=self.suit_max)
        if self.call.suit is None and (self.suit_min, self.suit_max) != (0, 13):
            raise _error(NAMES_NO_SUIT, label=label)
        seen: set[Suit] = set()
        for length in self.other_suits:
            if length.suit is self.call.suit:
                raise _error(NAMED_SUIT_LENGTH, label=label)
            if length.suit in seen:
                raise _error(SUIT_TWICE, label=label, suit=Message(SUIT_WORDS[length.suit]))
            seen.add(length.suit)
        if self.call is not Opening.ONE_NOTRUMP and self.relays:
            raise _error(RELAYS_1NT_ONLY, label=label)

    @property
    def hcp(self) -> str:
        return f"{self.min_hcp}-{self.max_hcp} HCP"

    def to_dict(self) -> dict[str, Any]:
        return {
            "call": self.call.value,
            "seats": list(self.seats),
            "min_hcp": self.min_hcp,
            "max_hcp": self.max_hcp,
            "suit_min": self.suit_min,
            "suit_max": self.suit_max,
            "other_suits": [
                {"suit": s.suit.value, "min": s.min_length, "max": s.max_length}
                for s in self.other_suits
            ],
            "alternatives": list(self.alternatives),
            "forcing": self.forcing,
            "artificial": self.artificial,
            "balanced": self.balanced,
            "relays": self.relays,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "call") -> CallMeaning:
        if not isinstance(data, Mapping):
            raise _error(NOT_AN_OBJECT, where=where, value=repr(data))
        if "call" not in data:
            raise _error(MISSING, where=f"{where}.call")
        call = _field(where, "call", lambda: Opening.parse(str(data["call"])))
        others = tuple(
            _suit_length(item, f"{where}.other_suits[{i}]")
            for i, item in enumerate(_list(data.get("other_suits", []), f"{where}.other_suits"))
        )
        seats = tuple(_int(s, f"{where}.seats") for s in _list(data.get("seats", SEATS), where))
        alternatives = tuple(
            str(a).strip()
            for a in _list(data.get("alternatives", []), f"{where}.alternatives")
            if str(a).strip()
        )
        for key in ("min_hcp", "max_hcp"):
            if key not in data:
                raise _error(MISSING, where=f"{where}.{key}")
        return _field(
            where,
            "",
            lambda: cls(
                call=call,
                min_hcp=_int(data["min_hcp"], f"{where}.min_hcp"),
                max_hcp=_int(data["max_hcp"], f"{where}.max_hcp"),
                seats=seats,
                suit_min=_int(data.get("suit_min", 0), f"{where}.suit_min"),
                suit_max=_int(data.get("suit_max", 13), f"{where}.suit_max"),
                other_suits=others,
                alternatives=alternatives,
                forcing=_bool(data.get("forcing", False), f"{where}.forcing"),
                artificial=_bool(data.get("artificial", False), f"{where}.artificial"),
                balanced=_bool(data.get("balanced", False), f"{where}.balanced"),
                relays=_bool(data.get("relays", False), f"{where}.relays"),
                note=str(data.get("note", "")).strip(),
            ),
        )


@dataclass(frozen=True, slots=True)
class SystemDescription:
    """A pair's pass in opening position and one-level openings (R6)."""

    pair: str
    """The pair, e.g. ``"Novák - Svoboda (Team A)"``."""
    calls: tuple[CallMeaning, ...]

    def __post_init__(self) -> None:
        for seat in SEATS:
            passes = [c for c in self.calls if c.call is Opening.PASS and seat in c.seats]
            if len(passes) != 1:
                raise _error(PASS_PER_SEAT, pair=self.pair, seat=seat, count=len(passes))
        for call in Opening:
            for seat in SEATS:
                if sum(1 for c in self.calls if c.call is call and seat in c.seats) > 1:
                    raise _error(CALL_TWICE_IN_SEAT, pair=self.pair, call=call.value, seat=seat)

    def to_dict(self) -> dict[str, Any]:
        return {"pair": self.pair, "calls": [c.to_dict() for c in self.calls]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SystemDescription:
        if not isinstance(data, Mapping):
            raise _error(DESCRIPTION_NOT_AN_OBJECT, value=repr(data))
        pair = str(data.get("pair", "")).strip()
        if not pair:
            raise _error(MISSING, where="pair")
        calls = tuple(
            CallMeaning.from_dict(item, f"calls[{i}]")
            for i, item in enumerate(_list(data.get("calls", []), "calls"))
        )
        return cls(pair, calls)


# --------------------------------------------------------------------------------------------
# The checker (R6.1-R6.5)


@dataclass(frozen=True, slots=True)
class Violation(Worded):
    """A clause of R6 that the described system appears to violate (a flag for the TD, I10)."""

    clause: str
    call: Opening
    seats: tuple[int, ...]
    message: str
    """In words (English), naming the opening and why."""
    i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`message` as a template and its params (None: a plain text)."""

    @classmethod
    def of(cls, clause: str, call: Opening, seats: tuple[int, ...], message: Message) -> Violation:
        """A flag worded by a message template (``.message`` is its English text)."""
        return cls(clause, call, seats, str(message), message)

    def __str__(self) -> str:
        return f"{self.clause}: {self.message}"


def check_system(
    description: SystemDescription, rules: Regulations | SystemRules | None = None
) -> list[Violation]:
    """Every clause of R6.1-R6.5 the description violates, in clause order, one per opening and
    seat group (see the module's docstring for how each clause is read).

    The numbers are the edition's: ``rules`` is its :class:`Regulations` (``reg.systems`` is
    used) or that section itself; None means the 1999 values (``SystemRules()``)."""
    if isinstance(rules, Regulations):
        rules = rules.systems
    rules = rules or SystemRules()
    passes = [c for c in description.calls if c.call is Opening.PASS]
    openings = [c for c in description.calls if c.call is not Opening.PASS]
    found: list[Violation] = []

    # R6.1
    for pas in passes:
        if pas.max_hcp >= rules.one_level_minimum:
            params: dict[str, Param] = {
                "seats": _seat_message(pas.seats),
                "max": pas.max_hcp,
                "minimum": rules.one_level_minimum,
            }
            found.append(
                Violation.of("R6.1", Opening.PASS, pas.seats, Message(R6_1_STRONG_PASS, params))
            )
        for opening in openings:
            seats = _common(pas.seats, opening.seats)
            if seats and opening.min_hcp <= pas.max_hcp and pas.min_hcp <= opening.max_hcp:
                params = {
                    "seats": _seat_message(seats),
                    "pass_range": _hcp_message(pas),
                    "call": opening.call.value,
                    "call_range": _hcp_message(opening),
                }
                found.append(
                    Violation.of("R6.1", Opening.PASS, seats, Message(R6_1_OVERLAP, params))
                )
    # R6.2
    for opening in openings:
        for pas in passes:
            seats = _common(pas.seats, opening.seats)
            if seats and opening.min_hcp < pas.max_hcp:
                params = {
                    "call": opening.call.value,
                    "seats": _seat_message(seats),
                    "min": opening.min_hcp,
                    "pass_max": pas.max_hcp,
                }
                found.append(
                    Violation.of("R6.2", opening.call, seats, Message(R6_2_WEAKER, params))
                )
    # R6.3
    for opening in openings:
        definite = [s.detail for s in opening.other_suits if s.definite]
        if definite:
            what = definite[-1]
            for item in reversed(definite[:-1]):
                what = Message(LIST, {"first": item, "rest": what})
            params = {"call": opening.call.value, "what": what}
            if opening.call.suit is not None:
                params["suit"] = Message(SUIT_WORDS[opening.call.suit])
                template = R6_3_OTHER_SUIT
            else:
                template = R6_3_NOTRUMP
            found.append(
                Violation.of("R6.3", opening.call, opening.seats, Message(template, params))
            )
    # R6.4
    for opening in openings:
        if opening.alternatives:
            params = {"call": opening.call.value, "alternatives": "; ".join(opening.alternatives)}
            found.append(
                Violation.of(
                    "R6.4", opening.call, opening.seats, Message(R6_4_ALTERNATIVES, params)
                )
            )
    # R6.5, I9
    for opening in openings:
        points = opening.max_hcp - opening.min_hcp + 1
        if (
            opening.call is Opening.ONE_NOTRUMP
            and opening.relays
            and opening.min_hcp < rules.nt_relay_threshold
            and points >= rules.nt_range_limit
        ):
            params = {
                "min": opening.min_hcp,
                "max": opening.max_hcp,
                "points": points,
                "threshold": rules.nt_relay_threshold,
                "limit": rules.nt_range_limit,
            }
            found.append(
                Violation.of("R6.5", opening.call, opening.seats, Message(R6_5_RANGE, params))
            )
    return found


# --------------------------------------------------------------------------------------------
# The TD's rulings (I10)


@dataclass(frozen=True, slots=True)
class Ruling:
    """The TD's ruling on one clause of R6 for one pair (I10)."""

    pair: str
    clause: str
    allowed: bool
    td: str
    note: str = ""
    call: Opening | None = None
    """The opening ruled on; None for a ruling covering every opening under the clause."""

    def __post_init__(self) -> None:
        if self.clause not in CLAUSES:
            raise _error(RULING_CLAUSE, clauses=", ".join(CLAUSES), value=repr(self.clause))
        if not self.pair.strip():
            raise _error(RULING_WITHOUT_PAIR)
        if not self.td.strip():
            raise _error(RULING_WITHOUT_TD)

    def covers(self, pair: str, violation: Violation) -> bool:
        """Whether this ruling decides ``violation`` of ``pair``."""
        return (
            _key(self.pair) == _key(pair)
            and self.clause == violation.clause
            and (self.call is None or self.call is violation.call)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "pair": self.pair,
            "clause": self.clause,
            "allowed": self.allowed,
            "td": self.td,
            "note": self.note,
            "call": None if self.call is None else self.call.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruling:
        if not isinstance(data, Mapping):
            raise _error(RULING_NOT_AN_OBJECT, value=repr(data))
        for key in ("pair", "clause", "allowed", "td"):
            if key not in data:
                raise _error(MISSING, where=f"ruling.{key}")
        call = data.get("call")
        return cls(
            pair=str(data["pair"]).strip(),
            clause=str(data["clause"]).strip(),
            allowed=_bool(data["allowed"], "ruling.allowed"),
            td=str(data["td"]).strip(),
            note=str(data.get("note", "")).strip(),
            call=None if call in (None, "") else Opening.parse(str(call)),
        )


def unresolved(
    pair: str, violations: Iterable[Violation], rulings: Iterable[Ruling]
) -> list[Violation]:
    """The flags of ``pair`` that no TD ruling decides yet (I10)."""
    rulings = list(rulings)
    return [v for v in violations if not any(r.covers(pair, v) for r in rulings)]


def refused(
    pair: str, violations: Iterable[Violation], rulings: Iterable[Ruling]
) -> list[Violation]:
    """The flags of ``pair`` that the TD ruled not allowed."""
    rulings = list(rulings)
    return [v for v in violations if any(r.covers(pair, v) and not r.allowed for r in rulings)]


# --------------------------------------------------------------------------------------------
# Helpers


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _common(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(set(a) & set(b)))


def _seats(seats: Sequence[int]) -> str:
    ordered = sorted(seats)
    if not ordered:
        return ""
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(str(s) for s in ordered)


def _seat_message(seats: Sequence[int]) -> Message:
    if len(seats) == 1:
        return Message(SEAT, {"seats": seats[0]})
    return Message(SEATS_WORD, {"seats": _seats(seats)})


def _hcp_message(meaning: CallMeaning) -> Message:
    return Message(HCP_RANGE, {"min": meaning.min_hcp, "max": meaning.max_hcp})


def _field(where: str, name: str, make: Callable[[], _T]) -> _T:
    try:
        return make()
    except SystemDescriptionError as exc:
        raise _error(IN_FIELD, where=where, error=exc.detail) from exc
    except (ValueError, TypeError, KeyError) as exc:  # Python's own words (not translated)
        label = f"{where}.{name}" if name else where
        raise _error(IN_FIELD, where=label, error=str(exc)) from exc


def _suit_length(item: Any, place: str) -> SuitLength:
    if not isinstance(item, Mapping) or "suit" not in item:
        raise _error(NO_SUIT_OBJECT, where=place)
    suit = _field(place, "suit", lambda: _suit(item["suit"]))
    low = _int(item.get("min", 0), f"{place}.min")
    high = _int(item.get("max", 13), f"{place}.max")
    return _field(place, "", lambda: SuitLength(suit, low, high))


def _list(value: Any, where: str) -> list[Any]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _error(NOT_A_LIST, where=where, value=repr(value))
    return list(value)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool):
        raise _error(NOT_WHOLE, where=where, value=repr(value))
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise _error(NOT_WHOLE, where=where, value=repr(value))


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0", ""}


def _bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise _error(NOT_TRUE_OR_FALSE, where=where, value=repr(value))


def _suit(value: Any) -> Suit:
    text = str(value).strip().upper()[:1]
    for suit in Suit:
        if suit.value == text:
            return suit
    raise _error(NOT_A_SUIT, value=repr(value))
