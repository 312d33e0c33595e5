"""Appeals: the committee, the appeal, its deadline and the committee's decision (R16).

Players are identified by the strings the caller uses (names or ids); two spellings that differ
only in case or spacing are the same player.

>>> from bridgeko.competition.regulations import AppealRules
>>> name_committee(["Ann", "Bob", "Cyril", "Dana"], {"bob"}, AppealRules()).members
('Ann', 'Cyril', 'Dana')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from enum import StrEnum

from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.regulations import AppealRules, Regulations
from bridgeko.competition.schedule import Deadline, appeal_deadlines

# Message templates (English; the web layer translates them, see competition/messages.py)
COMMITTEE_SIZE = N_("the committee has %(count)s member(s), not %(size)s (R16.1)")
NOT_A_CANDIDATE = N_("%(member)s is not on the organiser's list of candidates (R16.1)")
PLAYS_IN_MATCH = N_("%(member)s plays in the match and cannot sit on the committee")
NAMED_TWICE = N_("%(member)s is named more than once")
FORM_NOT_RECEIVED = N_("the organiser has not received the form: %(deadline)s")
DEADLINE_MISSED = N_("missed: %(deadline)s")
# The errors (AppealError.detail)
COMMITTEE_TOO_SMALL = N_("a committee needs at least one member, not %(size)s")
TOO_FEW_CANDIDATES = N_(
    "cannot name a committee of %(size)s: only %(eligible)s eligible candidate(s) on the list, "
    "%(missing)s missing (players of the match cannot sit on it, R16.1)"
)
LODGED_NAIVE = N_("the time the appeal was lodged must be timezone-aware")
THROUGH_NO_TD = N_("an appeal is lodged through the TD who directed the match (R16.2)")
THROUGH_WRONG_TD = N_(
    "the appeal must go through %(match_td)s, the TD who directed the match, not %(td)s (R16.2)"
)
DEPOSIT_SHORT = N_("the deposit is %(deposit)s; %(paid)s was lodged with the TD (R16.2)")
SEGMENT_FROM_ONE = N_("segments are numbered from 1, not %(segment)s")
MATCH_AND_TEAM = N_("an appeal names the match and the appealing team")
SEGMENT_END_MISSING = N_("the end of segment %(segment)s must be recorded by the TD (R16.3, I15)")
DECISION_NAIVE = N_("the time of the decision must be timezone-aware")
DECISION_BEFORE_APPEAL = N_("the decision cannot precede the appeal")
NOT_FRIVOLOUS = N_("an appeal that is %(outcome)s cannot be frivolous")
FORFEIT_ONLY_FRIVOLOUS = N_("the deposit is forfeited only if the appeal is frivolous (R16.2)")
# The outcomes in words (Outcome.word)
UPHELD = N_("upheld")
ADJUSTED = N_("adjusted")
DISMISSED = N_("dismissed")


class AppealError(ValueError):
    """An appeal, committee or decision that is not valid; the message names the problem.

    :attr:`detail` is the message as a translatable :class:`Message` (``str(error)`` is its
    English text); the web layer shows it with ``bridgeko.core.i18n.tr(error.detail)``."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


class CommitteeError(AppealError):
    """Not enough eligible candidates to name a committee (R16.1)."""

    def __init__(self, message: str | Message, missing: int) -> None:
        super().__init__(message)
        self.missing = missing
        """How many more eligible candidates are needed."""


def _error(template: str, **params: Param) -> AppealError:
    return AppealError(Message(template, params))


def _key(person: str) -> str:
    return " ".join(person.split()).casefold()


# --------------------------------------------------------------------------------------------
# The committee (R16.1)


@dataclass(frozen=True, slots=True)
class Committee:
    """The appeals committee named for one appeal (R16.1)."""

    members: tuple[str, ...]


def name_committee(
    candidates: Sequence[str],
    match_players: Collection[str],
    rules: AppealRules,
    *,
    unavailable: Collection[str] = frozenset(),
) -> Committee:
    """Name a committee from the organiser's list of candidates (R16.1).

    The first ``rules.committee_size`` (3 in 1999) candidates in the list's order that are not
    players of either team in the match and are not ``unavailable``. The list's order is the
    organiser's order of preference; nothing is random. The size comes from the rules only, so
    that a committee named here always passes :func:`check_committee`.

    Raises :class:`CommitteeError` naming how many candidates are missing.
    """
    size = rules.committee_size  # R16.1
    if size < 1:
        raise _error(COMMITTEE_TOO_SMALL, size=size)
    players = {_key(p) for p in match_players}
    away = {_key(p) for p in unavailable}
    chosen: list[str] = []
    seen: set[str] = set()
    for candidate in candidates:
        key = _key(candidate)
        if not key or key in seen or key in players or key in away:
            continue
        seen.add(key)
        chosen.append(" ".join(candidate.split()))
        if len(chosen) == size:
            return Committee(tuple(chosen))
    missing = size - len(chosen)
    raise CommitteeError(
        Message(TOO_FEW_CANDIDATES, {"size": size, "eligible": len(chosen), "missing": missing}),
        missing,
    )


