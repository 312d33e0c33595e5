"""Entries: rosters, conditions of entry, fees, roster changes and the closing of entries.

Clauses: R3 (conditions of entry), R4.1 and I4 (fees, returning teams), R7 (the team and its
roster), R8.1 (cancellation), R9.2 and I11 ("entered" teams), I12 (deadlines in local time).

Everything here takes plain values (player and team ids, dates) and the edition's
:class:`~bridgeko.competition.regulations.Regulations`; the web layer maps its models to them.

>>> is_returning_team("Sokol  Praha", [1, 2, 3, 7], "sokol praha", [1, 2, 3, 4, 5])
True
>>> is_returning_team("Sokol Praha", [2, 3, 4, 5], "Sokol Praha", [1, 2, 3, 4, 5])
True
>>> is_returning_team("Sokol Praha", [5, 2, 3, 7], "Sokol Praha", [1, 2, 3, 4, 5])
False
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from enum import StrEnum
from typing import TypeAlias
from zoneinfo import ZoneInfo

from bridgeko.competition.messages import N_, Message, Param, Worded
from bridgeko.competition.regulations import EntryRules, FeeRules, Regulations
from bridgeko.competition.schedule import by_end_of_day, end_of_day

__all__ = [
    "ConditionProblem",
    "ConditionsResult",
    "EntriesOutcome",
    "EntryConditions",
    "EntryError",
    "FeeDecision",
    "FeeOverride",
    "FeeTier",
    "PlayerId",
    "Received",
    "Refund",
    "RosterChange",
    "RosterError",
    "RosterFrozenError",
    "RosterProblem",
    "TeamKey",
    "captain_changes_closed",
    "captain_of",
    "change_roster",
    "check_roster",
    "close_entries",
    "closing_reason",
    "conditions_met",
    "entry_fee",
    "is_returning_team",
    "normalise_team_name",
    "pairs_needed",
    "who",
]

PlayerId: TypeAlias = int | str
"""A player's id as the caller knows it (database key or federation number)."""
TeamKey: TypeAlias = int | str
"""A team's id or name as the caller knows it."""
Received: TypeAlias = date | datetime | None
"""When something reached the organiser: an aware datetime, a local date, or None (not yet)."""

_FEES = FeeRules()
_MIN_PAIRS: int = EntryRules(deadline=date.min).min_players // 2
"""R7.1's smallest team (4 players in the data model) is this many pairs; pass
``reg.entry.min_players // 2`` for an edition (as :func:`close_entries` does)."""

# --------------------------------------------------------------------------------------------
# The message templates (English; the web layer translates them, see competition/messages.py)
# --------------------------------------------------------------------------------------------

