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

from bridgeko.competition.regulations import FeeRules, Regulations

__all__ = [
    "ConditionProblem",
    "ConditionsResult",
    "EntriesOutcome",
    "EntryConditions",
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
    "captain_of",
    "change_roster",
    "check_roster",
    "close_entries",
    "conditions_met",
    "entry_fee",
    "is_returning_team",
    "normalise_team_name",
]

PlayerId: TypeAlias = int | str
"""A player's id as the caller knows it (database key or federation number)."""
TeamKey: TypeAlias = int | str
"""A team's id or name as the caller knows it."""
Received: TypeAlias = date | datetime | None
"""When something reached the organiser: an aware datetime, a local date, or None (not yet)."""

_FEES = FeeRules()


def _who(player: PlayerId, names: Mapping[PlayerId, str] | None) -> str:
    if names and player in names:
        return f"{names[player]} ({player})"
    return f"player {player}"


# --------------------------------------------------------------------------------------------
# R7: the roster
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RosterProblem:
    """One reason a roster cannot be accepted."""

    clause: str
    """The clause broken, e.g. ``"R7.3"``."""
    message: str
    """In words, naming the player and team concerned."""
    player: PlayerId | None = None
    """The player concerned, if one is."""
    other_team: TeamKey | None = None
    """R7.3: the other team whose roster names the player."""

    def __str__(self) -> str:
        return f"{self.message} ({self.clause})"