def check_committee(
    members: Sequence[str],
    candidates: Collection[str],
    match_players: Collection[str],
    rules: AppealRules,
) -> list[str]:
    """Problems of a committee chosen by hand (R16.1), in words; empty when it is valid."""
    return [str(p) for p in committee_problems(members, candidates, match_players, rules)]


def committee_problems(
    members: Sequence[str],
    candidates: Collection[str],
    match_players: Collection[str],
    rules: AppealRules,
) -> list[Message]:
    """:func:`check_committee` as translatable messages."""
    problems: list[Message] = []
    listed = {_key(c) for c in candidates}
    players = {_key(p) for p in match_players}
    keys = [_key(m) for m in members]
    if len(members) != rules.committee_size:
        problems.append(
            Message(COMMITTEE_SIZE, {"count": len(members), "size": rules.committee_size})
        )
    for member, key in zip(members, keys, strict=True):
        if key not in listed:
            problems.append(Message(NOT_A_CANDIDATE, {"member": member}))
        if key in players:
            problems.append(Message(PLAYS_IN_MATCH, {"member": member}))
    duplicates = sorted({m for m, k in zip(members, keys, strict=True) if keys.count(k) > 1})
    problems.extend(Message(NAMED_TWICE, {"member": m}) for m in duplicates)
    return problems


# --------------------------------------------------------------------------------------------
# The appeal (R16.2, R16.3, R16.4)


@dataclass(frozen=True, slots=True)
class Appeal:
    """An appeal lodged on the form through the TD who directed the match (R16.2)."""

    match: str
    """The match, as the caller identifies it (e.g. ``"QF2"``)."""
    appellant: str
    """The appealing team."""
    lodged_at: datetime
    """When the TD received the form (timezone-aware)."""
    through_td: str
    """The TD who directed the match and received the form (R16.2)."""
    deposit: int
    """Lodged with the TD (R16.2)."""
    segment: int | None = None
    """The segment the appeal is about, where segment deadlines were announced (R16.3)."""
    subject: str = ""
    form_received_at: datetime | None = None
    """When the organiser received the form; needed for a match played early (R16.4)."""


def lodge_appeal(
    match: str,
    appellant: str,
    lodged_at: datetime,
    through_td: str,
    rules: AppealRules,
    *,
    match_td: str | None = None,
    deposit_paid: int | None = None,
    segment: int | None = None,
    subject: str = "",
    form_received_at: datetime | None = None,
) -> Appeal:
    """Check and build an appeal (R16.2).

    The deposit is ``rules.deposit``; ``deposit_paid`` (when given) must be at least that. When
    ``match_td`` is given the form must go through that TD.
    """
    if lodged_at.tzinfo is None:
        raise _error(LODGED_NAIVE)
    if not through_td.strip():
        raise _error(THROUGH_NO_TD)
    if match_td is not None and _key(match_td) != _key(through_td):
        raise _error(THROUGH_WRONG_TD, match_td=match_td, td=through_td)
    if deposit_paid is not None and deposit_paid < rules.deposit:
        raise _error(DEPOSIT_SHORT, deposit=rules.deposit, paid=deposit_paid)
    if segment is not None and segment < 1:
        raise _error(SEGMENT_FROM_ONE, segment=segment)
    if not appellant.strip() or not match.strip():
        raise _error(MATCH_AND_TEAM)
    return Appeal(
        match=match.strip(),
        appellant=appellant.strip(),
        lodged_at=lodged_at,
        through_td=through_td.strip(),
        deposit=rules.deposit,
        segment=segment,
        subject=subject.strip(),
        form_received_at=form_received_at,
    )


@dataclass(frozen=True, slots=True)
class TimeCheck:
    """Whether an appeal is in time, and against which deadlines."""

    in_time: bool
    deadlines: tuple[Deadline, ...]
    reasons: tuple[str, ...] = ()
    """The deadlines missed, in words (empty when in time)."""
    details: tuple[Message, ...] = field(default=(), compare=False, repr=False)
    """:attr:`reasons` as translatable messages."""