NAMED_PLAYER = N_("%(name)s (%(player)s)")
PLAYER = N_("player %(player)s")
PROBLEM_WITH_CLAUSE = N_("%(message)s (%(clause)s)")
ROSTER_EMPTY = N_("the roster is empty; it has no captain")
LISTED_TWICE = N_("%(player)s is listed twice")
ROSTER_SIZE = N_("a team has %(min)s to %(max)s players; this roster has %(count)s")
CAPTAIN_NOT_ON_ROSTER = N_("the captain %(player)s is not on the roster")
CAPTAIN_NOT_FIRST = N_("the captain %(player)s must be listed first")
ON_OTHER_ROSTER = N_("%(player)s is already on the roster of team %(team)s")
ROSTER_FROZEN = N_(
    "R7.2: the roster cannot be changed after entry; only the chief TD may allow an "
    "exception, and the exception needs a reason"
)
ITEM_ENTRY_FORM = N_("entry form")
ITEM_CONVENTION_CARDS = N_("convention cards")
ITEM_CONVENTION_CARD = N_("convention card of pair %(pair)s")
ITEM_ENTRY_FEE = N_("entry fee")
CONDITION_PROBLEM = N_("%(item)s: %(message)s (%(clause)s)")
NOT_RECEIVED = N_("not received")
RECEIVED_LATE = N_("received %(received)s, after the deadline %(deadline)s")
TOO_FEW_PAIRS = N_(
    "%(count)s pair(s) declared; a convention card of each pair is needed and a team has at "
    "least %(min)s pairs"
)
FEE_SHORT = N_("%(paid)s received, %(due)s due")
RETURNING_SAME_PLAYERS = N_("with %(count)s of the same players")
RETURNING_WITH_CAPTAIN = N_(
    "with %(count)s of the same players including the previous captain %(captain)s"
)
FEE_RETURNING = N_(
    "R4.1: %(amount)s %(currency)s for a team that took part in the previous edition: "
    "same name %(name)s %(why)s (I4)"
)
FEE_NEAR_RETURNING = N_(
    " (a team named %(name)s took part in the previous edition, but with too few "
    "of the same players to count as returning, I4)"
)
FEE_MEMBERS_ONLY = N_(
    "R4.1: %(amount)s %(currency)s for a new team made up only of ČBS members%(note)s"
)
FEE_OTHER = N_(
    "R4.1: %(amount)s %(currency)s for a team with players who are not ČBS members%(note)s"
)
FEE_OTHER_NAMED = N_(
    "R4.1: %(amount)s %(currency)s for a team with players who are not ČBS members "
    "(%(players)s)%(note)s"
)
FEE_OVERRIDDEN = N_(
    "organiser's decision (I4): %(amount)s %(currency)s instead of %(rule_amount)s "
    "%(currency)s (the rule: %(rule)s) — %(why)s"
)
"""The organiser's reason last: it is free text and may end with its own full stop."""
FEE_PER_PLAYER = N_("%(rule)s, a player: %(players)s players, %(amount)s %(currency)s")
FEE_NOT_WHOLE = N_("a fee is a whole amount, 0 or more, not %(amount)s")
OVERRIDE_NEEDS_REASON = N_("an override of the entry fee needs a reason (I4)")
CLOSING_CANCELLED = N_(
    "R8.1: %(count)s team(s) met the conditions of entry by %(deadline)s, fewer than "
    "%(min)s: the competition is cancelled and the entry fees are returned"
)
CLOSING_GOES_AHEAD = N_(
    "R8.1: %(count)s teams met the conditions of entry by %(deadline)s (at least %(min)s): "
    "the competition goes ahead"
)


def who(player: PlayerId, names: Mapping[PlayerId, str] | None) -> Message:
    """A player in a message: ``"Jan Novák (7)"`` when ``names`` knows them, else ``"player 7"``."""
    if names and player in names:
        return Message(NAMED_PLAYER, {"name": names[player], "player": player})
    return Message(PLAYER, {"player": player})


# --------------------------------------------------------------------------------------------
# R7: the roster
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RosterProblem(Worded):
    """One reason a roster cannot be accepted."""

    clause: str
    """The clause broken, e.g. ``"R7.3"``."""
    message: str
    """In words, naming the player and team concerned."""
    player: PlayerId | None = None
    """The player concerned, if one is."""
    other_team: TeamKey | None = None
    """R7.3: the other team whose roster names the player."""
    i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`message` as a template and its params (None: the message is a plain text)."""

    @classmethod
    def of(
        cls,
        clause: str,
        message: Message,
        *,
        player: PlayerId | None = None,
        other_team: TeamKey | None = None,
    ) -> RosterProblem:
        """A problem worded by a message template (``.message`` is its English text)."""
        return cls(clause, str(message), player, other_team, message)

    @property
    def text(self) -> Message:
        """``str(self)`` as a translatable :class:`Message`."""
        return Message(PROBLEM_WITH_CLAUSE, {"message": self.detail, "clause": self.clause})

    def __str__(self) -> str:
        return f"{self.message} ({self.clause})"


class EntryError(ValueError):
    """A user error in the entries; :attr:`detail` is its message as a translatable
    :class:`Message`."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