class RosterError(ValueError):
    """A roster that breaks R7 (or R15.3); :attr:`problems` lists every reason."""

    def __init__(self, problems: Sequence[RosterProblem]) -> None:
        self.problems: tuple[RosterProblem, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class RosterFrozenError(ValueError):
    """R7.2: a roster change after entry without the chief TD's justified exception."""


def captain_of(roster: Sequence[PlayerId]) -> PlayerId:
    """The captain: the first player listed (R7.1; there is no non-playing captain)."""
    if not roster:
        raise RosterError([RosterProblem("R7.1", "the roster is empty; it has no captain")])
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
                RosterProblem("R7.1", f"{_who(player, names)} is listed twice", player=player)
            )
        seen.add(player)
    lo, hi = reg.entry.min_players, reg.entry.max_players
    if not lo <= len(seen) <= hi:  # R7.1
        problems.append(
            RosterProblem("R7.1", f"a team has {lo} to {hi} players; this roster has {len(seen)}")
        )
    if captain is not None and (not roster or roster[0] != captain):  # R7.1
        where = "is not on the roster" if captain not in seen else "must be listed first"
        problems.append(
            RosterProblem("R7.1", f"the captain {_who(captain, names)} {where}", player=captain)
        )
    for other, other_roster in (other_rosters or {}).items():  # R7.3
        if team is not None and other == team:
            continue
        shared = seen.intersection(other_roster)
        for player in (p for p in dict.fromkeys(roster) if p in shared):
            problems.append(
                RosterProblem(
                    "R7.3",
                    f"{_who(player, names)} is already on the roster of team {other}",
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
        raise RosterFrozenError(
            "R7.2: the roster cannot be changed after entry; only the chief TD may allow an "
            "exception, and the exception needs a reason"
        )
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
class ConditionProblem:
    """A condition of entry that is missing, late or short."""

    item: str
    """``"entry form"``, ``"convention card of pair 'A–B'"``, ``"convention cards"``,
    ``"entry fee"``."""
    kind: str
    """``"missing"``, ``"late"``, ``"too few pairs"`` or ``"short"`` (fee below the amount due)."""
    clause: str
    message: str

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


def conditions_met(
    conditions: EntryConditions,
    deadline: date,
    tz: str | tzinfo,
    *,
    min_pairs: int = 2,
    fee_due: int | None = None,
) -> ConditionsResult:
    """Checks R3.1 (a) form, (b) a convention card of each pair, (c) fee, all by ``deadline``.

    I12: "by the deadline" means by the end of that day in the organiser's time zone ``tz``
    (e.g. ``reg.edition.timezone``). ``min_pairs``: the team must declare at least this many
    pairs (2: a team of 4 players, R7.1). ``fee_due``: if given, an
    amount paid below it is reported as short (R4.1).
    """
    zone = ZoneInfo(tz) if isinstance(tz, str) else tz
    problems: list[ConditionProblem] = []

    def check(item: str, received: Received, clause: str) -> None:
        if received is None:
            problems.append(ConditionProblem(item, "missing", clause, "not received"))
            return
        day = _local_day(received, zone, item)
        if day > deadline:  # R3.2, I12
            problems.append(
                ConditionProblem(
                    item,
                    "late",
                    "R3.2",
                    f"received {day.isoformat()}, after the deadline {deadline.isoformat()}",
                )
            )

    check("entry form", conditions.form_received, "R3.1a")
    if len(conditions.convention_cards) < min_pairs:
        problems.append(
            ConditionProblem(
                "convention cards",
                "too few pairs",
                "R3.1b",
                f"{len(conditions.convention_cards)} pair(s) declared; a convention card of "
                f"each pair is needed and a team has at least {min_pairs} pairs",
            )
        )
    for pair, received in conditions.convention_cards.items():
        check(f"convention card of pair {pair!r}", received, "R3.1b")
    check("entry fee", conditions.fee_received, "R3.1c")
    if (
        fee_due is not None
        and conditions.fee_received is not None
        and conditions.fee_paid < fee_due
    ):
        problems.append(
            ConditionProblem(
                "entry fee",
                "short",
                "R4.1",
                f"{conditions.fee_paid} received, {fee_due} due",
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
) -> str | None:
    if normalise_team_name(name) != normalise_team_name(previous_name):
        return None
    common = _common_players(roster, previous_roster)
    if common >= same_players:
        return f"with {common} of the same players"
    if previous_roster and common >= same_players_with_captain and previous_roster[0] in roster:
        return (
            f"with {common} of the same players including the previous captain {previous_roster[0]}"
        )
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
            raise ValueError(f"a fee is a whole amount, 0 or more, not {self.amount!r}")
        if not self.reason.strip():
            raise ValueError("an override of the entry fee needs a reason (I4)")


@dataclass(frozen=True, slots=True)
class FeeDecision:
    """The entry fee of a team and why (R4.1)."""

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

    @property
    def overridden(self) -> bool:
        return self.override_reason is not None


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
            reason = (
                f"R4.1: {amount} {cur} for a team that took part in the previous edition: "
                f"same name {prev_name!r} {why} (I4)"
            )
            break
    else:
        outsiders = [p for p in dict.fromkeys(roster) if not members.get(p, False)]
        near = [
            prev_name
            for prev_name in previous_teams
            if normalise_team_name(prev_name) == normalise_team_name(name)
        ]
        note = (
            f" (a team named {near[0]!r} took part in the previous edition, but with too few "
            f"of the same players to count as returning, I4)"
            if near
            else ""
        )
        if roster and not outsiders:
            tier, amount = FeeTier.MEMBERS_ONLY, fees.members_only
            reason = f"R4.1: {amount} {cur} for a new team made up only of ČBS members{note}"
        else:
            tier, amount = FeeTier.OTHER, fees.other
            who = ", ".join(str(p) for p in outsiders)
            reason = f"R4.1: {amount} {cur} for a team with players who are not ČBS members"
            reason += f" ({who}){note}" if who else note
    if override is None:
        return FeeDecision(amount, tier, reason, cur, amount)
    return FeeDecision(
        override.amount,
        tier,
        f"organiser's decision (I4): {override.amount} {cur} instead of {amount} {cur} — "
        f"{override.reason.strip()}; the rule: {reason}",
        cur,
        amount,
        override.reason.strip(),
    )


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
class EntriesOutcome:
    """The result of closing the entries of an edition."""

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

    @property
    def not_accepted(self) -> tuple[TeamKey, ...]:
        return tuple(t for t, r in self.results.items() if not r.met)


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
    min_pairs = reg.entry.min_players // 2  # R7.1: a team of 4 players is 2 pairs
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
    need, cur = reg.entry.min_teams, reg.edition.currency
    cancelled = len(accepted) < need  # R8.1
    if cancelled:
        refunds = tuple(
            Refund(team, cond.fee_paid, cur) for team, cond in teams.items() if cond.fee_paid > 0
        )
        reason = (
            f"R8.1: {len(accepted)} team(s) met the conditions of entry by "
            f"{reg.entry.deadline.isoformat()}, fewer than {need}: the competition is "
            f"cancelled and the entry fees are returned"
        )
    else:
        refunds = ()
        reason = (
            f"R8.1: {len(accepted)} teams met the conditions of entry by "
            f"{reg.entry.deadline.isoformat()} (at least {need}): the competition goes ahead"
        )
    return EntriesOutcome(accepted, results, cancelled, refunds, reason)