def appeal_in_time(
    appeal: Appeal,
    reg: Regulations,
    *,
    match_ended_at: datetime | None,
    segment_ended_at: datetime | None = None,
    segment_deadlines_announced: bool = False,
    played_early_round_date: date | None = None,
) -> TimeCheck:
    """Check an appeal against the deadlines of R16.3 and R16.4 (see
    :func:`bridgeko.competition.schedule.appeal_deadlines`).

    For a match played early by agreement (``played_early_round_date`` = the scheduled day of the
    round's last match, I12) the form must also have reached the organiser by 13:00 that day; an
    appeal whose form has not been received yet is not in time.
    """
    if segment_deadlines_announced and appeal.segment is not None and segment_ended_at is None:
        raise _error(SEGMENT_END_MISSING, segment=appeal.segment)
    deadlines = appeal_deadlines(
        reg,
        match_ended_at=match_ended_at,
        segment_ended_at=segment_ended_at if appeal.segment is not None else None,
        segment_deadlines_announced=segment_deadlines_announced,
        played_early_round_date=played_early_round_date,
    )
    details: list[Message] = []
    for deadline in deadlines:
        moment = appeal.form_received_at if deadline.clause == "R16.4" else appeal.lodged_at
        if moment is None:
            details.append(Message(FORM_NOT_RECEIVED, {"deadline": deadline.detail}))
        elif not deadline.met_by(moment):
            details.append(Message(DEADLINE_MISSED, {"deadline": deadline.detail}))
    return TimeCheck(not details, deadlines, tuple(str(d) for d in details), tuple(details))


# --------------------------------------------------------------------------------------------
# The decision (R16.2, R16.5)


class Outcome(StrEnum):
    UPHELD = "upheld"
    """The appeal succeeds: the TD's ruling is reversed."""
    ADJUSTED = "adjusted"
    """The committee adjusts the result or the ruling."""
    DISMISSED = "dismissed"
    """The TD's ruling stands."""

    @property
    def word(self) -> Message:
        """The outcome as a translatable message (``"upheld"`` ...)."""
        return Message({"upheld": UPHELD, "adjusted": ADJUSTED}.get(self.value, DISMISSED))


class DepositFate(StrEnum):
    RETURNED = "returned"
    FORFEITED = "forfeited"


FINALITY = N_(
    "The committee's decision is final: the teams waived appeal to the national authority "
    "under Law 93C when they entered (R16.5)."
)


@dataclass(frozen=True, slots=True)
class Decision:
    """The appeals committee's decision (R16.5: final, no further appeal)."""

    appeal: Appeal
    committee: Committee
    outcome: Outcome
    deposit: DepositFate
    decided_at: datetime
    reasons: str = ""
    frivolous: bool = False
    final: bool = field(default=True, init=False)
    """Always True: there is no further appeal (R16.5)."""
    further_appeal: str = field(default=FINALITY, init=False)


def decide(
    appeal: Appeal,
    committee: Committee,
    outcome: Outcome,
    decided_at: datetime,
    *,
    reasons: str = "",
    frivolous: bool = False,
    forfeit_deposit: bool | None = None,
) -> Decision:
    """Record the committee's decision (R16.2, R16.5).

    The deposit is returned unless the committee finds the appeal frivolous; then it is forfeited
    unless the committee chooses to return it (``forfeit_deposit=False``; R16.2 says it *may* be
    forfeited). Only a dismissed appeal can be frivolous.
    """
    if decided_at.tzinfo is None:
        raise _error(DECISION_NAIVE)
    if decided_at.astimezone(UTC) < appeal.lodged_at.astimezone(UTC):  # real time (I12)
        raise _error(DECISION_BEFORE_APPEAL)
    if frivolous and outcome is not Outcome.DISMISSED:
        raise _error(NOT_FRIVOLOUS, outcome=outcome.word)
    forfeit = frivolous if forfeit_deposit is None else forfeit_deposit
    if forfeit and not frivolous:
        raise _error(FORFEIT_ONLY_FRIVOLOUS)
    return Decision(
        appeal=appeal,
        committee=committee,
        outcome=outcome,
        deposit=DepositFate.FORFEITED if forfeit else DepositFate.RETURNED,
        decided_at=decided_at,
        reasons=reasons.strip(),
        frivolous=frivolous,
    )


def committee_candidates(lines: Iterable[str]) -> list[str]:
    """The organiser's list from text, one name a line; blank lines, ``#`` comments and
    repeated names are dropped (R16.1)."""
    result: list[str] = []
    seen: set[str] = set()
    for line in lines:
        name = " ".join(line.split("#", 1)[0].split())
        if name and _key(name) not in seen:
            seen.add(_key(name))
            result.append(name)
    return result