class RosterError(ValueError):
    """A roster that breaks R7 (or R15.3); :attr:`problems` lists every reason."""

    def __init__(self, problems: Sequence[RosterProblem]) -> None:
        self.problems: tuple[RosterProblem, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class RosterFrozenError(ValueError):
    """R7.2: a roster change after entry without the chief TD's justified exception.

    :attr:`detail` is the message as a translatable :class:`Message`."""

    def __init__(self, message: str | Message = ROSTER_FROZEN) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


def captain_of(roster: Sequence[PlayerId]) -> PlayerId:
    """The captain: the first player listed (R7.1; there is no non-playing captain)."""
    if not roster:
        raise RosterError([RosterProblem.of("R7.1", Message(ROSTER_EMPTY))])
    return roster[0]


def check_roster(
    roster: Sequence[PlayerId],
    reg: Regulations,
    other_rosters: Mapping[TeamKey, Sequence[PlayerId]] | None = None,
    *,
    team: TeamKey | None = None,
    captain: PlayerId | None = None,
    names: Mapping[PlayerId, str] | None = None,
) -> list[RosterProblem]:
    """Every reason ``roster`` (captain first) cannot be a team's roster; empty when it can.

    R7.1: ``reg.entry.min_players`` to ``max_players`` different players, the first one the
    captain (if ``captain`` is given it must be listed first). R7.3: no player on the roster of
    another team of the same edition; ``other_rosters`` are those teams' rosters (the entry of
    ``team`` itself, if present, is skipped). ``names`` only makes the messages readable.
    """
    problems: list[RosterProblem] = []
    seen: set[PlayerId] = set()
    for player in roster:
        if player in seen:
            problems.append(
                RosterProblem.of(
                    "R7.1", Message(LISTED_TWICE, {"player": who(player, names)}), player=player
                )
            )
        seen.add(player)
    lo, hi = reg.entry.min_players, reg.entry.max_players
    if not lo <= len(seen) <= hi:  # R7.1
        problems.append(
            RosterProblem.of(
                "R7.1", Message(ROSTER_SIZE, {"min": lo, "max": hi, "count": len(seen)})
            )
        )
    if captain is not None and (not roster or roster[0] != captain):  # R7.1
        where = CAPTAIN_NOT_ON_ROSTER if captain not in seen else CAPTAIN_NOT_FIRST
        problems.append(
            RosterProblem.of(
                "R7.1", Message(where, {"player": who(captain, names)}), player=captain
            )
        )
    for other, other_roster in (other_rosters or {}).items():  # R7.3
        if team is not None and other == team:
            continue
        shared = seen.intersection(other_roster)
        for player in (p for p in dict.fromkeys(roster) if p in shared):
            problems.append(
                RosterProblem.of(
                    "R7.3",
                    Message(ON_OTHER_ROSTER, {"player": who(player, names), "team": other}),
                    player=player,
                    other_team=other,
                )
            )
    return problems


@dataclass(frozen=True, slots=True)
class RosterChange:
    """A roster change allowed after entry by the chief TD (R7.2), for the audit log."""

    old: tuple[PlayerId, ...]
    new: tuple[PlayerId, ...]
    reason: str
    """The chief TD's justification; empty only when nothing changed."""

    @property
    def added(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.new if p not in self.old)

    @property
    def removed(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.old if p not in self.new)

    @property
    def changed(self) -> bool:
        """Also true when only the order (and so perhaps the captain) changed."""
        return self.old != self.new


def change_roster(
    current: Sequence[PlayerId],
    new: Sequence[PlayerId],
    reg: Regulations,
    *,
    exception_reason: str | None,
    other_rosters: Mapping[TeamKey, Sequence[PlayerId]] | None = None,
    team: TeamKey | None = None,
    names: Mapping[PlayerId, str] | None = None,
) -> RosterChange:
    """Checks a change of a roster after entry; returns it for the record.

    R7.2: after entry a roster is frozen; a change (including a new order, which may change the
    captain) is allowed only as the chief TD's exception with a non-empty ``exception_reason``
    (else :class:`RosterFrozenError`). The new roster must still pass R7.1 and R7.3
    (else :class:`RosterError`).
    """
    old, changed = tuple(current), tuple(new)
    if old == changed:
        return RosterChange(old, changed, (exception_reason or "").strip())
    reason = (exception_reason or "").strip()
    if not reason:
        raise RosterFrozenError(Message(ROSTER_FROZEN))
    problems = check_roster(changed, reg, other_rosters, team=team, names=names)
    if problems:
        raise RosterError(problems)
    return RosterChange(old, changed, reason)


# --------------------------------------------------------------------------------------------
# R3: conditions of entry
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryConditions:
    """What the organiser has received from one team (R3.1), and when.

    A receipt is an aware :class:`~datetime.datetime`, a :class:`~datetime.date` in the
    organiser's time zone, or None when nothing has been received. Record the form as received
    only when it is properly filled in (R3.1a) — its roster checked with :func:`check_roster`.
    """

    form_received: Received = None
    """(a) The entry form, properly filled in on the original form."""
    convention_cards: Mapping[str, Received] = field(default_factory=dict)
    """(b) One convention card per declared pair: pair label -> when received. A team of 4
    players is 2 pairs; a team of 5 or 6 declares its pairs (at least 2)."""
    fee_received: Received = None
    """(c) When the entry fee was received (in full)."""
    fee_paid: int = 0
    """The amount received (refunded if the edition is cancelled, R8.1)."""


@dataclass(frozen=True, slots=True)
class ConditionProblem(Worded):
    """A condition of entry that is missing, late or short."""

    item: str
    """``"entry form"``, ``"convention card of pair 'A–B'"``, ``"convention cards"``,
    ``"entry fee"``."""
    kind: str
    """``"missing"``, ``"late"``, ``"too few pairs"`` or ``"short"`` (fee below the amount due)."""
    clause: str
    message: str
    i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`message` as a template and its params (None: a plain text)."""
    item_i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`item` as a template and its params (None: a plain text)."""

    @classmethod
    def of(cls, item: Message, kind: str, clause: str, message: Message) -> ConditionProblem:
        """A problem worded by message templates (``.item``, ``.message``: their English)."""
        return cls(str(item), kind, clause, str(message), message, item)

    @property
    def item_detail(self) -> Message:
        """:attr:`item` as a translatable :class:`Message`."""
        return self.item_i18n if self.item_i18n is not None else Message(self.item)

    @property
    def text(self) -> Message:
        """``str(self)`` as a translatable :class:`Message`."""
        return Message(
            CONDITION_PROBLEM,
            {"item": self.item_detail, "message": self.detail, "clause": self.clause},
        )

    def __str__(self) -> str:
        return f"{self.item}: {self.message} ({self.clause})"


@dataclass(frozen=True, slots=True)
class ConditionsResult:
    """Whether a team met every condition of entry by the deadline (R3.1, R3.2, I12)."""

    problems: tuple[ConditionProblem, ...]

    @property
    def met(self) -> bool:
        return not self.problems

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(p.item for p in self.problems if p.kind == "missing")

    @property
    def late(self) -> tuple[str, ...]:
        return tuple(p.item for p in self.problems if p.kind == "late")


def _local_day(received: date | datetime, zone: tzinfo, item: str) -> date:
    if isinstance(received, datetime):
        if received.tzinfo is None or received.utcoffset() is None:
            raise ValueError(f"{item}: the time received must carry a time zone: {received!r}")
        return received.astimezone(zone).date()
    return received


def pairs_needed(reg: Regulations) -> int:
    """The fewest pairs a team declares, each with a convention card (R3.1b): its smallest
    roster in pairs (R7.1: 4 players are 2 pairs). The one place for this rule."""
    return reg.entry.min_players // 2  # R7.1


def conditions_met(
    conditions: EntryConditions,
    deadline: date,
    tz: str | tzinfo,
    *,
    min_pairs: int = _MIN_PAIRS,
    fee_due: int | None = None,
) -> ConditionsResult:
    """Checks R3.1 (a) form, (b) a convention card of each pair, (c) fee, all by ``deadline``.

    I12: "by the deadline" means by the end of that day in the organiser's time zone ``tz``
    (e.g. ``reg.edition.timezone``). ``min_pairs``: the team must declare at least this many
    pairs (``reg.entry.min_players // 2``; 2: a team of 4 players, R7.1). ``fee_due``: if given, an
    amount paid below it is reported as short (R4.1).
    """
    zone = ZoneInfo(tz) if isinstance(tz, str) else tz
    problems: list[ConditionProblem] = []

    def check(item: Message, received: Received, clause: str) -> None:
        if received is None:
            problems.append(ConditionProblem.of(item, "missing", clause, Message(NOT_RECEIVED)))
            return
        day = _local_day(received, zone, str(item))
        if not by_end_of_day(received, deadline, zone):  # R3.2, I12
            problems.append(
                ConditionProblem.of(
                    item,
                    "late",
                    "R3.2",
                    Message(
                        RECEIVED_LATE,
                        {"received": day.isoformat(), "deadline": deadline.isoformat()},
                    ),
                )
            )

    check(Message(ITEM_ENTRY_FORM), conditions.form_received, "R3.1a")
    if len(conditions.convention_cards) < min_pairs:
        problems.append(
            ConditionProblem.of(
                Message(ITEM_CONVENTION_CARDS),
                "too few pairs",
                "R3.1b",
                Message(
                    TOO_FEW_PAIRS, {"count": len(conditions.convention_cards), "min": min_pairs}
                ),
            )
        )
    for pair, received in conditions.convention_cards.items():
        check(Message(ITEM_CONVENTION_CARD, {"pair": repr(pair)}), received, "R3.1b")
    check(Message(ITEM_ENTRY_FEE), conditions.fee_received, "R3.1c")
    if (
        fee_due is not None
        and conditions.fee_received is not None
        and conditions.fee_paid < fee_due
    ):
        problems.append(
            ConditionProblem.of(
                Message(ITEM_ENTRY_FEE),
                "short",
                "R4.1",
                Message(FEE_SHORT, {"paid": conditions.fee_paid, "due": fee_due}),
            )
        )
    return ConditionsResult(tuple(problems))


# --------------------------------------------------------------------------------------------
# R4.1, I4: entry fees
# --------------------------------------------------------------------------------------------


def normalise_team_name(name: str) -> str:
    """A team name for comparison (I4): Unicode NFC, all whitespace removed, case-folded.

    So ``"  Sokol   PRAHA "``, ``"sokol praha"`` and ``"SokolPraha"`` are the same name;
    diacritics still count (``"Praha"`` is not ``"Práha"``).
    """
    return "".join(unicodedata.normalize("NFC", name).split()).casefold()


def _common_players(roster: Sequence[PlayerId], previous: Sequence[PlayerId]) -> int:
    return len(set(roster).intersection(previous))


def is_returning_team(
    name: str,
    roster: Sequence[PlayerId],
    previous_name: str,
    previous_roster: Sequence[PlayerId],
    *,
    same_players: int = _FEES.returning_same_players,
    same_players_with_captain: int = _FEES.returning_same_players_with_captain,
) -> bool:
    """Whether a team is the same as a team of the previous edition (R4.1 as read in I4).

    Same name AND (at least ``same_players`` players on both rosters, OR at least
    ``same_players_with_captain`` players on both rosters including the previous captain, the
    first player of ``previous_roster``). Names are compared case- and whitespace-insensitively
    (letter case and all whitespace are ignored, see :func:`normalise_team_name`). Pass the
    edition's ``reg.fees`` values for the numbers.
    """
    return (
        _returning_reason(
            name, roster, previous_name, previous_roster, same_players, same_players_with_captain
        )
        is not None
    )


def _returning_reason(
    name: str,
    roster: Sequence[PlayerId],
    previous_name: str,
    previous_roster: Sequence[PlayerId],
    same_players: int,
    same_players_with_captain: int,
) -> Message | None:
    if normalise_team_name(name) != normalise_team_name(previous_name):
        return None
    common = _common_players(roster, previous_roster)
    if common >= same_players:
        return Message(RETURNING_SAME_PLAYERS, {"count": common})
    if previous_roster and common >= same_players_with_captain and previous_roster[0] in roster:
        return Message(RETURNING_WITH_CAPTAIN, {"count": common, "captain": previous_roster[0]})
    return None


class FeeTier(StrEnum):
    """The three fees of R4.1."""

    RETURNING = "returning"
    MEMBERS_ONLY = "members_only"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class FeeOverride:
    """The organiser's decision on a fee, with its reason (I4)."""

    amount: int
    reason: str

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount < 0:
            raise EntryError(Message(FEE_NOT_WHOLE, {"amount": repr(self.amount)}))
        if not self.reason.strip():
            raise EntryError(Message(OVERRIDE_NEEDS_REASON))


@dataclass(frozen=True, slots=True)
class FeeDecision(Worded):
    """The entry fee of a team and why (R4.1)."""

    _english = "reason"

    amount: int
    """What the team pays (after any override)."""
    tier: FeeTier
    """The R4.1 tier the rules give (unchanged by an override)."""
    reason: str
    """In words, citing the clause."""
    currency: str
    rule_amount: int
    """What R4.1 gives before any override."""
    override_reason: str | None = None
    i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`reason` as a template and its params (None: a plain text)."""

    @property
    def overridden(self) -> bool:
        return self.override_reason is not None

    @property
    def reason_detail(self) -> Message:
        """:attr:`reason` as a translatable :class:`Message`."""
        return self.detail


def entry_fee(
    name: str,
    roster: Sequence[PlayerId],
    members: Mapping[PlayerId, bool],
    previous_teams: Mapping[str, Sequence[PlayerId]],
    reg: Regulations,
    *,
    override: FeeOverride | None = None,
) -> FeeDecision:
    """The entry fee of a team (R4.1, I4).

    ``members``: whether each player is a federation (ČBS) member; a player not in it counts as
    not a member. ``previous_teams``: the teams whose entry was accepted in the previous edition
    ("took part", I4), name -> roster with the captain first. ``override``: the organiser's
    amount and reason (I4).
    """
    fees, cur = reg.fees, reg.edition.currency
    tier: FeeTier
    for prev_name, prev_roster in previous_teams.items():
        why = _returning_reason(
            name,
            roster,
            prev_name,
            prev_roster,
            fees.returning_same_players,
            fees.returning_same_players_with_captain,
        )
        if why is not None:
            tier, amount = FeeTier.RETURNING, fees.returning
            reason = Message(
                FEE_RETURNING,
                {"amount": amount, "currency": cur, "name": repr(prev_name), "why": why},
            )
            break
    else:
        outsiders = [p for p in dict.fromkeys(roster) if not members.get(p, False)]
        near = [
            prev_name
            for prev_name in previous_teams
            if normalise_team_name(prev_name) == normalise_team_name(name)
        ]
        note: Param = Message(FEE_NEAR_RETURNING, {"name": repr(near[0])}) if near else ""
        if roster and not outsiders:
            tier, amount = FeeTier.MEMBERS_ONLY, fees.members_only
            reason = Message(FEE_MEMBERS_ONLY, {"amount": amount, "currency": cur, "note": note})
        else:
            tier, amount = FeeTier.OTHER, fees.other
            players = ", ".join(str(p) for p in outsiders)
            reason = Message(
                FEE_OTHER_NAMED if players else FEE_OTHER,
                {"amount": amount, "currency": cur, "players": players, "note": note}
                if players
                else {"amount": amount, "currency": cur, "note": note},
            )
    if fees.per_player:  # 2001 (issue 22): the amount is a player's
        count = len(dict.fromkeys(roster))  # a roster is 4-6 players (R7.1, checked on entry)
        reason = Message(
            FEE_PER_PLAYER,
            {"rule": reason, "players": count, "amount": amount * count, "currency": cur},
        )
        amount *= count
    if override is None:
        return FeeDecision(amount, tier, str(reason), cur, amount, i18n=reason)
    decision = Message(
        FEE_OVERRIDDEN,
        {
            "amount": override.amount,
            "currency": cur,
            "rule_amount": amount,
            "why": override.reason.strip(),
            "rule": reason,
        },
    )
    return FeeDecision(
        override.amount,
        tier,
        str(decision),
        cur,
        amount,
        override.reason.strip(),
        i18n=decision,
    )


def fee_outstanding(fee: FeeDecision | None, paid: int) -> int:
    """What a team still owes of its entry fee (R4.1): the fee due less the amount received;
    0 when paid in full (an overpayment owes nothing) or when there is no fee yet (no roster)."""
    if fee is None:
        return 0
    return max(0, fee.amount - paid)


# --------------------------------------------------------------------------------------------
# R8.1, R9.2, I11: closing of entries
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refund:
    """An entry fee to return (R8.1)."""

    team: TeamKey
    amount: int
    currency: str


@dataclass(frozen=True, slots=True)
class EntriesOutcome(Worded):
    """The result of closing the entries of an edition."""

    _english = "reason"

    accepted: tuple[TeamKey, ...]
    """I11: the "entered" teams, which met every R3 condition by the deadline (input order)."""
    results: Mapping[TeamKey, ConditionsResult]
    """Every team's check; the problems of those not accepted."""
    cancelled: bool
    """R8.1: fewer than ``reg.entry.min_teams`` accepted teams."""
    refunds: tuple[Refund, ...]
    """R8.1: when cancelled, every team that paid a fee gets back the amount paid. Empty
    otherwise (money of teams not accepted is the organiser's decision)."""
    reason: str
    """In words, citing the clause."""
    i18n: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`reason` as a template and its params (None: a plain text)."""

    @property
    def not_accepted(self) -> tuple[TeamKey, ...]:
        return tuple(t for t, r in self.results.items() if not r.met)

    @property
    def reason_detail(self) -> Message:
        """:attr:`reason` as a translatable :class:`Message`."""
        return self.detail


def closing_reason(accepted: int, reg: Regulations) -> Message:
    """Why the entries closed as they did (R8.1): ``accepted`` teams met the conditions of entry
    by ``reg.entry.deadline``; fewer than ``reg.entry.min_teams`` cancel the competition.
    The web layer uses it to translate a stored :attr:`EntriesOutcome.reason`."""
    need = reg.entry.min_teams
    params: dict[str, Param] = {
        "count": accepted,
        "deadline": reg.entry.deadline.isoformat(),
        "min": need,
    }
    return Message(CLOSING_CANCELLED if accepted < need else CLOSING_GOES_AHEAD, params)


def close_entries(
    teams: Mapping[TeamKey, EntryConditions],
    reg: Regulations,
    *,
    fees_due: Mapping[TeamKey, int] | None = None,
) -> EntriesOutcome:
    """Closes the entries: who entered (R3, I11) and whether the edition goes ahead (R8.1).

    ``teams``: every team that applied, with what the organiser received. ``fees_due``: the
    fee of each team (:func:`entry_fee`), to report a payment that falls short.
    """
    min_pairs = pairs_needed(reg)
    results = {
        team: conditions_met(
            cond,
            reg.entry.deadline,
            reg.edition.timezone,
            min_pairs=min_pairs,
            fee_due=None if fees_due is None else fees_due.get(team),
        )
        for team, cond in teams.items()
    }
    accepted = tuple(team for team, result in results.items() if result.met)
    cur = reg.edition.currency
    cancelled = len(accepted) < reg.entry.min_teams  # R8.1
    refunds: tuple[Refund, ...] = ()
    if cancelled:
        refunds = tuple(
            Refund(team, cond.fee_paid, cur) for team, cond in teams.items() if cond.fee_paid > 0
        )
    reason = closing_reason(len(accepted), reg)
    return EntriesOutcome(accepted, results, cancelled, refunds, str(reason), reason)


# --------------------------------------------------------------------------------------------
# What a captain may still declare (R3.2, R7.2)
# --------------------------------------------------------------------------------------------

CAPTAIN_CLOSED_ENTERED = N_(
    "The team has entered: its roster and pairs are frozen (R7.2). Only the organiser may "
    "change them now."
)
CAPTAIN_CLOSED_DEADLINE = N_(
    "The entry deadline has passed (the end of %(deadline)s, R3.2, I12). Only the organiser "
    "may change the entry now."
)


def captain_changes_closed(
    *, entered: bool, now: datetime, reg: Regulations, frozen_by_entry: bool = True
) -> Message | None:
    """Why a captain may no longer declare or change what the team sends the organiser, or
    None while they may.

    The conditions of entry must be met by the entry deadline (R3.2, I12: the end of that day
    in the organiser's time zone), so after it a captain's declaration can no longer count.
    ``entered``: the entry form was received; from then on the roster is frozen (R7.2) and
    with it the pairs made of it (``frozen_by_entry``). A convention card of a pair already
    declared (R3.1b) is not part of the roster: it may be sent until the deadline
    (``frozen_by_entry=False``). ``now`` must be aware.
    """
    if now > end_of_day(reg.entry.deadline, reg):
        return Message(CAPTAIN_CLOSED_DEADLINE, {"deadline": reg.entry.deadline.isoformat()})
    if entered and frozen_by_entry:
        return Message(CAPTAIN_CLOSED_ENTERED)
    return None
